import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client'
import { fixturePath } from '../__fixtures__/harness.js'
import type { TelemetryRequest } from '../__fixtures__/servers/telemetry-server.mjs'
import { createSessionFactory } from '../src/mcp/session.js'
import { withMeta, withTraceMeta } from '../src/mcp/trace-meta.js'
import { WireTap } from '../src/mcp/wire-tap.js'

/** `params._meta` gets the trace context on every request but the legacy opening, as a copy. */

const TRACE = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'vendor=1' }
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }

/** A transport that records what it was asked to send. */
class FakeTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void
  onclose?: () => void
  readonly sent: unknown[] = []
  started = 0
  sessionId = 'sid-1'
  async start() {
    this.started++
  }
  async send(message: JSONRPCMessage) {
    this.sent.push(message)
  }
  async close() {
    this.onclose?.()
  }
}

describe('withMeta', () => {
  test.each([
    ['a request with the envelope keeps it and gains the trace keys', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', _meta: ENVELOPE } }, { ...ENVELOPE, ...TRACE }],
    ['a request without params gets params._meta', { jsonrpc: '2.0', id: 2, method: 'tools/list' }, TRACE],
    ['a request whose params have no _meta gets one', { jsonrpc: '2.0', id: 'x', method: 'resources/read', params: { uri: 'file:///a' } }, TRACE],
    ['a request with id 0 is a request', { jsonrpc: '2.0', id: 0, method: 'ping' }, TRACE],
    ['our trace context wins over one already there', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { _meta: { traceparent: 'old' } } }, TRACE]
  ])('%s', (_name, message, meta) => {
    const before = JSON.stringify(message)
    const sent = withMeta(message, () => TRACE) as { params: { _meta: unknown } }
    expect(sent.params._meta).toEqual(meta)
    expect(sent).toMatchObject({ ...message, params: { ...(message as { params?: object }).params, _meta: meta } })
    // The SDK's message is copied, never changed.
    expect(JSON.stringify(message)).toBe(before)
  })

  test.each([
    ['the legacy initialize (a dual-era server pins the era by it)', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } }],
    ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }],
    ['a response', { jsonrpc: '2.0', id: 7, result: {} }],
    ['an error response', { jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'no' } }],
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]]
  ])('%s passes as it is', (_name, message) => {
    expect(withMeta(message, () => TRACE)).toBe(message)
  })
})

describe('withTraceMeta', () => {
  test('each send reads the trace context of that moment; everything else reaches the transport', async () => {
    const inner = new FakeTransport()
    let parent = 'aaaaaaaaaaaaaaaa'
    const wrapped = withTraceMeta(inner, () => ({ traceparent: `00-0af7651916cd43dd8448eb211c80319c-${parent}-01` }))
    await wrapped.start()
    expect(inner.started).toBe(1)
    expect((wrapped as FakeTransport).sessionId).toBe('sid-1')
    const received: JSONRPCMessage[] = []
    wrapped.onmessage = (m) => received.push(m)
    inner.onmessage?.({ jsonrpc: '2.0', id: 1, result: {} })
    expect(received).toHaveLength(1)

    await wrapped.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    parent = 'bbbbbbbbbbbbbbbb'
    await wrapped.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow' } })
    await wrapped.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } })
    const metas = inner.sent.map((m) => (m as { params?: { _meta?: { traceparent?: string } } }).params?._meta?.traceparent ?? null)
    expect(metas).toEqual(['00-0af7651916cd43dd8448eb211c80319c-aaaaaaaaaaaaaaaa-01', '00-0af7651916cd43dd8448eb211c80319c-bbbbbbbbbbbbbbbb-01', null])
  })

  test('outside the wire tap, the tap records the frame as it was really sent', async () => {
    const inner = new FakeTransport()
    const tap = new WireTap()
    const wrapped = withTraceMeta(tap.wrap(inner), () => TRACE)
    wrapped.onmessage = () => undefined
    const window = tap.open()
    await wrapped.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'fast', arguments: {} } })
    inner.onmessage?.({ jsonrpc: '2.0', id: 5, result: { content: [] } })
    const [call] = window.close()
    expect(call.request).toEqual(inner.sent[0])
    expect(call.request).toMatchObject({ params: { _meta: TRACE } })
  })
})

describe('sessions with traceMeta', () => {
  test('over stdio every request after the opening carries the trace context, the tools/call too', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'trace-meta-')), 'requests.jsonl')
    const config = { kind: 'stdio' as const, command: process.execPath, args: [fixturePath('servers/telemetry-server.mjs'), `LOG=${log}`], env: {} }
    const factory = createSessionFactory(config, { probeTimeoutMs: 3000 })
    const signal = new AbortController().signal
    // The first open learns the era (on its own process); the second opens with it, as a run's does.
    await (await factory.open(signal)).close()
    const session = await factory.open(signal, { traceMeta: () => TRACE })
    try {
      expect((await session.callTool('fast', {}, signal)).text).toBe('fast done')
    } finally {
      await session.close()
    }
    const requests = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as TelemetryRequest)
    // The first session's requests carry nothing; the second's carry it, from the first request on.
    const traced = requests.filter((r) => r.traceparent !== null)
    expect(traced.map((r) => r.method)).toEqual(expect.arrayContaining(['tools/list', 'tools/call']))
    expect(traced.every((r) => r.traceparent === TRACE.traceparent && r.tracestate === TRACE.tracestate)).toBe(true)
    expect(requests.filter((r) => r.method === 'tools/call')).toEqual([{ method: 'tools/call', tool: 'fast', ...TRACE }])
  })
})
