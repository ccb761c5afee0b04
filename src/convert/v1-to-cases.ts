import { EVALS_V1_GATES } from '../results/evals-v1.js'
import type { Json } from '../config/types.js'
import { Notes, type JsonObject } from './notes.js'
import { checkToToolTest } from './v1-checks.js'
import { scenarioToCase } from './v1-scenarios.js'
import { LOCAL_TARGET, V1_DEFAULT_SYSTEM_PROMPT, type V1Flow, type V1Suite } from './v1-types.js'

const NO_CASES = 'no counterpart in eval_cases'
/** A tool test id: [A-Za-z0-9._-]. */
const TEST_ID = /^[A-Za-z0-9._-]+$/

export interface Converted {
  value: JsonObject
  notes: Notes
}

/** Unique ids across tool tests and cases (they share the report's anchors and `filter`). */
class Ids {
  private readonly used = new Set<string>()

  take(wanted: string): string {
    let id = wanted
    for (let n = 2; this.used.has(id); n++) id = `${wanted}-${n}`
    this.used.add(id)
    return id
  }
}

/** An evals/v1 suite as an eval_cases suite, and what it says that eval_cases has no counterpart for. */
export function v1ToEvalCases(suite: V1Suite): Converted {
  const notes = new Notes()
  const out: JsonObject = {}
  topLevel(suite, notes)
  if (suite.defaults?.judgeModel !== undefined) out.judge_model = suite.defaults.judgeModel

  const models = modelsOf(suite.flows, notes)
  if (models.length > 0) out.models = models
  const prompts = systemPromptsOf(suite.flows, notes)
  if (Object.keys(prompts).length > 0) out.system_prompts = prompts

  const budgets = budgetsOf(suite)
  if (Object.keys(budgets).length > 0) out.budgets = budgets

  const ids = new Ids()
  const several = suite.flows.length > 1
  const tests: Json[] = []
  const cases: Json[] = []
  suite.flows.forEach((flow, f) => {
    const idOf = (id: string) => ids.take(several ? `${flow.id}-${id}` : id)
    if (several) notes.remark(`flows[${f}]`, ['cases'], `flow ${flow.id}: its checks and scenarios are prefixed ${flow.id}- (eval_cases has one list of each)`)
    ;(flow.checks ?? []).forEach((check, c) => {
      const from = `flows[${f}].checks[${c}]`
      let id = idOf(check.id)
      if (!TEST_ID.test(id)) {
        const safe = ids.take(id.replace(/[^A-Za-z0-9._-]+/g, '-'))
        notes.remark(from, ['tool_tests', tests.length], `id ${JSON.stringify(id)} written ${safe} (a tool test id is [A-Za-z0-9._-])`)
        id = safe
      }
      const test = checkToToolTest(check, id, from, ['tool_tests', tests.length], notes)
      if (test) tests.push(test)
    })
    flow.scenarios.forEach((scenario, s) => {
      const from = `flows[${f}].scenarios[${s}]`
      const converted = scenarioToCase(scenario, idOf(scenario.id), from, ['cases', cases.length], notes, suite.defaults?.rubricThreshold)
      if (converted) cases.push(converted)
    })
  })
  if (tests.length > 0) out.tool_tests = tests
  if (cases.length > 0) out.cases = cases
  else delete out.system_prompts
  return { value: out, notes }
}

/** The suite's own keys: the server, the run settings and the metadata eval_cases does not hold. */
function topLevel(suite: V1Suite, notes: Notes): void {
  notes.lost('name', [], `${NO_CASES} (a suite is named by its file): ${JSON.stringify(suite.name)}`)
  if (suite.intent !== undefined) notes.lost('intent', [], `${NO_CASES}: ${JSON.stringify(suite.intent)}`)
  if (suite.triggers !== undefined) notes.lost('triggers', [], `${NO_CASES}: when it runs is the workflow's on: (push, pull_request, schedule, workflow_dispatch)`)
  if (suite.server !== undefined) notes.lost('server', [], `${NO_CASES}: pass it as server_config (--server-config): '${JSON.stringify(serverConfigOf(suite.server))}'`)
  const d = suite.defaults ?? {}
  if (d.timeoutMs !== undefined) notes.lost('defaults.timeoutMs', [], `${NO_CASES}: pass timeout_seconds: ${Math.ceil(d.timeoutMs / 1000)} (--timeout-seconds)`)
  if (d.maxAgentSteps !== undefined) notes.lost('defaults.maxAgentSteps', [], `${NO_CASES}: pass max_steps: ${d.maxAgentSteps} (--max-steps)`)
  if (d.client !== undefined) notes.lost('defaults.client', [], NO_CASES)
  const m = suite.metrics ?? {}
  if (m.collect !== undefined) notes.lost('metrics.collect', [], `${NO_CASES}: every metric is collected`)
  if (m.report !== undefined) notes.lost('metrics.report', [], NO_CASES)
  if (suite.ci?.failOn !== undefined) notes.lost('ci.failOn', [], `${NO_CASES}: the gate decides (see the gate input)`)
  if (suite.ci?.parallelCases !== undefined) notes.lost('ci.parallelCases', [], `${NO_CASES}: pass parallel: ${suite.ci.parallelCases} (--parallel / --no-parallel)`)
}

/** The server block as our server_config JSON (`${NAME}` placeholders stay placeholders: ours expands them too). */
export function serverConfigOf(server: NonNullable<V1Suite['server']>): Record<string, Json> {
  if (server.url !== undefined) return { url: server.url }
  const out: Record<string, Json> = { command: server.command ?? '' }
  if (server.args) out.args = server.args
  if (server.env) out.env = server.env
  return out
}

/** The models of the clients that run where the suite runs, in order, once each. */
function modelsOf(flows: V1Flow[], notes: Notes): string[] {
  const models: string[] = []
  flows.forEach((flow, f) =>
    (flow.clients ?? []).forEach((client, c) => {
      const from = `flows[${f}].clients[${c}]`
      if (client.target !== LOCAL_TARGET) {
        notes.lost(`${from} (target: ${client.target})`, ['models'], `${NO_CASES}: that client runs only in mcp-use's hosted service`)
        return
      }
      for (const model of client.models ?? []) if (!models.includes(model)) models.push(model)
      if (client.framework !== undefined) notes.lost(`${from}.framework`, ['models'], NO_CASES)
      if (client.runOn !== undefined) notes.lost(`${from}.runOn`, ['models'], `${NO_CASES}: when it runs is the workflow's on:`)
      if (client.disallowedTools && client.disallowedTools.length > 0) {
        notes.lost(`${from}.disallowedTools`, ['models'], `${NO_CASES}: no tool is hidden from a model (forbidden_tools on a case fails a run that calls one)`)
      }
    })
  )
  return models
}

function systemPromptsOf(flows: V1Flow[], notes: Notes): Record<string, string> {
  const prompts: Record<string, string> = {}
  flows.forEach((flow, f) => {
    const given = flow.systemPrompts ?? (flow.scenarios.length > 0 ? { default: V1_DEFAULT_SYSTEM_PROMPT } : {})
    if (flow.systemPrompts === undefined && flow.scenarios.length > 0) notes.remark(`flows[${f}]`, ['system_prompts'], "evals/v1's default system prompt, written out")
    for (const [name, text] of Object.entries(given)) {
      if (prompts[name] === undefined) prompts[name] = text
      else if (prompts[name] !== text) notes.lost(`flows[${f}].systemPrompts.${name}`, ['system_prompts'], `${NO_CASES}: another flow's ${name} prompt is kept (one list of system prompts)`)
    }
  })
  return prompts
}

/** metrics.gates as the three budgets. */
function budgetsOf(suite: V1Suite): JsonObject {
  const gates = suite.metrics?.gates ?? {}
  const out: JsonObject = {}
  for (const { gate, budget } of EVALS_V1_GATES) if (gates[gate] !== undefined) out[budget] = gates[gate]
  return out
}
