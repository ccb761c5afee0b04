import { MAX_BODY_BYTES } from '../util/read-limits.js'
import { MAX_STREAM_MESSAGES, answer, networkFailure } from './wire-body.js'
import type { Exchange, WireRequest, WireResponse } from './wire-types.js'
import type { HttpWire } from './wire.js'

/**
 * Reading a long-lived stream for a short window: a `subscriptions/listen` request whose
 * notifications are collected until a deadline, then closed the way the spec says a client
 * cancels one (HTTP: close the SSE stream; stdio: `notifications/cancelled` naming the request).
 */

/** How a window ended: the deadline (we closed it), the server's answer, the server closing the stream, or a failure. */
export type StreamEnd = 'window' | 'answered' | 'ended' | 'failed'

export interface StreamExchange {
  /** The request, and what came: `response.frame` the answer when one came (an error, a graceful close), `response.messages` the rest. */
  exchange: Exchange
  /** Every JSON-RPC message in the order it came, the answer included. */
  stream: Record<string, unknown>[]
  ended: StreamEnd
}

/** What a stdio connection offers: a request with a timeout, and a notification. */
interface StdioLike {
  request(req: WireRequest, timeoutMs: number): Promise<Exchange>
  listen?(req: WireRequest, timeoutMs: number, afterFirstMs: number): Promise<Exchange>
  notify?(method: string, params?: Record<string, unknown>): void
}

/**
 * stdio: the request stays in flight for `windowMs` (the wire keeps what arrives meanwhile,
 * a subscription's notifications with it alone), then is cancelled with `notifications/cancelled`.
 * As over HTTP, the window starts when the first message arrives (at most `firstMs` after the request).
 */
export async function listenStdio(connection: StdioLike, req: WireRequest, windowMs: number, firstMs = windowMs): Promise<StreamExchange> {
  const exchange = connection.listen ? await connection.listen(req, Math.max(windowMs, firstMs), windowMs) : await connection.request(req, windowMs)
  const { frame, messages = [], timedOut } = exchange.response
  if (timedOut) connection.notify?.('notifications/cancelled', { requestId: exchange.request.id, reason: 'conformance probe: listen window over' })
  const ended: StreamEnd = timedOut ? 'window' : frame ? 'answered' : 'failed'
  // The window running out is how a listen ends, not a timeout.
  const response = { ...exchange.response }
  delete response.timedOut
  return { exchange: { ...exchange, response }, stream: [...messages, ...(frame ? [frame] : [])], ended }
}

/** The JSON of one SSE event's `data:` lines, or undefined. */
function eventJson(event: string): Record<string, unknown> | undefined {
  const data = event
    .split(/\r?\n/)
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(5).replace(/^ /, ''))
    .join('\n')
  if (!data) return undefined
  try {
    const value = JSON.parse(data) as unknown
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * HTTP: the POST, its SSE body read as it comes until `windowMs` is over (then the stream is
 * aborted: the client's cancel), the server answers the request, or it closes the stream. The
 * window starts when the first message arrives (a remote server's latency is not held against
 * it), after `firstMs` at most. A
 * body that is not SSE is read whole as any answer. Bounded like every other body (MAX_BODY_BYTES,
 * MAX_STREAM_MESSAGES kept); redirects are not followed.
 */
export async function listenHttp(wire: HttpWire, req: WireRequest, windowMs: number, firstMs = windowMs): Promise<StreamExchange> {
  const { url, request, headers, shown } = wire.prepare(req)
  const started = performance.now()
  const abort = new AbortController()
  let deadline = setTimeout(() => abort.abort(), Math.max(windowMs, firstMs))
  const done = (response: WireResponse, stream: Record<string, unknown>[], ended: StreamEnd): StreamExchange => {
    clearTimeout(deadline)
    abort.abort()
    const exchange = { method: req.method, request: { ...request, headers: shown }, response, ms: Math.round(performance.now() - started) }
    return { exchange, stream, ended }
  }
  let res: Response
  try {
    res = await fetch(url, { method: 'POST', body: JSON.stringify(request), headers, signal: abort.signal, redirect: 'manual' })
  } catch (error) {
    return done(abort.signal.aborted ? { timedOut: true } : networkFailure(error), [], abort.signal.aborted ? 'window' : 'failed')
  }
  const responseHeaders: Record<string, string> = {}
  res.headers.forEach((value, key) => (responseHeaders[key] = value))
  const sse = (responseHeaders['content-type'] ?? '').includes('text/event-stream')
  const stream: Record<string, unknown>[] = []
  let frame: WireResponse['frame']
  let text = ''
  let read = 0
  let ended: StreamEnd = 'ended'
  const reader = res.body?.getReader()
  const decoder = new TextDecoder()
  try {
    for (;;) {
      const chunk = reader ? await reader.read() : { done: true as const, value: undefined }
      if (chunk.done) break
      read += chunk.value.length
      if (read > MAX_BODY_BYTES) return done({ status: res.status, headers: responseHeaders, failure: 'the stream was cut: longer than the body limit', cause: 'answer too long' }, stream, 'failed')
      text += decoder.decode(chunk.value, { stream: true })
      if (!sse) continue
      const events = text.split(/\r?\n\r?\n/)
      text = events.pop() ?? ''
      for (const message of events.map(eventJson)) {
        if (!message) continue
        if (stream.length === 0) {
          clearTimeout(deadline)
          deadline = setTimeout(() => abort.abort(), windowMs)
        }
        if (stream.length < MAX_STREAM_MESSAGES) stream.push(message)
        if (!frame && message.id === request.id && ('result' in message || 'error' in message)) frame = message as WireResponse['frame']
      }
      if (frame) {
        ended = 'answered'
        break
      }
    }
  } catch {
    ended = abort.signal.aborted ? 'window' : 'failed'
  }
  if (!sse) {
    const whole = answer(res.status, responseHeaders, text)
    return done(whole, whole.frame ? [whole.frame] : [], whole.frame ? 'answered' : ended)
  }
  const messages = stream.filter((m) => m !== frame)
  return done({ status: res.status, headers: responseHeaders, ...(frame ? { frame } : {}), ...(messages.length ? { messages } : {}) }, stream, ended)
}
