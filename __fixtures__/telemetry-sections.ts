import { NO_BUDGETS, type Budgets } from '../src/config/types.js'
import type { TokenUsage } from '../src/llm/chat.js'
import type { JudgeDetails, LlmCallResult, ModelTelemetry, RunResult, TelemetrySection, ToolCallResult, ToolTelemetry } from '../src/results/types.js'
import { distribution } from '../src/telemetry/percentiles.js'

/** Token usage; `cost` is the provider's report, when given. */
export const usage = (prompt: number, completion: number, cost?: number): TokenUsage => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  ...(cost === undefined ? {} : { cost_usd: cost })
})

export const llmCall = (latency_ms: number, used: TokenUsage | null, cached = false): LlmCallResult => ({ latency_ms, finish_reason: 'stop', usage: used, ...(cached ? { cached: true } : {}) })

export const toolCall = (name: string, latency_ms: number, extra: Partial<ToolCallResult> = {}): ToolCallResult => ({
  name,
  args: {},
  result: 'ok',
  is_error: false,
  latency_ms,
  schema_valid: true,
  ...extra
})

export const judged = (used: TokenUsage, latency_ms: number | null = 500, model = ''): JudgeDetails => ({
  model,
  score: 0.9,
  raw_score: 9,
  reason: 'fine',
  threshold: 0.7,
  scoring_mode: 'integer',
  scoring_note: '',
  evaluation_steps: [],
  usage: used,
  error: null,
  latency_ms
})

/** A finished run with everything Layer 3 reads; the rest is plausible filler. */
export function telemetryRun(extra: Partial<RunResult> = {}): RunResult {
  const llm_calls = extra.llm_calls ?? []
  const total = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }
  for (const c of llm_calls) if (c.usage) for (const k of ['prompt_tokens', 'completion_tokens', 'total_tokens'] as const) total[k] += c.usage[k]
  return {
    case_id: 'c',
    model: 'm',
    prompt_name: 'default',
    success: true,
    rubric_passed: true,
    tools_passed: true,
    input: 'p',
    actual_output: 'a',
    metrics: [],
    tool_calls: [],
    tool_assertions: { passed: true, checks: [] },
    conversation: [],
    duration_s: 1,
    total_duration_s: 1,
    index: 1,
    attempt: 1,
    attempts: 1,
    kind: 'soft',
    tags: [],
    system_prompt: 's',
    status: 'passed',
    threshold: 0.7,
    final_output: 'a',
    stop_reason: 'final_answer',
    error: null,
    cancelled: null,
    llm_calls,
    usage: total,
    judge: null,
    golden_assertions: null,
    server: { era: 'modern', protocol_version: '2026-07-28', connect_ms: 100, list_ms: 20, tools: 3 },
    observed: { calls: 0, findings: [] },
    recovery: null,
    answer_check: null,
    security: null,
    trace_id: null,
    skipped: null,
    dialogue: null,
    inputs: null,
    model_view: null,
    run_dir: null,
    ...extra
  }
}

/** A tool as the section holds it, from its latencies. */
export const toolRow = (name: string, latencies: number[]): ToolTelemetry => ({
  name,
  calls: latencies.length,
  errors: 0,
  faulted: 0,
  latency_ms: distribution(latencies),
  result_bytes: distribution(latencies.map(() => 2))
})

/** A model as the section holds it, from its runs' seconds, tokens and costs. */
export function modelRow(model: string, runs: { s: number; tokens: number; usd: number | null }[]): ModelTelemetry {
  const costs = runs.map((r) => r.usd)
  const known = costs.every((c) => c !== null) ? (costs as number[]) : null
  const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
  const tokens = runs.map((r) => r.tokens)
  return {
    model,
    prompt_name: null,
    runs: runs.length,
    run_s: distribution(runs.map((r) => r.s)),
    turn_ms: distribution([]),
    tool_calls_per_run: runs.length ? 1 : null,
    input_tokens: { ...distribution(tokens), total: total(tokens) },
    output_tokens: { ...distribution(runs.map(() => 0)), total: 0 },
    tokens_per_run: { ...distribution(tokens), total: total(tokens) },
    cost_usd: {
      per_run: known && known.length ? total(known) / known.length : null,
      p95_per_run: known && known.length ? distribution(known).p95 : null,
      max_per_run: known && known.length ? Math.max(...known) : null,
      total: known ? total(known) : null
    },
    judge: { tokens: { input: 0, output: 0, total: 0 }, cost_usd: 0 }
  }
}

/** A telemetry section with the given tools and models (checks not run). */
export function section(parts: { tools?: ToolTelemetry[]; models?: ModelTelemetry[]; spent?: number | null; unknown_models?: string[]; skipped_runs?: number } = {}): TelemetrySection {
  const spent = parts.spent === undefined ? 0 : parts.spent
  return {
    percentile_method: 'nearest-rank',
    overall: {
      wall_s: 1,
      runs_s: 1,
      llm_s: 0,
      tool_s: 0,
      harness_s: 1,
      server_start_s: 0,
      judge_s: 0,
      tokens: { agent: { input: 0, output: 0, total: 0 }, judge: { input: 0, output: 0, total: 0 }, total: 0 },
      cost_usd: { agent: spent, judge: spent === null ? null : 0, total: spent },
      spent_usd: spent,
      cache: null
    },
    cost_sources: { provider: 0, pricing: 0, unknown: parts.unknown_models?.length ?? 0, unknown_models: parts.unknown_models ?? [] },
    tools: parts.tools ?? [],
    models: parts.models ?? [],
    model_prompts: [],
    budgets: [],
    skipped_runs: parts.skipped_runs ?? 0
  }
}

export const budgets = (set: Partial<Budgets>): Budgets => ({ ...NO_BUDGETS, ...set })
