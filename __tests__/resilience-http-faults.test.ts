import { afterEach, describe, expect, test } from '@jest/globals'
import { startResilienceHttpServer } from '../__fixtures__/servers/resilience-server.mjs'
import type { FaultSpec } from '../src/config/types.js'
import { createSessionFactory, type FetchLike } from '../src/mcp/session.js'
import { withFaults } from '../src/resilience/faults.js'
import { createHttpFaults } from '../src/resilience/http-faults.js'

/** The fetch layer on its own (a fake network), and what the SDK receives from it (the real one). */

const post = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
const toolsCall = (name: string, id: number | string = 7) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } })

/** A network that answers every request with `body` (a string, or a stream for SSE), and counts. */
function fakeNetwork(body: () => BodyInit, contentType = 'application/json') {
  const seen: { url: string; init: RequestInit | undefined }[] = []
  const fetch: FetchLike = async (url, init) => {
    seen.push({ url: String(url), init })
    return new Response(body(), { status: 200, headers: { 'content-type': contentType, 'content-length': '999' } })
  }
  return { fetch, seen }
}

/** Read a body chunk by chunk until it ends or fails: the text that arrived, and the failure. */
async function drain(response: Response): Promise<{ text: string; error: unknown }> {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return { text, error: undefined }
      text += decoder.decode(value, { stream: true })
    }
  } catch (error) {
    return { text, error }
  }
}

const ANSWER = JSON.stringify({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'booked 09:00 (booking #1)' }] } })

describe('createHttpFaults: what passes untouched', () => {
  test('GETs, other methods, other tools, and unparsable bodies reach the network as they were', async () => {
    const network = fakeNetwork(() => ANSWER)
    const layer = createHttpFaults()
    layer.arm({ kind: 'status', tool: 'book_slot', status: 503, headers: {}, body: 'down' })
    const fetch = layer.wrapFetch(network.fetch)
    const requests: RequestInit[] = [{ method: 'GET' }, post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), post(toolsCall('get_weather')), { method: 'POST', body: 'not json' }]
    for (const init of requests) expect((await fetch('http://x/mcp', init)).status).toBe(200)
    expect(network.seen.map((s) => s.init)).toEqual(requests)
    expect(layer.last()).toBeNull()
  })

  test('a status fault answers one matching POST without the network, then the next passes', async () => {
    const network = fakeNetwork(() => ANSWER)
    const layer = createHttpFaults()
    const shot = layer.arm({ kind: 'status', tool: 'book_slot', status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token"' }, body: 'expired' })
    const fetch = layer.wrapFetch(network.fetch)
    const failed = await fetch('http://x/mcp', post([{ jsonrpc: '2.0', method: 'notifications/progress' }, toolsCall('book_slot', 'abc')]))
    expect(failed.status).toBe(401)
    expect(failed.statusText).toBe('Unauthorized')
    expect(failed.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"')
    expect(await failed.text()).toBe('expired')
    expect(network.seen).toEqual([])
    const hit = await shot.hit
    expect(hit).toEqual({ fault: expect.objectContaining({ kind: 'status' }), requestId: 'abc', status: 401, deliveredBytes: 0, answerBytes: 0 })
    expect(shot.current()).toBe(hit)
    expect(layer.last()).toBe(hit)
    expect((await fetch('http://x/mcp', post(toolsCall('book_slot')))).status).toBe(200)
    expect(network.seen).toHaveLength(1)
  })

  test('a disarmed fault never hits', async () => {
    const network = fakeNetwork(() => ANSWER)
    const layer = createHttpFaults()
    const shot = layer.arm({ kind: 'status', tool: 'book_slot', status: 503, headers: {}, body: '' })
    shot.disarm()
    expect((await layer.wrapFetch(network.fetch)('http://x/mcp', post(toolsCall('book_slot')))).status).toBe(200)
    expect(shot.current()).toBeNull()
  })
})

describe('createHttpFaults: a cut', () => {
  test('JSON: the real request is made, half the answer arrives, then the stream fails as undici does', async () => {
    const network = fakeNetwork(() => ANSWER)
    const layer = createHttpFaults()
    const shot = layer.arm({ kind: 'cut', tool: 'book_slot' })
    const response = await layer.wrapFetch(network.fetch)('http://x/mcp', post(toolsCall('book_slot')))
    expect(network.seen).toHaveLength(1)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(response.headers.get('content-length')).toBeNull()
    expect(shot.current()).toBeNull() // not yet: the SDK has not met the failure
    const { text, error } = await drain(response)
    expect(text).toBe(ANSWER.slice(0, Math.floor(ANSWER.length / 2)))
    expect(error).toBeInstanceOf(TypeError)
    expect((error as Error).message).toBe('terminated')
    expect(await shot.hit).toMatchObject({ requestId: 7, status: 200, deliveredBytes: text.length, answerBytes: ANSWER.length })
  })

  test('SSE: events before the response arrive whole, the response event only in part', async () => {
    const progress = 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n'
    const answer = `event: message\ndata: ${ANSWER}\n\n`
    const network = fakeNetwork(() => progress + answer, 'text/event-stream')
    const layer = createHttpFaults()
    const shot = layer.arm({ kind: 'cut', tool: 'book_slot' })
    const { text, error } = await drain(await layer.wrapFetch(network.fetch)('http://x/mcp', post(toolsCall('book_slot'))))
    expect(text).toBe(progress + answer.slice(0, Math.floor(answer.length / 2)))
    expect((error as Error).message).toBe('terminated')
    expect((await shot.hit).answerBytes).toBe(progress.length + answer.length)
  })

  test('SSE: a server that keeps the stream open after its answer does not hold the cut back', async () => {
    const encoder = new TextEncoder()
    const network = fakeNetwork(
      () =>
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(encoder.encode(`event: message\ndata: ${ANSWER}\n\n`))
            // …and never closes.
          }
        }),
      'text/event-stream'
    )
    const layer = createHttpFaults()
    layer.arm({ kind: 'cut', tool: 'book_slot' })
    const { error } = await drain(await layer.wrapFetch(network.fetch)('http://x/mcp', post(toolsCall('book_slot'))))
    expect((error as Error).message).toBe('terminated')
  })

  test('a body the SDK cancels instead of reading still counts as hit', async () => {
    const layer = createHttpFaults()
    const shot = layer.arm({ kind: 'cut', tool: 'book_slot' })
    const response = await layer.wrapFetch(fakeNetwork(() => ANSWER).fetch)('http://x/mcp', post(toolsCall('book_slot')))
    await response.body!.cancel()
    expect(await shot.hit).toMatchObject({ deliveredBytes: 0, answerBytes: ANSWER.length })
  })
})

describe('what the SDK receives through the layer (the real server)', () => {
  const cleanups: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  const fault = (fields: Partial<FaultSpec>): FaultSpec => ({ tool: 'book_slot', kind: 'http_status', calls: [1], message: null, delay_ms: null, bytes: null, status: null, ...fields })

  test.each([
    ['auth_expired', fault({ kind: 'auth_expired' }), 401, { 'www-authenticate': 'Bearer error="invalid_token", error_description="The access token expired"' }],
    ['auth_expired with a message to sanitise', fault({ kind: 'auth_expired', message: 'Token "abc" expired\nat noon' }), 401, { 'www-authenticate': 'Bearer error="invalid_token", error_description="Token abc expired at noon"' }],
    ['http_status 429', fault({ status: 429 }), 429, { 'retry-after': '1' }],
    ['http_status 500', fault({ status: 500 }), 500, { 'retry-after': null }]
  ])('%s: the POST is answered %i with these headers, and never reaches the server', async (_, spec, status, headers) => {
    const server = await startResilienceHttpServer()
    cleanups.push(() => server.close())
    const layer = createHttpFaults()
    const received: Response[] = []
    // Outside the layer, as the SDK sees it.
    const wrapFetch = (fetch: FetchLike): FetchLike => {
      const inner = layer.wrapFetch(fetch)
      return async (url, init) => {
        const response = await inner(url, init)
        received.push(response.clone())
        return response
      }
    }
    const session = await createSessionFactory({ kind: 'http', url: server.url, headers: {} }, { probeTimeoutMs: 3000 }).open(new AbortController().signal, { wrapFetch })
    cleanups.push(() => session.close())
    const outcome = await withFaults(session, [spec], { http: layer }).callTool('book_slot', { slot: '09:00' }, new AbortController().signal)
    expect(outcome.isError).toBe(true)
    const failed = received.find((r) => r.status === status)!
    expect(failed).toBeDefined()
    for (const [name, value] of Object.entries(headers)) expect(failed.headers.get(name)).toBe(value)
    expect(server.requests.filter((r) => r.rpc === 'tools/call')).toEqual([])
  })
})
