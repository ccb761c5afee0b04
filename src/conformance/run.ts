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
import { HEADER_MARKERS, HTTP_PARAM_HEADER, checkHeaderMarkers, checkParamHeaders } from './checks/param-headers.js'
import {
  CAPABILITIES_COMPLETE,
  CAPABILITIES_HONEST,
  PAGINATION,
  checkCapabilities,
  checkDnsRebinding,
  checkErrorResponseIds,
  checkInvalidArguments,
  checkPagination,
  checkReachable
} from './checks/probes.js'
import { checkSchemas, checkTaskSupport, checkToolNames, lintTools, listedTools, type Tool } from './checks/schemas.js'
import { checkToolPoisoning } from './checks/tool-poisoning.js'
import { checkOneResponse } from './checks/responses.js'
import { checkModules } from './checks/modules.js'
import { checkAuth } from './checks/auth.js'
import { LIST_MAX_PAGES, probeServer, type EraVerdict, type ProbeData, type ProbeOptions } from './probe.js'
import { META, MODERN_VERSION, type CheckResult, type ConformanceReport, type ToolFingerprint } from './types.js'
import type { FailOn } from '../results/primitives.js'
import type { ExpectedFailures } from '../results/conformance.js'
import { blockingEntries } from './expected-failures.js'

export const LEGACY_INITIALIZE: CheckSpec = { id: 'legacy-initialize', severity: 'error', spec: '2025-11-25 lifecycle: initialize' }

/** Layer 0: probe the server on the wire and check it against the 2026-07-28 revision. No LLM. */
export async function runConformance(config: ServerConfig, options: ProbeOptions = {}): Promise<ConformanceReport> {
  const started = performance.now()
  const probe = await probeServer(config, options)
  const report = evaluateProbe(probe)
  return { ...report, duration_ms: Math.round(performance.now() - started) }
}

/** Conformance under way: its era verdict first, the report when every probe is done. */
export interface StartedConformance {
  /** Settles with the probe's first step (or rejects with the probe's failure, should it fail before). */
  era: Promise<EraVerdict>
  report: Promise<ConformanceReport>
}

/**
 * Layer 0 started, not awaited: the behaviour runs and tool tests use processes of their own, so
 * they start once the server is known reachable (and its era with it) while the other probes go on.
 */
export function startConformance(config: ServerConfig, options: Omit<ProbeOptions, 'onEra'> = {}): StartedConformance {
  let settle!: (verdict: EraVerdict) => void
  let fail!: (error: unknown) => void
  const era = new Promise<EraVerdict>((resolve, reject) => ((settle = resolve), (fail = reject)))
  const report = runConformance(config, { ...options, onEra: (verdict) => settle(verdict) })
  // Settled at the latest with the report (a promise settles once: the later calls are no-ops);
  // a probe that throws before its first step is done fails the era too.
  report.then((done) => settle(eraOfReport(done)), fail)
  return { era, report }
}

/** The era verdict a finished report gives (its discover result is not kept: the sessions negotiate). */
function eraOfReport(report: ConformanceReport): EraVerdict {
  if (report.era === 'unreachable') return { era: 'unreachable', reason: report.error ?? 'no answer' }
  return report.era === 'legacy' ? { era: 'legacy' } : { era: 'modern', discover: null }
}

/** The checks, as a pure function of what the probes saw. */
export function evaluateProbe(probe: ProbeData): ConformanceReport {
  if (probe.era === 'unreachable') return unreachableReport(probe)
  const report = probe.era === 'modern' ? modernReport(probe) : legacyReport(probe)
  return { ...report, unreachable: null, tools: fingerprintTools(listedTools(probe)) }
}

/**
 * Nothing to check: the server did not start, refused us (401, 403, 5xx), or never answered
 * either handshake. One failing check says why (and, for a 401, the auth checks what the refusal
 * is worth); there is no era, so no migration either.
 */
function unreachableReport(probe: ProbeData): ConformanceReport {
  const { reason, exchange: _exchange, ...unreachable } = probe.unreachable ?? { reason: 'the server could not be reached', exchange: probe.discover, http_status: null, body: null, cause: null, stderr: null, stdout: null }
  return {
    era: 'unreachable',
    negotiated_version: null,
    transport: probe.transport,
    server_info: null,
    duration_ms: 0,
    // A 401 also says whether the refusal is a proper one (its challenge, its metadata) and how to pass a token.
    checks: [checkReachable(probe), ...(probe.auth ? checkAuth(probe) : [])],
    migration: [],
    error: reason,
    unreachable,
    tools: null
  }
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
  ['reachable', checkReachable],
  ['discover', checkDiscover],
  ['capabilities', checkCapabilities],
  ['tools order', checkToolsOrder],
  ['cache fields', checkCacheFields],
  ['pagination', (probe) => checkPagination(probe, LIST_MAX_PAGES)],
  ['result type', checkResultType],
  ['schemas', checkSchemas],
  ['tool names', checkToolNames],
  ['x-mcp-header markers', checkHeaderMarkers],
  ['task support', checkTaskSupport],
  ['unknown tool', checkUnknownTool],
  ['invalid arguments', checkInvalidArguments],
  ['unsupported version', checkUnsupportedVersion],
  ['missing envelope', checkMissingEnvelope],
  ['missing resource', checkMissingResource],
  ['retired codes', checkRetiredCodes],
  ['error ids', (probe) => checkErrorResponseIds(probe)],
  ['one response', checkOneResponse],
  ['HTTP binding', checkHttp],
  ['Mcp-Param headers', checkParamHeaders],
  ['DNS rebinding', checkDnsRebinding],
  ['description lint', lintTools],
  ['tool poisoning', checkToolPoisoning],
  ['probe modules', checkModules]
]

function modernReport(probe: ProbeData): Omit<ConformanceReport, 'tools' | 'unreachable'> {
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
  CAPABILITIES_HONEST,
  CAPABILITIES_COMPLETE,
  CACHE_FIELDS,
  PAGINATION,
  HEADER_MARKERS,
  HTTP_PARAM_HEADER,
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
function legacyReport(probe: ProbeData): Omit<ConformanceReport, 'tools' | 'unreachable'> {
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
      checks: [checkReachable(probe), failed(LEGACY_INITIALIZE, reason, init ?? probe.discover)],
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
  // Skipped when initialize declares no tools: then there is no tools/call to migrate.
  if (unknown.status === 'fail' || unknown.status === 'warn') {
    migration.push(`Answer a call of an unknown tool with the JSON-RPC error -32602, not ${describeResponse(probe.unknownTool!)} (§5).`)
  }
  const missing = probe.missingResource
  const missingCheck = checkMissingResource(probe)
  if (missing && errorCode(missing) === -32002) migration.push('Answer a read of a missing resource with -32602; -32002 is retired (§5).')
  else if (missing && missingCheck.status !== 'pass') migration.push(`Answer a read of a missing resource with -32602, not ${describeResponse(missing)} (§5).`)
  const dialects = new Set((listedTools(probe) ?? []).map((t) => (isObject(t.inputSchema) && typeof t.inputSchema.$schema === 'string' ? t.inputSchema.$schema : null)).filter(Boolean))
  const old = [...dialects].filter((d) => !String(d).includes('2020-12'))
  if (old.length) migration.push(`Move tool schemas to JSON Schema 2020-12 (the default when $schema is absent); they declare ${old.join(', ')} (§8).`)
  const invalid = checkInvalidArguments(probe)
  if (invalid.status === 'fail') migration.push('Answer tool arguments that break the inputSchema with a result with isError: true (the model reads it and retries), not a JSON-RPC error (§5).')
  const rebinding = checkDnsRebinding(probe)
  if (rebinding.status === 'fail') migration.push('Over HTTP: answer a request whose Origin header is not your own with 403, to stop DNS rebinding, and bind a local server to 127.0.0.1 (§4).')
  if (probe.transport === 'http') {
    migration.push(
      'Over HTTP: stop minting Mcp-Session-Id on 2026-07-28 requests, require Mcp-Method (and Mcp-Name on tools/call, resources/read, prompts/get) and answer violations with 400 + -32020; answer GET and DELETE with 405 once you serve 2026-07-28 only (a dual-era server keeps them for its 2025 sessions) (§4).'
    )
  }
  // Nothing on the wire tells a v1 SDK server from a 2.x one that still connects a 2025-era
  // transport (both answer server/discover with -32601 and initialize with 2025-11-25), and
  // serverInfo is self-reported: the step is worded for both.
  migration.push(
    probe.transport === 'http'
      ? 'With the TypeScript SDK: serve the server through createMcpHandler from @modelcontextprotocol/server 2.x, which answers 2026-07-28 requests and still serves 2025 clients from the same factory. A 2.x server that still connects a 2025-era transport (a StreamableHTTPServerTransport with sessions) speaks 2025-11-25 only: switch it to createMcpHandler.'
      : 'With the TypeScript SDK: serve the server with serveStdio from @modelcontextprotocol/server/stdio (2.x), which answers 2026-07-28 requests and still serves 2025 clients from the same factory. A 2.x server that still calls server.connect(new StdioServerTransport()) speaks 2025-11-25 only: switch it to serveStdio.'
  )

  // 2025-11-25 already made argument validation failures isError results; before it they were protocol errors.
  const argumentsRuleApplies = version !== null && version >= '2025-11-25'
  const checks: CheckResult[] = [
    checkReachable(probe),
    version ? passed(LEGACY_INITIALIZE, `initialize → protocolVersion ${version}`, init) : failed(LEGACY_INITIALIZE, 'initialize result has no protocolVersion', init),
    checkToolsOrder(probe),
    ...checkSchemas(probe),
    ...checkToolNames(probe),
    checkTaskSupport(probe),
    // In 2025 an isError result for an unknown tool was common practice: a warning, and a migration step.
    unknown.status === 'fail' ? { ...unknown, severity: 'warning', status: 'warn', message: `${unknown.message} (required from 2026-07-28)` } : unknown,
    invalid.status === 'fail' && !argumentsRuleApplies ? { ...invalid, severity: 'warning', status: 'warn', message: `${invalid.message} (required from 2025-11-25)` } : invalid,
    missing && errorCode(missing) === -32002 ? passed(MISSING_RESOURCE, 'missing resource → -32002 (legal before 2026-07-28)', missing) : missingCheck,
    // The era probe is left out: a 2025 transport may refuse a request without a session before reading its id.
    checkErrorResponseIds(probe, [probe.discover]),
    checkOneResponse(probe),
    rebinding,
    ...lintTools(probe),
    checkToolPoisoning(probe),
    ...checkModules(probe),
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

export type { FailOn } from '../results/primitives.js'

/**
 * The conformance gate: fail on error-severity failures (default), on warnings too, or never. A
 * check the expected-failures file excuses (`expected`) does not fail it; an entry of that file
 * that is stale (its check passes now) or unknown (no check has its id) does.
 */
export function conformancePassed(report: ConformanceReport & { expected_failures?: ExpectedFailures | null }, failOn: FailOn): boolean {
  if (failOn === 'never') return true
  if (report.error || report.era === 'unreachable') return false
  if (blockingEntries(report).length > 0) return false
  return !report.checks.some((c) => c.status === 'fail' || (failOn === 'warning' && c.status === 'warn'))
}
