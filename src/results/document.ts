import type { AppsSection } from './apps.js'
import type { CacheStats, CancelSignal, TokenUsage } from './primitives.js'
import type { Budgets, Pricing } from './suite.js'
import type { EvalsV1Section } from './evals-v1.js'
import type { ConformanceSection } from './conformance.js'
import type { Changes, GateResult } from './gate.js'
import type { ResilienceSummary } from './resilience.js'
import type { RunResult } from './run.js'
import type { ShardSection } from './shard.js'
import type { TelemetrySection } from './telemetry.js'
import type { ToolTestsSection } from './tool-tests.js'

/** The one results document: its version, configuration, summary, groups and metrics, and the sections each layer adds. */

/**
 * 9: evals/v1 suites — `evals_v1`; tool test step responses of kind `value` and the check
 * names `jsonpath`, `equals`, `resource`, `widget` and `call`; `structured_content` on tool calls;
 * the golden checks `tools`, `result` and `widget` (with `assertions`); the budgets
 * max_tool_error_rate, max_agent_steps_p95 and max_tokens_per_success_p95; later, optional:
 * `preview` on media records (a small image's copy, for the HTML report).
 * 8: shard — the document of one shard of a suite split across jobs.
 * 7: what the model sees — `cut`, `media` and `error_pattern` on tool calls, `model_view` and
 * `run_dir` on runs.
 * 6: conversations and server input — `dialogue` and `inputs` on runs, `input_rounds` on tool
 * calls, `purpose` on LLM calls, `simulated` and `turn` on conversation entries, `asked` in `observed`.
 * 5: Layer 3 — `telemetry`, `trace_id` and `skipped` on runs, `span_id` on tool calls, `cached` on
 * LLM calls, `latency_ms` on the judge, `gate.trends`, `changes.models` and `changes.tool_latency`,
 * `config.budgets` and `config.pricing`, and the run status `skipped`.
 * 4: Layer 2 — `fault` and `injected` on tool calls, `recovery`, `answer_check` and `security` on
 * runs, `summary.resilience`, `config.resilience_floors`.
 * 3: `tool_tests`, `observed` on every run, and the conformance era `unreachable`.
 * 2: `changes`, `conformance.tools`, and `pass_rate` null when nothing ran. Versions 1 and 2 are still read.
 */
export const RESULTS_VERSION = 9

export const GEVAL_METRIC_NAME = 'Response Quality [GEval]'

/** One case × model × system prompt, over its repeats. */
export interface GroupResult {
  case_id: string
  model: string
  prompt_name: string
  kind: 'hard' | 'soft'
  tags: string[]
  runs: number
  passed: number
  errored: number
  cancelled: number
  pass_rate: number
  /** The pass rate it needs: pass_floor_hard or pass_floor_soft. */
  floor: number
  success: boolean
  run_indexes: number[]
}

/** Tool-use metrics over some runs; null where no run applies. */
export interface MetricSet {
  runs: number
  tool_selection_accuracy: number | null
  over_trigger_rate: number | null
  argument_correctness: number | null
  sequence_correctness: number | null
  task_completion: number | null
  schema_invalid_call_rate: number | null
  tool_error_rate: number | null
  tool_set_precision: number | null
  tool_set_recall: number | null
  tool_set_f1: number | null
}

export interface MetricsReport {
  overall: MetricSet
  by_model: Record<string, MetricSet>
  by_prompt: Record<string, MetricSet>
  by_tag: Record<string, MetricSet>
}

export interface ModelSummary {
  model: string
  total: number
  passed: number
  pass_rate: number | null
}

export interface Summary {
  total: number
  passed: number
  failed: number
  errored: number
  cancelled: number
  /** Runs not started because the spend reached max_cost_usd. */
  skipped: number
  /** Null when nothing ran: no run is not a 100 % pass rate. */
  pass_rate: number | null
  tokens: { agent: TokenUsage; judge: TokenUsage; total: number }
  llm_calls: number
  tool_calls: number
  tool_errors: number
  /** Record and replay of LLM answers; null when the behaviour runs did not happen. */
  cache: CacheStats | null
  /** Groups (case × model × prompt) that reached their pass floor. */
  groups: { total: number; passed: number; failed: number }
  /** Calls whose arguments did not satisfy the tool's inputSchema. */
  schema_invalid_calls: number
  by_model: ModelSummary[]
  /** Layer 2; null when no case injects faults or plants attacks. */
  resilience: ResilienceSummary | null
}

export interface ResultsConfig {
  eval_cases: string
  server: { kind: 'stdio'; command: string; args: string[] } | { kind: 'http'; url: string }
  models: string[]
  judge_model: string
  system_prompts: string[]
  filter: string | null
  max_steps: number
  concurrency: number
  /** `run`: a fresh server process per run (eval-action's isolation); `worker`: one per pool slot, reused by its runs. */
  server_reuse: 'run' | 'worker'
  timeout_seconds: number
  base_url: string
  pass_floors: { hard: number; soft: number }
  /** Layer 2 floors; null: each cell takes the pass floor of its cases' kind (hard 1.0). */
  resilience_floors: { min_recovery_rate: number | null; min_attack_resistance: number | null }
  /** Layer 3 budgets, inputs and YAML merged (the YAML wins per key). */
  budgets: Budgets
  /** USD per million tokens by model, for costs the provider did not report. */
  pricing: Pricing
}

/** Whether the model-driven runs happened, and why not. */
export interface BehaviourStatus {
  status: 'ran' | 'skipped'
  reason: string | null
}

/** The one document every renderer reads. A report can be re-rendered from a saved copy. */
export interface ResultsDocument {
  version: typeof RESULTS_VERSION
  tool: { name: string; version: string }
  started_at: string
  duration_s: number
  passed: boolean
  /** Null when the configuration could not be read. */
  config: ResultsConfig | null
  behaviour: BehaviourStatus
  conformance: ConformanceSection | null
  summary: Summary
  /** Null when no behaviour runs happened. */
  gate: GateResult | null
  /** Null when no behaviour runs happened. */
  metrics: MetricsReport | null
  /** The unit that passes or fails: each group's runs against its floor. */
  groups: GroupResult[]
  runs: RunResult[]
  /** Set when the evaluation could not run at all (bad configuration, missing key). */
  fatal_error: string | null
  /** Set when the job was cancelled: the signal, when, and how many planned runs had finished. */
  cancelled: Cancellation | null
  /** The run journal this document was built from, and what a resumed evaluation reused from it. */
  journal: JournalInfo | null
  /** What changed since the baseline; null without one. */
  changes: Changes | null
  /** The deterministic tool tests; null when the suite has none. */
  tool_tests: ToolTestsSection | null
  /** Layer 3: latency, tokens and cost, and the budgets; null in a fatal document. */
  telemetry: TelemetrySection | null
  /**
   * Set in the document of one shard of a suite split across jobs (`shard: "2/4"`): which shard,
   * and what the merge needs besides the runs. Null in an unsharded (or merged) document.
   */
  shard: ShardSection | null
  /** Set when the suite was an evals/v1 suite (eval-action's newer format); absent or null otherwise. */
  evals_v1?: EvalsV1Section | null
  /** MCP Apps rendered in a browser: set when the suite asked for any render (apps: render, an `app:` tool test, an evals/v1 screenshot); absent otherwise. */
  apps?: AppsSection
}

export interface Cancellation {
  signal: CancelSignal
  at: string
  /** Runs planned, and how many of them had finished (judged or errored) when the signal came. */
  planned: number
  finished: number
}

export interface JournalInfo {
  path: string
  /** Runs taken from an earlier, interrupted attempt instead of being run again. */
  reused: number
  /** Planned runs the journal has no record of (the process was killed mid-run). */
  missing: number
}
