/** Layer 0: deterministic protocol conformance for MCP 2026-07-28. */

export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skip'
export type CheckSeverity = 'error' | 'warning'
export type Era = 'modern' | 'legacy'

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
  /** What the server lists as tools, fingerprinted, so a later run can say what changed; null when it listed none. */
  tools: ToolFingerprint[] | null
}

/** A listed tool: its name and hashes of what a model reads (a changed description is a changed tool). */
export interface ToolFingerprint {
  name: string
  description_sha: string
  input_schema_sha: string
  output_schema_sha: string | null
}

export const MODERN_VERSION = '2026-07-28'
export const LEGACY_VERSION = '2025-11-25'

/** The reserved `_meta` keys of the per-request envelope (§3). */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo'
} as const

/** The modern envelope, with parts left out for the negative tests. */
export function envelope(options: { version?: string | null; capabilities?: boolean } = {}): Record<string, unknown> {
  const meta: Record<string, unknown> = { [META.clientInfo]: { name: 'mcp-server-evals-conformance', version: '1' } }
  if (options.version !== null) meta[META.protocolVersion] = options.version ?? MODERN_VERSION
  if (options.capabilities !== false) meta[META.clientCapabilities] = {}
  return meta
}
