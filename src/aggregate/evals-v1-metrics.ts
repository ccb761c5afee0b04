import { EVALS_V1_GATES, LOCAL_TARGET, type GoldenCheck, type ResultsDocument, type RunResult, type ToolCheck, type ToolTestsSection } from '../results/types.js'
import { addUsage, emptyUsage } from '../results/usage.js'
import { judgeSideUsage } from './summarize.js'

/**
 * The metrics @mcp-use/evals writes as `metrics.json` (its `SuiteMetrics`, field for field), and
 * the three figures its `metrics.gates` gate on, computed from the results document alone.
 *
 * - A scenario run is a behaviour run that was measured: not skipped by max_cost_usd and not
 *   cancelled (neither has a verdict; results.json lists them apart, under `notRun`).
 * - Its **errors** are counted as @mcp-use/evals counts them: one per failed expectation
 *   (required_tools and golden checks of the run and of each turn, which for an evals/v1 turn are
 *   its `tools` entries, its `result` (one per failed assertion), its `widget` fields, and
 *   `forbidden_tools`), one for a failed judge (the
 *   run's or a turn's: a score below its threshold, or a judge that could not answer), one for
 *   the run's error (not the judge's, counted already). A run that failed for a reason none of
 *   these names (max_steps reached, a Layer 2 oracle, the inputs verdict) counts one error, its
 *   metric's reason: there as here, a run passes exactly when it has no error.
 * - Its **agent steps** are the agent's model answers (LLM calls; a sampling answer is the
 *   server's, not a step) plus its tool calls. @mcp-use/evals counted the events of its streaming
 *   loop (every text delta, tool call and tool result), a figure that depends on how the provider
 *   splits its stream and that no one can reproduce; this counts what the record holds.
 * - Its **tokens** are the agent's and the judge side's (its judge, each turn's judge, the
 *   simulated user), as there the agent's and the judge's; `costUsd` is what the provider reported.
 * - p95 is @mcp-use/evals' own: the element at floor(n × 0.95) of the values sorted ascending
 *   (0 for none), not the nearest rank the telemetry section uses.
 */

/** @mcp-use/evals' TokenUsage. */
export interface EvalsV1Usage {
  promptTokens: number
  completionTokens: number
  totalTokens: number
  costUsd?: number
}

/** @mcp-use/evals' SuiteMetrics (metrics.ts), key for key. */
export interface EvalsV1SuiteMetrics {
  checks: { total: number; passed: number }
  scenarios: { total: number; passed: number; passRate: number; agentStepsP95?: number; toolErrorRate: number }
  tokens: { prompt: number; completion: number; total: number; costUsd?: number; perSuccessP95?: number }
  byClient: Record<string, { passRate: number; count: number }>
  gates: { passed: boolean; violations: string[] }
}

/** The three figures the evals/v1 gates (the budgets max_tool_error_rate, max_agent_steps_p95, max_tokens_per_success_p95) are checked against. */
export interface EvalsV1Figures {
  /** Scenario runs measured. */
  runs: number
  /** Of those, the runs that passed. */
  passed: number
  errors: number
  /** Errors per scenario run (0 for none). */
  toolErrorRate: number
  agentStepsP95: number
  /** Over the runs that passed (0 for none). */
  tokensPerSuccessP95: number
}

/** A behaviour run with a verdict: not skipped by the budget, not cancelled. */
export const isScenarioRun = (run: RunResult): boolean => run.status !== 'skipped' && run.status !== 'cancelled'

/** @mcp-use/evals' p95: the element at floor(n × 0.95) of the sorted values; 0 for none. */
export function p95(values: readonly number[]): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(Math.floor(sorted.length * 0.95), sorted.length - 1)]!
}

interface Judged {
  score: number | null
  threshold: number
  reason: string
  error: string | null
}

/** A judge that was asked and did not pass: its words, else null. */
function judgeError(judge: Judged | null | undefined): string | null {
  if (!judge) return null
  if (judge.error !== null) return `judge: ${judge.error}`
  if (judge.score !== null && judge.score < judge.threshold) return `judge: ${judge.reason} (score ${judge.score})`
  return null
}

/** A run's errors as @mcp-use/evals counts them, in words (the module comment says which). */
export function runErrors(run: RunResult): string[] {
  const errors: string[] = []
  const failed = (checks: readonly (ToolCheck | GoldenCheck)[] | undefined, prefix = '') => {
    for (const check of checks ?? []) {
      if (check.passed) continue
      // A `result` check: one error per assertion that failed, as @mcp-use/evals counts its outcomes.
      const assertions = ('assertions' in check ? check.assertions : undefined)?.filter((a) => !a.passed) ?? []
      if (assertions.length === 0) errors.push(`${prefix}${check.reason}`)
      for (const a of assertions) errors.push(`${prefix}${a.check}${a.path && !a.reason.startsWith(a.path) ? ` ${a.path}` : ''}: ${a.reason}`)
    }
  }
  failed(run.tool_assertions.checks)
  for (const turn of run.dialogue?.turns ?? []) {
    const prefix = `turn ${turn.index}: `
    failed(turn.tool_assertions?.checks, prefix)
    failed(turn.golden_assertions?.checks, prefix)
    const judged = judgeError(turn.judge)
    if (judged) errors.push(`${prefix}${judged}`)
  }
  failed(run.golden_assertions?.checks)
  const judged = judgeError(run.judge)
  if (judged) errors.push(judged)
  if (run.error && run.error.stage !== 'judge') errors.push(run.error.message)
  if (errors.length === 0 && !run.success) errors.push(run.metrics[0]?.reason || `the run ${run.status}`)
  return errors
}

/** The agent's model answers (sampling answers are the server's) plus its tool calls. */
export function agentStepsOf(run: RunResult): number {
  return run.llm_calls.filter((call) => call.purpose !== 'sampling').length + run.tool_calls.length
}

/** The agent's tokens and the judge side's, in @mcp-use/evals' names; costUsd where the provider reported some. */
export function usageOf(run: RunResult): EvalsV1Usage {
  const total = emptyUsage()
  for (const part of [run.usage, ...judgeSideUsage(run, '').map((spent) => spent.usage)]) addUsage(total, part)
  const usage: EvalsV1Usage = { promptTokens: total.prompt_tokens, completionTokens: total.completion_tokens, totalTokens: total.total_tokens }
  if (total.cost_usd !== undefined) usage.costUsd = total.cost_usd
  return usage
}

/** The gates' three figures over the document's runs (or a document's parts, while it is assembled). */
export function evalsV1Figures(runs: readonly RunResult[]): EvalsV1Figures {
  const measured = runs.filter(isScenarioRun)
  const passed = measured.filter((r) => r.success)
  const errors = measured.reduce((n, r) => n + runErrors(r).length, 0)
  return {
    runs: measured.length,
    passed: passed.length,
    errors,
    toolErrorRate: measured.length ? errors / measured.length : 0,
    agentStepsP95: p95(measured.map(agentStepsOf)),
    tokensPerSuccessP95: p95(passed.map((r) => usageOf(r).totalTokens))
  }
}

/**
 * The gates as @mcp-use/evals words them ("toolErrorRate 0.5 > 0.25"), read from the budget
 * checks of the telemetry section, which decided them (a figure over its limit fails, equal passes).
 */
function gateViolations(doc: Pick<ResultsDocument, 'telemetry'>): string[] {
  return EVALS_V1_GATES.flatMap(({ budget, figure }) =>
    (doc.telemetry?.budgets ?? []).filter((check) => check.budget === budget && !check.passed && check.actual !== null).map((check) => `${figure} ${check.actual} > ${check.limit}`)
  )
}


/** Each tool test attempt is one check, as each check was one there. */
export function checkAttempts(section: ToolTestsSection | null | undefined) {
  return (section?.tests ?? []).flatMap((test) => test.attempts.map((attempt) => ({ test, attempt })))
}

/** @mcp-use/evals' metrics.json, from the results document. */
export function evalsV1Metrics(doc: Pick<ResultsDocument, 'runs' | 'tool_tests' | 'telemetry'>): EvalsV1SuiteMetrics {
  const runs = doc.runs.filter(isScenarioRun)
  const figures = evalsV1Figures(runs)
  const checks = checkAttempts(doc.tool_tests)
  const usages = runs.map(usageOf)
  const sum = (key: 'promptTokens' | 'completionTokens' | 'totalTokens') => usages.reduce((n, u) => n + u[key], 0)
  const costUsd = usages.reduce((n, u) => n + (u.costUsd ?? 0), 0)
  // As there: every run is the mcp-use client's, and it is listed with no run too (pass rate 1).
  const byClient = { [LOCAL_TARGET]: { passRate: runs.length ? figures.passed / runs.length : 1, count: runs.length } }
  const violations = gateViolations(doc)
  return {
    checks: { total: checks.length, passed: checks.filter((c) => c.attempt.status === 'passed').length },
    scenarios: {
      total: runs.length,
      passed: figures.passed,
      passRate: runs.length ? figures.passed / runs.length : 1,
      agentStepsP95: figures.agentStepsP95,
      toolErrorRate: figures.toolErrorRate
    },
    tokens: {
      prompt: sum('promptTokens'),
      completion: sum('completionTokens'),
      total: sum('totalTokens'),
      ...(costUsd > 0 ? { costUsd } : {}),
      perSuccessP95: figures.tokensPerSuccessP95
    },
    byClient,
    gates: { passed: violations.length === 0, violations }
  }
}
