#!/usr/bin/env node
// A hand-written MCP 2026-07-28 server (stdio, or Streamable HTTP with --http) for the streams
// checks: subscriptions/listen, log notifications, what rides on a response stream. Clean, it
// declares tools.listChanged, prompts.listChanged, resources.subscribe and logging; acknowledges
// a listen first (the honoured subset, tagged with the listen's id), then sends one
// notifications/tools/list_changed (100 ms later) and one notifications/resources/updated (for a
// watched URI) on the listens that asked for them, until the client cancels (stdio:
// notifications/cancelled; HTTP: closes the stream); logs (info) on a request only when its
// _meta carries io.modelcontextprotocol/logLevel. One seeded defect per name in DEFECT:
//   no-ack, ack-wrong-id, ack-superset, untagged, ignore-filter, list-changed-on-call,
//   log-always, log-undeclared, server-request, no-listen, busy
import { createServer } from 'node:http'
import { createInterface } from 'node:readline'
import { jsonSender, localPost } from './hand-wire.mjs'

const defects = new Set((process.env.DEFECT ?? '').split(',').filter(Boolean))
const VERSION = '2026-07-28'
const META_VERSION = 'io.modelcontextprotocol/protocolVersion'
const META_CAPS = 'io.modelcontextprotocol/clientCapabilities'
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel'
const SUB_ID = 'io.modelcontextprotocol/subscriptionId'
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']
const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'streams-fixture', version: '1.0.0' } }
const CACHE = { ttlMs: 60000, cacheScope: 'public' }

const TOOLS = [
  { name: 'list_sections', description: 'List the sections of the documentation.', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', additionalProperties: false } }
]
const RESOURCES = [{ uri: 'docs://index', name: 'index', description: 'The documentation index', mimeType: 'text/plain' }]
const PROMPTS = [{ name: 'summarize', description: 'Summarize the docs' }]
const CAPABILITIES = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true },
  ...(defects.has('log-undeclared') ? {} : { logging: {} })
}

const complete = (result) => ({ resultType: 'complete', ...result, _meta: SERVER_INFO })
const error = (code, message, data) => ({ error: { code, message, ...(data ? { data } : {}) } })
const notification = (method, params) => ({ jsonrpc: '2.0', method, ...(params ? { params } : {}) })

/** The log notifications a request gets: only with a logLevel in _meta (the defect: always). */
function logsFor(msg) {
  const level = msg.params?._meta?.[LOG_LEVEL]
  if (level === undefined && !defects.has('log-always')) return []
  if (level !== undefined && LEVELS.indexOf(level) > LEVELS.indexOf('info')) return []
  return [notification('notifications/message', { level: 'info', logger: 'docs', data: `handling ${msg.method}` })]
}

/** What rides on a request's stream before its answer. */
function streamFor(msg) {
  const extra = [...logsFor(msg)]
  if (msg.method === 'tools/call' && defects.has('list-changed-on-call')) extra.push(notification('notifications/tools/list_changed'))
  if (msg.method === 'tools/call' && defects.has('server-request')) {
    extra.push({ jsonrpc: '2.0', id: 'srv-1', method: 'elicitation/create', params: { message: 'Which section?', requestedSchema: { type: 'object', properties: {} } } })
  }
  return extra
}

/** Answer one JSON-RPC request (not subscriptions/listen): `{result}` or `{error}`, and its HTTP status. */
function handle(msg) {
  const meta = msg.params?._meta ?? {}
  if (typeof meta[META_VERSION] !== 'string') return { status: 400, ...error(-32602, `Missing ${META_VERSION} in _meta`) }
  if (meta[META_VERSION] !== VERSION) return { status: 400, ...error(-32022, 'Unsupported protocol version', { supported: [VERSION], requested: meta[META_VERSION] }) }
  if (typeof meta[META_CAPS] !== 'object' || meta[META_CAPS] === null) return { status: 400, ...error(-32602, `Missing ${META_CAPS} in _meta`) }
  if (meta[LOG_LEVEL] !== undefined && !LEVELS.includes(meta[LOG_LEVEL])) return { status: 400, ...error(-32602, `Unknown log level: ${meta[LOG_LEVEL]}`) }
  switch (msg.method) {
    case 'server/discover':
      return { result: complete({ supportedVersions: [VERSION], capabilities: CAPABILITIES, ...CACHE }) }
    case 'tools/list':
      return { result: complete({ tools: TOOLS, ...CACHE }) }
    case 'prompts/list':
      return { result: complete({ prompts: PROMPTS, ...CACHE }) }
    case 'resources/list':
      return { result: complete({ resources: RESOURCES, ...CACHE }) }
    case 'resources/templates/list':
      return { result: complete({ resourceTemplates: [], ...CACHE }) }
    case 'resources/read': {
      const resource = RESOURCES.find((r) => r.uri === msg.params?.uri)
      if (!resource) return error(-32602, `Resource not found: ${msg.params?.uri}`, { uri: msg.params?.uri })
      return { result: complete({ contents: [{ uri: resource.uri, mimeType: 'text/plain', text: 'intro' }], ...CACHE }) }
    }
    case 'tools/call': {
      const tool = TOOLS.find((t) => t.name === msg.params?.name)
      if (!tool) return error(-32602, `Unknown tool: ${msg.params?.name}`)
      if (Object.keys(msg.params?.arguments ?? {}).length) return { result: complete({ content: [{ type: 'text', text: 'list_sections takes no arguments' }], isError: true }) }
      return { result: complete({ content: [{ type: 'text', text: 'intro, guide' }] }) }
    }
    case 'prompts/get':
      return { result: complete({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarize it' } }] }) }
    default:
      return { status: 404, ...error(-32601, `Method not found: ${msg.method}`) }
  }
}

/**
 * A subscriptions/listen: its acknowledgement and the notifications that follow, written with
 * `write` until `stop` is called. Returns an error answer instead when the listen is refused.
 */
function listen(msg, write) {
  const meta = msg.params?._meta ?? {}
  if (meta[META_VERSION] !== VERSION) return { status: 400, ...error(-32022, 'Unsupported protocol version', { supported: [VERSION], requested: meta[META_VERSION] ?? null }) }
  if (defects.has('no-listen')) return { status: 404, ...error(-32601, 'Method not found: subscriptions/listen') }
  const asked = msg.params?.notifications
  if (typeof asked !== 'object' || asked === null) return error(-32602, 'notifications is required')
  const honoured = {}
  if (asked.toolsListChanged === true) honoured.toolsListChanged = true
  if (asked.promptsListChanged === true) honoured.promptsListChanged = true
  if (Array.isArray(asked.resourceSubscriptions) && asked.resourceSubscriptions.length) honoured.resourceSubscriptions = asked.resourceSubscriptions
  const tag = (params = {}) => (defects.has('untagged') ? params : { ...params, _meta: { [SUB_ID]: msg.id } })
  if (!defects.has('no-ack')) {
    const acknowledged = defects.has('ack-superset') ? { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true } : honoured
    const id = defects.has('ack-wrong-id') ? String(msg.id) : msg.id
    write(notification('notifications/subscriptions/acknowledged', { notifications: acknowledged, _meta: { [SUB_ID]: id } }))
  }
  const timers = []
  const later = (ms, message) => timers.push(setTimeout(() => write(message), ms))
  if (honoured.toolsListChanged || defects.has('ignore-filter')) later(100, notification('notifications/tools/list_changed', tag()))
  if (defects.has('ignore-filter')) later(120, notification('notifications/prompts/list_changed', tag()))
  if (honoured.resourceSubscriptions) later(150, notification('notifications/resources/updated', tag({ uri: honoured.resourceSubscriptions[0] })))
  return { stop: () => timers.forEach(clearTimeout) }
}

/** The defect `busy`: one request at a time, handled in 50 ms; another one meanwhile is refused (HTTP 503) or dropped (stdio). */
let busy = false
async function whenFree() {
  if (!defects.has('busy')) return true
  if (busy) return false
  busy = true
  await new Promise((resolve) => setTimeout(resolve, 50))
  busy = false
  return true
}

const frame = (id, { result, error: err }) => ({ jsonrpc: '2.0', id, ...(err ? { error: err } : { result }) })

function serveStdio() {
  const write = (message) => process.stdout.write(JSON.stringify(message) + '\n')
  const listens = new Map()
  createInterface({ input: process.stdin }).on('line', async (line) => {
    if (!line.trim()) return
    const msg = JSON.parse(line)
    if (msg.method === 'notifications/cancelled') {
      listens.get(msg.params?.requestId)?.stop()
      listens.delete(msg.params?.requestId)
      return
    }
    if (msg.id === undefined) return
    if (msg.method === 'subscriptions/listen') {
      const opened = listen(msg, write)
      if (opened.stop) listens.set(msg.id, opened)
      else write(frame(msg.id, opened))
      return
    }
    if (!(await whenFree())) return
    for (const message of streamFor(msg)) write(message)
    write(frame(msg.id, handle(msg)))
  })
}

function serveHttp() {
  const server = createServer(async (req, res) => {
    const text = await localPost(req, res)
    if (text === undefined) return
    const json = jsonSender(res)
    const msg = JSON.parse(text)
    if (msg.id === undefined) return json(202)
    const headerError = (message) => json(400, frame(msg.id, error(-32020, message)))
    if (req.headers['mcp-method'] !== msg.method) return headerError('Mcp-Method header missing or not equal to the body')
    const name = msg.params?.name ?? msg.params?.uri
    if (['tools/call', 'resources/read', 'prompts/get'].includes(msg.method) && req.headers['mcp-name'] !== name) return headerError('Mcp-Name header missing or not equal to the body')
    const version = msg.params?._meta?.[META_VERSION]
    if (version !== undefined && req.headers['mcp-protocol-version'] !== version) return headerError('MCP-Protocol-Version header not equal to _meta')
    const sse = () => res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' })
    const event = (message) => res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`)
    if (msg.method === 'subscriptions/listen') {
      const opened = listen(msg, (message) => {
        if (!res.headersSent) sse()
        event(message)
      })
      if (!opened.stop) return json(opened.status ?? 200, frame(msg.id, opened))
      // The client closing the stream is its cancel.
      res.on('close', () => opened.stop())
      return
    }
    if (!(await whenFree())) return json(503, frame(msg.id, error(-32603, 'Busy: one request at a time')))
    const answer = handle(msg)
    const extra = streamFor(msg)
    if (extra.length === 0 || answer.status) return json(answer.status ?? 200, frame(msg.id, answer))
    sse()
    for (const message of extra) event(message)
    event(frame(msg.id, answer))
    res.end()
  })
  server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}/mcp\n`))
}

if (process.argv.includes('--http')) serveHttp()
else serveStdio()
