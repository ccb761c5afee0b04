import { createHash } from 'node:crypto'
import type { ServerConfig } from '../config/types.js'
import { describeResponse, errorCode, failed, isObject, passed, resultOf, skipped, type CheckSpec } from './checks/common.js'
import {
  HTTP_GET_DELETE,
  HTTP_METHOD_HEADER,
  HTTP_NAME_HEADER,
  HTTP_NO_SESSION,
  HTTP_UNKNOWN_METHOD,
  HTTP_VERSION_HEADER,
  MISSING_ENVELOPE,
  MISSING_RESOURCE,
  MISSING_VERSION,
  RETIRED_CODES,
  UNSUPPORTED_VERSION,
  checkHttp,
  checkMissingEnvelope,
  checkMissingResource,
  checkRetiredCodes,
  checkUnknownTool,
  checkUnsupportedVersion
} from './checks/errors.js'
import {
  CACHE_FIELDS,
  DISCOVER_CAPABILITIES,
  DISCOVER_RESPONDS,
  DISCOVER_SERVER_INFO,
  DISCOVER_VERSIONS,
  RESULT_TYPE,
  checkCacheFields,
  checkDiscover,
  checkResultType,
  checkToolsOrder
} from './checks/results.js'
import { checkSchemas, checkToolNames, lintTools, listedTools, type Tool } from './checks/schemas.js'
import { probeServer, type ProbeData, type ProbeOptions } from './probe.js'
import { META, MODERN_VERSION, type CheckResult, type ConformanceReport, type ToolFingerprint } from './types.js'

export const LEGACY_INITIALIZE: CheckSpec = { id: 'legacy-initialize', severity: 'error', spec: '2025-11-25 lifecycle: initialize' }

/** Layer 0: probe the server on the wire and check it against the 2026-07-28 revision. No LLM. */
export async function runConformance(config: ServerConfig, options: ProbeOptions = {}): Promise<ConformanceReport> {
  const started = performance.now()
  const probe = await probeServer(config, options)
  const report = evaluateProbe(probe)
  return { ...report, duration_ms: Math.round(performance.now() - started) }
}

/** The checks, as a pure function of what the probes saw. */
export function evaluateProbe(probe: ProbeData): ConformanceReport {
  const report = probe.era === 'modern' ? modernReport(probe) : legacyReport(probe)
  return { ...report, tools: fingerprintTools(listedTools(probe)) }
}

/** Hashes of what a model reads of each tool; key order does not change a schema's hash. */
export function fingerprintTools(tools: Tool[] | undefined): ToolFingerprint[] | null {
  if (!tools) return null
  const sha = (value: unknown) => createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 12)
  return tools
    .map((t) => ({
      name: t.name,
      description_sha: sha(typeof t.description === 'string' ? t.description : ''),
      input_schema_sha: sha(t.inputSchema ?? null),
      output_schema_sha: t.outputSchema === undefined ? null : sha(t.outputSchema)
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (isObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`
  return JSON.stringify(value) ?? 'null'
}

/** The checks for a modern server, in report order; each is a pure function of the probes. */
export const MODERN_CHECKS: [string, (probe: ProbeData) => CheckResult | CheckResult[]][] = [
  ['discover', checkDiscover],
  ['tools order', checkToolsOrder],
  ['cache fields', checkCacheFields],
  ['result type', checkResultType],
  ['schemas', checkSchemas],
  ['tool names', checkToolNames],
  ['unknown tool', checkUnknownTool],
  ['unsupported version', checkUnsupportedVersion],
  ['missing envelope', checkMissingEnvelope],
  ['missing resource', checkMissingResource],
  ['retired codes', checkRetiredCodes],
  ['HTTP binding', checkHttp],
  ['description lint', lintTools]
]

function modernReport(probe: ProbeData): Omit<ConformanceReport, 'tools'> {
  const checks = MODERN_CHECKS.flatMap(([, check]) => check(probe))
  const info = resultOf(probe.discover)?._meta
  return {
    era: 'modern',
    negotiated_version: MODERN_VERSION,
    transport: probe.transport,
    server_info: serverInfo(isObject(info) ? info[META.serverInfo] : undefined),
    duration_ms: 0,
    checks,
    migration: [],
    error: null
  }
}

const MODERN_ONLY = [
  DISCOVER_RESPONDS,
  DISCOVER_VERSIONS,
  DISCOVER_CAPABILITIES,
  DISCOVER_SERVER_INFO,
  CACHE_FIELDS,
  RESULT_TYPE,
  UNSUPPORTED_VERSION,
  MISSING_ENVELOPE,
  MISSING_VERSION,
  RETIRED_CODES,
  HTTP_METHOD_HEADER,
  HTTP_NAME_HEADER,
  HTTP_VERSION_HEADER,
  HTTP_GET_DELETE,
  HTTP_NO_SESSION,
  HTTP_UNKNOWN_METHOD
]

/**
 * A 2025-era server is not simply failed: it is held to what its era requires (handshake,
 * schemas, ordering, error shapes) and told what to change for 2026-07-28.
 */
function legacyReport(probe: ProbeData): Omit<ConformanceReport, 'tools'> {
  const init = probe.initialize
  const initResult = resultOf(init)
  const version = typeof initResult?.protocolVersion === 'string' ? initResult.protocolVersion : null
  if (!init || !initResult) {
    const reason = `the server answered neither server/discover (${describeResponse(probe.discover)}) nor initialize (${init ? describeResponse(init) : 'not sent'})`
    return {
      era: 'legacy',
      negotiated_version: null,
      transport: probe.transport,
      server_info: null,
      duration_ms: 0,
      checks: [failed(LEGACY_INITIALIZE, reason, init ?? probe.discover)],
      migration: [],
      error: reason
    }
  }
  const migration: string[] = [
    `Implement server/discover: answer with resultType "complete", supportedVersions ["${MODERN_VERSION}"], capabilities, ttlMs, cacheScope, and serverInfo in _meta (§2). Today server/discover gets ${describeResponse(probe.discover)}.`,
    'Serve requests without initialize: read protocolVersion and clientCapabilities from params._meta on every request, answer -32602 when they are missing and -32022 (with data.supported and data.requested) for an unsupported version (§1, §3, §5).',
    'Add resultType: "complete" to every result (§7).',
    'Add ttlMs (integer ≥ 0) and cacheScope ("public" or "private") to tools/list, prompts/list, resources/list, resources/templates/list and resources/read results (§6).'
  ]
  const unknown = checkUnknownTool(probe)
  if (unknown.status !== 'pass') {
    migration.push(`Answer a call of an unknown tool with the JSON-RPC error -32602, not ${describeResponse(probe.unknownTool!)} (§5).`)
  }
  const missing = probe.missingResource
  const missingCheck = checkMissingResource(probe)
  if (missing && errorCode(missing) === -32002) migration.push('Answer a read of a missing resource with -32602; -32002 is retired (§5).')
  else if (missing && missingCheck.status !== 'pass') migration.push(`Answer a read of a missing resource with -32602, not ${describeResponse(missing)} (§5).`)
  const dialects = new Set((listedTools(probe) ?? []).map((t) => (isObject(t.inputSchema) && typeof t.inputSchema.$schema === 'string' ? t.inputSchema.$schema : null)).filter(Boolean))
  const old = [...dialects].filter((d) => !String(d).includes('2020-12'))
  if (old.length) migration.push(`Move tool schemas to JSON Schema 2020-12 (the default when $schema is absent); they declare ${old.join(', ')} (§8).`)
  if (probe.transport === 'http') {
    migration.push('Over HTTP: stop minting Mcp-Session-Id, answer GET and DELETE with 405, require Mcp-Method (and Mcp-Name on tools/call, resources/read, prompts/get) and answer violations with 400 + -32020 (§4).')
  }
  migration.push('With the TypeScript SDK, @modelcontextprotocol/server 2.x builds a 2026-07-28 server (and still serves 2025 clients) from the same registrations.')

  const checks: CheckResult[] = [
    version ? passed(LEGACY_INITIALIZE, `initialize → protocolVersion ${version}`, init) : failed(LEGACY_INITIALIZE, 'initialize result has no protocolVersion', init),
    checkToolsOrder(probe),
    ...checkSchemas(probe),
    ...checkToolNames(probe),
    // In 2025 an isError result for an unknown tool was common practice: a warning, and a migration step.
    unknown.status === 'fail' ? { ...unknown, severity: 'warning', status: 'warn', message: `${unknown.message} (required from 2026-07-28)` } : unknown,
    missing && errorCode(missing) === -32002 ? passed(MISSING_RESOURCE, 'missing resource → -32002 (legal before 2026-07-28)', missing) : missingCheck,
    ...lintTools(probe),
    ...MODERN_ONLY.map((spec) => skipped(spec, 'legacy server: applies from 2026-07-28'))
  ]
  return {
    era: 'legacy',
    negotiated_version: version,
    transport: probe.transport,
    server_info: serverInfo(initResult.serverInfo),
    duration_ms: 0,
    checks,
    migration,
    error: null
  }
}

function serverInfo(value: unknown): ConformanceReport['server_info'] {
  return isObject(value) && typeof value.name === 'string' ? { name: value.name, version: typeof value.version === 'string' ? value.version : '' } : null
}

export type FailOn = 'error' | 'warning' | 'never'

/** The conformance gate: fail on error-severity failures (default), on warnings too, or never. */
export function conformancePassed(report: ConformanceReport, failOn: FailOn): boolean {
  if (failOn === 'never') return true
  if (report.error) return false
  return !report.checks.some((c) => c.status === 'fail' || (failOn === 'warning' && c.status === 'warn'))
}
