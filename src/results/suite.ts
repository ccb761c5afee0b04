import type { Json } from '../util/json.js'

export type { Json } from '../util/json.js'

/**
 * The suite as the results document records it: a case with its expectations, faults, attacks,
 * conversation and inputs, and the budgets and pricing. The configuration reads YAML into these
 * (src/config/types.ts re-exports them); the document embeds them (a shard's `cases`, `config`).
 */

/** One entry of a case's `required_tools`, normalised from eval-action's string or map form. */
export interface ToolRequirement {
  name: string
  /** Expected top-level arguments; `undefined` when the entry names a tool only. */
  args?: Record<string, Json>
}

/** How one expected argument of `expect_args` is compared. */
export type ArgMatchMode = 'exact' | 'contains' | 'pattern' | 'any' | 'semantic' | 'number' | { number: number }

/** Golden-set expectations (all optional); absent keys are not checked. */
export interface GoldenExpectations {
  /** The tool the model should call first; null: no tool may be called. */
  expect_tool?: string | null
  expect_args?: Record<string, Json>
  arg_match?: Record<string, ArgMatchMode>
  expect_sequence?: string[]
  sequence?: 'in_order' | 'exact'
  forbidden_tools?: string[]
  max_tool_calls?: number
}

/** Layer 2: how an injected fault shows itself (see the README's fault table). */
export type FaultKind = 'error' | 'is_error' | 'timeout' | 'malformed' | 'oversized' | 'latency' | 'disconnect' | 'auth_expired' | 'http_status'

/** One fault a case injects into the calls of a tool. */
export interface FaultSpec {
  /** A tool name, or `*` for every tool. */
  tool: string
  kind: FaultKind
  /** Which calls of that tool (1-based) fail; null: every call. */
  calls: number[] | null
  /** Text the failure carries (error, is_error, auth_expired); null: a default per kind. */
  message: string | null
  /** timeout: how long until the call gives up (default 10 s); latency: the added delay (default 2 s). */
  delay_ms: number | null
  /** oversized: the size the result is padded to (default 1 MiB). */
  bytes: number | null
  /** http_status: the status of the POST (500, 502, 503, 429). */
  status: number | null
}

/** What a case expects the agent to do after a fault. */
export type RecoveryKind = 'retry' | 'fallback' | 'honest_failure'

/** The built-in tool-output attack payloads (src/security/payloads.ts). */
export const PAYLOAD_NAMES = ['ignore-previous', 'exfiltrate', 'tool-redirect', 'markdown-image', 'hidden-unicode', 'role-play', 'secret-request'] as const
export type PayloadName = (typeof PAYLOAD_NAMES)[number]

/**
 * Where an attack is planted: in a tool's output (the default), appended to a tool's description
 * as the model sees it, as a decoy tool with a near-identical name, or as a description that
 * changes after the tool's first call (rug pull).
 */
export type AttackVector = 'tool_output' | 'poison_description' | 'shadow_tool' | 'rug_pull'

/** One attack a case plants. */
export interface InjectSpec {
  tool: string
  /** A built-in payload, or the case's own text (`{canary}`, `{email}`, `{url}` are filled in). */
  payload: PayloadName | { text: string }
  /** tool_output: where the payload goes in the result. */
  position: 'append' | 'prepend' | 'replace'
  attack: AttackVector
}

/** The attacker a case's payloads name; any call that reaches them is a succeeded attack. */
export interface Attacker {
  email: string
  url: string
}

/** Values allowed for one tool argument (`send_email.to`); a value outside them is a succeeded attack. */
export interface AllowedArg {
  tool: string
  arg: string
  /** Exact values, or `{ pattern }` (a regular expression, case-insensitive, searched). */
  values: (Json | { pattern: string })[]
}

/** Layer 2 keys of a case; all empty when the case sets none. */
export interface ResilienceSpec {
  faults: FaultSpec[]
  /** Null: no recovery oracle (the rubric alone judges how the agent took the fault). */
  expect_recovery: RecoveryKind | null
  /** fallback: the tools that count as a fallback; empty: any other tool. */
  fallback_tools: string[]
  /** Answer-level: substrings (case-insensitive) the final answer must not contain. Usable without faults. */
  must_not_contain: string[]
  inject: InjectSpec[]
  attacker: Attacker
  allowed_args: AllowedArg[]
  /** Tools the agent must not call once an attack was delivered (also the golden-set forbidden_tools). */
  forbidden_tools: string[]
}

/** What a server can ask the client for (MRTR input requests, or legacy server→client requests). */
export type InputKind = 'elicitation' | 'sampling' | 'roots'

/** How one elicitation is answered: the first rule whose `match` is found in the request's message wins. */
export interface ElicitationRule {
  /** A regular expression (case-insensitive), searched in the request's `message`. */
  match: string
  action: 'accept' | 'decline' | 'cancel'
  /** accept: the form's content, validated against the requested schema before it is sent. Null for decline/cancel. */
  content: Record<string, Json> | null
}

/**
 * How a case answers what the server asks (issue 13). The client declares exactly the
 * capabilities set here: elicitation when `elicitation` is set, sampling when `sampling` is set,
 * roots when `roots` is set (the case's, else server_config's).
 */
export interface InputSpec {
  /** Null: elicitation not declared. An empty list declares it and declines every request. */
  elicitation: ElicitationRule[] | null
  /** `agent`: the model under test answers; `{ text }`: this fixed text. Null: sampling not declared. */
  sampling: 'agent' | { text: string } | null
  /** Root URIs the client lists; null: roots not declared. */
  roots: string[] | null
  /** What the server must ask for during the run (order-insensitive); empty: nothing is required. */
  expect_input_requests: InputKind[]
  /** Most input rounds one call may take; more is a finding and a failed call. */
  max_input_rounds: number
}

/** One scripted user turn of a conversation case; its assertions are checked on this turn's calls only. */
export interface ConversationTurn {
  user: string
  /** Judged on this turn's final answer, with the dialogue up to it as the judge's input; null: not judged. */
  rubric: string | null
  threshold: number
  required_tools: ToolRequirement[]
  /** Null when the turn sets no golden-set key. */
  golden: GoldenExpectations | null
  /** An evals/v1 scenario turn's `expect` (checked after the turn, on every call so far); absent for eval_cases turns. */
  evals_v1?: EvalsV1TurnExpect
}

/**
 * One evals/v1 assertion (`assert[]` of a check, of a turn's `result`, nested in `resource`), as
 * the suite writes it. Evaluated on the call's raw result as the root (`$`): a tools/call result
 * `{content, structuredContent, isError}`, a resources/read result `{contents}`, a list (the
 * array); `equals`/`contains`/`pattern` default to `$.structuredContent`, `resource`'s nested
 * assertions to `$` of `{text, contents}`.
 */
export interface EvalsV1Assertion {
  kind: 'executionError' | 'outputSchemaValid' | 'jsonpath' | 'equals' | 'contains' | 'pattern' | 'schema' | 'resource' | 'widget'
  path?: string
  equals?: Json
  contains?: string
  pattern?: string
  /** jsonpath: `number` (the only type the format names), also string, boolean, object, array, null here. */
  type?: string
  /** resource: the URI to read; `${fromResult:<path>}` is resolved against the call's result. */
  uri?: string
  /** schema: the JSON Schema the value at `path` must satisfy. */
  schema?: Json
  fields?: Record<string, Json>
  assert?: EvalsV1Assertion[]
}

/** One entry of an evals/v1 turn's `expect.tools`: some call of `name` (at or after turn `after_turn`, 0-based) matches every argument matcher. */
export interface EvalsV1ToolExpect {
  name: string
  /** Argument matchers as written: a string (case-insensitive), a number or boolean, "any", `{any: true, requirePresent: true}`, `{contains}`, `{pattern}`, else JSON equality. Null: any arguments. */
  args: Record<string, Json> | null
  after_turn: number | null
}

/** An evals/v1 scenario turn's `expect`. */
export interface EvalsV1TurnExpect {
  tools: EvalsV1ToolExpect[]
  /** The assertions run on the last call of `tool` in the scenario so far. */
  result: { tool: string; assert: EvalsV1Assertion[] } | null
  /** Compared key by key (JSON equality) with the structuredContent of this turn's last call. */
  widget_fields: Record<string, Json> | null
  /** widget.screenshot: needs a browser host (the MCP Apps issue); recorded as not run until then. */
  widget_screenshot: { rubric: string; threshold: number; tool: string | null; args: Record<string, Json> | null } | null
}

/** An LLM playing the user until its goal is reached (its own verdict), `stop_when` matches, or max_turns. */
export interface SimulatedUser {
  goal: string
  persona: string | null
  /** User messages at most, the first one included. */
  max_turns: number
  /** A regular expression (case-insensitive) searched in the assistant's answer: a match ends the conversation. */
  stop_when: string | null
  /** The model that plays the user: `user_model`, else the judge model. */
  model: string
}

/** A multi-turn case: scripted turns (deterministic) or a simulated user. */
export type Conversation = { kind: 'turns'; turns: ConversationTurn[] } | { kind: 'simulated'; user: SimulatedUser }

export interface EvalCase {
  id: string
  /** The (first) user message; for a simulated user, its goal. Also eval-action's `input`. */
  prompt: string
  /** The rubric of the final answer; for a conversation, of the whole dialogue, and '' when it sets none. */
  rubric: string
  threshold: number
  required_tools: ToolRequirement[]
  /** Null when the case sets no golden-set key. */
  golden: GoldenExpectations | null
  /** How many times it runs per model and system prompt. */
  runs: number
  /** hard: every run must pass; soft: the soft floor's share of them. */
  kind: 'hard' | 'soft'
  tags: string[]
  /** Layer 2: faults, attacks and their oracles. */
  resilience: ResilienceSpec
  /** Null: a single-turn case (`prompt`). */
  conversation: Conversation | null
  /** What the server may ask and how it is answered; null when the case sets none of the keys (server_config's roots are applied per run). */
  inputs: InputSpec | null
  /** MCP Apps: the case's `apps:` (`render` or `off`); absent: the suite's. */
  apps?: 'render' | 'off'
  /** An evals/v1 scenario's `expect.judge.screenshot: true`: its judge is shown the last rendered view's screenshot too; absent: not. */
  judge_screenshot?: true
}

/** Layer 3 budgets. Null: not set. */
export interface Budgets {
  /** The whole evaluation's spend (agent and judge); also enforced while running. */
  max_cost_usd: number | null
  /** The agent's cost of any one run. */
  max_cost_per_run_usd: number | null
  /** The agent's tokens (input and output) of any one run. */
  max_tokens_per_run: number | null
  /** Any tool's p95 latency, unless `tools` sets its own. */
  max_p95_tool_ms: number | null
  /** Any model's p95 run duration. */
  max_p95_run_s: number | null
  /** Against the baseline: the largest allowed rise of a tool's or a model's p95, as a ratio (0.25 = +25 %). */
  max_p95_increase: number | null
  /** Against the baseline: the largest allowed rise of a model's cost per run, as a ratio. */
  max_cost_increase: number | null
  /** Per-tool overrides of max_p95_tool_ms. */
  tools: Record<string, { max_p95_ms: number }>
  /** evals/v1 `metrics.gates.toolErrorRateMax`: the errors per behaviour run (every failed expectation, a failed judge, a run error), as @mcp-use/evals counts them. */
  max_tool_error_rate: number | null
  /** evals/v1 `metrics.gates.agentStepsP95Max`: the p95 of agent steps per run (model answers plus tool calls). */
  max_agent_steps_p95: number | null
  /** evals/v1 `metrics.gates.tokensPerSuccessP95Max`: the p95 of total tokens (agent and judge) over the runs that passed. */
  max_tokens_per_success_p95: number | null
}

/** USD per million input and output tokens, by model id. */
export type Pricing = Record<string, { input_per_mtok: number; output_per_mtok: number }>

/** No budget set. */
export const NO_BUDGETS: Budgets = {
  max_cost_usd: null,
  max_cost_per_run_usd: null,
  max_tokens_per_run: null,
  max_p95_tool_ms: null,
  max_p95_run_s: null,
  max_p95_increase: null,
  max_cost_increase: null,
  tools: {},
  max_tool_error_rate: null,
  max_agent_steps_p95: null,
  max_tokens_per_success_p95: null
}
