// A hand-written 2025-11-25 (legacy) Streamable HTTP server on 127.0.0.1: initialize mints an
// Mcp-Session-Id, later requests must carry it, DELETE ends it. It records every request, so a
// test can see that a client ended the sessions it opened. With `checkOrigin` it refuses a
// foreign Origin with 403, as 2025-11-25 already required.
import { createServer } from 'node:http'
import { randomUUID } from 'node:crypto'

const TOOLS = [
  {
    name: 'add',
    description: 'Add two numbers',
    annotations: { readOnlyHint: true },
    inputSchema: { type: 'object', properties: { a: { type: 'number', description: 'First' }, b: { type: 'number', description: 'Second' } }, required: ['a', 'b'] }
  }
]

export async function startLegacyHttpServer({ checkOrigin = false } = {}) {
  const requests = []
  const sessions = new Set()
  const minted = []
  const server = createServer(async (req, res) => {
    const chunks = []
    for await (const c of req) chunks.push(c)
    const session = req.headers['mcp-session-id']
    requests.push({ method: req.method, session, headers: req.headers })
    const json = (status, body, headers = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body === undefined ? undefined : JSON.stringify(body))
    const origin = req.headers.origin
    if (checkOrigin && origin !== undefined && !/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(origin)) return json(403, { jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden origin' } })
    if (req.method === 'DELETE') {
      if (!session || !sessions.delete(session)) return json(404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } })
      return json(200)
    }
    if (req.method !== 'POST') return json(405, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed.' } })
    const msg = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    if (msg.method === 'initialize') {
      const id = randomUUID()
      sessions.add(id)
      minted.push(id)
      return json(200, { jsonrpc: '2.0', id: msg.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'legacy-http', version: '0.1.0' } } }, { 'mcp-session-id': id })
    }
    // The v1 SDK's answers: no session is 400, an unknown or ended one 404 (2025-11-25); it reads no id.
    if (!session) return json(400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Server not initialized' } })
    if (!sessions.has(session)) return json(404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } })
    if (msg.id === undefined) return json(202)
    switch (msg.method) {
      case 'tools/list':
        return json(200, { jsonrpc: '2.0', id: msg.id, result: { tools: TOOLS } })
      case 'ping':
        return json(200, { jsonrpc: '2.0', id: msg.id, result: {} })
      case 'tools/call': {
        const args = msg.params?.arguments ?? {}
        if (msg.params?.name !== 'add') return json(200, { jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: `Unknown tool ${msg.params?.name}` }], isError: true } })
        if (typeof args.a !== 'number' || typeof args.b !== 'number') return json(200, { jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: 'a and b must be numbers' }], isError: true } })
        return json(200, { jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: String(args.a + args.b) }] } })
      }
      default:
        return json(404, { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } })
    }
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    requests,
    /** Every session id initialize handed out, and those not yet ended by DELETE. */
    minted,
    open: sessions,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
}
