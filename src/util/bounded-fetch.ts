import { MAX_BODY_BYTES } from './read-limits.js'
import { formatBytes } from './read-file.js'

/** A fetch as its callers here type it (the SDK's transport, the raw probes, the OpenAI client): by what it takes as its input. */
export type FetchOf<I> = (input: I, init?: RequestInit) => Promise<Response>

/** A response body that went past its byte limit; `reason` says so in a phrase ("longer than 64 MiB …"). */
export class BodyLimitError extends Error {
  constructor(
    readonly reason: string,
    what: string
  ) {
    super(`the ${what}'s answer was not read: ${reason}`)
    this.name = 'BodyLimitError'
  }
}

/**
 * A response's body, counted as it is read (after fetch has decompressed it, so a gzip bomb counts
 * what it inflates to): past `maxBytes` the stream fails with a BodyLimitError and the rest is
 * cancelled, which closes the connection and stops the decompression. Nothing is buffered here.
 */
export function limitedBody(body: ReadableStream<Uint8Array>, maxBytes: number, what: string): ReadableStream<Uint8Array> {
  let seen = 0
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength
        if (seen > maxBytes) controller.error(new BodyLimitError(`it is longer than ${formatBytes(maxBytes)} (counted after decompression)`, what))
        else controller.enqueue(chunk)
      }
    })
  )
}

/** The same response with another body (status, headers and url kept). */
export function withBody(response: Response, body: BodyInit | null): Response {
  const copy = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
  Object.defineProperty(copy, 'url', { value: response.url })
  Object.defineProperty(copy, 'redirected', { value: response.redirected })
  return copy
}

/**
 * `fetch`, with every response body bounded by `maxBytes` (MAX_BODY_BYTES, 64 MiB, by default):
 * reading more fails with a BodyLimitError naming `what` ("server", "provider"), so the one
 * request fails, the process never holds more than the limit, and whatever follows (a retry, the
 * next run) goes on.
 */
export function boundedFetch<I>(base: FetchOf<I>, what: string, maxBytes: number = MAX_BODY_BYTES): FetchOf<I> {
  return async (input, init) => {
    const response = await base(input, init)
    if (!response.body) return response
    return withBody(response, limitedBody(response.body, maxBytes, what))
  }
}
