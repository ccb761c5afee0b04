import { describe, expect, test } from '@jest/globals'
import { fixturePath } from '../__fixtures__/harness.js'
import { startLegacyHttpServer } from '../__fixtures__/servers/legacy-http-server.mjs'
import { createSessionFactory, outcomeOf } from '../src/mcp/session.js'

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
      expect(outcomeOf(error)).toEqual({ text: expect.stringMatching(/^MCP error -32602: /), isError: true })
    } finally {
      await session.close()
    }
  })
})
