import { BodyLimitError, boundedFetch, withBody } from '../util/bounded-fetch.js'
import { isObject } from '../util/objects.js'
import { nestedDeeperThan } from '../util/read-limits.js'
import { refusedAnswer, screenFrame, TOO_DEEP } from './frame-screen.js'
import type { FetchLike } from './types.js'

/**
 * The Streamable HTTP transport's fetch, bounded and screened as stdio is: every body is cut at
 * MAX_BODY_BYTES after decompression (util/bounded-fetch.ts), and each JSON-RPC answer in it, a
 * JSON body or an SSE event, passes src/mcp/frame-screen.ts. What cannot be read (too long, too
 * deep, both `result` and `error`) is replaced by an error answer to the request it answers, so
 * that request fails at once with the reason, as over stdio; a GET stream, which answers no
 * request, just fails.
 */
export function screenedFetch(base: FetchLike = (url, init) => globalThis.fetch(url, init)): FetchLike {
  const bounded = boundedFetch(base, 'server')
  return async (url, init) => {
    const response = await bounded(url, init)
    const ids = requestIds(init?.body)
    if (!response.body || !response.ok) return response
    const type = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
    if (type === 'application/json' && ids.length > 0) return withBody(response, await screenedJson(response, ids))
    if (type === 'text/event-stream') return withBody(response, screenedEvents(response.body, ids))
    return response
  }
}

/** The ids of the requests in a POST's JSON-RPC body (one message, or a batch). */
function requestIds(body: unknown): unknown[] {
  if (typeof body !== 'string') return []
  try {
    const sent = JSON.parse(body) as unknown
    return (Array.isArray(sent) ? sent : [sent]).filter((m) => isObject(m) && typeof m.method === 'string' && m.id !== undefined).map((m) => (m as { id: unknown }).id)
  } catch {
    return []
  }
}

/** A JSON body as text, screened: refused answers replaced, anything else as it came. */
async function screenedJson(response: Response, ids: unknown[]): Promise<string> {
  let text: string
  try {
    text = await response.text()
  } catch (error) {
    if (error instanceof BodyLimitError) return JSON.stringify(refusedAll(ids, error.reason))
    throw error
  }
  if (text.trimStart().startsWith('[')) return nestedDeeperThan(text) ? JSON.stringify(refusedAll(ids, TOO_DEEP)) : text
  const screened = screenFrame(text)
  if (screened.kind !== 'refused') return text
  return JSON.stringify(screened.answer ?? refusedAll(ids, screened.reason))
}

const refusedAll = (ids: unknown[], reason: string) => (ids.length === 1 ? refusedAnswer(ids[0], reason) : ids.map((id) => refusedAnswer(id, reason)))

/**
 * An SSE stream (a POST's, or the GET stream's with `ids` empty), event by event: an event whose
 * data is a refused answer carries the error answer instead, one refused that answers nothing of
 * ours (a server request nested too deep) is left out; other events pass as they came (their
 * lines rejoined with LF). When the stream fails (the body limit) while requests are still
 * unanswered, each gets an error answer and the stream ends.
 */
function screenedEvents(body: ReadableStream<Uint8Array>, ids: unknown[]): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  const unanswered = new Set(ids)
  let pending = ''
  let lines: string[] = []
  const event = (): string => {
    const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, ''))
    const type = lines.find((l) => l.startsWith('event:'))?.slice(6).trim()
    let kept = lines
    lines = []
    if (data.length > 0 && (!type || type === 'message')) {
      const screened = screenFrame(data.join('\n'))
      const frame = screened.kind === 'frame' ? screened.frame : screened.kind === 'refused' ? screened.answer : undefined
      if (screened.kind === 'refused' && !screened.answer) return ''
      if (screened.kind === 'refused') kept = [...kept.filter((l) => !l.startsWith('data:')), `data: ${JSON.stringify(screened.answer)}`]
      if (frame && frame.method === undefined) unanswered.delete(frame.id)
    }
    return `${kept.join('\n')}\n\n`
  }
  /** The complete events in the text so far (all of them at the end); a trailing CR waits for the next chunk, as it may start a CRLF. */
  const events = (text: string, end: boolean): string => {
    pending += text
    // A long line in many chunks is split once, when it ends.
    if (!end && !/[\r\n]/.test(text)) return ''
    const cut = !end && pending.endsWith('\r') ? pending.length - 1 : pending.length
    const parts = pending.slice(0, cut).split(/\r\n|\r|\n/)
    const rest = parts.pop() ?? ''
    pending = end ? '' : rest + pending.slice(cut)
    if (end && rest) parts.push(rest)
    let out = ''
    for (const line of parts) {
      if (line !== '') lines.push(line)
      else if (lines.length > 0) out += event()
    }
    if (end && lines.length > 0) out += event()
    return out
  }
  return new ReadableStream<Uint8Array>({
    // Reads until it has an event to give (a pull that enqueues nothing is not called again).
    async pull(controller) {
      try {
        for (;;) {
          const { done, value } = await reader.read()
          const out = done ? events(decoder.decode(), true) : events(decoder.decode(value, { stream: true }), false)
          if (out) controller.enqueue(encoder.encode(out))
          if (done) return controller.close()
          if (out) return
        }
      } catch (error) {
        if (!(error instanceof BodyLimitError) || unanswered.size === 0) return controller.error(error)
        for (const id of unanswered) controller.enqueue(encoder.encode(`data: ${JSON.stringify(refusedAnswer(id, error.reason))}\n\n`))
        controller.close()
      }
    },
    cancel: (reason) => reader.cancel(reason)
  })
}
