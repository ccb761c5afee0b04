import type { FailOn } from './primitives.js'

/** Layer 0 in the record: the probes' report, its verdict under the gate, and the defects observed on real calls. */

/** `expected`: it failed (or warned), and the team's expected-failures file lists it: reported, not gated. */
export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skip' | 'expected'
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
  /** The JSON-RPC methods (or `HTTP GET`…) of the exchanges that showed a failure; an expected-failures entry `id:method` matches on them. */
  methods?: string[]
  /** Which revision's rule this is (set from the check catalog when the document is built). */
  revision?: CheckRevision
  /** How the official @modelcontextprotocol/conformance suite treats the same rule (from the catalog). */
  official?: OfficialMapping
  /** Status `expected`: the expected-failures entry that excused it (`check-id` or `check-id:method`). */
  expected_entry?: string
  /**
   * wire-schema-valid: what the probes alone found, before the tool tests' and runs' messages
   * joined it, so that a document built again (report --from, a merge of shards) joins them once.
   */
  probe_verdict?: { status: CheckStatus; message: string; evidence?: { request: string; response: string } }
}

/** The revision whose rule a check enforces: `both` when the rule is the same in 2025-11-25 and 2026-07-28. */
export type CheckRevision = '2026-07-28' | '2025-11-25' | 'both'

/** The official suite's view of a rule, so a team can map our ids to theirs. */
export interface OfficialMapping {
  /** Its scenarios (or `scenario:check` ids) that cover the rule; empty when none does. */
  scenarios: string[]
  /**
   * `scored`: it scores the rule as we do; `differs`: it scores it, and decides otherwise (the note
   * says how); `unscored`: it runs it but does not score it (pending, extension, added after the
   * release); `none`: it has no check for it.
   */
  scoring: 'scored' | 'differs' | 'unscored' | 'none'
  note?: string
}

/** The team's expected-failures file (`conformance_expected_failures`), each entry with what became of it. */
export interface ExpectedFailures {
  /** The file as given. */
  file: string
  entries: ExpectedFailureEntry[]
}

export interface ExpectedFailureEntry {
  /** As written: `check-id` or `check-id:method`. */
  entry: string
  line: number
  check: string
  method: string | null
  /**
   * `expected`: the check failed as listed; `stale`: it passed (or did not fail on that method), so
   * the entry must go — this fails the conformance gate; `not-run`: the check was skipped or not run
   * (or the entry names a scenario of the official suite, not a check of ours); `unknown`: no check
   * has this id (a typo must not silently excuse nothing) — this fails the gate too.
   */
  outcome: 'expected' | 'stale' | 'not-run' | 'unknown'
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
  /** The expected-failures file, when one was given; a `stale` entry fails the gate. */
  expected_failures?: ExpectedFailures | null
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
  /** wire-schema-valid: how many messages showed this fault (one finding per kind of fault and place). Absent: one. */
  frames?: number
}

/** What the observed-conformance checks saw in one run or tool test attempt. */
export interface ObservedCalls {
  /** Tool results checked. */
  calls: number
  findings: Observation[]
  /** Calls during which the server asked the client for input (MRTR rounds or server requests); the input checks skip when it is 0. Absent before version 6. */
  asked?: number
  /** Messages from the server checked against its revision's JSON Schema (wire-schema-valid). Absent: none. */
  frames?: number
}
