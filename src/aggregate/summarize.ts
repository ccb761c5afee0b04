import { addUsage, emptyUsage, type TokenUsage } from '../results/types.js'
import { round4 } from '../util/text.js'
import type { GroupResult, ModelSummary, RunResult, Summary } from '../results/types.js'
import { isToolError } from '../scoring/tool-errors.js'

/** Totals over all runs; judge tokens are each run's judge-side usage (judgeSideUsage) and `judgeOverhead`, judge work not owned by one run (evaluation steps). */
export function summarize(runs: RunResult[], groups: GroupResult[], judgeOverhead: TokenUsage = emptyUsage()): Summary {
  const agent = emptyUsage()
  const judge = emptyUsage()
  addUsage(judge, judgeOverhead)
  let llmCalls = 0
  let toolCalls = 0
  let toolErrors = 0
  let schemaInvalid = 0
  const byModel = new Map<string, ModelSummary>()
  for (const run of runs) {
    addUsage(agent, run.usage)
    for (const spent of judgeSideUsage(run, '')) addUsage(judge, spent.usage)
    llmCalls += run.llm_calls.length
    toolCalls += run.tool_calls.length
    // An error we injected (Layer 2) is not the server's.
    toolErrors += run.tool_calls.filter((c) => isToolError(c) && !c.fault).length
    schemaInvalid += run.tool_calls.filter((c) => c.schema_valid === false).length
    const m = byModel.get(run.model) ?? { model: run.model, total: 0, passed: 0, pass_rate: null }
    m.total++
    if (run.status === 'passed') m.passed++
    byModel.set(run.model, m)
  }
  const passed = runs.filter((r) => r.status === 'passed').length
  const errored = runs.filter((r) => r.status === 'error').length
  const cancelled = runs.filter((r) => r.status === 'cancelled').length
  const skipped = runs.filter((r) => r.status === 'skipped').length
  return {
    total: runs.length,
    passed,
    failed: runs.length - passed - errored - cancelled - skipped,
    errored,
    cancelled,
    skipped,
    pass_rate: rate(passed, runs.length),
    tokens: { agent, judge, total: agent.total_tokens + judge.total_tokens },
    llm_calls: llmCalls,
    tool_calls: toolCalls,
    tool_errors: toolErrors,
    schema_invalid_calls: schemaInvalid,
    cache: null,
    groups: { total: groups.length, passed: groups.filter((g) => g.success).length, failed: groups.filter((g) => !g.success).length },
    by_model: [...byModel.values()].map((m) => ({ ...m, pass_rate: rate(m.passed, m.total) })),
    // Needs the cases; the document fills it in.
    resilience: null
  }
}

/** One judge-side spend of a run: a judge call (the run's rubric, or a turn's) or the simulated user, and the model it is priced at. */
export interface JudgeSideUsage {
  model: string
  usage: TokenUsage
  /** How long the judge took; null for the simulated user (its time is part of the run's). */
  latency_ms: number | null
}

/**
 * Everything a run spent on the judge side, in order: its own judge, each turn's judge, then the
 * simulated user (priced at user_model). A judge that names no model (it failed) is `judgeModel`'s.
 * The summary's judge tokens, the telemetry's judge cost and the spend all count these.
 */
export function judgeSideUsage(run: Pick<RunResult, 'judge' | 'dialogue'>, judgeModel: string): JudgeSideUsage[] {
  const judges = [run.judge, ...(run.dialogue?.turns.map((t) => t.judge) ?? [])]
  const spent: JudgeSideUsage[] = judges.flatMap((j) => (j ? [{ model: j.model || judgeModel, usage: j.usage, latency_ms: j.latency_ms }] : []))
  const { dialogue } = run
  if (dialogue?.user_model && dialogue.user_usage) spent.push({ model: dialogue.user_model, usage: dialogue.user_usage, latency_ms: null })
  return spent
}

/** Pass rate rounded to 4 places; null for an empty set (nothing ran is not 100 %). */
function rate(passed: number, total: number): number | null {
  return total === 0 ? null : round4(passed / total)
}
