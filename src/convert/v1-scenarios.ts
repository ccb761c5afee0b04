import { patternProblem } from '../config/expectations.js'
import type { Json } from '../config/types.js'
import type { JsonObject, Notes, Path } from './notes.js'
import type { V1Scenario, V1Turn } from './v1-types.js'

const NO_CASES = 'no counterpart in eval_cases'

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * One evals/v1 scenario as an eval_cases conversation case (`turns`), or null when it has no
 * turns. `threshold` is the suite's `defaults.rubricThreshold`, for a judge that gives none.
 */
export function scenarioToCase(scenario: V1Scenario, id: string, from: string, at: Path, notes: Notes, threshold: number | undefined): JsonObject | null {
  if (scenario.turns.length === 0) {
    notes.lost(`${from}.turns`, at, `${NO_CASES}: a conversation case has at least one turn; the scenario is left out`)
    return null
  }
  // Every run of a scenario must pass there: a hard case here.
  const out: JsonObject = { id, kind: 'hard' }
  if (scenario.tags && scenario.tags.length > 0) out.tags = scenario.tags
  out.turns = scenario.turns.map((turn, i) => turnOf(turn, `${from}.turns[${i}]`, [...at, 'turns', i], notes))
  const judge = scenario.expect?.judge
  if (judge) {
    out.rubric = judge.rubric
    const t = judge.threshold ?? threshold
    if (t !== undefined) out.threshold = t
    if (judge.threshold === undefined && t !== undefined) notes.remark(`${from}.expect.judge`, at, `threshold ${t}: the suite's defaults.rubricThreshold`)
    if (judge.screenshot === true) notes.lost(`${from}.expect.judge.screenshot`, at, `${NO_CASES}: the judge is not shown the widget (a screenshot needs a host page and a browser)`)
  }
  const forbidden = scenario.expect?.tools?.forbidden ?? []
  if (forbidden.length > 0) out.forbidden_tools = forbidden
  return out
}

function turnOf(turn: V1Turn, from: string, at: Path, notes: Notes): JsonObject {
  const out: JsonObject = { user: turn.user }
  const expect = turn.expect ?? {}
  const tools = expect.tools ?? []
  if (tools.length > 0) {
    out.required_tools = tools.map((t, i) => requirementOf(t, `${from}.expect.tools[${i}]`, at, notes))
    notes.remark(`${from}.expect.tools`, at, "checked on this turn's calls here; evals/v1 counts a call of any turn so far")
  }
  if (expect.result) notes.lost(`${from}.expect.result (tool: ${expect.result.tool})`, at, `${NO_CASES}: a case asserts on the calls' arguments, not on their results`)
  if (expect.widget?.fields) notes.lost(`${from}.expect.widget.fields`, at, `${NO_CASES}: a case has no widget fields`)
  if (expect.widget?.screenshot) notes.lost(`${from}.expect.widget.screenshot`, at, `${NO_CASES}: a widget screenshot needs a host page and a browser`)
  return out
}

/** A turn's `tools[]` entry as a `required_tools` entry: the name alone, or `{name, args}`. */
function requirementOf(tool: { name: string; args?: Record<string, Json>; afterTurn?: number }, from: string, at: Path, notes: Notes): Json {
  if (tool.afterTurn !== undefined) notes.lost(`${from}.afterTurn`, at, `${NO_CASES}: a turn's required_tools are checked on that turn's calls`)
  const args: Record<string, Json> = {}
  for (const [key, matcher] of Object.entries(tool.args ?? {})) {
    const label = `${from}.args.${key}`
    if (matcher === 'any') {
      notes.remark(label, at, 'left out: evals/v1 "any" matches even when the argument is absent (eval_cases "any" needs it present)')
    } else if (isObject(matcher) && matcher.any === true && matcher.requirePresent === true) {
      args[key] = 'any'
    } else if (isObject(matcher) && typeof matcher.pattern === 'string' && patternProblem(matcher.pattern)) {
      notes.lost(label, at, `${NO_CASES}: ${patternProblem(matcher.pattern)}`)
    } else {
      args[key] = matcher
    }
  }
  return Object.keys(args).length === 0 ? tool.name : { name: tool.name, args }
}
