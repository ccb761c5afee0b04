import { wrapSession } from '../mcp/wrap-session.js'
import { HTTP_ONLY_FAULTS, type FaultSpec } from '../config/types.js'
import { outcomeOf, ServerError, type McpSession, type RawCallResponse, type RawToolCall } from '../mcp/session.js'
import type { FaultRecord } from '../results/types.js'
import { waitFor } from '../util/delay.js'
import {
  DEFAULT_MESSAGES,
  errorResponse,
  FAULT_DEFAULTS,
  INTERNAL_ERROR,
  isErrorResult,
  malformedAnswer,
  paddedAnswer,
  REQUEST_TIMEOUT,
  TRANSPORT_FAILURE
} from './fault-answers.js'
import type { HttpFaults } from './http-faults.js'

export interface FaultOptions {
  /**
   * The HTTP fault layer whose `wrapFetch` this session's transport was opened with, or null
   * (stdio). With it, auth_expired, http_status and disconnect happen on the wire; without it
   * they are simulated at the result level, and http_status is refused.
   */
  http: HttpFaults | null
  /**
   * Given every real answer a faulted call showed the model through callTool (latency,
   * oversized before padding, disconnect's re-sent call), so the conformance watcher still checks
   * what the server really answered: pass `watchSession(session).check`. Unfaulted calls go
   * through the inner session's own callTool, already watched.
   */
  observe?: (call: RawToolCall) => void
}

/** A faulted call's answer, its record, and the real answer the model was shown, if any. */
interface Injected {
  raw: RawToolCall
  record: FaultRecord
  real: RawToolCall | null
}

/**
 * How long a cut stream may stay unanswered by the SDK before the call is ended here. Over JSON
 * the SDK fails the call at once (`terminated`); over SSE it reports the broken stream to
 * `onerror` and keeps waiting for a response that cannot come, until the request's own timeout.
 */
const CUT_GRACE_MS = 100

/**
 * Wraps a session so that the faults of a case hit the calls they name (the session is wrapped,
 * never edited). Calls are counted per tool name, 1-based, across the session, callTool and
 * callToolRaw alike; a fault applies when its tool (a name or `*`) and its call numbers (null:
 * every call) match, the first such fault wins. Every other call goes through untouched.
 */
export function withFaults(session: McpSession, faults: FaultSpec[], options: FaultOptions): McpSession {
  const { http } = options
  if (!http) {
    const httpOnly = faults.find((f) => HTTP_ONLY_FAULTS.includes(f.kind))
    if (httpOnly) throw new Error(`fault '${httpOnly.kind}' on '${httpOnly.tool}' needs an HTTP server: a stdio session has no HTTP status to fail`)
  }
  const counts = new Map<string, number>()
  const nextCall = (name: string) => {
    const call = (counts.get(name) ?? 0) + 1
    counts.set(name, call)
    const spec = faults.find((f) => (f.tool === '*' || f.tool === name) && (f.calls === null || f.calls.includes(call)))
    return { call, spec }
  }

  const inject = async (name: string, args: Record<string, unknown>, signal: AbortSignal, call: number, spec: FaultSpec): Promise<Injected> => {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    const notSent = (response: RawCallResponse): RawToolCall => ({ name, args, request: unsentRequest(name, args), response, latency_ms: elapsed() })
    const record = (executions: number, detail: string): FaultRecord => ({ kind: spec.kind, call, executions, detail })
    const message = spec.message ?? DEFAULT_MESSAGES[spec.kind] ?? ''

    switch (spec.kind) {
      case 'error':
        return { raw: notSent(errorResponse(INTERNAL_ERROR, message)), record: record(0, `JSON-RPC error ${INTERNAL_ERROR}: ${message} (no call made)`), real: null }
      case 'is_error':
        return { raw: notSent(isErrorResult(message)), record: record(0, `isError result: ${message} (no call made)`), real: null }
      case 'timeout': {
        const delay = spec.delay_ms ?? FAULT_DEFAULTS.timeout_ms
        await waitFor(delay, signal)
        const detail = `no answer for ${delay} ms, then JSON-RPC error ${REQUEST_TIMEOUT.code}: ${REQUEST_TIMEOUT.message} (no call made)`
        return { raw: notSent(errorResponse(REQUEST_TIMEOUT.code, REQUEST_TIMEOUT.message)), record: record(0, detail), real: null }
      }
      case 'malformed': {
        const answer = malformedAnswer(session.tools.find((t) => t.name === name), args)
        const parts = [`truncated JSON text (${answer.textLength} characters, cut mid-string)`, ...(answer.violation ? [answer.violation] : [])]
        return { raw: notSent(answer.response), record: record(0, `${parts.join(' and ')} (no call made)`), real: null }
      }
      case 'oversized': {
        const real = await session.callToolRaw(name, args, signal)
        const padded = paddedAnswer(real.response, spec.bytes ?? FAULT_DEFAULTS.oversized_bytes)
        const detail =
          padded.after > padded.before ? `the real result padded from ${padded.before} to ${padded.after} bytes` : `the real result left as it was (${padded.before} bytes, nothing to pad)`
        return { raw: { ...real, response: padded.response, latency_ms: elapsed() }, record: record(1, detail), real }
      }
      case 'latency': {
        const delay = spec.delay_ms ?? FAULT_DEFAULTS.latency_ms
        await waitFor(delay, signal)
        const real = await session.callToolRaw(name, args, signal)
        return { raw: { ...real, latency_ms: elapsed() }, record: record(1, `the real result after ${delay} ms of added latency`), real }
      }
      case 'disconnect':
        return http ? cutAndResend(session, http, name, args, signal, record, elapsed) : dropAndResend(session, name, args, signal, record, elapsed)
      case 'auth_expired':
        if (!http) return { raw: notSent(isErrorResult(message)), record: record(0, `isError result: ${message} (no call made)`), real: null }
        return failPost(session, http, name, args, signal, record, elapsed, authExpired(spec.message))
      case 'http_status':
        // http is set: withFaults refused http_status without it.
        return failPost(session, http!, name, args, signal, record, elapsed, statusFailure(spec.status ?? FAULT_DEFAULTS.http_status, spec.message))
    }
  }

  const callToolRaw = async (name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<RawToolCall> => {
    const { call, spec } = nextCall(name)
    if (!spec) return session.callToolRaw(name, args, signal)
    return (await inject(name, args, signal, call, spec)).raw
  }

  return wrapSession(session, {
    async callTool(name, args, signal) {
      const { call, spec } = nextCall(name)
      if (!spec) return session.callTool(name, args, signal)
      const { raw, record, real } = await inject(name, args, signal, call, spec)
      if (real) options.observe?.(real)
      // The answer is the fault's: no raw result of the server's goes with it (CallOutcome.result).
      const { result: _result, protocol_error: _error, ...shown } = outcomeOf(raw)
      return { ...shown, annotations: { fault: record } }
    },
    callToolRaw
  })
}

type Recorder = (executions: number, detail: string) => FaultRecord

/** The request a replaced call would have sent: no id, since it never went over the wire. */
function unsentRequest(name: string, args: Record<string, unknown>): Record<string, unknown> {
  return { jsonrpc: '2.0', method: 'tools/call', params: { name, arguments: args } }
}

/**
 * disconnect over stdio: there is no stream to cut, so the first answer is made and thrown away,
 * as if the pipe had lost it, and the call is sent again. 2026-07-28 removed SSE resumability
 * (`Last-Event-ID`): a client that lost a response re-sends the request, under a new id.
 */
async function dropAndResend(
  session: McpSession,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
  record: Recorder,
  elapsed: () => number
): Promise<Injected> {
  const lost = await session.callToolRaw(name, args, signal)
  const resent = await session.callToolRaw(name, args, signal)
  const detail = `response dropped; re-sent as request ${String(resent.request.id)} (first request ${String(lost.request.id)}); the server executed the call twice`
  return { raw: { ...resent, latency_ms: elapsed() }, record: record(2, detail), real: resent }
}

/**
 * disconnect over HTTP: the POST really reaches the server, the server really answers, and the
 * fetch layer cuts that answer mid-stream; the SDK fails the call (or, over SSE, would wait for
 * ever: the wait is ended here once the cut is delivered), and the call is re-sent under a new
 * JSON-RPC id, as 2026-07-28 requires now that SSE resumability is gone.
 */
async function cutAndResend(
  session: McpSession,
  http: HttpFaults,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
  record: Recorder,
  elapsed: () => number
): Promise<Injected> {
  if (signal.aborted) throw signal.reason
  const shot = http.arm({ kind: 'cut', tool: name })
  const first = new AbortController()
  const onRunAbort = () => first.abort(signal.reason)
  signal.addEventListener('abort', onRunAbort, { once: true })
  let grace: ReturnType<typeof setTimeout> | undefined
  let settled = false
  void shot.hit.then(() => {
    if (!settled) grace = setTimeout(() => first.abort(new Error('the response stream was cut')), CUT_GRACE_MS)
  })
  let lost: RawToolCall | undefined
  let failure: unknown
  try {
    lost = await session.callToolRaw(name, args, first.signal)
  } catch (error) {
    failure = error
  } finally {
    settled = true
    signal.removeEventListener('abort', onRunAbort)
    shot.disarm()
    clearTimeout(grace)
  }
  if (signal.aborted) throw signal.reason
  const hit = shot.current()
  // The POST never reached the fetch layer: a failure of its own is the run's, not the fault's.
  if (!hit && failure !== undefined) throw failure
  const resent = await session.callToolRaw(name, args, signal)
  const firstId = hit?.requestId ?? lost?.request.id
  const what = hit ? `response cut after ${hit.deliveredBytes} of ${hit.answerBytes} bytes` : 'response dropped (the HTTP layer saw no POST to cut)'
  const detail = `${what}; re-sent as request ${String(resent.request.id)} (first request ${String(firstId)}); the server executed the call twice`
  return { raw: { ...resent, latency_ms: elapsed() }, record: record(2, detail), real: resent }
}

/** An HTTP answer the fetch layer gives a POST in the server's place. */
interface PostFailure {
  status: number
  headers: Record<string, string>
  body: string
  /** What the record says the POST got. */
  what: string
}

/**
 * An expired OAuth access token, as a resource server reports it (RFC 6750 §3): 401 with
 * `WWW-Authenticate: Bearer error="invalid_token"`, and the same in a JSON body.
 */
function authExpired(message: string | null): PostFailure {
  const description = headerSafe(message ?? 'The access token expired')
  return {
    status: 401,
    headers: { 'www-authenticate': `Bearer error="invalid_token", error_description="${description}"`, 'content-type': 'application/json' },
    body: JSON.stringify({ error: 'invalid_token', error_description: description }),
    what: `HTTP 401 invalid_token (${description}) for the POST`
  }
}

/** A gateway's failure: 500, 502, 503 with their status text; 429 with `Retry-After: 1`. */
function statusFailure(status: number, message: string | null): PostFailure {
  const retry = status === 429 ? { 'retry-after': '1' } : undefined
  return {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', ...retry },
    body: message ?? STATUS_BODY[status] ?? `HTTP ${status}`,
    what: `HTTP ${status}${retry ? ' with Retry-After: 1' : ''} for the POST`
  }
}

const STATUS_BODY: Record<number, string> = {
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout'
}

/** A header value in one line with no quote to break out of. */
function headerSafe(text: string): string {
  return text.replace(/["\\]/g, '').replace(/\s+/g, ' ').trim()
}

/**
 * auth_expired and http_status over HTTP: the fetch layer answers the POST itself, the SDK
 * throws as it would for a real one, and the model is shown that failure as a tool error with
 * the SDK's own message, as a host would report it.
 */
async function failPost(
  session: McpSession,
  http: HttpFaults,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
  record: Recorder,
  elapsed: () => number,
  failure: PostFailure
): Promise<Injected> {
  const shot = http.arm({ kind: 'status', tool: name, status: failure.status, headers: failure.headers, body: failure.body })
  try {
    const real = await session.callToolRaw(name, args, signal)
    // The POST went through untouched (the session was not opened with this layer's fetch).
    return { raw: real, record: record(1, `${failure.what} was never sent: the HTTP layer saw no POST, and the server answered`), real }
  } catch (error) {
    const hit = shot.current()
    if (!hit || signal.aborted) throw error
    const request = { ...unsentRequest(name, args), id: hit.requestId }
    const raw: RawToolCall = { name, args, request, response: errorResponse(TRANSPORT_FAILURE, sdkMessage(error, name)), latency_ms: elapsed() }
    return { raw, record: record(0, `${failure.what} (the server was not reached)`), real: null }
  } finally {
    shot.disarm()
  }
}

/**
 * The SDK's own words for a failed call. The session wraps them as `tool call '<name>' failed:
 * <SDK code>: <message>`; the model is shown the message, as a host on the SDK would show it.
 */
function sdkMessage(error: unknown, name: string): string {
  const text = error instanceof Error ? error.message : String(error)
  const prefix = `tool call '${name}' failed: `
  const inner = error instanceof ServerError && text.startsWith(prefix) ? text.slice(prefix.length) : text
  return inner.replace(/^[A-Z][A-Z0-9_]+: /, '')
}
