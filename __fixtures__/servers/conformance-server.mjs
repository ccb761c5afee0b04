#!/usr/bin/env node
// A hand-written, spec-faithful MCP 2026-07-28 server (stdio, or Streamable HTTP with --http),
// with one seeded defect per name in DEFECT (comma-separated) for the conformance tests:
//   shuffled-order, missing-ttl, bad-cache-scope, missing-result-type, dangling-ref, remote-ref,
//   unknown-tool-code, draft-version-code, retired-resource-code, no-name-check, mints-session
import { createServer } from 'node:http'
import { createInterface } from 'node:readline'

const defects = new Set((process.env.DEFECT ?? '').split(',').filter(Boolean))
const VERSION = '2026-07-28'
const META_VERSION = 'io.modelcontextprotocol/protocolVersion'
const META_CAPS = 'io.modelcontextprotocol/clientCapabilities'

const TOOLS = [
  {
    name: 'search_docs',
    description: 'Search the documentation by keyword.',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Words to look for' }, limit: { $ref: '#/$defs/limit' } },
      required: ['query'],
      $defs: { limit: { type: 'integer', minimum: 1, maximum: 20, description: 'How many results' } }
    },
    outputSchema: { type: 'object', properties: { hits: { type: 'array', items: { type: 'string' } } } }
  },
  {
    name: 'get_page',
    description: 'Fetch one documentation page by its path.',
    inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'Page path, e.g. /intro' } }, required: ['path'] }
  },
  {
    name: 'list_sections',
    description: 'List the sections of the documentation.',
    inputSchema: { type: 'object', additionalProperties: false }
  }
]
if (defects.has('dangling-ref')) TOOLS[0].inputSchema.properties.limit = { $ref: '#/$defs/nowhere', description: 'How many results' }
if (defects.has('remote-ref')) TOOLS[1].inputSchema.properties.path = { $ref: 'https://schemas.example.com/path.json', description: 'Page path' }

const RESOURCES = [{ uri: 'docs://index', name: 'index', description: 'The documentation index', mimeType: 'text/plain' }]
const PROMPTS = [{ name: 'summarize_page', description: 'Summarize one page', arguments: [{ name: 'path', description: 'Page path', required: true }] }]
let listings = 0
const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'conformance-fixture', version: '1.0.0' } }

const cacheFields = () => {
  const fields = { ttlMs: 60000, cacheScope: defects.has('bad-cache-scope') ? 'shared' : 'public' }
  if (defects.has('missing-ttl')) delete fields.ttlMs
  return fields
}
const complete = (result) => (defects.has('missing-result-type') ? { ...result, _meta: SERVER_INFO } : { resultType: 'complete', ...result, _meta: SERVER_INFO })
const error = (code, message, data) => ({ error: { code, message, ...(data ? { data } : {}) } })

/** Answer one JSON-RPC request: `{result}` or `{error}`, plus the HTTP status it deserves. */
function handle(msg) {
  const meta = msg.params?._meta ?? {}
  if (msg.method === 'initialize') return { status: 400, ...error(-32022, 'Unsupported protocol version', { supported: [VERSION], requested: msg.params?.protocolVersion ?? null }) }
  if (typeof meta[META_VERSION] !== 'string') return { status: 400, ...error(-32602, `Missing ${META_VERSION} in _meta`) }
  if (meta[META_VERSION] !== VERSION) {
    return defects.has('draft-version-code')
      ? { status: 400, ...error(-32004, 'Unsupported protocol version') }
      : { status: 400, ...error(-32022, 'Unsupported protocol version', { supported: [VERSION], requested: meta[META_VERSION] }) }
  }
  if (typeof meta[META_CAPS] !== 'object' || meta[META_CAPS] === null) return { status: 400, ...error(-32602, `Missing ${META_CAPS} in _meta`) }
  switch (msg.method) {
    case 'server/discover':
      return { result: complete({ supportedVersions: [VERSION], capabilities: { tools: {}, resources: {}, prompts: {} }, ...cacheFields() }) }
    case 'tools/list': {
      // The defect: every listing rotates the order by one.
      const shift = defects.has('shuffled-order') ? listings++ % TOOLS.length : 0
      return { result: complete({ tools: [...TOOLS.slice(shift), ...TOOLS.slice(0, shift)], ...cacheFields() }) }
    }
    case 'resources/list':
      return { result: complete({ resources: RESOURCES, ...cacheFields() }) }
    case 'resources/templates/list':
      return { result: complete({ resourceTemplates: [], ...cacheFields() }) }
    case 'prompts/list':
      return { result: complete({ prompts: PROMPTS, ...cacheFields() }) }
    case 'resources/read': {
      const resource = RESOURCES.find((r) => r.uri === msg.params?.uri)
      if (!resource) return defects.has('retired-resource-code') ? error(-32002, 'Resource not found') : error(-32602, `Resource not found: ${msg.params?.uri}`)
      return { result: complete({ contents: [{ uri: resource.uri, mimeType: 'text/plain', text: 'intro\nguide' }], ...cacheFields() }) }
    }
    case 'tools/call': {
      const tool = TOOLS.find((t) => t.name === msg.params?.name)
      if (!tool) return defects.has('unknown-tool-code') ? error(-32601, `Unknown tool: ${msg.params?.name}`) : error(-32602, `Unknown tool: ${msg.params?.name}`)
      return { result: complete({ content: [{ type: 'text', text: `${tool.name} ran` }], ...(tool.outputSchema ? { structuredContent: { hits: [] } } : {}) }) }
    }
    case 'prompts/get':
      return { result: complete({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarize it' } }] }) }
    default:
      return { status: 404, ...error(-32601, `Method not found: ${msg.method}`) }
  }
}

function serveStdio() {
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (!line.trim()) return
    const msg = JSON.parse(line)
    if (msg.id === undefined) return
    const { result, error: err } = handle(msg)
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, ...(err ? { error: err } : { result }) }) + '\n')
  })
}

function serveHttp() {
  const server = createServer(async (req, res) => {
    const chunks = []
    for await (const c of req) chunks.push(c)
    const send = (status, body) => {
      const headers = { 'content-type': 'application/json', ...(defects.has('mints-session') ? { 'mcp-session-id': 'session-123' } : {}) }
      res.writeHead(status, headers).end(body === undefined ? undefined : JSON.stringify(body))
    }
    if (req.method !== 'POST') return send(405, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed' } })
    const msg = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    if (msg.id === undefined) return send(202)
    const headerError = (message) => send(400, { jsonrpc: '2.0', id: msg.id, error: { code: -32020, message } })
    if (req.headers['mcp-method'] !== msg.method) return headerError('Mcp-Method header missing or not equal to the body')
    const named = ['tools/call', 'resources/read', 'prompts/get'].includes(msg.method)
    const name = msg.params?.name ?? msg.params?.uri
    if (named && !defects.has('no-name-check') && req.headers['mcp-name'] !== name) return headerError('Mcp-Name header missing or not equal to the body')
    const version = msg.params?._meta?.[META_VERSION]
    if (version !== undefined && req.headers['mcp-protocol-version'] !== version) return headerError('MCP-Protocol-Version header not equal to _meta')
    const { status, result, error: err } = handle(msg)
    send(status ?? 200, { jsonrpc: '2.0', id: msg.id, ...(err ? { error: err } : { result }) })
  })
  server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}/mcp\n`))
}

if (process.argv.includes('--http')) serveHttp()
else serveStdio()
