import type { Json } from '../config/types.js'
import type { JsonObject, Notes, Path } from './notes.js'

const NO_SCENARIOS = 'no counterpart in evals/v1 scenarios'
/** Case keys a scenario holds; every other key of a case is said to have no counterpart. */
const CASE_KEYS = new Set(['id', 'kind', 'prompt', 'turns', 'rubric', 'threshold', 'required_tools', 'forbidden_tools', 'tags'])
const TURN_KEYS = new Set(['user', 'required_tools'])

type RawCase = Record<string, Json>
const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** One eval_cases case as an evals/v1 scenario, or null (a simulated user has no counterpart). */
export function caseToScenario(raw: RawCase, from: string, at: Path, notes: Notes): JsonObject | null {
  if (raw.simulated_user !== undefined) {
    notes.lost(`${from}.simulated_user`, at, `${NO_SCENARIOS}: a scenario's turns are scripted; the case is left out`)
    return null
  }
  for (const key of Object.keys(raw)) if (!CASE_KEYS.has(key)) notes.lost(`${from}.${key}`, at, NO_SCENARIOS)
  // A scenario is a hard case (every run must pass); a soft floor has no counterpart.
  if (raw.kind === 'soft') notes.lost(`${from}.kind`, at, `${NO_SCENARIOS}: every run of a scenario must pass`)
  const out: JsonObject = { id: String(raw.id) }
  if (Array.isArray(raw.tags) && raw.tags.length > 0) out.tags = raw.tags
  const turns: JsonObject[] = Array.isArray(raw.turns)
    ? raw.turns.map((turn, i) => turnOf(isObject(turn) ? turn : {}, `${from}.turns[${i}]`, at, notes))
    : [{ user: String(raw.prompt ?? '') }]
  // The case's required_tools hold over the whole conversation: on the last turn, evals/v1 sees every call so far.
  const caseTools = requirementsOf(raw.required_tools, `${from}.required_tools`, at, notes)
  if (caseTools.length > 0) {
    const last = turns[turns.length - 1]
    const expect = (last.expect as JsonObject | undefined) ?? {}
    expect.tools = [...((expect.tools as Json[] | undefined) ?? []), ...caseTools]
    last.expect = expect
    if (Array.isArray(raw.turns)) notes.remark(`${from}.required_tools`, at, 'written on the last turn, where evals/v1 counts every call of the conversation')
  }
  out.turns = turns
  const expect: JsonObject = {}
  if (typeof raw.rubric === 'string') expect.judge = raw.threshold === undefined ? { rubric: raw.rubric } : { rubric: raw.rubric, threshold: raw.threshold }
  if (Array.isArray(raw.forbidden_tools) && raw.forbidden_tools.length > 0) expect.tools = { forbidden: raw.forbidden_tools }
  if (Object.keys(expect).length > 0) out.expect = expect
  return out
}

function turnOf(turn: Record<string, Json>, from: string, at: Path, notes: Notes): JsonObject {
  for (const key of Object.keys(turn)) {
    if (TURN_KEYS.has(key)) continue
    const why = key === 'rubric' || key === 'threshold' ? ': evals/v1 judges the whole scenario only' : ''
    notes.lost(`${from}.${key}`, at, `${NO_SCENARIOS}${why}`)
  }
  const out: JsonObject = { user: String(turn.user ?? '') }
  const tools = requirementsOf(turn.required_tools, `${from}.required_tools`, at, notes)
  if (tools.length > 0) {
    out.expect = { tools }
    notes.remark(`${from}.required_tools`, at, "evals/v1 counts a call of any turn so far, not only this turn's")
  }
  return out
}

/** required_tools entries as a turn's `expect.tools`: our `any` (present, any value) is `{any: true, requirePresent: true}` there. */
function requirementsOf(value: Json | undefined, _from: string, _at: Path, _notes: Notes): JsonObject[] {
  if (!Array.isArray(value)) return []
  return value.map((entry) => {
    if (typeof entry === 'string') return { name: entry }
    const req = isObject(entry) ? entry : {}
    const out: JsonObject = { name: String(req.name) }
    if (isObject(req.args) && Object.keys(req.args).length > 0) {
      out.args = Object.fromEntries(Object.entries(req.args).map(([k, m]) => [k, m === 'any' ? { any: true, requirePresent: true } : m]))
    }
    return out
  })
}
