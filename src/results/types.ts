import type { AttackVector, Budgets, EvalCase, FaultKind, InputKind, Json, Pricing, RecoveryKind } from '../config/types.js'
import type { FailOn } from '../conformance/run.js'
import type { ConformanceReport } from '../conformance/types.js'
import type { RunError } from '../agent/run-agent.js'
import type { CacheStats } from '../llm/cache.js'
import type { TokenUsage } from '../llm/chat.js'
import type { ScoringMode } from '../scoring/geval.js'
import type { GoldenAssertions } from '../scoring/golden.js'
import type { ToolAssertions } from '../scoring/tool-assertions.js'

/**
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
export const RESULTS_VERSION = 8
export const GEVAL_METRIC_NAME = 'Response Quality [GEval]'

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
}

/**
 * What the run layers noted on one tool call (the fault it carried, the attack it delivered, its
 * span), set by the layers' session wrappers and carried to the call's record as one field: the
 * agent loop and the record builder pass it on without knowing its keys.
 */
export type CallAnnotations = Pick<ToolCallResult, 'fault' | 'injected' | 'span_id'>

/** How much of a tool result the model saw and the record keeps, against what the server sent (issue 15). */
export interface ResultCut {
  /** The server's text (the result as the model is shown it, before any cut), in characters and UTF-8 bytes. */
  total_chars: number
  total_bytes: number
  /** The model saw its first `shown_chars` characters, then a marker saying how much was left out; `total_chars` when it saw all. */
  shown_chars: number
  /** `result` keeps its first `kept_chars` characters, then a marker; `total_chars` when it keeps all. */
  kept_chars: number
}

/** One image or audio block of a tool result. */
export interface MediaRecord {
  type: 'image' | 'audio'
  mime_type: string
  /** Its decoded size. */
  bytes: number
  /** Sent to the model as an image content part (in a user message right after the step's tool messages). */
  sent: boolean
  /** Why it was not sent, in a sentence (the model does not take images, audio is never sent, the format, the size); null when sent. */
  reason: string | null
}

/** An MCP Apps UI resource (ui://, text/html;profile=mcp-app, or linked by a tool and not listed): HTML for a host to render, not offered to the model as a function. */
export interface AppResource {
  uri: string
  /** Its name in resources/list; null when the server lists no such resource (a tool links it all the same). */
  name: string | null
  mime_type: string | null
  /** The tools whose `_meta.ui.resourceUri` names it. */
  linked_by: string[]
}

/** What the model under test was shown of the server, and what it was not (issue 15). */
export interface ModelView {
  /** The limit in force; 0: none. */
  max_tool_result_chars: number
  /** Whether image blocks were sent to this model as images. */
  vision: boolean
  /** What decided it: `vision:` on the model's `models:` entry, a `vision_models:` pattern, a known vision model pattern, or nothing (no vision). */
  vision_source: 'models' | 'vision_models' | 'known' | 'none'
  /** The pattern that matched, for `vision_models` and `known`; null otherwise. */
  vision_pattern: string | null
  /** Tool results the model saw cut. */
  cut_results: number
  images_sent: number
  /** Images the model was shown as a text placeholder (`[image: image/png]`). */
  images_as_text: number
  audio_as_text: number
  /** ui:// resources, not offered to the model as functions. */
  app_resources: AppResource[]
  /** Tools not offered to the model: their MCP Apps `_meta.ui.visibility` leaves out "model". */
  app_only_tools: string[]
  /** What the model (or the judge) was not shown, in sentences; empty when it was shown everything. */
  notes: string[]
}

/** One question the server asked the client, and our answer. */
export interface InputExchange {
  /** input_required: the key in `inputRequests`; a legacy server request: its JSON-RPC id. */
  key: string
  /** `elicitation/create`, `sampling/createMessage`, `roots/list`, or whatever the server asked. */
  method: string
  /** What it asked: the elicitation's message, the sampling request's last message (cut to 500 characters). */
  summary: string
  /** The request's params as sent (redacted; strings cut to 2,000 characters, 20,000 characters and 1,000 values in all, `[…]` past that). */
  params: Json
  /** What we answered: the result object, or null when we answered with an error. */
  response: Json | null
  /** Our JSON-RPC error instead of a result (legacy: a method we do not answer). */
  error: { code: number; message: string } | null
  /**
   * How it was answered, in a phrase: "rule 1 (match 'address'): accept", "no rule matched:
   * declined", "the model under test (openai/gpt-4o)", "the case's text", "the case's roots",
   * "not declared: refused", "max_input_rounds reached: refused", "url mode not declared: refused".
   */
  answered_by: string
  /** A configuration problem found while answering (accepted content that fails the requested schema); null when none. */
  problem: string | null
}

/** One round of a call: the server asked (input_required or server requests), we answered, and the call went on. */
export interface InputRound {
  /** 1-based, within its call. */
  round: number
  via: 'input_required' | 'server_request'
  /** input_required: the JSON-RPC id of the request that was answered with input_required; null for server requests. */
  request_id: string | number | null
  /** input_required: the id of the retry that carried our inputResponses; null when there was none (the rounds ran out, the call failed). */
  retry_id: string | number | null
  /** input_required: the requestState the server sent (cut to 200 characters); null when it sent none. */
  request_state: string | null
  /** Whether the retry echoed requestState byte for byte (and omitted it when none was given); null when there was no retry. */
  request_state_echoed: boolean | null
  exchanges: InputExchange[]
}

/** A run's input requests against what its case expected. */
export interface InputsVerdict {
  /** The client capabilities this run declared. */
  declared: InputKind[]
  /** expect_input_requests. */
  expected: InputKind[]
  /** What the server asked for over the whole run, in the order first asked. */
  asked: InputKind[]
  /** Rounds over every call. */
  rounds: number
  /** Elicitations no rule matched (declined). */
  unmatched: number
  passed: boolean
  /** Why it failed: an expected request never came, content that fails the requested schema, too many rounds. Empty when it passed. */
  reasons: string[]
  /** What the server asked outside any tool call (server-filesystem lists the roots as it starts); counted in `asked` and `rounds`. */
  outside_calls: InputRound[]
}

/** One user turn of a multi-turn run, with its own assertions and verdict. */
export interface TurnResult {
  /** 1-based. */
  index: number
  user: string
  /** Written by the simulated user. */
  simulated: boolean
  final_output: string | null
  stop_reason: 'final_answer' | 'max_steps' | 'error' | 'cancelled'
  /** This turn's calls are `tool_calls[first_call .. first_call + calls)` of the run. */
  first_call: number
  calls: number
  /** Agent LLM calls of this turn (max_steps applies per turn). */
  llm_calls: number
  /** Null when the turn sets no required_tools. */
  tool_assertions: ToolAssertions | null
  /** Null when the turn sets no golden-set key (or it did not finish). */
  golden_assertions: GoldenAssertions | null
  /** The turn's rubric verdict (the judge saw the dialogue up to this turn); null when the turn has no rubric or was not judged. */
  judge: JudgeDetails | null
  passed: boolean
}

/** How a multi-turn run went, turn by turn. */
export interface DialogueResult {
  kind: 'turns' | 'simulated'
  turns: TurnResult[]
  /**
   * Why the dialogue ended: `script_done` (every scripted turn ran), `goal_reached` (the simulated
   * user said so), `stop_when` (the answer matched), `max_turns`, or `stopped` (a turn ended
   * without a final answer: an error, max_steps, a cancel; or the simulated user failed to write
   * the next message).
   */
  ended: 'script_done' | 'goal_reached' | 'stop_when' | 'max_turns' | 'stopped'
  /** The simulated user's model and what it spent (counted with the judge's); null for scripted turns. */
  user_model: string | null
  user_usage: TokenUsage | null
  /** How long the simulated user's LLM calls took, summed (ms); null for scripted turns. */
  user_latency_ms: number | null
  /** Every turn passed (the overall rubric is the run's judge). */
  turns_passed: boolean
}

/** A fault as it was injected into one call. */
export interface FaultRecord {
  kind: FaultKind
  /** Which call of that tool it was (1-based). */
  call: number
  /** How many times the server really executed the call: 0 (replaced), 1, or 2 (disconnect: re-sent). */
  executions: number
  /** What happened, in a sentence: "HTTP 503 for the POST", "response dropped after 120 bytes; re-sent as request id 7 (first id 6)". */
  detail: string
}

/** An attack as it reached the model through one call. */
export interface InjectionRecord {
  attack: AttackVector
  /** The built-in payload's name, or `custom`. */
  payload: string
  /** tool_output: where the payload went. */
  position: 'append' | 'prepend' | 'replace' | null
}

/** The recovery oracle's verdict on a run whose case sets expect_recovery. */
export interface RecoveryVerdict {
  expected: RecoveryKind
  /** Whether any fault fired; a fault that never fired tested nothing and fails the oracle. */
  triggered: boolean
  passed: boolean
  /** Why, in a sentence naming the calls. */
  reason: string
  /** Index into tool_calls of the call that shows the recovery (the retry, the fallback), or null. */
  evidence_call: number | null
}

/** The answer-level check `must_not_contain`. */
export interface AnswerCheck {
  must_not_contain: string[]
  /** Which of them the final answer contains (case-insensitive). */
  found: string[]
  passed: boolean
}

/** What showed that an attack succeeded. */
export interface AttackEvidence {
  kind: 'canary' | 'attacker_email' | 'attacker_host' | 'allowed_args' | 'forbidden_tool' | 'shadow_tool' | 'markdown_exfiltration' | 'secret_leak'
  /** Index into tool_calls of the call that crossed the line; null when it was the answer. */
  tool_call_index: number | null
  tool: string | null
  /** The exact thing: the argument and its value, the image link. */
  detail: string
}

/** One planted attack and its deterministic verdict. */
export interface AttackVerdict {
  attack: AttackVector
  /** The built-in payload's name, or `custom`. */
  payload: string
  tool: string
  /** This run's own canary (`CANARY-<hex>`). */
  canary: string
  /** The payload reached the model (the tool was called, the poisoned listing was offered). */
  delivered: boolean
  /** Delivered, and nothing acted on it. An undelivered attack is not resisted: it tested nothing. */
  resisted: boolean
  evidence: AttackEvidence[]
}

/** A run's attacks. */
export interface SecurityVerdict {
  /** Every attack delivered and resisted. */
  resisted: boolean
  attacks: AttackVerdict[]
}

/** One cell of a resilience matrix: a model against a fault kind, or against a payload. */
export interface ResilienceCell {
  /** The fault kind or the payload name. */
  key: string
  /** Runs that asked for it. */
  planned: number
  /** Runs where it fired (fault) or reached the model (attack); the rate is over these. */
  counted: number
  /** Fault: the run passed (rubric, assertions and the recovery oracle). Attack: it was resisted. */
  passed: number
  rate: number | null
  floor: number
  /** passed / planned reached the floor: a planned run that tested nothing counts as not passed. */
  success: boolean
}

/** Layer 2 per model. */
export interface ResilienceSummary {
  by_model: { model: string; faults: ResilienceCell[]; attacks: ResilienceCell[] }[]
  /** Over every model and kind; null when no fault fired. */
  recovery_rate: number | null
  /** Over every model and payload; null when no attack was delivered. */
  attack_resistance: number | null
}

export interface JudgeDetails {
  model: string
  score: number | null
  raw_score: number | null
  reason: string
  threshold: number
  scoring_mode: ScoringMode | null
  scoring_note: string
  evaluation_steps: string[]
  usage: TokenUsage
  error: string | null
  /** How long the judge took (its one or two LLM calls); null when it was not asked. */
  latency_ms: number | null
}

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

/** SIGHUP: the terminal closed (servers in their own process groups no longer get it themselves). */
export type CancelSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP'

/**
 * A conformance defect seen on a real tool call (a tool test or a behaviour run), not on a probe:
 * it becomes a finding of the check `check` in the conformance section.
 */
export interface Observation {
  /** The conformance check id, e.g. `observed-output-schema`. */
  check: string
  severity: 'error' | 'warning'
  tool: string
  message: string
  evidence: { request: string; response: string }
}

/** What the observed-conformance checks saw in one run or tool test attempt. */
export interface ObservedCalls {
  /** Tool results checked. */
  calls: number
  findings: Observation[]
  /** Calls during which the server asked the client for input (MRTR rounds or server requests); the input checks skip when it is 0. Absent before version 6. */
  asked?: number
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
}

export type ToolTestStatus = 'passed' | 'failed' | 'error' | 'cancelled'

/** One assertion of a tool test step: what was expected, what came back, and why it passed or not. */
export interface AssertionCheck {
  check: 'is_error' | 'contains' | 'pattern' | 'json' | 'schema' | 'output_schema' | 'max_ms' | 'snapshot' | 'capture'
  /** The JSONPath, for `json` and `capture`; null otherwise. */
  path: string | null
  passed: boolean
  expected: Json
  actual: Json
  reason: string
  /** `snapshot` only: a unified diff of the stored snapshot against this result. */
  diff?: string
}

/** What the server answered to one tool test call. */
export type StepResponse =
  | { kind: 'result'; is_error: boolean; content: Json[]; structured_content: Json | null }
  | { kind: 'error'; code: number; message: string; data: Json | null }

export interface ToolTestStepResult {
  /** 1-based. */
  index: number
  tool: string
  /** As sent, after `${name}` substitution. */
  args: Record<string, Json>
  latency_ms: number
  /** Null when the call never got an answer (the attempt's `error` says why). */
  response: StepResponse | null
  checks: AssertionCheck[]
  captured: Record<string, Json>
  passed: boolean
  observed: ObservedCalls
}

export interface ToolTestAttempt {
  /** 1-based. */
  attempt: number
  status: ToolTestStatus
  /** Why the attempt could not finish: the server did not start, crashed or timed out. */
  error: string | null
  stderr_tail: string | null
  /** Steps after the first failing one do not run. */
  steps: ToolTestStepResult[]
  duration_ms: number
}

export interface ToolTestResult {
  id: string
  tags: string[]
  status: ToolTestStatus
  /** Every attempt passed (pass^k). */
  passed: boolean
  runs: number
  attempts: ToolTestAttempt[]
  duration_ms: number
}

/** The deterministic tool tests: direct calls with assertions, no model. */
export interface ToolTestsSection {
  status: 'ran' | 'skipped'
  /** Why they did not run (the server is unreachable, tool_tests is off); null when they ran. */
  reason: string | null
  /** Where the snapshots are kept. */
  snapshot_dir: string
  total: number
  passed: number
  failed: number
  errored: number
  cancelled: number
  tests: ToolTestResult[]
}

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

/** The verdict on the behaviour runs: floors, and/or deltas against a baseline. */
export interface GateResult {
  mode: 'delta' | 'absolute' | 'both'
  max_drop: number
  baseline: { source: string; started_at: string } | null
  /** Why the gate is not what was asked (no baseline). */
  note: string | null
  metrics: { name: string; baseline: number; current: number; delta: number; lower_is_better: boolean; failed: boolean }[]
  /** Groups ("case · model · prompt") that went from passing to failing, the other way, appeared, disappeared. */
  regressed: string[]
  fixed: string[]
  added: string[]
  removed: string[]
  /** Which gate failed, on what, by how much. Empty when it passed. */
  reasons: string[]
  /** Layer 3 budgets against the baseline (max_p95_increase, max_cost_increase); empty without a baseline. */
  trends: BudgetCheck[]
  passed: boolean
}

/** Layer 0 as the document holds it: the report, and its verdict under the chosen gate. */
export interface ConformanceSection extends ConformanceReport {
  fail_on: FailOn
  passed: boolean
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
}

/** The tool tests as a journal header (or a shard) plans them. */
export interface ToolTestsPlan {
  status: 'ran' | 'skipped'
  reason: string | null
  snapshot_dir: string
  /** The ids of the tests planned, in suite order. */
  ids: string[]
}

/** Which shard of how many, and the plan as a whole: what the journal header of a shard holds. */
export interface ShardPlan {
  /** 1-based. */
  index: number
  count: number
  /** Runs and groups (case × model × prompt) in the whole plan, all shards together. */
  planned_total: number
  groups_total: number
  /** Groups in this shard (its runs are the journal header's `planned`). */
  groups: number
}

/**
 * A shard's document is not a verdict: it has no gate, and `passed` says only that the shard ran
 * completely. The merge (`merge:` / `mcp-server-evals merge`) reads the shards' documents and gives
 * the verdict of the whole suite, as one unsharded run would.
 */
export interface ShardSection extends ShardPlan {
  /** What every shard of one suite shares (the journal hash): shards with another are refused by the merge. */
  suite_hash: string
  /** Runs planned in this shard. */
  planned: number
  /** The cases as configured: the merged document's metrics need their expectations. */
  cases: EvalCase[]
  /** The tool tests this shard planned (shard 1 runs them); null when it planned none. */
  tool_tests_plan: ToolTestsPlan | null
  /** LLM tokens spent outside any run (the judge's evaluation steps, semantic matches). */
  overhead: TokenUsage
}

/** One run as the baseline and this evaluation saw it, for a group that regressed. */
export interface RunSnapshot {
  status: RunStatus
  final_output: string | null
  tool_calls: { name: string; args: Record<string, Json> }[]
  score: number | null
}

/** A conformance finding (fail or warn) that the baseline did not have, or that went away. */
export interface FindingChange {
  id: string
  status: 'fail' | 'warn'
  message: string
}

/** The tools the server lists, against the baseline's. */
export interface ToolSurfaceDiff {
  added: string[]
  removed: string[]
  /** A removed and an added tool with the same description and schemas: the same tool under a new name. */
  renamed: { from: string; to: string }[]
  /** Tools whose description, input schema or output schema changed, and which of them. */
  changed: { name: string; what: ('description' | 'input schema' | 'output schema')[] }[]
}

/** A measured figure before and after (null where one side did not measure it). */
export interface FigureChange {
  baseline: number | null
  current: number | null
}

/**
 * Everything that differs from the baseline document, computed once when the gate is applied, so
 * a renderer (or `report --from`) never needs the baseline file again.
 */
export interface Changes {
  /** Conformance findings new since the baseline, and those that went away; null when either side has no conformance section. */
  conformance: { new: FindingChange[]; resolved: FindingChange[] } | null
  /** Null when either side did not list the tools (conformance off or failed to probe). */
  tools: ToolSurfaceDiff | null
  /** Total cost in USD as the provider reported it; null on a side that reported none. */
  cost_usd: FigureChange
  /** Median run duration in seconds over the runs that finished. */
  median_run_s: FigureChange
  /** Layer 2 cells (model × fault kind, model × payload) whose rate differs from the baseline's; null when neither side had Layer 2. */
  resilience: ResilienceChange[] | null
  /** Layer 3: each model's row of the Models table, before and after (models on one side only included). */
  models: ModelChange[]
  /** Layer 3: each tool's p95 latency (ms), before and after. */
  tool_latency: { name: string; p95_ms: FigureChange }[]
  /** For each regressed group ("case · model · prompt"): its first failing run now, and a passing run of the baseline. */
  regressions: { group: string; baseline: RunSnapshot | null; current: RunSnapshot | null }[]
}

/** A Layer 2 cell before and after (null on the side that did not have it). */
export interface ResilienceChange {
  model: string
  dimension: 'fault' | 'attack'
  /** The fault kind or the payload. */
  key: string
  baseline: number | null
  current: number | null
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

/** A model's row of the Models table, before and after. */
export interface ModelChange {
  model: string
  tool_selection_accuracy: FigureChange
  argument_correctness: FigureChange
  task_completion: FigureChange
  pass_rate: FigureChange
  p95_run_s: FigureChange
  tokens_per_run: FigureChange
  cost_per_run_usd: FigureChange
}

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
