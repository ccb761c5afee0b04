import type { ObservedCalls } from './conformance.js'
import type { AppRender } from './apps.js'
import type { Json } from './suite.js'

/** The deterministic tool tests in the record: steps, attempts, verdicts. */

export type ToolTestStatus = 'passed' | 'failed' | 'error' | 'cancelled'

/** One assertion of a tool test step: what was expected, what came back, and why it passed or not. */
export interface AssertionCheck {
  /**
   * eval_cases checks, and an evals/v1 check's assertions by the nearest name: executionError →
   * is_error, outputSchemaValid → output_schema, and `jsonpath`, `equals`, `resource`, `widget`;
   * `call`: the call itself failed (a JSON-RPC error no assertion expected, a refused read).
   */
  check: 'is_error' | 'contains' | 'pattern' | 'json' | 'schema' | 'output_schema' | 'max_ms' | 'snapshot' | 'capture' | 'jsonpath' | 'equals' | 'resource' | 'widget' | 'call'
  /** The JSONPath, for `json`, `capture` and the evals/v1 assertions that read a path; null otherwise. */
  path: string | null
  passed: boolean
  expected: Json
  actual: Json
  reason: string
  /** `snapshot` only: a unified diff of the stored snapshot against this result. */
  diff?: string
}

/**
 * What the server answered to one tool test call: a tools/call result, a JSON-RPC error, or
 * (`value`) an evals/v1 resource read's `{contents}` or a list as the server listed it.
 */
export type StepResponse =
  | { kind: 'result'; is_error: boolean; content: Json[]; structured_content: Json | null }
  | { kind: 'error'; code: number; message: string; data: Json | null }
  | { kind: 'value'; value: Json }

/**
 * Whether a step record is an evals/v1 resource read or list rather than a tools/call, by its
 * label (`resources/read <uri>`, `tools/list`, `resources/list`, `prompts/list`): a tool name
 * has no space, and MCP's naming rules keep `/` out of one.
 */
export function isMethodStep(step: { tool: string }): boolean {
  return step.tool.startsWith('resources/read ') || /^(?:tools|resources|prompts)\/list$/.test(step.tool)
}

export interface ToolTestStepResult {
  /** 1-based. */
  index: number
  /** The tool called; for an evals/v1 resource or list check, the method and its target (`resources/read config://settings`, `tools/list`). */
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
  /** The step's `app:` test: the view its tool links, rendered and checked; absent when the step has none. Its failure fails the step. */
  app?: AppRender
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

/** The tool tests as a journal header (or a shard) plans them. */
export interface ToolTestsPlan {
  status: 'ran' | 'skipped'
  reason: string | null
  snapshot_dir: string
  /** The ids of the tests planned, in suite order. */
  ids: string[]
}
