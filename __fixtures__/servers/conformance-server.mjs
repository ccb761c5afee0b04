#!/usr/bin/env node
// A hand-written, spec-faithful MCP 2026-07-28 server (stdio, or Streamable HTTP with --http),
// with one seeded defect per name in DEFECT (comma-separated) for the conformance tests:
//   shuffled-order, missing-ttl, bad-cache-scope, missing-result-type, dangling-ref, remote-ref,
//   unknown-tool-code, draft-version-code, retired-resource-code, no-name-check, mints-session,
//   invalid-args-protocol-error, page-scope-mismatch, wrong-error-id, advertised-prompts-fail,
//   bad-header-marker, task-required, stdout-noise, stdout-banner, stdout-log-after,
//   no-origin-check, no-param-header-check, no-resource-data-uri, header-name-case,
//   header-value-case, no-name-base64, older-dialect-keywords,
//   schema-content-type, schema-no-input-schema, schema-bad-notification (wire-schema-valid: see the block below)
// Clean, it paginates tools/list and resources/list, annotates read-only tools, validates tool
// arguments (isError results), mirrors search_docs.region into Mcp-Param-Region, and over HTTP
// refuses a foreign Origin or Host with 403 and serves a request with neither a version header
// nor a _meta version as a 2025-era one (a dual-era server).
import { createServer } from 'node:http'
import { createInterface } from 'node:readline'

const defects = new Set((process.env.DEFECT ?? '').split(',').filter(Boolean))
const VERSION = '2026-07-28'
const META_VERSION = 'io.modelcontextprotocol/protocolVersion'
const META_CAPS = 'io.modelcontextprotocol/clientCapabilities'
const PAGE_SIZE = { tools: 2, resources: 1 }

const TOOLS = [
  {
    name: 'search_docs',
    description: 'Search the documentation by keyword.',
    annotations: { readOnlyHint: true },
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words to look for' },
        limit: { $ref: '#/$defs/limit' },
        region: { type: 'string', description: 'Documentation mirror to search, e.g. eu', 'x-mcp-header': defects.has('bad-header-marker') ? 'Docs Region' : 'Region' }
      },
      required: ['query'],
      $defs: { limit: { type: 'integer', minimum: 1, maximum: 20, description: 'How many results' } }
    },
    outputSchema: { type: 'object', properties: { hits: { type: 'array', items: { type: 'string' } } } }
  },
  {
    name: 'get_page',
    description: 'Fetch one documentation page by its path.',
    annotations: { readOnlyHint: true },
    inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'Page path, e.g. /intro' } }, required: ['path'] }
  },
  {
    name: 'list_sections',
    description: 'List the sections of the documentation.',
    annotations: { readOnlyHint: true },
    inputSchema: { type: 'object', additionalProperties: false }
  },
  {
    name: 'delete_page',
    description: 'Delete one documentation page by its path.',
    annotations: { readOnlyHint: false, destructiveHint: true },
    inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'Page path, e.g. /intro' } }, required: ['path'] }
  }
]
if (defects.has('dangling-ref')) TOOLS[0].inputSchema.properties.limit = { $ref: '#/$defs/nowhere', description: 'How many results' }
if (defects.has('remote-ref')) TOOLS[1].inputSchema.properties.path = { $ref: 'https://schemas.example.com/path.json', description: 'Page path' }
if (defects.has('task-required')) TOOLS[2].execution = { taskSupport: 'required' }
// Keywords of older dialects that 2020-12 ignores: the constraints they meant silently go.
if (defects.has('older-dialect-keywords')) {
  TOOLS[0].inputSchema.dependencies = { region: ['query'] }
  TOOLS[1].inputSchema.then = { required: ['path'] }
}

// ---- wire-schema-valid's defects: frames the published schema rejects ----------------------
// schema-content-type: tools/call answers a content block of type "weird" (ContentBlock).
// schema-no-input-schema: tools/list lists one more tool, without inputSchema (Tool requires it).
// schema-bad-notification: tools/call first sends notifications/message without its level (its
// params require level and data); over HTTP the answer is then an SSE stream of both.
const BARE_TOOL = { name: 'ping_docs', description: 'Check that the documentation is up.', annotations: { readOnlyHint: true } }
const listedTools = () => (defects.has('schema-no-input-schema') ? [...TOOLS, BARE_TOOL] : TOOLS)
const schemaContent = (content) => (defects.has('schema-content-type') ? [{ type: 'weird', text: content[0].text }] : content)
const BAD_NOTIFICATION = { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'working on it' } }
const notifiesFirst = (msg) => defects.has('schema-bad-notification') && msg.method === 'tools/call'
// ---------------------------------------------------------------------------------------------

const RESOURCES = [
  { uri: 'docs://index', name: 'index', description: 'The documentation index', mimeType: 'text/plain' },
  { uri: 'docs://changelog', name: 'changelog', description: 'What changed, newest first', mimeType: 'text/plain' }
]
const PROMPTS = [{ name: 'summarize_page', description: 'Summarize one page', arguments: [{ name: 'path', description: 'Page path', required: true }] }]
let listings = 0
let shift = 0
const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'conformance-fixture', version: '1.0.0' } }

const cacheFields = (page = 1) => {
  const scope = defects.has('bad-cache-scope') ? 'shared' : defects.has('page-scope-mismatch') && page > 1 ? 'private' : 'public'
  const fields = { ttlMs: 60000, cacheScope: scope }
  if (defects.has('missing-ttl')) delete fields.ttlMs
  return fields
}
const complete = (result) => (defects.has('missing-result-type') ? { ...result, _meta: SERVER_INFO } : { resultType: 'complete', ...result, _meta: SERVER_INFO })
const error = (code, message, data) => ({ error: { code, message, ...(data ? { data } : {}) } })

/** One page of `items` for a cursor of the form "page-N", and the cursor of the next page. */
function paged(items, size, cursor) {
  const page = cursor === undefined ? 1 : Number(/^page-(\d+)$/.exec(cursor)?.[1])
  if (!Number.isInteger(page) || page < 1) return undefined
  const slice = items.slice((page - 1) * size, page * size)
  return { page, slice, ...(page * size < items.length ? { nextCursor: `page-${page + 1}` } : {}) }
}

/** What is wrong with these arguments for this tool's schema (required and type only), if anything. */
function argumentProblem(tool, args) {
  const schema = tool.inputSchema
  for (const name of schema.required ?? []) if (args?.[name] === undefined) return `missing required argument "${name}"`
  for (const [name, value] of Object.entries(args ?? {})) {
    let prop = schema.properties?.[name]
    if (prop?.$ref) prop = schema.$defs?.[prop.$ref.split('/').pop()]
    if (!prop) {
      if (schema.additionalProperties === false) return `unknown argument "${name}"`
      continue
    }
    const type = Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value
    if (prop.type && prop.type !== type && !(prop.type === 'number' && type === 'integer')) return `"${name}" must be ${prop.type}, got ${type}`
  }
  return undefined
}

/** Answer one JSON-RPC request: `{result}` or `{error}`, plus the HTTP status it deserves. */
function handle(msg) {
  const meta = msg.params?._meta ?? {}
  // Removed in 2026-07-28: an initialize carrying the modern envelope is an unknown method (§10);
  // a 2025 client's initialize (no envelope) still gets -32022 naming the supported versions.
  if (msg.method === 'initialize' && meta[META_VERSION] !== undefined) return { status: 404, ...error(-32601, `Method not found: initialize (removed in ${VERSION})`) }
  if (msg.method === 'initialize') return { status: 400, ...error(-32022, 'Unsupported protocol version', { supported: [VERSION], requested: msg.params?.protocolVersion ?? null }) }
  if (typeof meta[META_VERSION] !== 'string') return { status: 400, ...error(-32602, `Missing ${META_VERSION} in _meta`) }
  if (meta[META_VERSION] !== VERSION) {
    return defects.has('draft-version-code')
      ? { status: 400, ...error(-32004, 'Unsupported protocol version') }
      : { status: 400, ...error(-32022, 'Unsupported protocol version', { supported: [VERSION], requested: meta[META_VERSION] }) }
  }
  if (typeof meta[META_CAPS] !== 'object' || meta[META_CAPS] === null) return { status: 400, ...error(-32602, `Missing ${META_CAPS} in _meta`) }
  const cursor = msg.params?.cursor
  switch (msg.method) {
    case 'server/discover':
      return { result: complete({ supportedVersions: [VERSION], capabilities: { tools: LISTEN_TOOLS, resources: {}, prompts: {} }, ...cacheFields() }) }
    case 'subscriptions/listen':
      return { listen: acknowledgement(msg) }
    case 'tools/list': {
      // The defect: every listing rotates the order by one (its later pages keep the rotation).
      if (cursor === undefined) shift = defects.has('shuffled-order') ? listings++ % listedTools().length : 0
      const tools = listedTools()
      const page = paged([...tools.slice(shift), ...tools.slice(0, shift)], PAGE_SIZE.tools, cursor)
      if (!page) return error(-32602, `Invalid cursor: ${cursor}`)
      return { result: complete({ tools: page.slice, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), ...cacheFields(page.page) }) }
    }
    case 'resources/list': {
      const page = paged(RESOURCES, PAGE_SIZE.resources, cursor)
      if (!page) return error(-32602, `Invalid cursor: ${cursor}`)
      return { result: complete({ resources: page.slice, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), ...cacheFields(page.page) }) }
    }
    case 'resources/templates/list':
      return { result: complete({ resourceTemplates: [], ...cacheFields() }) }
    case 'prompts/list':
      if (defects.has('advertised-prompts-fail')) return { status: 500, ...error(-32603, 'Internal error: prompt store unavailable') }
      return { result: complete({ prompts: PROMPTS, ...cacheFields() }) }
    case 'resources/read': {
      const resource = RESOURCES.find((r) => r.uri === msg.params?.uri)
      if (!resource) return defects.has('retired-resource-code') ? error(-32002, 'Resource not found', { uri: msg.params?.uri }) : error(-32602, `Resource not found: ${msg.params?.uri}`, defects.has('no-resource-data-uri') ? undefined : { uri: msg.params?.uri })
      return { result: complete({ contents: [{ uri: resource.uri, mimeType: 'text/plain', text: 'intro\nguide' }], ...cacheFields() }) }
    }
    case 'tools/call': {
      const tool = TOOLS.find((t) => t.name === msg.params?.name)
      if (!tool) return defects.has('unknown-tool-code') ? error(-32601, `Unknown tool: ${msg.params?.name}`) : error(-32602, `Unknown tool: ${msg.params?.name}`)
      const problem = argumentProblem(tool, msg.params?.arguments)
      if (problem) {
        // Spec-faithful: a tool execution error the model can read. The defect: a protocol error.
        if (defects.has('invalid-args-protocol-error')) return error(-32602, `Invalid arguments for ${tool.name}: ${problem}`)
        return { result: complete({ content: schemaContent([{ type: 'text', text: `Invalid arguments for ${tool.name}: ${problem}` }]), isError: true }) }
      }
      return { result: complete({ content: schemaContent([{ type: 'text', text: `${tool.name} ran` }]), ...(tool.outputSchema ? { structuredContent: { hits: [] } } : {}) }) }
    }
    case 'prompts/get':
      return { result: complete({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarize it' } }] }) }
    default:
      return { status: 404, ...error(-32601, `Method not found: ${msg.method}`) }
  }
}

// --- subscriptions/listen (the streams checks): tools.listChanged is declared; a listen is
// acknowledged at once with the subset it honours (toolsListChanged), tagged with its id, and
// stays open until the client cancels it (stdio: notifications/cancelled; HTTP: closing the
// stream). The tool list never changes, so nothing follows the acknowledgement.
const LISTEN_TOOLS = { listChanged: true }
function acknowledgement(msg) {
  const honoured = msg.params?.notifications?.toolsListChanged === true ? { toolsListChanged: true } : {}
  return { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: honoured, _meta: { 'io.modelcontextprotocol/subscriptionId': msg.id } } }
}
// --- end of subscriptions/listen

/** The response frame; the defect puts a null id on every error. */
const frame = (id, { result, error: err }) => ({ jsonrpc: '2.0', id: err && defects.has('wrong-error-id') ? null : id, ...(err ? { error: err } : { result }) })

function serveStdio() {
  if (defects.has('stdout-noise')) {
    // Started in HTTP mode by mistake: it never reads stdin, and says so on stdout.
    process.stdout.write('listening on :3000\n')
    setInterval(() => {}, 1000)
    return
  }
  if (defects.has('stdout-banner')) process.stdout.write('docs server 1.0.0 starting\n')
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (!line.trim()) return
    const msg = JSON.parse(line)
    if (msg.id === undefined) return
    const answer = handle(msg)
    if (answer.listen) return void process.stdout.write(JSON.stringify(answer.listen) + '\n')
    if (notifiesFirst(msg)) process.stdout.write(JSON.stringify(BAD_NOTIFICATION) + '\n')
    process.stdout.write(JSON.stringify(frame(msg.id, answer)) + '\n')
    if (defects.has('stdout-log-after')) process.stdout.write(`handled ${msg.method}\n`)
  })
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])
/** A hostname from a Host header or an Origin URL; undefined when it cannot be read. */
const hostnameOf = (value, asUrl) => {
  try {
    return new URL(asUrl ? value : `http://${value}`).hostname
  } catch {
    return undefined
  }
}

/** `Mcp-Param-*` against the arguments: a marked, present argument needs an equal header (base64 sentinel decoded). */
function paramHeaderProblem(msg, headers) {
  const tool = TOOLS.find((t) => t.name === msg.params?.name)
  for (const [name, prop] of Object.entries(tool?.inputSchema.properties ?? {})) {
    const marker = prop['x-mcp-header']
    const value = msg.params?.arguments?.[name]
    if (!marker || value === undefined || value === null) continue
    const raw = headers[`mcp-param-${marker.toLowerCase()}`]
    if (raw === undefined) return `Mcp-Param-${marker} header missing`
    const sentinel = /^=\?base64\?(.*)\?=$/.exec(raw)
    const decoded = sentinel ? Buffer.from(sentinel[1], 'base64').toString('utf8') : raw
    if (decoded !== String(value)) return `Mcp-Param-${marker} header not equal to arguments.${name}`
  }
  return undefined
}

// Header forms (§4): names are case-insensitive (node:http lowercases them), values trimmed
// (node:http trims them), an Mcp-Name sent as =?base64?…?= is decoded. The defects undo the
// first and the last, and compare values case-insensitively.
function headerOf(req, name) {
  if (!defects.has('header-name-case')) return req.headers[name]
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i] === name) return req.rawHeaders[i + 1]
  return undefined
}
const decodedName = (raw) => {
  const sentinel = /^=\?base64\?(.*)\?=$/.exec(raw ?? '')
  return sentinel && !defects.has('no-name-base64') ? Buffer.from(sentinel[1], 'base64').toString('utf8') : raw
}
const sameValue = (header, body) => (defects.has('header-value-case') && typeof header === 'string' && typeof body === 'string' ? header.toLowerCase() === body.toLowerCase() : header === body)

function serveHttp() {
  const server = createServer(async (req, res) => {
    const chunks = []
    for await (const c of req) chunks.push(c)
    const send = (status, body) => {
      const headers = { 'content-type': 'application/json', ...(defects.has('mints-session') ? { 'mcp-session-id': 'session-123' } : {}) }
      res.writeHead(status, headers).end(body === undefined ? undefined : JSON.stringify(body))
    }
    // DNS rebinding protection (§4): a foreign Origin or Host is refused before anything else.
    if (!defects.has('no-origin-check')) {
      const origin = req.headers.origin
      const foreign = (origin !== undefined && !LOCAL_HOSTS.has(hostnameOf(origin, true))) || !LOCAL_HOSTS.has(hostnameOf(req.headers.host ?? '', false))
      if (foreign) return send(403, { jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden: foreign Origin or Host' } })
    }
    if (req.method !== 'POST') return send(405, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed' } })
    const msg = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    if (msg.id === undefined) return send(202)
    const headerError = (message) => send(400, frame(msg.id, error(-32020, message)))
    if (!sameValue(headerOf(req, 'mcp-method'), msg.method)) return headerError('Mcp-Method header missing or not equal to the body')
    const named = ['tools/call', 'resources/read', 'prompts/get'].includes(msg.method)
    const name = msg.params?.name ?? msg.params?.uri
    if (named && !defects.has('no-name-check') && decodedName(headerOf(req, 'mcp-name')) !== name) return headerError('Mcp-Name header missing or not equal to the body')
    const version = msg.params?._meta?.[META_VERSION]
    if (version !== undefined && headerOf(req, 'mcp-protocol-version') !== version) return headerError('MCP-Protocol-Version header not equal to _meta')
    // Dual-era: neither a version header nor a _meta version is a 2025-era request, served as one.
    if (version === undefined && req.headers['mcp-protocol-version'] === undefined && msg.method === 'tools/list') return send(200, frame(msg.id, { result: { tools: TOOLS } }))
    if (msg.method === 'tools/call' && !defects.has('no-param-header-check')) {
      const problem = paramHeaderProblem(msg, req.headers)
      if (problem) return headerError(problem)
    }
    const answer = handle(msg)
    if (answer.listen) return void res.writeHead(200, { 'content-type': 'text/event-stream' }).write(`data: ${JSON.stringify(answer.listen)}\n\n`)
    if (notifiesFirst(msg)) {
      const events = [BAD_NOTIFICATION, frame(msg.id, answer)].map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`)
      return res.writeHead(answer.status ?? 200, { 'content-type': 'text/event-stream' }).end(events.join(''))
    }
    send(answer.status ?? 200, frame(msg.id, answer))
  })
  server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}/mcp\n`))
}

if (process.argv.includes('--http')) serveHttp()
else serveStdio()
