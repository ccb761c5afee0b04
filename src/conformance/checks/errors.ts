import type { ProbeData } from '../probe-data.js'
import type { CheckResult } from '../types.js'
import type { Exchange } from '../wire.js'
import { describeResponse, errorCode, failed, isObject, passed, skipped, type CheckSpec } from './common.js'
import { legacyServing } from './eras.js'
import { listExchanges } from './results.js'
import { MODERN_VERSION } from '../types.js'

/** Error paths (§5, §3) and the HTTP binding's rules (§4). */

export const UNKNOWN_TOOL: CheckSpec = { id: 'unknown-tool-error', severity: 'error', spec: '§5 unknown tool → -32602' }
export const UNSUPPORTED_VERSION: CheckSpec = { id: 'unsupported-version-error', severity: 'error', spec: '§5 unsupported version → -32022 with data.supported and data.requested' }
export const MISSING_ENVELOPE: CheckSpec = { id: 'missing-envelope-error', severity: 'error', spec: '§3 missing clientCapabilities in _meta → -32602' }
export const MISSING_VERSION: CheckSpec = {
  id: 'missing-version-error',
  severity: 'warning',
  spec: '§3 missing protocolVersion in _meta → -32602 (a dual-era server may serve it as a 2025-era request)'
}
/** The same rule over HTTP, where the request's MCP-Protocol-Version header claims 2026-07-28: no server may take it for a 2025-era request. */
export const MISSING_VERSION_CLAIMED: CheckSpec = {
  id: 'missing-version-error',
  severity: 'error',
  spec: '§3, §4 missing protocolVersion in _meta with MCP-Protocol-Version: 2026-07-28 → -32602 (HTTP 400)'
}
export const MISSING_RESOURCE: CheckSpec = { id: 'missing-resource-error', severity: 'error', spec: '§5 missing resource → -32602 (-32002 is retired)' }
export const RETIRED_CODES: CheckSpec = { id: 'retired-error-codes', severity: 'error', spec: '§5 -32001..-32004 and -32042 must not be emitted' }
export const HTTP_METHOD_HEADER: CheckSpec = { id: 'http-mcp-method-header', severity: 'error', spec: '§4 Mcp-Method required and equal to the body → else 400 + -32020' }
export const HTTP_NAME_HEADER: CheckSpec = { id: 'http-mcp-name-header', severity: 'error', spec: '§4 Mcp-Name required on tools/call, resources/read, prompts/get → else 400 + -32020' }
export const HTTP_VERSION_HEADER: CheckSpec = { id: 'http-protocol-version-header', severity: 'error', spec: '§4 MCP-Protocol-Version must equal the _meta version → else 400 + -32020' }
export const HTTP_GET_DELETE: CheckSpec = { id: 'http-get-delete-405', severity: 'warning', spec: '§4 GET and DELETE are removed (SHOULD answer 405)' }
export const HTTP_NO_SESSION: CheckSpec = { id: 'http-no-session-id', severity: 'error', spec: '§4, §10 sessions are removed: never mint Mcp-Session-Id' }
export const HTTP_UNKNOWN_METHOD: CheckSpec = { id: 'http-unknown-method-404', severity: 'error', spec: '§4 unknown method → 404 with a -32601 body' }

const RETIRED = new Set([-32001, -32002, -32003, -32004, -32042])
const UNSUPPORTED_VERSION_SENT = '2099-01-01'

/**
 * The capabilities the handshake declared (modern: discover's; legacy: initialize's), or
 * undefined when no handshake result says (a modern error code showed the era).
 */
export function declaredCapabilities(probe: ProbeData): Record<string, unknown> | undefined {
  const result = (probe.era === 'legacy' ? probe.initialize : probe.discover)?.response.frame?.result
  if (!result) return undefined
  return isObject(result.capabilities) ? result.capabilities : {}
}

export function checkUnknownTool(probe: ProbeData): CheckResult {
  const exchange = probe.unknownTool
  if (!exchange) return skipped(UNKNOWN_TOOL, 'not probed')
  const capabilities = declaredCapabilities(probe)
  if (capabilities && !capabilities.tools) {
    const handshake = probe.era === 'legacy' ? 'initialize' : 'server/discover'
    return skipped(UNKNOWN_TOOL, `${handshake} declares no tools capability: tools/call is not served (it got ${describeResponse(exchange)}), so an unknown tool's answer does not apply`)
  }
  if (errorCode(exchange) === -32602) return passed(UNKNOWN_TOOL, 'unknown tool → -32602', exchange)
  return failed(UNKNOWN_TOOL, `calling an unknown tool got ${describeResponse(exchange)}; expected error -32602`, exchange)
}

export function checkUnsupportedVersion(probe: ProbeData): CheckResult {
  const exchange = probe.unsupportedVersion
  if (!exchange) return skipped(UNSUPPORTED_VERSION, 'not probed')
  const code = errorCode(exchange)
  if (code !== -32022) {
    const note = code === -32004 ? ' (-32004 is the draft code, retired)' : ''
    return failed(UNSUPPORTED_VERSION, `${exchange.method} with protocolVersion ${UNSUPPORTED_VERSION_SENT} got ${describeResponse(exchange)}${note}; expected -32022`, exchange)
  }
  const data = exchange.response.frame?.error?.data
  if (!isObject(data) || !Array.isArray(data.supported) || data.requested !== UNSUPPORTED_VERSION_SENT) {
    return failed(UNSUPPORTED_VERSION, `-32022 without data.supported (array) and data.requested ("${UNSUPPORTED_VERSION_SENT}"): data is ${JSON.stringify(data)}`, exchange)
  }
  return passed(UNSUPPORTED_VERSION, `${exchange.method} with protocolVersion ${UNSUPPORTED_VERSION_SENT} → -32022, supported ${JSON.stringify(data.supported)}`, exchange)
}

/** -32602, and HTTP 400 over HTTP. */
function rejectedAsInvalid(exchange: Exchange): boolean {
  return errorCode(exchange) === -32602 && (exchange.response.status === undefined || exchange.response.status === 400)
}

export function checkMissingEnvelope(probe: ProbeData): CheckResult[] {
  const expected = `expected -32602${probe.transport === 'http' ? ' with HTTP 400' : ''}`
  const caps = probe.missingCapabilities
  return [
    !caps
      ? skipped(MISSING_ENVELOPE, 'not probed')
      : rejectedAsInvalid(caps)
        ? passed(MISSING_ENVELOPE, `${caps.method} without clientCapabilities → -32602`, caps)
        : failed(MISSING_ENVELOPE, `${caps.method} with protocolVersion but without clientCapabilities got ${describeResponse(caps)}; ${expected}`, caps),
    checkMissingVersion(probe)
  ]
}

/**
 * Without any version claim a request looks like a 2025-era one, which a dual-era server may
 * serve: a warning on stdio, where `_meta` is the only place a version goes. Over HTTP the probe
 * keeps `MCP-Protocol-Version: 2026-07-28`: the request claims the modern era, the excuse cannot
 * apply, and it is an error.
 */
function checkMissingVersion(probe: ProbeData): CheckResult {
  const version = probe.missingVersion
  if (!version) return skipped(MISSING_VERSION, 'not probed')
  const headers = isObject(version.request.headers) ? version.request.headers : {}
  const claimed = headers['mcp-protocol-version'] === MODERN_VERSION
  const spec = claimed ? MISSING_VERSION_CLAIMED : MISSING_VERSION
  const sent = claimed ? `${version.method} with MCP-Protocol-Version: ${MODERN_VERSION} but no protocolVersion in _meta` : `${version.method} without protocolVersion in _meta`
  if (rejectedAsInvalid(version)) return passed(spec, `${sent} → -32602${claimed ? ' with HTTP 400' : ''}`, version)
  if (claimed) {
    return failed(spec, `${sent} got ${describeResponse(version)}; expected -32602 with HTTP 400 (the header claims ${MODERN_VERSION}, so it cannot be taken for a 2025-era request, dual-era server or not)`, version)
  }
  return failed(
    spec,
    `${sent} got ${describeResponse(version)}: served as a 2025-era request (fine for a dual-era server, as nothing on stdio but _meta carries a version; a 2026-07-28-only server must answer -32602)`,
    version
  )
}

export function checkMissingResource(probe: ProbeData): CheckResult {
  const exchange = probe.missingResource
  if (!exchange) return skipped(MISSING_RESOURCE, 'the server advertises no resources')
  const code = errorCode(exchange)
  if (code === -32602) return passed(MISSING_RESOURCE, 'missing resource → -32602', exchange)
  if (code === -32002) return failed(MISSING_RESOURCE, 'missing resource → -32002, the retired code; answer -32602', exchange)
  const contents = exchange.response.frame?.result?.contents
  if (Array.isArray(contents) && contents.length === 0) return failed(MISSING_RESOURCE, 'missing resource answered with empty contents; answer -32602', exchange)
  return failed(MISSING_RESOURCE, `reading a missing resource got ${describeResponse(exchange)}; expected -32602`, exchange)
}

/**
 * Retired codes anywhere else. The exchanges owned by a specific error check are left to it, so
 * one defect is reported by one check.
 */
export function checkRetiredCodes(probe: ProbeData): CheckResult {
  const owned = new Set([probe.unknownTool, probe.unsupportedVersion, probe.missingVersion, probe.missingCapabilities, probe.missingResource])
  // The invalid-arguments calls are left to their own check too; every page of every list is not.
  const everything = [probe.discover, ...listExchanges(probe), probe.toolsListFresh, probe.resourceRead, ...Object.values(probe.http ?? {}), ...(probe.paramHeaders?.probed.map((p) => p.exchange) ?? [])]
  const hits = everything.filter((e): e is Exchange => !!e && !owned.has(e) && RETIRED.has(errorCode(e) ?? 0))
  if (hits.length) return failed(RETIRED_CODES, hits.map((e) => `${e.method} → ${errorCode(e)}`).join('; '), hits[0])
  return passed(RETIRED_CODES, 'no retired error code seen')
}

/** A header violation must be answered 400 with -32020. */
function headerRejected(exchange: Exchange): boolean {
  return exchange.response.status === 400 && errorCode(exchange) === -32020
}

function headerCheck(spec: CheckSpec, cases: [string, Exchange][]): CheckResult {
  for (const [what, exchange] of cases) {
    if (!headerRejected(exchange)) return failed(spec, `${what} got ${describeResponse(exchange)}; expected HTTP 400 with -32020`, exchange)
  }
  return passed(spec, `${cases.map(([w]) => w).join(' and ')} → 400 + -32020`)
}

/** The handshake declared none of the capabilities whose methods carry Mcp-Name (tools/call, resources/read, prompts/get). */
function namesNothing(probe: ProbeData): boolean {
  const capabilities = declaredCapabilities(probe)
  return !!capabilities && !capabilities.tools && !capabilities.resources && !capabilities.prompts
}

export function checkHttp(probe: ProbeData): CheckResult[] {
  const specs = [HTTP_METHOD_HEADER, HTTP_NAME_HEADER, HTTP_VERSION_HEADER, HTTP_GET_DELETE, HTTP_NO_SESSION, HTTP_UNKNOWN_METHOD]
  const http = probe.http
  if (!http) return specs.map((s) => skipped(s, probe.transport === 'stdio' ? 'stdio server: no HTTP binding' : 'not probed'))
  const calls = [...(probe.invalidArguments?.calls.map((c) => c.exchange) ?? []), ...(probe.paramHeaders?.probed.map((p) => p.exchange) ?? [])]
  const minted = [probe.discover, ...listExchanges(probe), probe.toolsListFresh, probe.resourceRead, probe.unknownTool, ...Object.values(http), ...calls].find(
    (e) => e?.response.headers?.['mcp-session-id']
  )
  const notAllowed = [http.get, http.delete].find((e) => e.response.status !== 405)
  const serving = legacyServing(probe)
  const unknownOk = http.unknownMethod.response.status === 404 && errorCode(http.unknownMethod) === -32601
  return [
    headerCheck(HTTP_METHOD_HEADER, [
      [`${http.missingMethodHeader.method} without Mcp-Method`, http.missingMethodHeader],
      [`${http.mismatchedMethodHeader.method} with an Mcp-Method that differs from the body`, http.mismatchedMethodHeader]
    ]),
    namesNothing(probe)
      ? skipped(HTTP_NAME_HEADER, 'server/discover declares no tools, resources or prompts: no method that carries Mcp-Name is served')
      : headerCheck(HTTP_NAME_HEADER, [
          [`${http.missingNameHeader.method} without Mcp-Name`, http.missingNameHeader],
          [`${http.mismatchedNameHeader.method} with an Mcp-Name that differs from the body`, http.mismatchedNameHeader]
        ]),
    headerCheck(HTTP_VERSION_HEADER, [[`${http.mismatchedVersionHeader.method} with an MCP-Protocol-Version that differs from _meta`, http.mismatchedVersionHeader]]),
    // The rule is for servers that support only 2026-07-28; a dual-era server's 2025 side is held to the 2025 rules (legacy-get-stream, legacy-session-lifecycle).
    serving.dual && notAllowed
      ? skipped(HTTP_GET_DELETE, `the 2025-11-25 rule applied, not this one: this server also serves ${serving.version} sessions (${serving.why}), whose GET stream and DELETE are legal; see legacy-get-stream and legacy-session-lifecycle`)
      : serving.dual
        ? passed(HTTP_GET_DELETE, `GET and DELETE → 405 (this server also serves ${serving.version} clients, ${serving.why}, without GET streams or DELETE)`)
        : notAllowed
          ? failed(HTTP_GET_DELETE, `${notAllowed.method} got ${describeResponse(notAllowed)}; expected 405: the 2026-07-28-only rule applied, as no 2025-11-25 session can be opened (${serving.why})`, notAllowed)
          : passed(
              HTTP_GET_DELETE,
              `GET and DELETE → 405: the 2026-07-28-only rule applied, as no 2025-11-25 session can be opened (${serving.why}); a request with no version at all may still be served as 2025-era, which needs neither`
            ),
    minted ? failed(HTTP_NO_SESSION, `${minted.method} answered with Mcp-Session-Id: ${minted.response.headers?.['mcp-session-id']}`, minted) : passed(HTTP_NO_SESSION, 'no Mcp-Session-Id minted'),
    unknownOk ? passed(HTTP_UNKNOWN_METHOD, 'unknown method → 404 + -32601') : failed(HTTP_UNKNOWN_METHOD, `an unknown method got ${describeResponse(http.unknownMethod)}; expected HTTP 404 with -32601`, http.unknownMethod)
  ]
}
