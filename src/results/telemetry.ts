import type { Budgets } from './suite.js'

/** Layer 3 in the document: latency, tokens and cost, and the budgets checked against them. */

/** Exact nearest-rank percentiles over raw samples; null when there is no sample. */
export interface Distribution {
  samples: number
  p50: number | null
  p95: number | null
  max: number | null
}

/** Tokens over some LLM calls. */
export interface TokenTotals {
  input: number
  output: number
  total: number
}

/** One tool, over every call that reached the server (behaviour runs and tool tests). */
export interface ToolTelemetry {
  name: string
  /** Calls that reached the server; faulted calls are counted apart and measured nowhere. */
  calls: number
  /** Of those, how many the server answered with an error. */
  errors: number
  /** Calls a Layer 2 fault replaced or delayed: their latency is ours, not the server's. */
  faulted: number
  latency_ms: Distribution
  /** UTF-8 bytes of the result as the model was sent it. */
  result_bytes: Distribution
}

/** One model (prompt_name null), or one model × system prompt. */
export interface ModelTelemetry {
  model: string
  prompt_name: string | null
  /** Runs that started (skipped and never-started runs are not measured). */
  runs: number
  /** Agent loop duration per run, in seconds. */
  run_s: Distribution
  /**
   * Agent LLM call (agent step) latency, in ms; replayed (cached) answers and sampling answers are
   * not measured. Named before conversations: one step of the loop, not a user turn.
   */
  turn_ms: Distribution
  /** Mean tool calls per run; null when no run started. */
  tool_calls_per_run: number | null
  input_tokens: Distribution & { total: number }
  output_tokens: Distribution & { total: number }
  /** Agent tokens (input + output) per run. */
  tokens_per_run: Distribution & { total: number }
  /** The agent's cost; null where any call's cost is unknown. */
  cost_usd: { per_run: number | null; p95_per_run: number | null; max_per_run: number | null; total: number | null }
  /** The judge's work on these runs, kept apart. */
  judge: { tokens: TokenTotals; cost_usd: number | null }
}

/** Where the cost of the LLM calls came from. */
export interface CostSources {
  /** The provider reported it (OpenRouter's usage.cost). */
  provider: number
  /** Computed from the `pricing:` map. */
  pricing: number
  /** Neither: the provider said nothing and pricing has no entry for the model. */
  unknown: number
  /** Models with unknown costs, for the report's hint. */
  unknown_models: string[]
}

/** A Layer 3 budget checked against what was measured. */
export interface BudgetCheck {
  budget: keyof Omit<Budgets, 'tools'> | 'tools.max_p95_ms'
  /** The tool or model it applies to; null for the whole evaluation. */
  subject: string | null
  limit: number
  /** What was measured; null when it could not be (unknown cost, no sample). */
  actual: number | null
  /** Trend budgets: the baseline's figure. */
  baseline?: number | null
  passed: boolean
  /** One sentence naming the subject, the figures and the budget; the gate's reason when it failed. */
  reason: string
}

/** Layer 3 as the document holds it. */
export interface TelemetrySection {
  /** How percentiles are computed: exactly, over the raw samples. */
  percentile_method: 'nearest-rank'
  overall: {
    /** The whole evaluation, start to end. */
    wall_s: number
    /** Summed over runs (they overlap under concurrency): agent loop time, and within it the model's and the tools' share; harness is the rest of the agent loop. */
    runs_s: number
    llm_s: number
    tool_s: number
    harness_s: number
    /** Summed server start-up (spawn or connect, handshake and listing) and judge time. */
    server_start_s: number
    judge_s: number
    tokens: { agent: TokenTotals; judge: TokenTotals; total: number }
    /** Null where any call's cost is unknown. */
    cost_usd: { agent: number | null; judge: number | null; total: number | null }
    /** What was really spent: the total less what replayed (cached) answers would have cost; null when unknown. */
    spent_usd: number | null
    cache: { hits: number; saved_tokens: number; saved_cost_usd: number | null } | null
  }
  cost_sources: CostSources
  tools: ToolTelemetry[]
  /** One per model, then one per model × system prompt. */
  models: ModelTelemetry[]
  model_prompts: ModelTelemetry[]
  /** The absolute budgets (the trends are in `gate.trends`). */
  budgets: BudgetCheck[]
  /** Runs not started because the spend reached max_cost_usd. */
  skipped_runs: number
}
