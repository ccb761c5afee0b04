// The shared body of the era fixtures (prompts-only-server.mjs, resources-only-server.mjs,
// dual-era-http-server.mjs): a hand-written, spec-faithful 2026-07-28 server that declares only
// the capabilities it is given, over stdio or (with --http) Streamable HTTP on 127.0.0.1, and,
// when `dual` is set, a 2025-11-25 side too: initialize opens a legacy session (stdio: for the
// process; HTTP: an Mcp-Session-Id, a GET event stream, DELETE to end it, 404 after).
// Seeded defects (DEFECT, comma-separated), one finding each:
//   session-survives-delete, session-optional, get-json, ping-payload, set-level-error,
//   modern-ping, init-no-server-info, missing-version-served, initialize-bare-error,
//   enveloped-initialize-served (not a finding: a dual-era server may take it for a 2025 client's)
import { createServer } from 'node:http'
import { randomUUID } from 'node:crypto'
import { createInterface } from 'node:readline'
import { foreignRequest } from './hand-wire.mjs'

const VERSION = '2026-07-28'
const LEGACY = '2025-11-25'
const META_VERSION = 'io.modelcontextprotocol/protocolVersion'
const META_CAPS = 'io.modelcontextprotocol/clientCapabilities'
const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'era-fixture', version: '1.0.0' } }

const TOOLS = [{ name: 'echo', description: 'Echo the text back.', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'What to echo' } }, required: ['text'] } }]
const PROMPTS = [{ name: 'greet', description: 'Greet someone by name', arguments: [{ name: 'who', description: 'Whom to greet', required: true }] }]
const RESOURCES = [{ uri: 'notes://today', name: 'today', description: "Today's notes", mimeType: 'text/plain' }]

const error = (code, message, data) => ({ error: { code, message, ...(data ? { data } : {}) } })
const frame = (id, { result, error: err }) => ({ jsonrpc: '2.0', id, ...(err ? { error: err } : { result }) })

/** `serve({ capabilities, dual })`: stdio, or HTTP with --http (the URL is printed on stdout). */
export function serve({ capabilities, dual = false }) {
  const defects = new Set((process.env.DEFECT ?? '').split(',').filter(Boolean))
  const has = (name) => !!capabilities[name]
  const cache = { ttlMs: 60000, cacheScope: 'public' }
  const complete = (result) => ({ resultType: 'complete', ...result, _meta: SERVER_INFO })
  const supported = dual ? [VERSION, LEGACY] : [VERSION]

  /** The methods both eras serve, as a result body (without the modern fields) or an error. */
  function method(msg) {
    const params = msg.params ?? {}
    switch (has('tools') && msg.method) {
      case 'tools/list':
        return { result: { tools: TOOLS }, listed: true }
      case 'tools/call': {
        if (params.name !== 'echo') return error(-32602, `Unknown tool: ${params.name}`)
        if (typeof params.arguments?.text !== 'string') return { result: { content: [{ type: 'text', text: 'text must be a string' }], isError: true } }
        return { result: { content: [{ type: 'text', text: params.arguments.text }] } }
      }
    }
    switch (has('prompts') && msg.method) {
      case 'prompts/list':
        return { result: { prompts: PROMPTS }, listed: true }
      case 'prompts/get':
        if (params.name !== 'greet') return error(-32602, `Unknown prompt: ${params.name}`)
        return { result: { messages: [{ role: 'user', content: { type: 'text', text: `Greet ${params.arguments?.who ?? 'them'}` } }] } }
    }
    switch (has('resources') && msg.method) {
      case 'resources/list':
        return { result: { resources: RESOURCES }, listed: true }
      case 'resources/templates/list':
        return { result: { resourceTemplates: [] }, listed: true }
      case 'resources/read': {
        const resource = RESOURCES.find((r) => r.uri === params.uri)
        if (!resource) return error(-32602, `Resource not found: ${params.uri}`, { uri: params.uri })
        return { result: { contents: [{ uri: resource.uri, mimeType: 'text/plain', text: 'buy milk' }] }, listed: true }
      }
    }
    return undefined
  }

  /** A 2026-07-28 request: `{result}` or `{error}`, and its HTTP status. */
  function modern(msg) {
    const meta = msg.params?._meta ?? {}
    if (typeof meta[META_VERSION] !== 'string') return { status: 400, ...error(-32602, `Missing ${META_VERSION} in _meta`) }
    if (meta[META_VERSION] !== VERSION) return { status: 400, ...error(-32022, 'Unsupported protocol version', { supported, requested: meta[META_VERSION] }) }
    if (typeof meta[META_CAPS] !== 'object' || meta[META_CAPS] === null) return { status: 400, ...error(-32602, `Missing ${META_CAPS} in _meta`) }
    if (msg.method === 'server/discover') return { result: complete({ supportedVersions: supported, capabilities, ...cache }) }
    if (msg.method === 'ping' && defects.has('modern-ping')) return { result: {} }
    const answer = method(msg)
    if (!answer) return { status: 404, ...error(-32601, `Method not found: ${msg.method}`) }
    if (answer.error) return answer
    return { result: complete({ ...answer.result, ...(answer.listed ? cache : {}) }) }
  }

  /** A 2025-11-25 request on an initialized session (or process). */
  function legacy(msg) {
    switch (msg.method) {
      case 'initialize': {
        const info = defects.has('init-no-server-info') ? {} : { serverInfo: { name: 'era-fixture', version: '1.0.0' } }
        return { result: { protocolVersion: LEGACY, capabilities: { ...capabilities, logging: {} }, ...info } }
      }
      case 'ping':
        return { result: defects.has('ping-payload') ? { ok: true } : {} }
      case 'logging/setLevel':
        return defects.has('set-level-error') ? error(-32601, 'Method not found: logging/setLevel') : { result: {} }
    }
    return method(msg) ?? error(-32601, `Method not found: ${msg.method}`)
  }

  /** A 2025 client's initialize, to a server that does not serve 2025: an error naming what it does serve. */
  const refuseInitialize = () =>
    defects.has('initialize-bare-error') ? { status: 400, ...error(-32600, 'Bad request') } : { status: 400, ...error(-32022, 'Unsupported protocol version', { supported, requested: LEGACY }) }

  if (process.argv.includes('--http')) return serveHttp({ modern, legacy, refuseInitialize, dual, defects })
  let initialized = false
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (!line.trim()) return
    const msg = JSON.parse(line)
    if (msg.id === undefined) return
    const claimed = msg.params?._meta?.[META_VERSION] !== undefined
    let answer
    if (!claimed && msg.method === 'initialize') answer = dual ? ((initialized = true), legacy(msg)) : refuseInitialize()
    else if (!claimed && (initialized || defects.has('missing-version-served'))) answer = legacy(msg)
    else answer = modern(msg)
    process.stdout.write(JSON.stringify(frame(msg.id, answer)) + '\n')
  })
}

function serveHttp({ modern, legacy, refuseInitialize, dual, defects }) {
  /** 2025 sessions: id → the GET streams open on it. */
  const sessions = new Map()
  const server = createServer(async (req, res) => {
    const chunks = []
    for await (const c of req) chunks.push(c)
    const send = (status, body, headers = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body === undefined ? undefined : JSON.stringify(body))
    if (foreignRequest(req)) {
      return send(403, { jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden: foreign Origin or Host' } })
    }
    const session = req.headers['mcp-session-id']
    const headerVersion = req.headers['mcp-protocol-version']
    // The 2025 side: GET streams and DELETE belong to sessions.
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!dual) return send(405, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed' } })
      if (!session) return send(400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' } })
      if (!sessions.has(session)) return send(404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } })
      if (req.method === 'DELETE') {
        if (!defects.has('session-survives-delete')) {
          for (const stream of sessions.get(session)) stream.end()
          sessions.delete(session)
        }
        return send(200)
      }
      if (defects.has('get-json')) return send(200, { jsonrpc: '2.0', id: null, result: {} })
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      res.write(': stream open\n\n')
      sessions.get(session).add(res)
      res.on('close', () => sessions.get(session)?.delete(res))
      return
    }
    if (req.method !== 'POST') return send(405, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed' } })
    const msg = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    const claimed = msg.params?._meta?.[META_VERSION] !== undefined
    // Neither the envelope nor a 2026-07-28 header: a 2025-era request (or a 2025 client's initialize).
    const legacyRequest = !claimed && (headerVersion === undefined || headerVersion < VERSION)
    // The defect: a request whose header claims 2026-07-28 but whose _meta has no version, served as a 2025-era one.
    if (!claimed && headerVersion === VERSION && defects.has('missing-version-served') && msg.id !== undefined) return send(200, frame(msg.id, legacy(msg)))
    // enveloped-initialize-served: an initialize carrying the modern envelope opens a 2025 session too (a dual-era server may).
    if ((legacyRequest || (dual && defects.has('enveloped-initialize-served'))) && msg.method === 'initialize') {
      if (!dual) {
        const refusal = refuseInitialize()
        return send(refusal.status, frame(msg.id, refusal))
      }
      const id = randomUUID()
      sessions.set(id, new Set())
      return send(200, frame(msg.id, legacy(msg)), { 'mcp-session-id': id })
    }
    if (legacyRequest && dual) {
      if (!session && !defects.has('session-optional')) {
        return send(400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' } })
      }
      if (session && !sessions.has(session)) return send(404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } })
      if (msg.id === undefined) return send(202)
      return send(200, frame(msg.id, legacy(msg)))
    }
    if (msg.id === undefined) return send(202)
    const headerError = (message) => send(400, frame(msg.id, error(-32020, message)))
    if (req.headers['mcp-method'] !== msg.method) return headerError('Mcp-Method header missing or not equal to the body')
    const named = ['tools/call', 'resources/read', 'prompts/get'].includes(msg.method)
    // A value that is not plain ASCII comes base64-encoded in the =?base64?…?= sentinel (§4): decoded before comparing.
    const sentinel = /^=\?base64\?(.*)\?=$/.exec(req.headers['mcp-name'] ?? '')
    const name = sentinel ? Buffer.from(sentinel[1], 'base64').toString('utf8') : req.headers['mcp-name']
    if (named && name !== (msg.params?.name ?? msg.params?.uri)) return headerError('Mcp-Name header missing or not equal to the body')
    if (claimed && headerVersion !== msg.params._meta[META_VERSION]) return headerError('MCP-Protocol-Version header not equal to _meta')
    const answer = modern(msg)
    send(answer.status ?? 200, frame(msg.id, answer))
  })
  server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}/mcp\n`))
}
