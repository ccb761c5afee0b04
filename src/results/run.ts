import type { CancelSignal, RunError, TokenUsage } from './primitives.js'
import type { GoldenAssertions, JudgeDetails, ToolAssertions } from './scoring.js'
import type { AppRender } from './apps.js'
import type { Json } from './suite.js'
import type { ObservedCalls } from './conformance.js'
import type { DialogueResult, InputRound, InputsVerdict } from './dialogue.js'
import type { ModelView, MediaRecord, ResultCut } from './model-view.js'
import type { AnswerCheck, FaultRecord, InjectionRecord, RecoveryVerdict, SecurityVerdict } from './resilience.js'

/** One run's record: its calls, its LLM calls, the judge's verdict and how it ended. */

/** eval-action's conversation entry (no system message, no call ids, tool output cut at 2000). */
export interface ConversationEntry {
  role: 'user' | 'assistant' | 'tool'
  content: string
  tool_calls?: { name: string; args: Record<string, Json> }[]
  tool_name?: string
  /** Ours: a multi-turn run's turn (1-based) this entry belongs to. */
  turn?: number
  /** Ours: a user message written by the simulated user. */
  simulated?: true
}

export interface MetricResult {
  name: string
  score: number | null
  reason: string
  success: boolean
}

export interface ToolCallResult {
  name: string
  args: Record<string, Json>
  /** Added by us, after eval-action's fields. */
  result: string
  is_error: boolean
  latency_ms: number
  /** Whether the arguments satisfy the tool's inputSchema; null when there is no schema to check. */
  schema_valid: boolean | null
  schema_errors?: string
  /** Layer 2: the fault injected into this call, in place of (or on top of) the server's answer. */
  fault?: FaultRecord
  /** Layer 2: the attack this call's output (or this decoy tool) carried to the model. */
  injected?: InjectionRecord
  /** Layer 3: this call's span, the parent id of the `traceparent` the server was sent. */
  span_id?: string
  /** What the server asked the client during this call (MRTR rounds, or legacy server requests), in order. */
  input_rounds?: InputRound[]
  /** Set when the model saw less of the result than the server sent (max_tool_result_chars), or `result` keeps less of it than the server sent. */
  cut?: ResultCut
  /** The image and audio blocks of the result, and whether each reached the model as an image. */
  media?: MediaRecord[]
  /** The tool_error_patterns entry the result's text matched: a tool error in the metrics, though the server did not say isError. */
  error_pattern?: string
  /**
   * The result's structuredContent as the server sent it, in an evals/v1 suite's runs (what its
   * `widget` fields and `result` assertions read); absent elsewhere, when the result had none, or
   * when its JSON text is longer than the record keeps of a result (`result` keeps its text).
   */
  structured_content?: Json
  /** MCP Apps: the id of the render of the view this call's tool links (in the run's `app_renders`); absent when none was rendered. */
  app_render?: string
}

/**
 * What the run layers noted on one tool call (the fault it carried, the attack it delivered, its
 * span, the render of its app), set by the layers' session wrappers and carried to the call's record as one field: the
 * agent loop and the record builder pass it on without knowing its keys.
 */
export type CallAnnotations = Pick<ToolCallResult, 'fault' | 'injected' | 'span_id' | 'app_render'>

/**
 * `cancelled`: the job was cancelled (SIGINT/SIGTERM) before this run was finished; `skipped`: it
 * never started, because the spend had reached max_cost_usd. Neither is a verdict.
 */
export type RunStatus = 'passed' | 'failed' | 'error' | 'cancelled' | 'skipped'

/** Why a run never started. */
export interface RunSkip {
  reason: 'budget'
  /** "the spend reached max_cost_usd ($0.50 of $0.50) before this run started". */
  detail: string
}

/** One agent LLM call: how long it took and what it cost. */
export interface LlmCallResult {
  latency_ms: number
  finish_reason: string | null
  /** Null when the provider reported no usage. */
  usage: TokenUsage | null
  /** Replayed from the record-and-replay cache: nothing was spent on it (its usage is what it cost when recorded). */
  cached?: boolean
  /** `sampling`: the model under test answering a server's sampling request (not an agent step). */
  purpose?: 'sampling'
}

/** When a run was cancelled and what it was waiting for at that moment. */
export interface RunCancellation {
  at: string
  signal: CancelSignal
  /** "a free slot", "the server to start", "the model (openai/gpt-4o)", "the tool 'search'", "the judge". */
  waiting_for: string
}

/** One run. eval-action's fields first, in its order; ours after. */
export interface RunResult {
  case_id: string
  model: string
  prompt_name: string
  success: boolean
  rubric_passed: boolean
  tools_passed: boolean
  input: string
  actual_output: string
  metrics: MetricResult[]
  tool_calls: ToolCallResult[]
  tool_assertions: ToolAssertions
  conversation: ConversationEntry[]
  duration_s: number
  total_duration_s: number
  index: number
  /** Which repeat of its group this run is (1-based), and how many the group has. */
  attempt: number
  attempts: number
  kind: 'hard' | 'soft'
  tags: string[]
  /** The system prompt as sent, `{today}` replaced. */
  system_prompt: string
  status: RunStatus
  threshold: number
  /** The model's final answer, or null when it gave none. */
  final_output: string | null
  stop_reason: 'final_answer' | 'max_steps' | 'error' | 'cancelled' | 'skipped'
  error: RunError | null
  /** Set when the run was cancelled: when, and what it was waiting for. */
  cancelled: RunCancellation | null
  /** Every agent LLM call, in order (judge calls are under `judge`). */
  llm_calls: LlmCallResult[]
  usage: TokenUsage
  judge: JudgeDetails | null
  /** Golden-set checks, when the case sets any golden-set key (and the run did not error). */
  golden_assertions: GoldenAssertions | null
  server: { era: 'modern' | 'legacy' | null; protocol_version: string | null; connect_ms: number | null; list_ms: number | null; tools: number | null }
  /** Conformance checked on every tool result this run saw. */
  observed: ObservedCalls
  /** Layer 2: the recovery oracle, when the case sets expect_recovery (and the run did not error). */
  recovery: RecoveryVerdict | null
  /** Layer 2: must_not_contain, when the case sets it. */
  answer_check: AnswerCheck | null
  /** Layer 2: the attack oracles, when the case plants attacks. */
  security: SecurityVerdict | null
  /** Layer 3: the W3C trace id of this run (32 hex digits); null when it never started. */
  trace_id: string | null
  /** Set when the run never started (status `skipped`). */
  skipped: RunSkip | null
  /** A multi-turn run's turns; null for a single-turn case. */
  dialogue: DialogueResult | null
  /** What the server asked the client, against expect_input_requests; null when neither the case nor server_config sets an input key, or the run never started. */
  inputs: InputsVerdict | null
  /** What the model was shown of the server (cut results, images, app resources); null when the run never started. */
  model_view: ModelView | null
  /** The run's `${RUN_DIR}`, when it was kept (the run failed or errored and keep_run_dirs is set); null otherwise. */
  run_dir: string | null
  /**
   * MCP Apps (`apps: render`): the views rendered after this run's tool calls, in call order; absent
   * when the case does not render apps. A failed render fails the run (`success` false).
   */
  app_renders?: AppRender[]
}
