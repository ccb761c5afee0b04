import type { Catalog } from '../catalog-types.js'
import type { ProbeData } from '../probe-data.js'
import type { RawExchange, SessionProbes } from '../probe-eras-data.js'
import { MODERN_VERSION, type CheckResult } from '../types.js'
import type { Exchange } from '../wire.js'
import { describeResponse, errorCode, failed, isObject, passed, resultOf, skipped, type CheckSpec } from './common.js'

/** Checks on the eras a server speaks: dual-era detection, removed methods, the 2025-era lifecycle. Called for every era: each check says itself when it does not apply. */

export const REMOVED_METHODS_UNKNOWN: CheckSpec = {
  id: 'removed-methods-unknown',
  severity: 'error',
  spec: '§10, §4 removed methods (initialize, ping, logging/setLevel, resources/subscribe, resources/unsubscribe) with the modern envelope → -32601 (HTTP 404)'
}
export const INITIALIZE_ERROR_NAMES_VERSIONS: CheckSpec = {
  id: 'initialize-error-names-versions',
  severity: 'warning',
  spec: 'versioning: a 2026-07-28-only server SHOULD name its supported versions in any error to initialize'
}
export const LEGACY_INITIALIZE_RESULT: CheckSpec = { id: 'legacy-initialize-result', severity: 'error', spec: '2025-11-25 lifecycle: initialize result has protocolVersion, capabilities and serverInfo {name, version}' }
export const LEGACY_PING: CheckSpec = { id: 'legacy-ping', severity: 'error', spec: '2025-11-25 ping: the receiver MUST respond promptly with an empty result' }
export const LEGACY_SET_LEVEL: CheckSpec = { id: 'legacy-logging-set-level', severity: 'error', spec: '2025-11-25 logging: a server declaring logging accepts logging/setLevel (empty result)' }
export const LEGACY_SESSION_LIFECYCLE: CheckSpec = {
  id: 'legacy-session-lifecycle',
  severity: 'error',
  spec: '2025-11-25 transports, session management: Mcp-Session-Id visible ASCII; after DELETE the session MUST get 404'
}
export const LEGACY_SESSION_REQUIRED: CheckSpec = {
  id: 'legacy-session-required',
  severity: 'warning',
  spec: '2025-11-25 transports, session management: a server that mints sessions SHOULD answer a request without Mcp-Session-Id with 400'
}
export const LEGACY_GET_STREAM: CheckSpec = { id: 'legacy-get-stream', severity: 'error', spec: '2025-11-25 transports: GET on the endpoint MUST return text/event-stream or 405' }

/** Whether a modern server also serves 2025-era sessions, and what showed it, for the messages. */
export type LegacyServing = { dual: true; version: string; why: string } | { dual: false; why: string }

/**
 * Dual-era means a 2025-11-25 client is served: the `initialize` a fresh connection sent got a
 * result. That answer is what a 2025 client gets, so it decides; discover's supportedVersions
 * is a claim, quoted when it disagrees.
 */
export function legacyServing(probe: ProbeData): LegacyServing {
  const init = probe.eras?.legacyInitialize
  const supported = resultOf(probe.discover)?.supportedVersions
  const claimed = Array.isArray(supported) ? supported.filter((v): v is string => typeof v === 'string' && v < MODERN_VERSION) : []
  const claim = claimed.length ? `; server/discover lists ${claimed.join(', ')}` : ''
  if (!init) return { dual: false, why: `initialize not probed${claim}` }
  const version = resultOf(init)?.protocolVersion
  if (resultOf(init)) return { dual: true, version: typeof version === 'string' ? version : 'a 2025 version', why: `initialize (2025-11-25) on a fresh connection → a result${typeof version === 'string' ? ` (protocolVersion ${version})` : ''}` }
  return { dual: false, why: `initialize (2025-11-25) on a fresh connection → ${describeResponse(init)}${claim ? `${claim} (a claim initialize does not bear out)` : ''}` }
}

export function checkEras(probe: ProbeData): CheckResult[] {
  return [checkRemovedMethods(probe), checkInitializeError(probe), checkInitializeResult(probe), checkPing(probe), checkSetLevel(probe), ...checkSession(probe)]
}

const LEGACY_ONLY = 'legacy server: applies from 2026-07-28'
const notModern = (probe: ProbeData) => (probe.era === 'unreachable' ? 'server unreachable' : LEGACY_ONLY)

function checkRemovedMethods(probe: ProbeData): CheckResult {
  if (probe.era !== 'modern') return skipped(REMOVED_METHODS_UNKNOWN, notModern(probe))
  const removed = probe.eras?.removed
  if (!removed?.length) return skipped(REMOVED_METHODS_UNKNOWN, 'not probed')
  const serving = legacyServing(probe)
  const http = probe.transport === 'http'
  const unknown = (e: Exchange) => errorCode(e) === -32601 && (!http || e.response.status === 404)
  // A dual-era server may take initialize, even one carrying the envelope, for a 2025 client's:
  // held to the rule only when it answers as unknown anyway (as the SDK's createMcpHandler does).
  const initialize = removed.find((e) => e.method === 'initialize')
  const leftOut = serving.dual && initialize && !unknown(initialize) ? initialize : undefined
  const held = removed.filter((e) => e !== leftOut)
  const expected = http ? 'HTTP 404 with -32601' : '-32601'
  const wrong = held.find((e) => !unknown(e))
  const note = leftOut ? ` (initialize left out: it got ${describeResponse(leftOut)}, and this server also serves 2025-11-25 clients, ${serving.why})` : ''
  if (wrong) return failed(REMOVED_METHODS_UNKNOWN, `${wrong.method} with the 2026-07-28 envelope got ${describeResponse(wrong)}; a method 2026-07-28 removed is unknown: expected ${expected}${note}`, wrong)
  return passed(REMOVED_METHODS_UNKNOWN, `${held.map((e) => e.method).join(', ')} with the 2026-07-28 envelope → ${expected}${note}`)
}

function checkInitializeError(probe: ProbeData): CheckResult {
  if (probe.era !== 'modern') return skipped(INITIALIZE_ERROR_NAMES_VERSIONS, notModern(probe))
  const init = probe.eras?.legacyInitialize
  if (!init) return skipped(INITIALIZE_ERROR_NAMES_VERSIONS, 'not probed')
  const serving = legacyServing(probe)
  if (serving.dual) return skipped(INITIALIZE_ERROR_NAMES_VERSIONS, `dual-era server: ${serving.why}`)
  const error = init.response.frame?.error
  const data = isObject(error?.data) ? error.data : {}
  const named = (Array.isArray(data.supported) && data.supported.includes(MODERN_VERSION)) || `${error?.message ?? ''} ${init.response.body ?? ''}`.includes(MODERN_VERSION)
  if (named) return passed(INITIALIZE_ERROR_NAMES_VERSIONS, `initialize (2025-11-25) → ${describeResponse(init)}, naming ${MODERN_VERSION}`, init)
  return failed(
    INITIALIZE_ERROR_NAMES_VERSIONS,
    `initialize (2025-11-25) got ${describeResponse(init)}, which does not name ${MODERN_VERSION}: a 2025 client has no other way to tell its user which version to use (e.g. -32022 with data.supported)`,
    init
  )
}

/** The initialize that opened the 2025 side: a legacy server's own, or a dual-era server's. */
function legacyInitializeOf(probe: ProbeData): Exchange | undefined {
  if (probe.era === 'legacy') return probe.initialize
  return legacyServing(probe).dual ? probe.eras?.legacyInitialize : undefined
}

/** Why a 2025-era check does not apply to this server. */
function noLegacySide(probe: ProbeData): string {
  if (probe.era === 'unreachable') return 'server unreachable'
  const serving = legacyServing(probe)
  return `this server serves 2026-07-28 only (${serving.why}): the 2025-11-25 lifecycle does not apply`
}

/** "ping …" for a legacy server, "the 2025-11-25 side (dual-era): ping …" for a dual-era one. */
const on = (probe: ProbeData, text: string) => (probe.era === 'legacy' ? text : `the 2025-11-25 side (dual-era): ${text}`)

function checkInitializeResult(probe: ProbeData): CheckResult {
  const init = legacyInitializeOf(probe)
  if (!init) return skipped(LEGACY_INITIALIZE_RESULT, noLegacySide(probe))
  const result = resultOf(init)
  if (!result) return skipped(LEGACY_INITIALIZE_RESULT, `initialize got ${describeResponse(init)} (legacy-initialize's finding)`)
  const info = result.serverInfo
  const problems = [
    typeof result.protocolVersion === 'string' ? '' : 'no protocolVersion (string)',
    isObject(result.capabilities) ? '' : 'no capabilities (object)',
    isObject(info) && typeof info.name === 'string' && typeof info.version === 'string' ? '' : 'no serverInfo with name and version (strings)'
  ].filter(Boolean)
  if (problems.length) return failed(LEGACY_INITIALIZE_RESULT, on(probe, `initialize result has ${problems.join(', ')}`), init)
  return passed(LEGACY_INITIALIZE_RESULT, on(probe, `initialize → protocolVersion ${String(result.protocolVersion)}, capabilities, serverInfo ${String((info as Record<string, unknown>).name)}`), init)
}

/** An empty result: no member but `_meta`. */
const isEmptyResult = (result: Record<string, unknown> | undefined) => !!result && Object.keys(result).every((k) => k === '_meta')

function checkPing(probe: ProbeData): CheckResult {
  const ping = legacyInitializeOf(probe) ? probe.eras?.legacy?.ping : undefined
  if (!legacyInitializeOf(probe)) return skipped(LEGACY_PING, noLegacySide(probe))
  if (!ping) return skipped(LEGACY_PING, 'not probed')
  const result = resultOf(ping)
  if (isEmptyResult(result)) return passed(LEGACY_PING, on(probe, `ping → an empty result`), ping)
  if (result) return failed(LEGACY_PING, on(probe, `ping got a result with ${Object.keys(result).join(', ')}; expected an empty result {}`), ping)
  return failed(LEGACY_PING, on(probe, `ping got ${describeResponse(ping)}; expected an empty result {}`), ping)
}

function checkSetLevel(probe: ProbeData): CheckResult {
  const init = legacyInitializeOf(probe)
  if (!init) return skipped(LEGACY_SET_LEVEL, noLegacySide(probe))
  const capabilities = resultOf(init)?.capabilities
  if (!isObject(capabilities) || !capabilities.logging) return skipped(LEGACY_SET_LEVEL, 'initialize declares no logging capability')
  const exchange = probe.eras?.legacy?.setLevel
  if (!exchange) return skipped(LEGACY_SET_LEVEL, 'not probed')
  if (isEmptyResult(resultOf(exchange))) return passed(LEGACY_SET_LEVEL, on(probe, `logging/setLevel (debug) → an empty result`), exchange)
  return failed(LEGACY_SET_LEVEL, on(probe, `logging/setLevel (debug) got ${describeResponse(exchange)}, though initialize declares logging; expected an empty result`), exchange)
}

/** A raw exchange as evidence. */
const asExchange = (raw: RawExchange): Exchange => ({ method: raw.method, request: raw.sent, response: raw.got })
const statusOf = (raw: RawExchange | undefined) => raw?.got.status
const describeRaw = (raw: RawExchange) => describeResponse(asExchange(raw))

function checkSession(probe: ProbeData): CheckResult[] {
  const specs = [LEGACY_SESSION_LIFECYCLE, LEGACY_SESSION_REQUIRED, LEGACY_GET_STREAM]
  if (probe.transport !== 'http') return specs.map((s) => skipped(s, 'stdio server: no HTTP sessions'))
  if (!legacyInitializeOf(probe)) return specs.map((s) => skipped(s, noLegacySide(probe)))
  const session = probe.eras?.legacy?.session
  if (!session) return specs.map((s) => skipped(s, 'not probed'))
  if (!session.sessionId) {
    const why = resultOf(session.initialize) ? 'initialize minted no Mcp-Session-Id: a 2025 server without sessions (allowed)' : `initialize got ${describeResponse(session.initialize)}`
    return specs.map((s) => skipped(s, why))
  }
  return [lifecycle(session), required(session), getStream(session)]
}

function lifecycle(session: SessionProbes): CheckResult {
  const id = session.sessionId ?? ''
  if (!/^[\x21-\x7e]+$/.test(id)) return failed(LEGACY_SESSION_LIFECYCLE, `initialize minted Mcp-Session-Id ${JSON.stringify(id)}: it must contain only visible ASCII (0x21–0x7E)`, session.initialize)
  const initialized = session.initialized
  if (initialized && !(statusOf(initialized)! >= 200 && statusOf(initialized)! < 300)) {
    return failed(LEGACY_SESSION_LIFECYCLE, `notifications/initialized on the session got ${describeRaw(initialized)}; expected 202 Accepted`, asExchange(initialized))
  }
  const withSession = session.withSession
  if (withSession && !withSession.response.frame?.result) {
    return failed(LEGACY_SESSION_LIFECYCLE, `${withSession.method} on the new session got ${describeResponse(withSession)}; expected a result`, withSession)
  }
  const deleted = session.delete
  if (!deleted) return skipped(LEGACY_SESSION_LIFECYCLE, 'DELETE not probed')
  const status = statusOf(deleted)
  if (status === 405) return passed(LEGACY_SESSION_LIFECYCLE, `session ${id} minted; DELETE → 405: this server does not let clients end sessions (allowed), so the 404 after it does not apply`)
  if (status === undefined || !((status >= 200 && status < 300) || status === 404)) {
    return failed(LEGACY_SESSION_LIFECYCLE, `DELETE of session ${id} got ${describeRaw(deleted)}; expected 2xx (ended) or 405 (clients may not end sessions)`, asExchange(deleted))
  }
  const after = session.afterDelete
  if (!after) return skipped(LEGACY_SESSION_LIFECYCLE, 'the request after DELETE was not probed')
  if (statusOf(after) !== 404) {
    return failed(LEGACY_SESSION_LIFECYCLE, `after DELETE of session ${id} (HTTP ${status}), ${after.method} with that Mcp-Session-Id got ${describeRaw(after)}; an ended session MUST get HTTP 404`, asExchange(after))
  }
  return passed(LEGACY_SESSION_LIFECYCLE, `session ${id} minted on initialize, served, DELETE → HTTP ${status}, then ${after.method} with its id → 404`, asExchange(after))
}

function required(session: SessionProbes): CheckResult {
  const without = session.withoutSession
  if (!without) return skipped(LEGACY_SESSION_REQUIRED, 'not probed')
  if (statusOf(without) === 400) return passed(LEGACY_SESSION_REQUIRED, `${without.method} without Mcp-Session-Id after initialize → 400`, asExchange(without))
  return failed(LEGACY_SESSION_REQUIRED, `${without.method} without Mcp-Session-Id, after initialize minted one, got ${describeRaw(without)}; expected HTTP 400`, asExchange(without))
}

function getStream(session: SessionProbes): CheckResult {
  const get = session.get
  if (!get) return skipped(LEGACY_GET_STREAM, 'not probed')
  const status = statusOf(get)
  const stream = (get.got.headers?.['content-type'] ?? '').includes('text/event-stream')
  if (status === 405) return passed(LEGACY_GET_STREAM, 'GET with the session → 405 (no standalone stream: allowed)', asExchange(get))
  if (status !== undefined && status >= 200 && status < 300 && stream) return passed(LEGACY_GET_STREAM, `GET with the session → HTTP ${status} text/event-stream`, asExchange(get))
  return failed(LEGACY_GET_STREAM, `GET with the session (Accept: text/event-stream) got ${describeRaw(get)}${get.got.headers?.['content-type'] ? ` (${get.got.headers['content-type']})` : ''}; expected an event stream or 405`, asExchange(get))
}

const METHODS_SCENARIOS = ['initialize', 'ping', 'logging-setlevel', 'resources-subscribe', 'resources-unsubscribe'].map((m) => `server-stateless:sep-2575-http-server-method-not-found-404-${m}`)

/** These checks' revisions and official-suite mapping. */
export const ERAS_CATALOG: Catalog = {
  [REMOVED_METHODS_UNKNOWN.id]: {
    revision: '2026-07-28',
    official: {
      scenarios: METHODS_SCENARIOS,
      scoring: 'differs',
      note: 'The official suite checks this over HTTP only, and expects 404 for initialize on a dual-era server too; we check stdio as well, and leave initialize out when the server serves 2025-11-25 sessions.'
    }
  },
  [INITIALIZE_ERROR_NAMES_VERSIONS.id]: { revision: '2026-07-28', official: { scenarios: [], scoring: 'none' } },
  [LEGACY_INITIALIZE_RESULT.id]: {
    revision: '2025-11-25',
    official: { scenarios: ['server-initialize'], scoring: 'scored', note: 'Scored in the 2025-11-25 requirement set; we also hold a dual-era server’s 2025 side to it.' }
  },
  [LEGACY_PING.id]: { revision: '2025-11-25', official: { scenarios: ['ping'], scoring: 'scored', note: 'Scored in the 2025-11-25 requirement set.' } },
  [LEGACY_SET_LEVEL.id]: {
    revision: '2025-11-25',
    official: { scenarios: ['logging-set-level'], scoring: 'differs', note: 'The official suite sends logging/setLevel whatever the server declares; we only when initialize declares logging.' }
  },
  [LEGACY_SESSION_LIFECYCLE.id]: {
    revision: '2025-11-25',
    official: {
      scenarios: ['server-session-lifecycle:server-session-id-visible-ascii', 'server-session-lifecycle:server-session-initialized-accepted', 'server-session-lifecycle:server-session-delete-accepted', 'server-session-lifecycle:server-session-terminated-returns-404'],
      scoring: 'unscored',
      note: 'Not scored (added after the release the requirement sets are anchored to).'
    }
  },
  [LEGACY_SESSION_REQUIRED.id]: { revision: '2025-11-25', official: { scenarios: [], scoring: 'none' } },
  [LEGACY_GET_STREAM.id]: { revision: '2025-11-25', official: { scenarios: [], scoring: 'none' } }
}
