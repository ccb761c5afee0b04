import { EVALS_V1_GATES } from '../results/evals-v1.js'
import type { Json } from '../config/types.js'
import { Notes, type JsonObject } from './notes.js'
import { caseToScenario } from './cases-scenarios.js'
import { toolTestToCheck } from './cases-checks.js'
import { API_VERSION, LOCAL_TARGET } from './v1-types.js'
import type { Converted } from './v1-to-cases.js'

const NO_COUNTERPART = 'no counterpart in evals/v1'
/** Top-level keys handled below; every other one is said to have no counterpart. */
const HANDLED = new Set(['judge_model', 'models', 'system_prompts', 'tool_tests', 'cases', 'budgets'])
/** Our budgets that are evals/v1's gates. */
const GATES: Record<string, string> = Object.fromEntries(EVALS_V1_GATES.map(({ gate, budget }) => [budget, gate]))

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** An eval_cases suite (as written, already validated) as an evals/v1 suite named `name`. */
export function evalCasesToV1(raw: Record<string, Json>, name: string): Converted {
  const notes = new Notes()
  for (const key of Object.keys(raw)) {
    if (HANDLED.has(key)) continue
    const why = key === 'attacks' ? ' (Layer 2 attacks)' : key === 'pricing' ? ' (evals/v1 takes the provider’s cost)' : ''
    notes.lost(key, [], `${NO_COUNTERPART}${why}`)
  }
  notes.remark('', [], 'eval_cases names no server: add a server block ({command, args, env} or {url}), or pass server_config or server_url')
  const out: JsonObject = { apiVersion: API_VERSION, kind: 'EvalSuite', name }
  if (typeof raw.judge_model === 'string') out.defaults = { judgeModel: raw.judge_model }

  const gates: JsonObject = {}
  if (isObject(raw.budgets)) {
    for (const [key, value] of Object.entries(raw.budgets)) {
      if (GATES[key]) gates[GATES[key]] = value
      else notes.lost(`budgets.${key}`, [], `${NO_COUNTERPART} (its gates are ${Object.values(GATES).join(', ')})`)
    }
  }
  if (Object.keys(gates).length > 0) out.metrics = { gates }

  const flow: JsonObject = { id: 'main', type: 'agent' }
  if (Array.isArray(raw.models)) {
    const ids = raw.models.map((m) => (isObject(m) ? String(m.id) : String(m)))
    raw.models.forEach((m, i) => {
      if (isObject(m) && m.vision !== undefined) notes.lost(`models[${i}].vision`, ['flows', 0, 'clients'], NO_COUNTERPART)
    })
    flow.clients = [{ target: LOCAL_TARGET, models: ids }]
  }
  const cases = Array.isArray(raw.cases) ? raw.cases : []
  if (isObject(raw.system_prompts) && cases.length > 0) flow.systemPrompts = raw.system_prompts
  const checks: Json[] = []
  ;(Array.isArray(raw.tool_tests) ? raw.tool_tests : []).forEach((test, i) => {
    const check = toolTestToCheck(isObject(test) ? test : {}, `tool_tests[${i}]`, ['flows', 0, 'checks', checks.length], notes)
    if (check) checks.push(check)
  })
  if (checks.length > 0) flow.checks = checks
  const scenarios: Json[] = []
  cases.forEach((c, i) => {
    const scenario = caseToScenario(isObject(c) ? c : {}, `cases[${i}]`, ['flows', 0, 'scenarios', scenarios.length], notes)
    if (scenario) scenarios.push(scenario)
  })
  flow.scenarios = scenarios
  out.flows = [flow]
  return { value: out, notes }
}
