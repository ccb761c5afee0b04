import { agentStepsOf, checkAttempts, evalsV1Metrics, isScenarioRun, runErrors, usageOf, type EvalsV1SuiteMetrics, type EvalsV1Usage } from '../aggregate/evals-v1-metrics.js'
import { LOCAL_TARGET, type AssertionCheck, type EvalsV1NotRun, GoldenCheck, Json, JudgeDetails, ResultsDocument, RunResult, StepResponse, ToolCallResult, ToolTestAttempt } from '../results/types.js'

/**
 * `results.json` as @mcp-use/evals writes it (runSuite.ts: `{suite, passed, checks, scenarios,
 * metrics}`, its CheckResult and ScenarioRunResult key for key), from the results document
 * alone, for an evals/v1 suite. Ours after theirs, where a reader of theirs never looks: on a
 * check its `attempt`, on a scenario its `attempt` and `status`, and at the top the path of our
 * whole results `document`, the runs that never ran (`notRun`: skipped by max_cost_usd,
 * cancelled), which have no verdict and are in no figure, and the parts of the suite not run here
 * (`notRunParts`: hosted clients, clients whose runOn excludes this run, screenshots).
 */

/** @mcp-use/evals' AssertOutcome. */
export interface EvalsV1Outcome {
  kind: string
  passed: boolean
  reason: string
}

/** @mcp-use/evals' CheckResult, and the attempt it was. */
export interface EvalsV1CheckResult {
  id: string
  passed: boolean
  outcomes: EvalsV1Outcome[]
  durationMs: number
  output?: Json
  error?: string
  attempt: number
}

/** @mcp-use/evals' CapturedToolCall (without `observation`, which it never wrote). */
export interface EvalsV1ToolCall {
  tool: string
  args: Record<string, Json>
  turnIndex: number
  result?: Json
  structuredContent?: Json
}

/** @mcp-use/evals' ScenarioRunResult, then ours. */
export interface EvalsV1ScenarioResult {
  scenarioId: string
  client: string
  model: string
  systemPrompt: string
  success: boolean
  toolTracePassed: boolean
  resultPassed: boolean
  widgetPassed: boolean
  judgePassed: boolean | null
  judgeScore?: number
  judgeReason?: string
  toolCalls: EvalsV1ToolCall[]
  durationMs: number
  agentSteps: number
  usage: EvalsV1Usage
  errors: string[]
  attempt: number
  status: RunResult['status']
}

export interface EvalsV1NotRunScenario {
  scenarioId: string
  client: string
  model: string
  systemPrompt: string
  attempt: number
  status: RunResult['status']
  reason: string
}

export interface EvalsV1ResultsJson {
  suite: string
  passed: boolean
  checks: EvalsV1CheckResult[]
  scenarios: EvalsV1ScenarioResult[]
  metrics: EvalsV1SuiteMetrics
  /** Our whole results document, where it was written; null when it was not. */
  document: string | null
  notRun: EvalsV1NotRunScenario[]
  /** The parts of the suite not run here, with where and why (hosted clients, runOn, screenshots): the document's `evals_v1.not_run`. */
  notRunParts: EvalsV1NotRun[]
}

/** Our assertion names as evals/v1 names its kinds (`is_error` was `executionError`, `output_schema` was `outputSchemaValid`). */
const KIND_OF: Partial<Record<AssertionCheck['check'], string>> = { is_error: 'executionError', output_schema: 'outputSchemaValid' }

/** The call's answer as the raw result evals/v1 kept (`{content, structuredContent, isError}`, a read's `{contents}`, a list); undefined for a JSON-RPC error or no answer. */
function outputOf(response: StepResponse | null): Json | undefined {
  if (response?.kind === 'value') return response.value
  if (!response || response.kind !== 'result') return undefined
  return { content: response.content, ...(response.structured_content !== null ? { structuredContent: response.structured_content } : {}), isError: response.is_error }
}

function checkResult(id: string, attempt: ToolTestAttempt): EvalsV1CheckResult {
  const outcomes: EvalsV1Outcome[] = attempt.steps.flatMap((step) => step.checks.map((c) => ({ kind: KIND_OF[c.check] ?? c.check, passed: c.passed, reason: c.reason })))
  const response = attempt.steps.at(-1)?.response ?? null
  const error = attempt.error ?? (response?.kind === 'error' ? response.message : null)
  // Why the attempt could not finish, as the failed outcome evals/v1 adds for a call that threw.
  if (attempt.error !== null) outcomes.push({ kind: 'call', passed: false, reason: attempt.error })
  const output = outputOf(response)
  return {
    id,
    passed: attempt.status === 'passed',
    outcomes,
    durationMs: attempt.duration_ms,
    ...(output !== undefined ? { output } : {}),
    ...(error !== null ? { error } : {}),
    attempt: attempt.attempt
  }
}

/** Every golden check of the run and of its turns. */
const goldenChecks = (run: RunResult): GoldenCheck[] => [...(run.golden_assertions?.checks ?? []), ...(run.dialogue?.turns.flatMap((t) => t.golden_assertions?.checks ?? []) ?? [])]

const judgeHeld = (j: JudgeDetails): boolean => j.error === null && j.score !== null && j.score >= j.threshold

/** Which turn (0-based) each call of the run was made in; 0 for a single-turn run. */
function turnIndexOf(run: RunResult, call: number): number {
  const turn = run.dialogue?.turns.find((t) => call >= t.first_call && call < t.first_call + t.calls)
  return turn ? turn.index - 1 : 0
}

/** A call as evals/v1 captured it: the result rebuilt from the record (the text it keeps, redacted and maybe cut; structuredContent where the record has it). */
function toolCall(run: RunResult, call: ToolCallResult, i: number): EvalsV1ToolCall {
  const structured = call.structured_content
  const result: Json = { content: [{ type: 'text', text: call.result }], ...(structured !== undefined ? { structuredContent: structured } : {}), isError: call.is_error }
  return { tool: call.name, args: call.args, turnIndex: turnIndexOf(run, i), result, ...(structured !== undefined ? { structuredContent: structured } : {}) }
}

/**
 * A run as a scenario result. Each of toolTracePassed, resultPassed and widgetPassed is computed
 * from its own checks (@mcp-use/evals copied `success` into the last two and guessed the first
 * from whether an error's text held "tool" or "args"): the tool expectations (required_tools,
 * the turns' `tools`, `forbidden_tools`, every other golden key), the `result` checks, the
 * `widget` checks; each true when there is none.
 */
function scenarioResult(run: RunResult): EvalsV1ScenarioResult {
  const golden = goldenChecks(run)
  const named = (names: string[]) => golden.filter((c) => names.includes(c.check)).every((c) => c.passed)
  const toolTrace =
    run.tool_assertions.passed && (run.dialogue?.turns.every((t) => t.tool_assertions?.passed ?? true) ?? true) && golden.filter((c) => c.check !== 'result' && c.check !== 'widget').every((c) => c.passed)
  const judges = [run.judge, ...(run.dialogue?.turns.map((t) => t.judge) ?? [])].filter((j): j is JudgeDetails => j !== null)
  const judge = run.judge
  const judgeReason = judge ? judge.error ?? judge.reason : ''
  return {
    scenarioId: run.case_id,
    client: LOCAL_TARGET,
    model: run.model,
    systemPrompt: run.prompt_name,
    success: run.success,
    toolTracePassed: toolTrace,
    resultPassed: named(['result']),
    widgetPassed: named(['widget']),
    judgePassed: judges.length === 0 ? null : judges.every(judgeHeld),
    ...(judge?.score !== null && judge?.score !== undefined ? { judgeScore: judge.score } : {}),
    ...(judgeReason ? { judgeReason } : {}),
    toolCalls: run.tool_calls.map((call, i) => toolCall(run, call, i)),
    durationMs: Math.round(run.duration_s * 1000),
    agentSteps: agentStepsOf(run),
    usage: usageOf(run),
    errors: runErrors(run),
    attempt: run.attempt,
    status: run.status
  }
}

function notRun(run: RunResult): EvalsV1NotRunScenario {
  const reason = run.skipped?.detail ?? (run.cancelled ? `cancelled by ${run.cancelled.signal} while waiting for ${run.cancelled.waiting_for}` : run.actual_output)
  return { scenarioId: run.case_id, client: LOCAL_TARGET, model: run.model, systemPrompt: run.prompt_name, attempt: run.attempt, status: run.status, reason }
}

/** results.json for an evals/v1 suite's document; `documentPath` is where our results document was written (undefined: it was not). */
export function evalsV1Results(doc: ResultsDocument, documentPath: string | undefined): EvalsV1ResultsJson {
  return {
    suite: doc.evals_v1?.name ?? '',
    passed: doc.passed,
    checks: checkAttempts(doc.tool_tests).map(({ test, attempt }) => checkResult(test.id, attempt)),
    scenarios: doc.runs.filter(isScenarioRun).map(scenarioResult),
    metrics: evalsV1Metrics(doc),
    document: documentPath ?? null,
    notRun: doc.runs.filter((run) => !isScenarioRun(run)).map(notRun),
    notRunParts: doc.evals_v1?.not_run ?? []
  }
}
