import { afterEach, describe, expect, test } from '@jest/globals'
import { fixturePath } from '../__fixtures__/harness.js'
import { startResilienceHttpServer } from '../__fixtures__/servers/resilience-server.mjs'
import type { FaultKind, FaultSpec, ServerConfig } from '../src/config/types.js'
import { createSessionFactory, outcomeOf, type CallOutcome, type McpSession, type RawToolCall } from '../src/mcp/session.js'
import { withFaults } from '../src/resilience/faults.js'
import { createHttpFaults, type HttpFaults } from '../src/resilience/http-faults.js'
import { compileSchema } from '../src/util/json-schema.js'

/**
 * Each fault kind against the real fixture server, over stdio and (where it applies) HTTP: what
 * the agent sees, the record, and whether the server really executed the call. book_slot counts
 * its executions, so "no call made" and "executed twice" are proved by the server, not assumed.
 */

const STDIO: ServerConfig = { kind: 'stdio', command: process.execPath, args: [fixturePath('servers/resilience-server.mjs')], env: {} }

type Server = Awaited<ReturnType<typeof startResilienceHttpServer>>

interface Opened {
  session: McpSession
  http: HttpFaults | null
  server: Server | null
  /** How many times book_slot really ran on the server so far. */
  bookings(): Promise<number>
}

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const live = () => new AbortController().signal

async function openStdio(): Promise<Opened> {
  const session = await createSessionFactory(STDIO, { probeTimeoutMs: 3000 }).open(live())
  cleanups.push(() => session.close())
  // The stdio server's counter lives in its process: an unfaulted call reads it (and adds one).
  let made = 0
  const bookings = async () => {
    const text = outcomeOf(await session.callToolRaw('book_slot', { slot: 'probe' }, live())).text
    made++
    return Number(/#(\d+)/.exec(text)?.[1]) - made
  }
  return { session, http: null, server: null, bookings }
}

async function openHttp(responseMode: 'auto' | 'sse' = 'auto'): Promise<Opened> {
  const server = await startResilienceHttpServer({ responseMode })
  cleanups.push(() => server.close())
  const http = createHttpFaults()
  const session = await createSessionFactory({ kind: 'http', url: server.url, headers: {} }, { probeTimeoutMs: 3000 }).open(live(), { wrapFetch: http.wrapFetch })
  cleanups.push(() => session.close())
  return { session, http, server, bookings: async () => server.bookings.count }
}

const TRANSPORTS = [
  ['stdio', openStdio],
  ['http', () => openHttp()]
] as const

function fault(kind: FaultKind, fields: Partial<FaultSpec> = {}): FaultSpec {
  return { tool: 'book_slot', kind, calls: [1], message: null, delay_ms: null, bytes: null, status: null, ...fields }
}

const wrap = (opened: Opened, faults: FaultSpec[], observe?: (call: RawToolCall) => void) => withFaults(opened.session, faults, { http: opened.http, observe })

/** The result of a raw answer that must be a result, not a JSON-RPC error. */
function resultOf(raw: RawToolCall): Record<string, unknown> {
  if (raw.response.kind !== 'result') throw new Error(`expected a result, got ${JSON.stringify(raw.response)}`)
  return raw.response.result
}
const textOf = (result: Record<string, unknown>) => (result.content as { text: string }[])[0].text

const toolCallsOf = (server: Server | null) => (server ? server.requests.filter((r) => r.rpc === 'tools/call') : [])

describe.each(TRANSPORTS)('faults that replace the call (%s)', (_, open) => {
  test('error: a JSON-RPC -32603 with the message; the server never runs the call', async () => {
    const opened = await open()
    const faulted = wrap(opened, [fault('error', { message: 'upstream 503' })])
    const outcome = await faulted.callTool('book_slot', { slot: '09:00' }, live())
    expect(outcome).toEqual({
      text: 'MCP error -32603: upstream 503',
      isError: true,
      annotations: { fault: { kind: 'error', call: 1, executions: 0, detail: 'JSON-RPC error -32603: upstream 503 (no call made)' } }
    })
    expect(await opened.bookings()).toBe(0)
    expect(toolCallsOf(opened.server)).toEqual([])
  })

  test('error: callToolRaw gets the same answer as a raw JSON-RPC error, with a request that was never sent', async () => {
    const opened = await open()
    const raw = await wrap(opened, [fault('error')]).callToolRaw('book_slot', { slot: '09:00' }, live())
    expect(raw.response).toEqual({ kind: 'error', error: { code: -32603, message: 'Internal error: the upstream service failed' } })
    expect(raw.request).toEqual({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'book_slot', arguments: { slot: '09:00' } } })
    expect(await opened.bookings()).toBe(0)
  })

  test('is_error: an isError result carrying the message; no call', async () => {
    const opened = await open()
    const outcome = await wrap(opened, [fault('is_error', { message: 'upstream 503' })]).callTool('book_slot', { slot: '09:00' }, live())
    expect(outcome).toEqual({ text: 'upstream 503', isError: true, annotations: { fault: { kind: 'is_error', call: 1, executions: 0, detail: 'isError result: upstream 503 (no call made)' } } })
    expect(await opened.bookings()).toBe(0)
  })

  test('timeout: no answer for delay_ms, then what the SDK reports for a timed-out request; no call', async () => {
    const opened = await open()
    const started = performance.now()
    const outcome = await wrap(opened, [fault('timeout', { delay_ms: 300 })]).callTool('book_slot', { slot: '09:00' }, live())
    expect(performance.now() - started).toBeGreaterThanOrEqual(295)
    expect(outcome).toEqual({
      text: 'MCP error -32001: Request timed out',
      isError: true,
      annotations: { fault: { kind: 'timeout', call: 1, executions: 0, detail: 'no answer for 300 ms, then JSON-RPC error -32001: Request timed out (no call made)' } }
    })
    expect(await opened.bookings()).toBe(0)
  })

  test('malformed: truncated JSON text and a structuredContent that breaks the outputSchema; no call', async () => {
    const opened = await open()
    const faulted = wrap(opened, [fault('malformed', { tool: 'get_weather' })])
    const raw = await faulted.callToolRaw('get_weather', { city: 'Paris' }, live())
    const result = resultOf(raw)
    const text = textOf(result)
    expect(text.startsWith('{"city":"Paris"')).toBe(true)
    expect(() => JSON.parse(text)).toThrow()
    const schema = opened.session.tools.find((t) => t.name === 'get_weather')!.outputSchema
    const compiled = compileSchema(schema)
    if (!('validate' in compiled)) throw new Error(compiled.problem)
    expect(compiled.validate({ city: 'Paris', temp_c: 14, sky: 'rain' })).toBe(true)
    expect(compiled.validate(result.structuredContent)).toBe(false)
    // What the model is told: the broken text, as a success.
    const outcome = await wrap(opened, [fault('malformed', { tool: 'get_weather' })]).callTool('get_weather', { city: 'Paris' }, live())
    expect(outcome).toMatchObject({ text, isError: false, annotations: { fault: { kind: 'malformed', call: 1, executions: 0 } } })
    expect(outcome.annotations!.fault!.detail).toBe(`truncated JSON text (${text.length} characters, cut mid-string) and structuredContent missing the required city, temp_c, sky (no call made)`)
  })

  test('malformed on a tool without an outputSchema: truncated text only, no structuredContent', async () => {
    const opened = await open()
    const before = await opened.bookings()
    const raw = await wrap(opened, [fault('malformed')]).callToolRaw('book_slot', { slot: '09:00' }, live())
    const result = resultOf(raw)
    expect(result.structuredContent).toBeUndefined()
    expect(() => JSON.parse(textOf(result))).toThrow()
    expect(await opened.bookings()).toBe(before)
  })

  test('auth_expired: the model is shown the token expired; the server is not reached', async () => {
    const opened = await open()
    const outcome = await wrap(opened, [fault('auth_expired')]).callTool('book_slot', { slot: '09:00' }, live())
    if (opened.http) {
      // The SDK's own message for a 401 without an auth provider: the body, after "Error POSTing to endpoint".
      expect(outcome.text).toBe('MCP error -32000: Error POSTing to endpoint: {"error":"invalid_token","error_description":"The access token expired"}')
      expect(outcome.annotations?.fault).toEqual({ kind: 'auth_expired', call: 1, executions: 0, detail: 'HTTP 401 invalid_token (The access token expired) for the POST (the server was not reached)' })
    } else {
      expect(outcome.text).toBe('Authentication failed: the access token expired.')
      expect(outcome.annotations?.fault).toEqual({ kind: 'auth_expired', call: 1, executions: 0, detail: 'isError result: Authentication failed: the access token expired. (no call made)' })
    }
    expect(outcome.isError).toBe(true)
    expect(await opened.bookings()).toBe(0)
    expect(toolCallsOf(opened.server)).toEqual([])
  })
})

describe.each(TRANSPORTS)('faults on top of the real call (%s)', (_, open) => {
  test('oversized: the real result, padded with one text block to exactly `bytes`', async () => {
    const opened = await open()
    const outcome = await wrap(opened, [fault('oversized', { bytes: 4096 })]).callTool('book_slot', { slot: '09:00' }, live())
    expect(new TextEncoder().encode(outcome.text).length).toBe(4096)
    expect(outcome.text.startsWith('booked 09:00 (booking #1)\nxxxx')).toBe(true)
    expect(outcome.annotations?.fault).toEqual({ kind: 'oversized', call: 1, executions: 1, detail: 'the real result padded from 25 to 4096 bytes' })
    expect(await opened.bookings()).toBe(1)
  })

  test('oversized: 1 MiB by default; a result carried by structuredContent keeps it as text', async () => {
    const opened = await open()
    const raw = await wrap(opened, [fault('oversized', { tool: 'get_weather' })]).callToolRaw('get_weather', { city: 'Tokyo' }, live())
    const shown = outcomeOf(raw).text
    expect(new TextEncoder().encode(shown).length).toBe(1_048_576)
    expect(shown.startsWith('{"city":"Tokyo","temp_c":22,"sky":"clear"}\nx')).toBe(true)
    expect(resultOf(raw).structuredContent).toEqual({ city: 'Tokyo', temp_c: 22, sky: 'clear' })
  })

  test('latency: the real result after delay_ms, and the real answer is handed to the watcher', async () => {
    const opened = await open()
    const observed: RawToolCall[] = []
    const started = performance.now()
    const outcome = await wrap(opened, [fault('latency', { delay_ms: 300 })], (c) => observed.push(c)).callTool('book_slot', { slot: '09:00' }, live())
    expect(performance.now() - started).toBeGreaterThanOrEqual(295)
    expect(outcome).toEqual({
      text: 'booked 09:00 (booking #1)',
      isError: false,
      annotations: { fault: { kind: 'latency', call: 1, executions: 1, detail: 'the real result after 300 ms of added latency' } }
    })
    expect(observed.map((c) => outcomeOf(c).text)).toEqual(['booked 09:00 (booking #1)'])
    expect(await opened.bookings()).toBe(1)
  })
})

describe('the run signal bounds every delay', () => {
  test.each([
    ['timeout', {}],
    ['latency', { delay_ms: 10_000 }]
  ] as const)('%s rejects with the signal’s reason when the run aborts first, and makes no call', async (kind, fields) => {
    const opened = await openStdio()
    const controller = new AbortController()
    const reason = new Error('the run exceeded timeout_seconds (1s)')
    setTimeout(() => controller.abort(reason), 100)
    const started = performance.now()
    await expect(wrap(opened, [fault(kind, fields)]).callTool('book_slot', { slot: '09:00' }, controller.signal)).rejects.toBe(reason)
    expect(performance.now() - started).toBeLessThan(2000)
    expect(await opened.bookings()).toBe(0)
  })

  test('an already aborted signal rejects at once', async () => {
    const opened = await openStdio()
    const controller = new AbortController()
    controller.abort(new Error('cancelled'))
    await expect(wrap(opened, [fault('timeout')]).callTool('book_slot', { slot: '09:00' }, controller.signal)).rejects.toThrow('cancelled')
  })
})

describe('disconnect', () => {
  test('stdio: the first answer is dropped and the call re-sent under a new id; the server executed it twice', async () => {
    const opened = await openStdio()
    const raw = await wrap(opened, [fault('disconnect')]).callToolRaw('book_slot', { slot: '09:00' }, live())
    expect(outcomeOf(raw).text).toBe('booked 09:00 (booking #2)')
    expect(await opened.bookings()).toBe(2)
    const outcome = await wrap(opened, [fault('disconnect', { calls: null })]).callTool('book_slot', { slot: '10:00' }, live())
    expect(outcome.text).toBe('booked 10:00 (booking #5)') // #3 was the count probe, #4 the dropped one
    const ids = /re-sent as request (\d+) \(first request (\d+)\)/.exec(outcome.annotations!.fault!.detail)!
    expect(Number(ids[1])).toBe(Number(ids[2]) + 1)
    expect(outcome.annotations?.fault).toEqual({ kind: 'disconnect', call: 1, executions: 2, detail: `response dropped; re-sent as request ${ids[1]} (first request ${ids[2]}); the server executed the call twice` })
  })

  test.each(['auto', 'sse'] as const)(
    'http (%s): the response is really cut mid-stream, the call really re-sent under a new id, and the server ran it twice',
    async (mode) => {
      const opened = await openHttp(mode)
      const server = opened.server!
      const observed: RawToolCall[] = []
      const started = performance.now()
      const outcome = await wrap(opened, [fault('disconnect')], (c) => observed.push(c)).callTool('book_slot', { slot: '09:00' }, live())
      // Over SSE the SDK would wait out its request timeout (300 s here) on the dead stream.
      expect(performance.now() - started).toBeLessThan(3000)
      expect(outcome.text).toBe('booked 09:00 (booking #2)')
      expect(outcome.isError).toBe(false)
      expect(server.bookings.count).toBe(2)
      const posts = toolCallsOf(server)
      expect(posts).toHaveLength(2)
      expect(posts[0].id).not.toEqual(posts[1].id)
      const hit = opened.http!.last()!
      expect(hit).toMatchObject({ requestId: posts[0].id, status: 200 })
      expect(hit.deliveredBytes).toBeGreaterThan(0)
      expect(hit.deliveredBytes).toBeLessThan(hit.answerBytes)
      expect(outcome.annotations?.fault).toEqual({
        kind: 'disconnect',
        call: 1,
        executions: 2,
        detail: `response cut after ${hit.deliveredBytes} of ${hit.answerBytes} bytes; re-sent as request ${posts[1].id} (first request ${posts[0].id}); the server executed the call twice`
      })
      expect(observed.map((c) => c.request.id)).toEqual([posts[1].id])
      // The session is still good afterwards.
      expect((await opened.session.callTool('book_slot', { slot: '10:00' }, live())).text).toBe('booked 10:00 (booking #3)')
    },
    // Fail fast: a wrapper that left the SSE call to the SDK would hang until its request timeout.
    10_000
  )
})

describe('http_status', () => {
  test.each([
    [503, 'Service Unavailable', 'HTTP 503 for the POST (the server was not reached)'],
    [429, 'Too Many Requests', 'HTTP 429 with Retry-After: 1 for the POST (the server was not reached)'],
    [502, 'Bad Gateway', 'HTTP 502 for the POST (the server was not reached)']
  ])('HTTP %i: the SDK fails the POST and the model is shown its message; the server is not reached', async (status, body, detail) => {
    const opened = await openHttp()
    const outcome = await wrap(opened, [fault('http_status', { status })]).callTool('book_slot', { slot: '09:00' }, live())
    expect(outcome).toEqual({ text: `MCP error -32000: Error POSTing to endpoint: ${body}`, isError: true, annotations: { fault: { kind: 'http_status', call: 1, executions: 0, detail } } })
    expect(opened.server!.bookings.count).toBe(0)
    expect(toolCallsOf(opened.server)).toEqual([])
    expect(opened.http!.last()).toMatchObject({ status, requestId: expect.any(Number) })
  })

  test('503 by default, with the message as the body', async () => {
    const opened = await openHttp()
    const outcome = await wrap(opened, [fault('http_status', { message: 'gateway says no' })]).callTool('book_slot', { slot: '09:00' }, live())
    expect(outcome.text).toBe('MCP error -32000: Error POSTing to endpoint: gateway says no')
    expect(outcome.annotations!.fault!.detail).toBe('HTTP 503 for the POST (the server was not reached)')
  })

  test('refused on stdio when the session is wrapped', async () => {
    const opened = await openStdio()
    expect(() => wrap(opened, [fault('is_error'), fault('http_status', { tool: 'get_weather' })])).toThrow(
      "fault 'http_status' on 'get_weather' needs an HTTP server: a stdio session has no HTTP status to fail"
    )
  })
})

describe('which calls a fault hits', () => {
  test.each(TRANSPORTS)('%s: only the listed call numbers of the named tool; other calls and tools are untouched', async (_, open) => {
    const opened = await open()
    const faulted = wrap(opened, [fault('is_error', { tool: 'get_weather', calls: [2] })])
    const plain = await opened.session.callTool('get_weather', { city: 'Paris' }, live())
    const calls: CallOutcome[] = []
    calls.push(await faulted.callTool('get_weather', { city: 'Paris' }, live()))
    calls.push(await faulted.callTool('get_forecast', { city: 'Paris' }, live()))
    calls.push(await faulted.callTool('get_weather', { city: 'Paris' }, live()))
    calls.push(await faulted.callTool('get_weather', { city: 'Paris' }, live()))
    expect(calls.map((c) => c.annotations?.fault?.call ?? null)).toEqual([null, null, 2, null])
    expect(calls[0]).toEqual(plain)
    expect(calls[1]).toEqual({ text: 'Tomorrow: 16 °C, cloudy.', isError: false, result: expect.any(Object) })
    expect(calls[2]).toMatchObject({ isError: true, annotations: { fault: { kind: 'is_error' } } })
    expect(calls[3]).toEqual(plain)
    if (opened.server) expect(toolCallsOf(opened.server).map((r) => r.tool)).toEqual(['get_weather', 'get_weather', 'get_forecast', 'get_weather'])
  })

  test('an HTTP fault hits only its own POST: the next calls go to the server untouched', async () => {
    const opened = await openHttp()
    const faulted = wrap(opened, [fault('http_status', { calls: [1] })])
    expect((await faulted.callTool('book_slot', { slot: 'a' }, live())).annotations?.fault?.kind).toBe('http_status')
    expect(await faulted.callTool('book_slot', { slot: 'b' }, live())).toEqual({ text: 'booked b (booking #1)', isError: false, result: expect.any(Object) })
    expect(await faulted.callTool('get_forecast', { city: 'Tokyo' }, live())).toEqual({ text: 'Tomorrow: 24 °C, sunny.', isError: false, result: expect.any(Object) })
    expect(toolCallsOf(opened.server).map((r) => r.tool)).toEqual(['book_slot', 'get_forecast'])
  })

  test('callTool and callToolRaw share one count per tool; `*` matches every tool; the first matching fault wins', async () => {
    const opened = await openStdio()
    const faulted = wrap(opened, [fault('error', { tool: '*', calls: [2], message: 'first' }), fault('is_error', { tool: 'get_weather', calls: [2, 3] })])
    expect(outcomeOf(await faulted.callToolRaw('get_weather', { city: 'Paris' }, live())).isError).toBe(false)
    expect((await faulted.callTool('get_forecast', { city: 'Paris' }, live())).annotations?.fault).toBeUndefined()
    expect(outcomeOf(await faulted.callToolRaw('get_weather', { city: 'Paris' }, live())).text).toBe('MCP error -32603: first')
    expect(await faulted.callTool('get_weather', { city: 'Paris' }, live())).toMatchObject({ annotations: { fault: { kind: 'is_error', call: 3 } } })
    expect(await faulted.callTool('get_forecast', { city: 'Paris' }, live())).toMatchObject({ annotations: { fault: { kind: 'error', call: 2 } } })
  })

  test('calls: null faults every call of the tool', async () => {
    const opened = await openStdio()
    const faulted = wrap(opened, [fault('error', { calls: null })])
    const outcomes = [await faulted.callTool('book_slot', { slot: 'a' }, live()), await faulted.callTool('book_slot', { slot: 'b' }, live())]
    expect(outcomes.map((o) => o.annotations?.fault?.call)).toEqual([1, 2])
    expect(await opened.bookings()).toBe(0)
  })
})

describe('the wrapper', () => {
  /** A session that answers every call alike and whose listings can change underneath. */
  function fakeSession() {
    const state = { tools: [{ name: 'a', inputSchema: {} }], era: 'modern' as 'modern' | 'legacy', closed: 0 }
    const raw = (name: string, args: Record<string, unknown>): RawToolCall => ({
      name,
      args,
      request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
      response: { kind: 'result', result: { content: [{ type: 'text', text: 'real' }] } },
      latency_ms: 1
    })
    const session: McpSession = {
      get era() {
        return state.era
      },
      protocolVersion: '2026-07-28',
      get tools() {
        return state.tools
      },
      resources: [],
      prompts: [],
      timings: { connect_ms: 1, list_ms: 1 },
      callTool: async (name, args) => outcomeOf(raw(name, args)),
      callToolRaw: async (name, args) => raw(name, args),
      readResource: async () => ({ text: 'resource', isError: false }),
      getPrompt: async () => ({ text: 'prompt', isError: false }),
      stderrTail: () => 'tail',
      sessionHappenings: () => ({ declared: [], max_rounds: 0, misplaced_input_required: [], outside_server_requests: [], reads: [] }),
      sessionRounds: () => [],
      close: async () => void state.closed++
    }
    return { session, state }
  }

  test('reads the session’s listings live, delegates the rest, and leaves the session as it was', async () => {
    const { session, state } = fakeSession()
    const callTool = session.callTool
    const faulted = withFaults(session, [fault('error', { tool: 'a' })], { http: null })
    state.tools = [{ name: 'b', inputSchema: {} }]
    state.era = 'legacy'
    expect(faulted.tools).toBe(state.tools)
    expect(faulted.era).toBe('legacy')
    expect(await faulted.readResource('x://y', live())).toEqual({ text: 'resource', isError: false })
    expect(await faulted.getPrompt('p', {}, live())).toEqual({ text: 'prompt', isError: false })
    expect(faulted.stderrTail()).toBe('tail')
    await faulted.close()
    expect(state.closed).toBe(1)
    expect(session.callTool).toBe(callTool)
    expect(await session.callTool('a', {}, live())).toEqual({ text: 'real', isError: false, result: expect.any(Object) })
  })

  test('with no faults, every call is the session’s own', async () => {
    const { session } = fakeSession()
    const faulted = withFaults(session, [], { http: null })
    expect(await faulted.callTool('a', {}, live())).toEqual({ text: 'real', isError: false, result: expect.any(Object) })
  })
})
