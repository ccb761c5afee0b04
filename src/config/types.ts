/** A JSON value as it came from YAML or a server. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/**
 * How to reach the MCP server under test. When `${NAME}` placeholders were substituted from the
 * environment, `expanded` holds the substituted values (secrets, wherever they landed) and
 * `template` the hashed values as written, so hashes do not change with a secret.
 */
export type ServerConfig =
  | {
      kind: 'stdio'
      command: string
      args: string[]
      env: Record<string, string>
      cwd?: string
      expanded?: string[]
      template?: { command: string; args: string[]; cwd?: string }
      /** `roots` under server_config: the client's roots (file:// URIs) for every case that sets none of its own. */
      roots?: string[]
    }
  | { kind: 'http'; url: string; headers: Record<string, string>; expanded?: string[]; template?: { url: string }; roots?: string[] }

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

/** Fault kinds that only exist over HTTP. */
export const HTTP_ONLY_FAULTS: readonly FaultKind[] = ['http_status']

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

export const DEFAULT_ATTACKER: Attacker = { email: 'audit-desk@exfil-collector.example', url: 'https://exfil-collector.example/c' }

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
export const INPUT_KINDS: readonly InputKind[] = ['elicitation', 'sampling', 'roots']

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

/** The default of max_input_rounds. */
export const DEFAULT_MAX_INPUT_ROUNDS = 5

/** One scripted user turn of a conversation case; its assertions are checked on this turn's calls only. */
export interface ConversationTurn {
  user: string
  /** Judged on this turn's final answer, with the dialogue up to it as the judge's input; null: not judged. */
  rubric: string | null
  threshold: number
  required_tools: ToolRequirement[]
  /** Null when the turn sets no golden-set key. */
  golden: GoldenExpectations | null
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
}

/**
 * What a tool test expects of one call. Absent keys are not checked, except `is_error`, which is
 * false unless the test says otherwise (a call that is refused fails a test that did not expect it).
 */
export interface ToolTestExpect {
  /** true: the call must be refused, by an isError result or a JSON-RPC error. Default false. */
  is_error?: boolean
  /** Substrings (case-insensitive) of the result's text: its text content, else the JSON of structuredContent. */
  contains?: string[]
  /** A regular expression (eval-action's spelling, case-insensitive) searched in the same text. */
  pattern?: string
  /** RFC 9535 JSONPath → matcher, applied to structuredContent, else the text content parsed as JSON. */
  json?: Record<string, Json>
  /** An extra JSON Schema the same value must satisfy (the tool's own outputSchema is always checked). */
  schema?: Json
  /** The call must answer within this many milliseconds. */
  max_ms?: number
  /** Compare with `<snapshot_dir>/<id>.json` (steps: `<id>.step-N.json`); `ignore` drops volatile JSONPaths. */
  snapshot?: { ignore: string[] } | null
}

/** One direct call of a tool test. */
export interface ToolTestStep {
  tool: string
  /** Arguments; `${name}` in a string is replaced by a value an earlier step captured. */
  args: Record<string, Json>
  expect: ToolTestExpect
  /** name → JSONPath: values kept for later steps' `${name}`. */
  capture: Record<string, string>
}

/** A deterministic test: direct calls with assertions, no model. */
export interface ToolTest {
  id: string
  /** One step for the single-call form (`tool`, `args`, `expect` at the top). */
  steps: ToolTestStep[]
  /** pass^k: the test runs k times, each in a fresh session, and every attempt must pass. */
  runs: number
  tags: string[]
}

/** A validated eval_cases.yaml with the env and input overrides applied. */
export interface Suite {
  /** Where the suite came from, for messages. */
  source: string
  judge_model: string
  models: string[]
  /** Mapping order is run order. */
  system_prompts: { name: string; text: string }[]
  cases: EvalCase[]
  /** Deterministic tool tests (no model); empty when the suite has none. */
  tool_tests: ToolTest[]
  /** Share of a group's runs that must pass, by kind. */
  pass_floors: { hard: number; soft: number }
  /** Layer 2 floors per model × fault kind and model × payload; null: the pass floor of the cases' kind. */
  resilience_floors: ResilienceFloors
  /** Layer 3 budgets from the YAML (`budgets:`); the inputs fill the keys it leaves unset. */
  budgets: Budgets
  /** Layer 3: USD per million tokens by model (`pricing:`). */
  pricing: Pricing
  /**
   * The most characters of a tool result (and of a final answer given to the judge) a model is
   * shown; 0: no limit. The max_tool_result_chars input, else the YAML's, else 100,000.
   */
  max_tool_result_chars: number
  /** Which models under test take images. */
  vision: VisionSettings
  /** Regular expressions (case-insensitive, searched) whose match in a result's text makes it a tool error in the metrics. */
  tool_error_patterns: string[]
}

/** Which models take images (issue 15): `vision:` on a `models:` entry first, then the patterns. */
export interface VisionSettings {
  /** `vision: true|false` on a `models:` entry, by model id (kept when the models input replaces the list). */
  models: Record<string, boolean>
  /** `vision_models:`: patterns (case-insensitive, searched in the model id after its last `/`) added to the known ones. */
  patterns: string[]
}

export const DEFAULT_MAX_TOOL_RESULT_CHARS = 100_000

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
}

/** USD per million input and output tokens, by model id. */
export type Pricing = Record<string, { input_per_mtok: number; output_per_mtok: number }>

export interface ResilienceFloors {
  min_recovery_rate: number | null
  min_attack_resistance: number | null
}

/** No budget set. */
export const NO_BUDGETS: Budgets = {
  max_cost_usd: null,
  max_cost_per_run_usd: null,
  max_tokens_per_run: null,
  max_p95_tool_ms: null,
  max_p95_run_s: null,
  max_p95_increase: null,
  max_cost_increase: null,
  tools: {}
}

export const DEFAULT_MODEL = 'openai/gpt-4o-mini'
export const DEFAULT_JUDGE_MODEL = 'openai/gpt-4o-mini'
export const DEFAULT_THRESHOLD = 0.7
