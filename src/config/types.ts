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
    }
  | { kind: 'http'; url: string; headers: Record<string, string>; expanded?: string[]; template?: { url: string } }

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

export interface EvalCase {
  id: string
  prompt: string
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
}

export const DEFAULT_MODEL = 'openai/gpt-4o-mini'
export const DEFAULT_JUDGE_MODEL = 'openai/gpt-4o-mini'
export const DEFAULT_THRESHOLD = 0.7
