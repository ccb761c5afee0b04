import { describe, expect, test } from '@jest/globals'
import { fixturePath } from '../__fixtures__/harness.js'
import { startLegacyHttpServer } from '../__fixtures__/servers/legacy-http-server.mjs'
import type { Transport } from '@modelcontextprotocol/client'
import { createSessionFactory, outcomeOf } from '../src/mcp/session.js'
import { WireTap } from '../src/mcp/wire-tap.js'

/** The agent's sessions (the SDK client): what the wire tap sees, and how sessions end. */

describe('sessions', () => {
  test('a legacy HTTP session is ended with DELETE when the run closes it', async () => {
    const server = await startLegacyHttpServer()
    try {
      const session = await createSessionFactory({ kind: 'http', url: server.url, headers: {} }, { probeTimeoutMs: 2000 }).open(new AbortController().signal)
      expect(session.era).toBe('legacy')
      expect(server.open.size).toBe(1)
      await session.close()
      expect([...server.open]).toEqual([])
      expect(server.requests.filter((r) => r.method === 'DELETE').map((r) => r.session)).toEqual(server.minted.slice(-1))
    } finally {
      await server.close()
    }
  })

  test('callToolRaw answers with the frame as the server sent it, where the SDK would reject or rewrite it', async () => {
    const config = { kind: 'stdio' as const, command: process.execPath, args: [fixturePath('servers/observed-server.mjs')], env: {} }
    const session = await createSessionFactory(config, { probeTimeoutMs: 2000 }).open(new AbortController().signal)
    try {
      expect(session.tools.find((t) => t.name === 'get_item')?.outputSchema).toMatchObject({ type: 'object' })
      const signal = new AbortController().signal
      // structuredContent that breaks the outputSchema: the SDK's own check would make it a local -32602.
      const mismatch = await session.callToolRaw('get_item', { id: 'skillet' }, signal)
      expect(mismatch.response).toMatchObject({ kind: 'result', result: { structuredContent: { price: '39 USD' } } })
      expect(mismatch.request).toMatchObject({ method: 'tools/call', params: { name: 'get_item', arguments: { id: 'skillet' } } })
      // An invalid image block: the SDK rejects the whole result (INVALID_RESULT); the model is shown it as it came.
      const photo = await session.callToolRaw('get_item', { id: 'photo' }, signal)
      expect(photo.response.kind).toBe('result')
      expect(outcomeOf(photo).isError).toBe(false)
      // A JSON-RPC error is an answer, not a throw.
      const error = await session.callToolRaw('get_item', { id: 42 }, signal)
      expect(error.response).toMatchObject({ kind: 'error', error: { code: -32602 } })
      expect(outcomeOf(error)).toEqual({ text: expect.stringMatching(/^MCP error -32602: /), isError: true, protocol_error: { code: -32602, message: expect.any(String) } })
    } finally {
      await session.close()
    }
  })
})

describe('the wire tap', () => {
  /** A transport that records what is sent and lets the test deliver answers. */
  function fakeTransport() {
    const transport = {
      sent: [] as unknown[],
      onmessage: undefined as ((message: unknown) => void) | undefined,
      async start() {},
      async close() {},
      async send(message: unknown) {
        transport.sent.push(message)
      }
    }
    return transport
  }
  const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get', arguments: {} } })

  test('a window holds the calls sent while it is open (an input_required retry too); a late answer to an abandoned call is not the next call’s', async () => {
    const tap = new WireTap()
    const raw = fakeTransport()
    const wrapped = tap.wrap(raw as unknown as Transport)
    const seen: unknown[] = []
    wrapped.onmessage = (m: unknown) => seen.push(m)

    const first = tap.open()
    await wrapped.send(call(1) as never)
    expect(first.close()).toEqual([]) // gave up: no answer came

    const second = tap.open()
    await wrapped.send(call(2) as never)
    await wrapped.send(call(3) as never)
    raw.onmessage!({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'late' }] } })
    raw.onmessage!({ jsonrpc: '2.0', id: 2, result: { resultType: 'input_required' } })
    raw.onmessage!({ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'mine' }] } })
    const mine = second.close()
    expect(mine.map((c) => c.id)).toEqual([2, 3])
    expect(mine.at(-1)?.response).toMatchObject({ result: { content: [{ text: 'mine' }] } })
    // The SDK still gets every frame, unchanged.
    expect(seen).toHaveLength(3)
    expect(raw.sent).toHaveLength(3)
  })
})
