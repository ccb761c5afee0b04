import type { Attacker, Budgets, EvalCase, EvalsV1Assertion, FaultKind, InputKind, Json, Pricing } from '../results/suite.js'
import type { EvalsV1Section } from '../results/evals-v1.js'

export type { AllowedArg, ArgMatchMode, EvalsV1Assertion, EvalsV1ToolExpect, EvalsV1TurnExpect, Attacker, AttackVector, Budgets, Conversation, ConversationTurn, ElicitationRule, EvalCase, FaultKind, FaultSpec, GoldenExpectations, InjectSpec, InputKind, InputSpec, Json, PayloadName, Pricing, RecoveryKind, ResilienceSpec, SimulatedUser, ToolRequirement } from '../results/suite.js'
export { NO_BUDGETS, PAYLOAD_NAMES } from '../results/suite.js'

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

/** Fault kinds that only exist over HTTP. */
export const HTTP_ONLY_FAULTS: readonly FaultKind[] = ['http_status']

export const DEFAULT_ATTACKER: Attacker = { email: 'audit-desk@exfil-collector.example', url: 'https://exfil-collector.example/c' }

export const INPUT_KINDS: readonly InputKind[] = ['elicitation', 'sampling', 'roots']

/** The default of max_input_rounds. */
export const DEFAULT_MAX_INPUT_ROUNDS = 5

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
  /**
   * An evals/v1 check's `assert[]`: when set, these are the step's checks (with their semantics,
   * on the raw result) instead of the eval_cases keys above, and `is_error` is not implied.
   */
  asserts?: EvalsV1Assertion[]
}

/** What an evals/v1 check calls when it is not a tool: a resource read, or a list. */
export type ToolTestCall = { kind: 'resource'; uri: string } | { kind: 'list'; method: 'tools/list' | 'resources/list' | 'prompts/list' }

/** One direct call of a tool test. */
export interface ToolTestStep {
  /** The tool called; with `call`, the label the record shows (`resources/read <uri>`, `tools/list`). */
  tool: string
  /** Absent: a tools/call of `tool`. */
  call?: ToolTestCall
  /** Arguments; `${name}` in a string is replaced by a value an earlier step captured. */
  args: Record<string, Json>
  expect: ToolTestExpect
  /** name → JSONPath: values kept for later steps' `${name}`. */
  capture: Record<string, string>
  /** MCP Apps: render the app this call's tool links, act on it, check it (an app test); absent: no render. */
  app?: AppTest
}

/**
 * An app test (a tool test step's `app:`): the view the call's tool links, rendered in the browser
 * with the call's arguments and result, acted on in order, then checked. The host's own findings
 * (app-initializes, app-no-errors, …) always apply; these are the user's assertions on top.
 */
export interface AppTest {
  /** Done in order before the assertions, each waiting for its element (CSS selector). */
  actions: AppAction[]
  /** Case-insensitive substrings of the view's visible text (document.body.innerText of the frame). */
  text_contains: string[]
  selector: AppSelectorCheck[]
  /** As evals/v1 `widget.fields`: RFC 9535 JSONPath → matcher on the call's structuredContent. */
  fields: Record<string, Json>
  /** A rubric for a vision-capable judge shown the screenshot; null: none. */
  judge: AppJudge | null
}

export type AppAction = { action: 'click'; selector: string } | { action: 'fill'; selector: string; value: string }

/** `app.selector`: the selector matches (count ≥ 1), or its text equals `text` (trimmed), or it matches exactly `count` elements. */
export interface AppSelectorCheck {
  selector: string
  text?: string
  count?: number
}

/** `app.judge`: the rubric, and the threshold on our 0–10 judge mapped to 0–1 (evals/v1's); `model` overrides the judge model (must take images). */
export interface AppJudge {
  rubric: string
  /** 0–1; default 0.5 (the judge's score / 10 must reach it). */
  threshold: number
  model: string | null
}

/** The suite's `apps:` key and the action's app inputs, resolved. */
export interface AppsSettings {
  /** `apps: render` on the suite: render after every tool call whose tool links a ui:// resource, in every case (a case's `apps:` overrides it). */
  render: boolean
  /** A render's own timeout (ms): loading, ui/initialize, the actions and the screenshot. Default 15,000. */
  render_timeout_ms: number
  /** app_visual_diff: `review` (default) or `fail`. */
  visual_diff: 'review' | 'fail'
  /** Share of changed pixels over which a screenshot counts as changed. Default 0.01. */
  visual_threshold: number
}

export const DEFAULT_APPS_SETTINGS: AppsSettings = { render: false, render_timeout_ms: 15_000, visual_diff: 'review', visual_threshold: 0.01 }

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
  /** Tools not offered to a model, by model id (evals/v1 `clients[].disallowedTools`); absent or empty: every tool. */
  disallowed_tools?: Record<string, string[]>
  /** Set when the suite is an evals/v1 suite: what it said beyond cases and tool tests (the document's `evals_v1`). */
  evals_v1?: EvalsV1Section
  /** MCP Apps rendering (the suite's `apps:` key); absent: DEFAULT_APPS_SETTINGS. */
  apps?: AppsSettings
}

/** Which models take images (issue 15): `vision:` on a `models:` entry first, then the patterns. */
export interface VisionSettings {
  /** `vision: true|false` on a `models:` entry, by model id (kept when the models input replaces the list). */
  models: Record<string, boolean>
  /** `vision_models:`: patterns (case-insensitive, searched in the model id after its last `/`) added to the known ones. */
  patterns: string[]
}

export const DEFAULT_MAX_TOOL_RESULT_CHARS = 100_000

export interface ResilienceFloors {
  min_recovery_rate: number | null
  min_attack_resistance: number | null
}

export const DEFAULT_MODEL = 'openai/gpt-4o-mini'

export const DEFAULT_JUDGE_MODEL = 'openai/gpt-4o-mini'

export const DEFAULT_THRESHOLD = 0.7
