import type { Connection, ProbeContext } from './probe-context.js'
import type { RawExchange, SessionProbes } from './probe-eras-data.js'
import { probeMethodFor } from './probe-methods.js'
import { LEGACY_VERSION } from './types.js'
import { boundedFetch } from '../util/bounded-fetch.js'
import { isObject } from '../util/objects.js'
import { answer, networkFailure } from './wire-body.js'
import type { Exchange, WireRequest, WireResponse } from './wire.js'

/**
 * A 2025-11-25 Streamable HTTP session, driven by hand (2025-11-25 transports, session
 * management): initialize mints Mcp-Session-Id, every later request carries it (and
 * MCP-Protocol-Version), DELETE ends it. The probes need what the JSON-RPC client hides: a
 * request without the session, the DELETE's own status, a request after it. `close` ends the
 * session unless a probe's DELETE already did, so every session minted is ended exactly once.
 */
export class LegacySession implements Connection {
  private nextId = 1
  sessionId: string | undefined
  private version = LEGACY_VERSION
  private ended = false

  constructor(private readonly context: ProbeContext) {}

  get timeout(): number {
    return this.context.timeout
  }

  /** initialize, then `notifications/initialized` on the session it opened (if it opened one). */
  async open(params: Record<string, unknown>): Promise<{ initialize: Exchange; initialized?: RawExchange }> {
    const initialize = await this.request({ method: 'initialize', params }, this.context.timeout)
    const result = initialize.response.frame?.result
    if (typeof result?.protocolVersion === 'string') this.version = result.protocolVersion
    this.sessionId = result ? initialize.response.headers?.['mcp-session-id'] : undefined
    if (!result) return { initialize }
    const initialized = await this.send('POST', { jsonrpc: '2.0', method: 'notifications/initialized' })
    return { initialize, initialized }
  }

  /** A JSON-RPC request on the session; `withoutSession` leaves Mcp-Session-Id out. */
  async request(req: WireRequest, timeoutMs: number, withoutSession = false): Promise<Exchange> {
    const body = { jsonrpc: '2.0', id: this.nextId++, method: req.method, ...(req.params ? { params: req.params } : {}) }
    const raw = await this.send('POST', body, timeoutMs, withoutSession)
    return { method: req.method, request: raw.sent, response: raw.got }
  }

  /** One HTTP request with the session's headers, the user's (never shown) and the rest. A GET's event stream is not read: its status and Content-Type are the answer. */
  async send(method: string, body?: Record<string, unknown>, timeoutMs = this.context.timeout, withoutSession = false): Promise<RawExchange> {
    const shown: Record<string, string> = {
      ...(method === 'POST' ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(typeof body?.method === 'string' ? { 'mcp-method': body.method } : {}) } : {}),
      ...(method === 'GET' ? { accept: 'text/event-stream' } : {}),
      ...(this.sessionId && !withoutSession ? { 'mcp-session-id': this.sessionId } : {}),
      ...(body?.method !== 'initialize' ? { 'mcp-protocol-version': this.version } : {})
    }
    const sent = { ...(method === 'POST' ? {} : { http: method }), ...(body ?? {}), headers: shown }
    const label = method === 'POST' ? String(body?.method ?? 'POST') : `HTTP ${method}`
    const config = this.context.config
    if (config.kind !== 'http') return { method: label, sent, got: { failure: 'not an HTTP server' } }
    if (method === 'DELETE') this.ended = true
    const user = Object.fromEntries(Object.entries(config.headers).map(([k, v]) => [k.toLowerCase(), v]))
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), timeoutMs)
    let got: WireResponse
    try {
      const res = await fetchBounded(new URL(config.url), { method, headers: { ...user, ...shown }, body: body ? JSON.stringify(body) : undefined, signal: controller.signal, redirect: 'manual' })
      const headers: Record<string, string> = {}
      res.headers.forEach((value, key) => (headers[key] = value))
      if (method === 'GET' && (headers['content-type'] ?? '').includes('text/event-stream')) {
        await res.body?.cancel().catch(() => undefined)
        got = { status: res.status, headers, body: '(an event stream, not read)' }
      } else got = answer(res.status, headers, await res.text())
    } catch (error) {
      got = (error as Error).name === 'AbortError' ? { timedOut: true } : networkFailure(error)
    } finally {
      clearTimeout(timer)
    }
    return { method: label, sent, got }
  }

  async close(): Promise<void> {
    if (this.sessionId && !this.ended) await this.send('DELETE', undefined, 2000)
  }
}

const fetchBounded = boundedFetch((url: URL, init?: RequestInit) => fetch(url, init), 'server')

const raw = (exchange: Exchange): RawExchange => ({ method: exchange.method, sent: exchange.request, got: exchange.response })

/**
 * The session's lifecycle, after `open`: a request on it and one without it, GET, DELETE, and
 * the request again with the ended session's id. Nothing when initialize minted no session.
 */
export async function sessionProbes(session: LegacySession, opened: { initialize: Exchange; initialized?: RawExchange }): Promise<SessionProbes> {
  const { initialize, initialized } = opened
  const sessionId = session.sessionId
  if (!sessionId) return { initialize }
  const capabilities = initialize.response.frame?.result?.capabilities
  const request: WireRequest = { method: probeMethodFor(isObject(capabilities) ? capabilities : {}, 'ping'), params: {} }
  const { timeout } = session
  const withSession = await session.request(request, timeout)
  const withoutSession = raw(await session.request(request, timeout, true))
  const get = await session.send('GET')
  const deleted = await session.send('DELETE')
  const afterDelete = raw(await session.request(request, timeout))
  return { initialize, sessionId, ...(initialized ? { initialized } : {}), withSession, withoutSession, get, delete: deleted, afterDelete }
}
