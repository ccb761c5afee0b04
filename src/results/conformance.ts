import type { FailOn } from './primitives.js'

/** Layer 0 in the record: the probes' report, its verdict under the gate, and the defects observed on real calls. */

export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skip'
export type CheckSeverity = 'error' | 'warning'
/** `unreachable`: the server could not be started or reached, or refused us (401, 403, 5xx); no era is known. */
export type Era = 'modern' | 'legacy' | 'unreachable'

export interface CheckResult {
  /** Stable kebab-case id: users filter and baseline by it. */
  id: string
  status: CheckStatus
  /** What a failure of this check means for the gate. */
  severity: CheckSeverity
  /** The rule it enforces: a section of the 2026-07-28 revision. */
  spec: string
  message: string
  /** A trimmed request and response that show the finding. */
  evidence?: { request: string; response: string }
}

export interface ConformanceReport {
  era: Era
  /** The revision the server speaks: 2026-07-28, or what `initialize` answered for a legacy server. */
  negotiated_version: string | null
  transport: 'stdio' | 'http'
  server_info: { name: string; version: string } | null
  duration_ms: number
  checks: CheckResult[]
  /** For a legacy server: the concrete steps to 2026-07-28, one per finding that would fail. */
  migration: string[]
  /** Set when the server could not be probed at all (did not start, refused every request). */
  error: string | null
  /** Era `unreachable`: what the attempt to reach the server got; null otherwise. */
  unreachable: Unreachable | null
  /** What the server lists as tools, fingerprinted, so a later run can say what changed; null when it listed none. */
  tools: ToolFingerprint[] | null
}

/** What a server that could not be reached answered, so the report can say why in one place. */
export interface Unreachable {
  /** HTTP status of the refusal (401, 403, 5xx); null for stdio or when no answer came. */
  http_status: number | null
  /** The first part of the HTTP body of the refusal. */
  body: string | null
  /** The error's cause: ECONNREFUSED, ENOENT (command not found), exited with code 1. */
  cause: string | null
  /** The last meaningful lines the server wrote to stderr (stdio). */
  stderr: string | null
  /** Lines the server wrote to stdout that are not JSON-RPC (started in HTTP mode by mistake?). */
  stdout: string | null
}

/** A listed tool: its name and hashes of what a model reads (a changed description is a changed tool). */
export interface ToolFingerprint {
  name: string
  description_sha: string
  input_schema_sha: string
  output_schema_sha: string | null
}

/** Layer 0 as the document holds it: the report, and its verdict under the chosen gate. */
export interface ConformanceSection extends ConformanceReport {
  fail_on: FailOn
  passed: boolean
}

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
