/** Layer 0: deterministic protocol conformance for MCP 2026-07-28. */

export type { CheckResult, CheckSeverity, CheckStatus, ConformanceReport, Era, ToolFingerprint, Unreachable } from '../results/conformance.js'

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
