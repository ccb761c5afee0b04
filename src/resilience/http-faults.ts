import type { FetchLike } from '../mcp/session.js'
import { isObject } from '../util/objects.js'

/**
 * A fault the HTTP layer applies to the next tools/call POST for `tool`:
 * - `cut`: the POST really reaches the server and the server really answers; the SDK gets the
 *   headers and part of the body, then the stream fails, as when a connection drops mid-answer.
 * - `status`: the POST is answered here with `status`, `headers` and `body`; the server is not reached.
 */
export type ArmedHttpFault =
  | { kind: 'cut'; tool: string }
  | { kind: 'status'; tool: string; status: number; headers: Record<string, string>; body: string }

/** What an armed fault did to the POST it hit. */
export interface HttpFaultHit {
  fault: ArmedHttpFault
  /** The JSON-RPC id of the tools/call in that POST's body (null when it had none). */
  requestId: string | number | null
  /** The HTTP status the SDK saw: the injected one, or (cut) the server's own. */
  status: number
  /** cut: how much of the server's answer the SDK got before the stream failed; status: 0. */
  deliveredBytes: number
  /** cut: the size of the server's whole answer; status: 0. */
  answerBytes: number
}

/** One armed fault, until it hits or is disarmed. */
export interface ArmedShot {
  /**
   * Resolves once the fault was delivered in full: the status answered, or (cut) the partial body
   * read by the SDK and the stream failed. Never resolves when no matching POST comes.
   */
  readonly hit: Promise<HttpFaultHit>
  /** Its hit once delivered, else null. */
  current(): HttpFaultHit | null
  /** Withdraw it if it has not hit (the call ended before a POST): later POSTs pass untouched. */
  disarm(): void
}

/** The HTTP half of fault injection: a fetch wrapper for the session's transport, and its switches. */
export interface HttpFaults {
  /** Wrap the transport's fetch (OpenOptions.wrapFetch); every request passes through, untouched unless armed for. */
  wrapFetch(fetch: FetchLike): FetchLike
  /** Apply `fault` to the next tools/call POST for its tool; several may be armed at once, each hits one POST. */
  arm(fault: ArmedHttpFault): ArmedShot
  /** What happened to the last armed fault: its hit, or null while it has not hit (or was withdrawn). */
  last(): HttpFaultHit | null
}

interface Pending {
  fault: ArmedHttpFault
  hit: HttpFaultHit | null
  resolve(hit: HttpFaultHit): void
}

/**
 * Faults below the SDK, so it meets them exactly as it would a real failing server: the
 * discover probe, listings, other tools and other calls pass through; an armed fault takes one
 * tools/call POST for its tool and nothing else.
 */
export function createHttpFaults(): HttpFaults {
  const armed: Pending[] = []
  let last: HttpFaultHit | null = null

  const take = (tool: string): Pending | undefined => {
    const index = armed.findIndex((p) => p.fault.tool === tool)
    return index < 0 ? undefined : armed.splice(index, 1)[0]
  }

  return {
    wrapFetch(fetch) {
      return async (url, init) => {
        const call = init?.method === 'POST' ? toolsCallOf(init.body) : undefined
        const pending = call ? take(call.tool) : undefined
        if (!call || !pending) return fetch(url, init)
        const done = (hit: HttpFaultHit) => {
          if (pending.hit) return
          pending.hit = last = hit
          pending.resolve(hit)
        }
        const { fault } = pending
        if (fault.kind === 'status') {
          done({ fault, requestId: call.id, status: fault.status, deliveredBytes: 0, answerBytes: 0 })
          return new Response(fault.body, { status: fault.status, statusText: STATUS_TEXT[fault.status] ?? '', headers: fault.headers })
        }
        return cutResponse(await fetch(url, init), call.id, (delivered, total, status) =>
          done({ fault, requestId: call.id, status, deliveredBytes: delivered, answerBytes: total })
        )
      }
    },
    arm(fault) {
      let resolve!: (hit: HttpFaultHit) => void
      const hit = new Promise<HttpFaultHit>((r) => (resolve = r))
      const pending: Pending = { fault, hit: null, resolve }
      armed.push(pending)
      last = null
      return {
        hit,
        current: () => pending.hit,
        disarm() {
          const index = armed.indexOf(pending)
          if (index >= 0) armed.splice(index, 1)
        }
      }
    },
    last: () => last
  }
}

const STATUS_TEXT: Record<number, string> = {
  401: 'Unauthorized',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout'
}

/** The tools/call in a POST body (a single message or a batch), or undefined. */
function toolsCallOf(body: unknown): { tool: string; id: string | number | null } | undefined {
  if (typeof body !== 'string') return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return undefined
  }
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    if (!isObject(message) || message.method !== 'tools/call' || !isObject(message.params)) continue
    if (typeof message.params.name !== 'string') continue
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null
    return { tool: message.params.name, id }
  }
  return undefined
}

/**
 * The server's real answer, cut: its headers and the first part of its body reach the SDK, then
 * the stream fails with undici's own error for a dropped connection (`TypeError: terminated`).
 * The whole answer is read first, so the server has finished executing the call (the point of
 * the fault: the call ran, its answer was lost). `onCut` runs once the SDK has read the part and
 * asked for more, i.e. when it has met the failure.
 */
async function cutResponse(real: Response, id: string | number | null, onCut: (delivered: number, total: number, status: number) => void): Promise<Response> {
  const answer = await readAnswer(real, id)
  const bytes = new TextEncoder().encode(answer.slice(0, cutPoint(answer, id, sseOf(real))))
  const total = new TextEncoder().encode(answer).length
  let sent = false
  // Nothing is queued ahead (highWaterMark 0): each pull is a read the SDK is waiting on, so the
  // first hands it the part and the second is when it meets the failure. (An error raised right
  // after an enqueue, in start, would discard the queued bytes unread.)
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!sent && bytes.length > 0) {
          sent = true
          controller.enqueue(bytes)
          return
        }
        controller.error(new TypeError('terminated'))
        onCut(bytes.length, total, real.status)
      },
      cancel() {
        onCut(sent ? bytes.length : 0, total, real.status)
      }
    },
    { highWaterMark: 0 }
  )
  const headers = new Headers(real.headers)
  headers.delete('content-length')
  return new Response(body, { status: real.status, statusText: real.statusText, headers })
}

const sseOf = (response: Response) => (response.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream')

/**
 * Read the server's answer: the whole body, or for an SSE stream up to the end of the event that
 * carries the response to `id` (a server may hold the stream open after it; the answer is what counts).
 */
async function readAnswer(response: Response, id: string | number | null): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  const sse = sseOf(response)
  let text = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    text += value
    if (sse && sseEvents(text).some((event) => event.complete && isResponseTo(event.data, id))) {
      await reader.cancel().catch(() => undefined)
      break
    }
  }
  return text
}

/**
 * Where to cut, in characters: for SSE, halfway into the event carrying the response (events
 * before it, such as progress, still arrive, and the response itself is never complete); for a
 * JSON body, halfway. Always at least one character in, so the SDK does get part of the answer.
 */
function cutPoint(answer: string, id: string | number | null, sse: boolean): number {
  const start = sse ? (sseEvents(answer).find((event) => isResponseTo(event.data, id))?.start ?? 0) : 0
  return Math.max(1, start + Math.floor((answer.length - start) / 2))
}

/** The SSE events in `text`: where each starts, its data lines joined, and whether its blank line has come. */
function sseEvents(text: string): { start: number; data: string; complete: boolean }[] {
  const events: { start: number; data: string; complete: boolean }[] = []
  const boundary = /\r?\n\r?\n/g
  let start = 0
  for (;;) {
    const match = boundary.exec(text)
    const end = match ? match.index : text.length
    const data = text
      .slice(start, end)
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n')
    events.push({ start, data, complete: match !== null })
    if (!match) return events
    start = match.index + match[0].length
  }
}

/** Whether an event's data is the JSON-RPC response (result or error) to `id`. */
function isResponseTo(data: string, id: string | number | null): boolean {
  try {
    const message: unknown = JSON.parse(data)
    return isObject(message) && ('result' in message || 'error' in message) && (id === null || message.id === id)
  } catch {
    return false
  }
}
