import { agentSteps, reachedServer } from '../agent/run-agent.js'
import type { Budgets, Pricing } from '../config/types.js'
import { judgeSideUsage } from '../aggregate/summarize.js'
import type { CacheStats } from '../llm/cache.js'
import type { TokenUsage } from '../llm/chat.js'
import { isMethodStep, type CostSources, type ModelTelemetry, type RunResult, type TelemetrySection, type TokenTotals, type ToolTelemetry, type ToolTestsSection } from '../results/types.js'
import { checkBudgets } from './budgets.js'
import { evalsV1Figures } from '../aggregate/evals-v1-metrics.js'
import { callCost, roundUsd, sumCosts, type CallCost } from './cost.js'
import { distribution, nearestRank } from './percentiles.js'
import { isToolError } from '../scoring/tool-errors.js'
import { byCodeUnits } from '../util/text.js'

/** Everything the telemetry section is computed from (the document's parts). */
export interface TelemetryInput {
  runs: RunResult[]
  tool_tests: ToolTestsSection | null
  /** The whole evaluation's wall time, in seconds. */
  wall_s: number
  /** Judge work not owned by one run (evaluation steps, semantic matches), priced at `judge_model`. */
  overhead: TokenUsage
  cache: CacheStats | null
  judge_model: string
  pricing: Pricing
  budgets: Budgets
}

/**
 * Layer 3 as a pure function of the runs and tool tests: per tool, per model and per model ×
 * system prompt, and overall; where each cost came from; the absolute budgets against it.
 *
 * - Tools: every call that reached the server: behaviour runs' calls (not those the agent loop
 *   refused, nor calls of a shadow_tool decoy, which is not the server's tool) and tool test steps
 *   that got an answer. A call a Layer 2 fault replaced or delayed is counted in `faulted` only:
 *   its latency is ours. A result an attack rewrote (tool_output) keeps its latency but stays out
 *   of `result_bytes`, since the bytes are partly ours.
 * - Models: over the runs that started (not skipped, and their server came up).
 * - The judge side of a run is its judge, each turn's judge and the simulated user, each priced
 *   at its own model (judgeSideUsage); the simulated user's time is the run's, not the judge's:
 *   it counts in `llm_s` (it is an LLM), never in the harness's share.
 * - A sampling answer (`purpose: 'sampling'`) is written while a tool call waits for it: its time
 *   is in that call's latency, so it stays out of `llm_s` and `turn_ms`; its tokens and cost are
 *   the agent's.
 * - Cached (replayed) agent calls count in tokens and cost (what they cost when recorded) but not
 *   in `turn_ms`, and not in `spent_usd`.
 * - `spent_usd` is the total less the replayed agent calls' cost, less the judge's replayed share:
 *   `cache.saved_cost_usd` (the provider-reported cost of every replayed answer) minus the
 *   replayed agent calls' provider-reported part. A judge answer replayed whose cost came from
 *   `pricing` cannot be told apart and counts as spent: the spend is never under-stated.
 */
export function summarizeTelemetry(input: TelemetryInput): TelemetrySection {
  const { runs, pricing } = input
  const sources = new CostTally()
  const agentCosts = new Map<RunResult, CallCost[]>()
  for (const run of runs) agentCosts.set(run, run.llm_calls.map((call) => sources.add(run.model, callCost(run.model, call.usage, pricing))))
  const judgeCosts = new Map<RunResult, (CallCost | null)[]>()
  for (const run of runs) judgeCosts.set(run, judgeSideUsage(run, input.judge_model).map((spent) => sources.addUsage(spent.model, spent.usage, pricing)))
  const overheadCost = sources.addUsage(input.judge_model, input.overhead, pricing)

  const context: ModelContext = { agentCosts, judgeCosts }
  const section: TelemetrySection = {
    percentile_method: 'nearest-rank',
    overall: overall(input, agentCosts, judgeCosts, overheadCost),
    cost_sources: sources.sources(),
    tools: toolTelemetry(runs, input.tool_tests),
    models: groupBy(runs, (r) => [r.model]).map(([[model], group]) => modelTelemetry(model, null, group.filter(hasStarted), context)),
    model_prompts: groupBy(runs, (r) => [r.model, r.prompt_name]).map(([[model, prompt], group]) => modelTelemetry(model, prompt, group.filter(hasStarted), context)),
    budgets: [],
    skipped_runs: runs.filter((r) => r.status === 'skipped').length
  }
  return { ...section, budgets: checkBudgets(section, input.budgets, evalsV1Figures(runs)) }
}

/** A run is measured when it started: not skipped by the budget, and its server came up. */
const hasStarted = (run: RunResult): boolean => run.status !== 'skipped' && run.server.connect_ms !== null

interface ModelContext {
  agentCosts: Map<RunResult, CallCost[]>
  /** Each run's judge-side costs (judgeSideUsage), in its order. */
  judgeCosts: Map<RunResult, (CallCost | null)[]>
}

/** One model (prompt null) or one model × system prompt, over the runs of it that started. */
function modelTelemetry(model: string, prompt: string | null, runs: RunResult[], context: ModelContext): ModelTelemetry {
  const inputs = runs.map((r) => sumOf(r.llm_calls, (c) => c.usage?.prompt_tokens ?? 0))
  const outputs = runs.map((r) => sumOf(r.llm_calls, (c) => c.usage?.completion_tokens ?? 0))
  const tokens = runs.map((_, i) => inputs[i] + outputs[i])
  const runCosts = runs.map((r) => sumCosts(context.agentCosts.get(r)!.map((c) => c.usd)))
  const known = runCosts.every((c) => c !== null) ? (runCosts as number[]) : null
  const judge = emptyTotals()
  for (const run of runs) for (const spent of judgeSideUsage(run, '')) addTotals(judge, spent.usage)
  return {
    model,
    prompt_name: prompt,
    runs: runs.length,
    run_s: distribution(runs.map((r) => r.duration_s)),
    turn_ms: distribution(runs.flatMap((r) => agentSteps(r.llm_calls).filter((c) => !c.cached).map((c) => c.latency_ms))),
    tool_calls_per_run: runs.length ? round2(sumOf(runs, (r) => r.tool_calls.length) / runs.length) : null,
    input_tokens: { ...distribution(inputs), total: sumOf(inputs, (n) => n) },
    output_tokens: { ...distribution(outputs), total: sumOf(outputs, (n) => n) },
    tokens_per_run: { ...distribution(tokens), total: sumOf(tokens, (n) => n) },
    cost_usd: {
      per_run: known && known.length ? roundUsd(sumOf(known, (c) => c) / known.length) : null,
      p95_per_run: known && known.length ? nearestRank([...known].sort((a, b) => a - b), 95) : null,
      max_per_run: known && known.length ? Math.max(...known) : null,
      total: known ? roundUsd(sumOf(known, (c) => c)) : null
    },
    judge: { tokens: judge, cost_usd: sumCosts(runs.flatMap((r) => context.judgeCosts.get(r)!.map(costOf))) }
  }
}

/** The whole evaluation: where the time went (summed over runs), tokens, cost and what the cache saved. */
function overall(input: TelemetryInput, agentCosts: Map<RunResult, CallCost[]>, judgeCosts: Map<RunResult, (CallCost | null)[]>, overheadCost: CallCost | null): TelemetrySection['overall'] {
  const { runs } = input
  const runsS = round2(sumOf(runs, (r) => r.duration_s))
  const llmS = round2(sumOf(runs, (r) => sumOf(agentSteps(r.llm_calls), (c) => c.latency_ms) + (r.dialogue?.user_latency_ms ?? 0)) / 1000)
  const toolS = round2(sumOf(runs, (r) => sumOf(r.tool_calls, (c) => c.latency_ms)) / 1000)
  const agent = emptyTotals()
  for (const run of runs) for (const call of run.llm_calls) addTotals(agent, call.usage)
  const judge = emptyTotals()
  for (const run of runs) for (const spent of judgeSideUsage(run, '')) addTotals(judge, spent.usage)
  addTotals(judge, input.overhead)
  const agentCost = sumCosts([...agentCosts.values()].flatMap((costs) => costs.map((c) => c.usd)))
  const judgeCost = sumCosts([...[...judgeCosts.values()].flatMap((costs) => costs.map(costOf)), costOf(overheadCost)])
  const total = agentCost === null || judgeCost === null ? null : roundUsd(agentCost + judgeCost)
  return {
    wall_s: round2(input.wall_s),
    runs_s: runsS,
    llm_s: llmS,
    tool_s: toolS,
    harness_s: round2(Math.max(0, runsS - llmS - toolS)),
    server_start_s: round2(sumOf(runs, (r) => (r.server.connect_ms ?? 0) + (r.server.list_ms ?? 0)) / 1000),
    judge_s: round2(sumOf(runs, (r) => sumOf(judgeSideUsage(r, ''), (spent) => spent.latency_ms ?? 0)) / 1000),
    tokens: { agent, judge, total: agent.total + judge.total },
    cost_usd: { agent: agentCost, judge: judgeCost, total },
    spent_usd: spentUsd(total, runs, agentCosts, input.cache),
    cache: input.cache ? { hits: input.cache.hits, saved_tokens: input.cache.saved_tokens, saved_cost_usd: input.cache.saved_cost_usd } : null
  }
}

/** The total less what replayed answers cost when recorded (the rule is on summarizeTelemetry); null when unknown. */
function spentUsd(total: number | null, runs: RunResult[], agentCosts: Map<RunResult, CallCost[]>, cache: CacheStats | null): number | null {
  if (total === null) return null
  const replayed = runs.flatMap((run) => run.llm_calls.flatMap((call, i) => (call.cached ? [{ call, cost: agentCosts.get(run)![i] }] : [])))
  const replayedAgent = sumCosts(replayed.map((r) => r.cost.usd))
  if (replayedAgent === null) return null
  const replayedAgentReported = sumOf(replayed, (r) => (r.cost.source === 'provider' ? r.cost.usd! : 0))
  const replayedJudge = Math.max(0, (cache?.saved_cost_usd ?? 0) - replayedAgentReported)
  return roundUsd(Math.max(0, total - replayedAgent - replayedJudge))
}

/** One entry per tool, by name, over every call that reached the server (the rules are on summarizeTelemetry). */
function toolTelemetry(runs: RunResult[], toolTests: ToolTestsSection | null): ToolTelemetry[] {
  interface Sample {
    name: string
    latency_ms: number
    /** Null when the bytes are not the server's (an attack rewrote the result). */
    bytes: number | null
    is_error: boolean
    faulted: boolean
  }
  const samples: Sample[] = []
  for (const run of runs) {
    for (const call of run.tool_calls) {
      if (!reachedServer(call) || call.injected?.attack === 'shadow_tool') continue
      const rewritten = call.injected?.attack === 'tool_output'
      samples.push({ name: call.name, latency_ms: call.latency_ms, bytes: rewritten ? null : (call.cut?.total_bytes ?? utf8Bytes(call.result)), is_error: isToolError(call), faulted: call.fault !== undefined })
    }
  }
  for (const step of (toolTests?.tests ?? []).flatMap((t) => t.attempts.flatMap((a) => a.steps))) {
    const response = step.response
    // An evals/v1 resource read or list is not a tool's call.
    if (!response || response.kind === 'value' || isMethodStep(step)) continue
    const bytes = utf8Bytes(response.kind === 'result' ? JSON.stringify(response.content) : response.message)
    samples.push({ name: step.tool, latency_ms: step.latency_ms, bytes, is_error: response.kind === 'error' || response.is_error, faulted: false })
  }
  const names = [...new Set(samples.map((s) => s.name))].sort(byCodeUnits)
  return names.map((name) => {
    const mine = samples.filter((s) => s.name === name)
    const measured = mine.filter((s) => !s.faulted)
    return {
      name,
      calls: measured.length,
      errors: measured.filter((s) => s.is_error).length,
      faulted: mine.length - measured.length,
      latency_ms: distribution(measured.map((s) => s.latency_ms)),
      result_bytes: distribution(measured.flatMap((s) => (s.bytes === null ? [] : [s.bytes])))
    }
  })
}

/** Counts LLM calls by where their cost came from, and the models whose cost is unknown. */
class CostTally {
  private readonly counts = { provider: 0, pricing: 0, unknown: 0 }
  private readonly unknownModels = new Set<string>()

  add(model: string, cost: CallCost): CallCost {
    this.counts[cost.source]++
    if (cost.source === 'unknown') this.unknownModels.add(model)
    return cost
  }

  /** A judge's summed usage counts as one call; a usage of no tokens and no cost is no call at all (null). */
  addUsage(model: string, usage: TokenUsage, pricing: Pricing): CallCost | null {
    if (usage.total_tokens === 0 && usage.prompt_tokens === 0 && usage.completion_tokens === 0 && usage.cost_usd === undefined) return null
    return this.add(model, callCost(model, usage, pricing))
  }

  sources(): CostSources {
    return { ...this.counts, unknown_models: [...this.unknownModels].sort(byCodeUnits) }
  }
}

/** Groups in order of first appearance (plan order: case, then model, then system prompt). */
function groupBy(runs: RunResult[], key: (run: RunResult) => string[]): [string[], RunResult[]][] {
  const groups = new Map<string, [string[], RunResult[]]>()
  for (const run of runs) {
    const parts = key(run)
    const id = JSON.stringify(parts)
    const group = groups.get(id) ?? [parts, []]
    group[1].push(run)
    groups.set(id, group)
  }
  return [...groups.values()]
}

/** A run's LLM calls that are the agent's own steps: not its sampling answers, whose time is inside a tool call's. */

/** A call's cost; no call at all (null) costs nothing. */
const costOf = (cost: CallCost | null | undefined): number | null => (cost ? cost.usd : 0)

const emptyTotals = (): TokenTotals => ({ input: 0, output: 0, total: 0 })

/** Input and output tokens; the total is their sum (not the provider's total_tokens, which may count more). */
function addTotals(totals: TokenTotals, usage: TokenUsage | null): void {
  if (!usage) return
  totals.input += usage.prompt_tokens
  totals.output += usage.completion_tokens
  totals.total = totals.input + totals.output
}

const sumOf = <T>(items: readonly T[], value: (item: T) => number): number => items.reduce((sum, item) => sum + value(item), 0)
const round2 = (n: number): number => Math.round(n * 100) / 100
const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8')
