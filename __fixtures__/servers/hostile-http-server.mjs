// Hostile HTTP peers on 127.0.0.1 for the read limits (__tests__/hostile-reads.test.ts):
//   startHostileHttpServer  a stateless 2025-11-25 Streamable HTTP MCP server whose tools answer
//                           with a gzip bomb (JSON or SSE), JSON nested 100,000 deep, or both
//                           `result` and `error`; `/old` redirects (307) to its own `/mcp`
//   startRedirector         answers every request with a 307 to another origin
//   startRecorder           the other origin: records the headers of every request it gets
//   gzipBomb                writes a gzip body that inflates to `inflateMb` (about 1 KB per MB)
import { createServer } from 'node:http'
import { gzipSync } from 'node:zlib'

const MiB = 1024 * 1024
/** 16 MiB of "a", deflated: about 16 KB. Gzip members may follow one another; a decompressor inflates them all. */
const MEMBER = gzipSync(Buffer.alloc(16 * MiB, 'a'), { level: 9 })

/**
 * A gzip body that starts with `prefix`, then inflates to `inflateMb` MB more of "a" (Infinity:
 * forever), written as the socket drains, never built: 1.5 GB costs about 1.5 MB on the wire.
 * Returns how many compressed bytes were written, once the body ends or the client leaves.
 */
export function gzipBomb(res, { prefix, suffix = '', inflateMb = 1536, headers = {} }) {
  res.writeHead(200, { 'content-encoding': 'gzip', ...headers })
  let sent = 0
  let members = Math.ceil(inflateMb / 16)
  const write = (chunk) => {
    sent += chunk.length
    return res.write(chunk)
  }
  return new Promise((resolve) => {
    res.once('close', () => resolve(sent))
    write(gzipSync(prefix))
    const more = () => {
      while (members-- > 0) if (!write(MEMBER)) return void res.once('drain', more)
      res.end(gzipSync(suffix))
    }
    more()
  })
}

const TOOLS = ['echo', 'bomb', 'sse-bomb', 'deep', 'both'].map((name) => ({
  name,
  description: `The ${name} tool`,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } }
}))

/** The MCP server: `bombed` lists the compressed byte counts of the bombs it sent (and the client stopped). */
export async function startHostileHttpServer({ inflateMb = 1536 } = {}) {
  const bombed = []
  const requests = []
  const server = createServer(async (req, res) => {
    const chunks = []
    for await (const c of req) chunks.push(c)
    requests.push({ method: req.method, url: req.url, headers: req.headers })
    const json = (status, body, headers = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body === undefined ? undefined : JSON.stringify(body))
    if (req.url === '/old') return res.writeHead(307, { location: '/mcp' }).end()
    if (req.method !== 'POST') return json(405, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed.' } })
    const msg = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    if (msg.id === undefined) return json(202)
    const reply = (body) => json(200, { jsonrpc: '2.0', id: msg.id, ...body })
    switch (msg.method) {
      case 'initialize':
        return reply({ result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'hostile-http', version: '1.0.0' } } })
      case 'tools/list':
        return reply({ result: { tools: TOOLS } })
      case 'ping':
        return reply({ result: {} })
      case 'tools/call': {
        const name = msg.params?.name
        const id = JSON.stringify(msg.id)
        if (name === 'bomb') return bombed.push(await gzipBomb(res, { prefix: `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`, suffix: '"}]}}', inflateMb, headers: { 'content-type': 'application/json' } }))
        if (name === 'sse-bomb') {
          const prefix = `event: message\ndata: {"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`
          return bombed.push(await gzipBomb(res, { prefix, suffix: '"}]}}\n\n', inflateMb, headers: { 'content-type': 'text/event-stream' } }))
        }
        if (name === 'deep') {
          const nested = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)
          return res.writeHead(200, { 'content-type': 'application/json' }).end(`{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"deep"}],"structuredContent":${nested}}}`)
        }
        if (name === 'both') return reply({ result: { content: [{ type: 'text', text: 'fine' }] }, error: { code: -32603, message: 'also broken' } })
        return reply({ result: { content: [{ type: 'text', text: `echo: ${msg.params?.arguments?.text ?? ''}` }] } })
      }
      default:
        return reply({ error: { code: -32601, message: `Method not found: ${msg.method}` } })
    }
  })
  return { ...(await listen(server, '/mcp')), bombed, requests }
}

/** Every request gets a 307 to `target` (another origin). */
export async function startRedirector(target) {
  const server = createServer((req, res) => {
    req.resume()
    res.writeHead(307, { location: target }).end()
  })
  return listen(server, '/mcp')
}

/** Records the headers of every request; answers each with a JSON-RPC error, as if it were a server. */
export async function startRecorder() {
  const received = []
  const server = createServer((req, res) => {
    req.resume()
    received.push(req.headers)
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"the other origin"}}')
  })
  return { ...(await listen(server, '/mcp')), received }
}

async function listen(server, path) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}${path}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
}
