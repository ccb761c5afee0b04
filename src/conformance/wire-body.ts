import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { TOO_DEEP } from '../mcp/frame-screen.js'
import { MAX_BODY_BYTES, nestedDeeperThan } from '../util/read-limits.js'
import { formatBytes } from '../util/read-file.js'
import type { WireResponse } from './wire-types.js'

/** The conformance wire's HTTP bodies: a JSON or SSE answer read into its frame and the other messages that came with it. */

/** Messages other than the answer kept per request (a server that streams notifications without end is cut here). */
export const MAX_STREAM_MESSAGES = 50

/** An answer too deep to keep: the failure it is, in place of its frame. */
export const TOO_DEEP_ANSWER = { failure: `the server's answer was not read: ${TOO_DEEP}`, cause: 'nested too deep' }

export function present(headers: Record<string, string | null>): Record<string, string> {
  const clean: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers)) if (v !== null) clean[k] = v
  return clean
}

export function answer(status: number, headers: Record<string, string>, text: string): WireResponse {
  if (nestedDeeperThan(text)) return { status, headers, ...TOO_DEEP_ANSWER }
  const { frame, messages } = parseBody(text, headers['content-type'] ?? '')
  return { status, headers, ...(frame ? { frame } : { body: text.slice(0, 2000) }), ...(messages.length ? { messages } : {}) }
}

/** "request failed: connect ECONNREFUSED 127.0.0.1:9", with the code (ECONNREFUSED) as the cause. */
export function networkFailure(error: unknown): WireResponse {
  type WithCode = { code?: unknown; message?: unknown; errors?: WithCode[] }
  const cause = ((error as { cause?: WithCode }).cause ?? error) as WithCode
  // localhost resolving to ::1 and 127.0.0.1 fails with an AggregateError of both attempts.
  const code = [cause.code, cause.errors?.[0]?.code].find((c): c is string => typeof c === 'string')
  const detail = typeof cause.message === 'string' && cause.message ? cause.message : (error as Error).message
  return { failure: `request failed: ${detail}`, ...(code ? { cause: code } : {}) }
}

export function nodePost(url: string, body: string, headers: Record<string, string | null>, timeoutMs: number): Promise<WireResponse> {
  const target = new URL(url)
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve) => {
    const req = request(target, { method: 'POST', headers: { ...present(headers), 'content-length': String(Buffer.byteLength(body)) }, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = []
      let length = 0
      res.on('data', (chunk: Buffer) => {
        length += chunk.length
        if (length <= MAX_BODY_BYTES) return void chunks.push(chunk)
        req.destroy()
        resolve({ failure: `the server's answer was not read: it is longer than ${formatBytes(MAX_BODY_BYTES)}`, cause: 'answer too long' })
      })
      res.on('end', () => {
        const responseHeaders: Record<string, string> = {}
        for (const [key, value] of Object.entries(res.headers)) if (value !== undefined) responseHeaders[key] = Array.isArray(value) ? value.join(', ') : value
        resolve(answer(res.statusCode ?? 0, responseHeaders, Buffer.concat(chunks).toString('utf8')))
      })
      res.on('error', (error) => resolve(networkFailure(error)))
    })
    req.on('timeout', () => {
      req.destroy()
      resolve({ timedOut: true })
    })
    req.on('error', (error) => resolve(networkFailure(error)))
    req.end(body)
  })
}

/** A JSON body, or the first JSON-RPC response in an SSE stream's `data:` frames and every other message on that stream. */
export function parseBody(text: string, contentType: string): { frame: WireResponse['frame'] | undefined; messages: Record<string, unknown>[] } {
  const tryJson = (s: string) => {
    try {
      const value = JSON.parse(s) as unknown
      return value && typeof value === 'object' && !Array.isArray(value) ? (value as NonNullable<WireResponse['frame']>) : undefined
    } catch {
      return undefined
    }
  }
  const messages: Record<string, unknown>[] = []
  if (contentType.includes('text/event-stream')) {
    let frame: WireResponse['frame'] | undefined
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).replace(/^ /, ''))
        .join('\n')
      const parsed = data ? tryJson(data) : undefined
      if (!parsed) continue
      if (!frame && ('result' in parsed || 'error' in parsed)) frame = parsed
      else if (messages.length < MAX_STREAM_MESSAGES) messages.push(parsed)
    }
    return { frame, messages }
  }
  return { frame: text.trim() ? tryJson(text) : undefined, messages }
}
