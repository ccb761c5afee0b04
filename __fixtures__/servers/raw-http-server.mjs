// A minimal 2026-07-28 server over a hand-written HTTP/1.1 parser on 127.0.0.1 (node:net), one
// request per connection. Unlike node:http, its parser is its own, so it can get header forms
// wrong the way hand-rolled servers and proxies do: with `trim: false` it reads a header value as
// everything after "Name: ", whitespace included (RFC 9110 §5.5 says to drop it). Header names
// are compared case-insensitively. Tools only: tools/call of any name is an unknown tool.
import { createServer } from 'node:net'

const VERSION = '2026-07-28'
const META_VERSION = 'io.modelcontextprotocol/protocolVersion'
const complete = (result) => ({ resultType: 'complete', ...result, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'raw-http', version: '1.0.0' } } })

/** The JSON-RPC answer and its status for one request whose headers are already validated. */
function handle(msg) {
  const meta = msg.params?._meta ?? {}
  if (meta[META_VERSION] !== VERSION) return [400, { error: { code: -32022, message: 'Unsupported protocol version', data: { supported: [VERSION], requested: meta[META_VERSION] ?? null } } }]
  if (typeof meta['io.modelcontextprotocol/clientCapabilities'] !== 'object') return [400, { error: { code: -32602, message: 'Missing clientCapabilities' } }]
  if (msg.method === 'server/discover') return [200, { result: complete({ supportedVersions: [VERSION], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'public' }) }]
  if (msg.method === 'tools/list') return [200, { result: complete({ tools: [], ttlMs: 0, cacheScope: 'public' }) }]
  if (msg.method === 'tools/call') return [200, { error: { code: -32602, message: `Unknown tool: ${msg.params?.name}` } }]
  return [404, { error: { code: -32601, message: `Method not found: ${msg.method}` } }]
}

export async function startRawHttpServer({ trim = true } = {}) {
  const server = createServer((socket) => {
    let buffer = Buffer.alloc(0)
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk])
      const end = buffer.indexOf('\r\n\r\n')
      if (end < 0) return
      const [start, ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n')
      const headers = {}
      for (const line of lines) {
        const colon = line.indexOf(':')
        const value = line.slice(colon + 1)
        headers[line.slice(0, colon).toLowerCase()] = trim ? value.trim() : value.replace(/^ /, '')
      }
      const length = Number(headers['content-length'] ?? 0)
      if (buffer.length < end + 4 + length) return
      socket.removeAllListeners('data')
      const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8')
      const send = (status, payload) => {
        const text = payload === undefined ? '' : JSON.stringify(payload)
        socket.end(`HTTP/1.1 ${status} X\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`)
      }
      const origin = headers.origin
      if ((origin !== undefined && !/^http:\/\/127\.0\.0\.1(:\d+)?$/.test(origin)) || !/^127\.0\.0\.1(:\d+)?$/.test(headers.host ?? '')) return send(403, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Forbidden' } })
      if (!start.startsWith('POST ')) return send(405, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed' } })
      let msg
      try {
        msg = JSON.parse(body)
      } catch {
        return send(400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })
      }
      if (msg.id === undefined) return send(202)
      if (typeof msg.params?._meta?.[META_VERSION] !== 'string') return send(400, { jsonrpc: '2.0', id: msg.id, error: { code: -32602, message: `Missing ${META_VERSION} in _meta (this server speaks ${VERSION})` } })
      const mismatch = (message) => send(400, { jsonrpc: '2.0', id: msg.id, error: { code: -32020, message } })
      if (headers['mcp-method'] !== msg.method) return mismatch(`Mcp-Method ${JSON.stringify(headers['mcp-method'])} does not match ${msg.method}`)
      if (headers['mcp-protocol-version'] !== msg.params?._meta?.[META_VERSION]) return mismatch('MCP-Protocol-Version does not match _meta')
      const sentinel = /^=\?base64\?(.*)\?=$/.exec(headers['mcp-name'] ?? '')
      const name = sentinel ? Buffer.from(sentinel[1], 'base64').toString('utf8') : headers['mcp-name']
      if (msg.method === 'tools/call' && name !== msg.params?.name) return mismatch(`Mcp-Name ${JSON.stringify(headers['mcp-name'])} does not match ${msg.params?.name}`)
      const [status, answer] = handle(msg)
      send(status, { jsonrpc: '2.0', id: msg.id, ...answer })
    })
    socket.on('error', () => undefined)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    close: () => new Promise((resolve) => server.close(resolve))
  }
}
