#!/usr/bin/env node
// A hand-written MCP 2026-07-28 server that asks for input the MRTR way (§7), over stdio, or
// Streamable HTTP with --http (it prints its URL), for the mrtr conformance checks. Its requestState
// is HMAC-protected (payload.signature, verified on every retry). Everything asks from a clean call:
//   tool greet {}          → elicitation user_name {name} → "Hello, <name>"
//   tool plan_trip {}      → two rounds: elicitation destination {city}, then elicitation days {days: integer}
//   tool profile {}        → two input requests at once: elicitation user_name {name} and sampling bio
//   tool echo {text}       → never asks: "echo: <text>"
//   tool delete_note {id}  → not read-only: never called by the safe probes
//   prompt welcome         → elicitation user_name → one user message
//   resource workspace://roots → roots/list → the roots' URIs
// A retry without the requested inputResponses is asked again; a response of the wrong shape is a
// -32602 error; keys nobody asked for are ignored; a call whose requests need a capability the
// client did not declare gets -32021 with data.requiredCapabilities (HTTP 400).
// Seeded defects, comma-separated in DEFECT:
//   no-result-type          input_required answers carry no resultType
//   tampered-accepted       requestState is not verified (a tampered one is taken)
//   missing-input-completes a retry without inputResponses completes anyway
//   no-validation           inputResponses of the wrong shape are taken
//   no-capability-check     asks whatever the client declared
//   extra-params-rejected   an unrequested inputResponses key is a -32602 error
//   echo-ignored            requestState is ignored: every retry starts over (asks again, forever)
//   capability-status-200   -32021 answered with HTTP 200 (over HTTP)
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'
import { jsonSender, localPost, serveStdioLines } from './hand-wire.mjs'

const defects = new Set((process.env.DEFECT ?? '').split(',').filter(Boolean))
const VERSION = '2026-07-28'
const META_VERSION = 'io.modelcontextprotocol/protocolVersion'
const META_CAPS = 'io.modelcontextprotocol/clientCapabilities'
const KEY = randomBytes(32)
const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'mrtr-conformance-fixture', version: '1.0.0' } }
const CACHE = { ttlMs: 60000, cacheScope: 'public' }

const elicit = (message, properties) => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: { type: 'object', properties, required: Object.keys(properties) } }
})
const sampling = (text) => ({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 } })
const ROOTS = { method: 'roots/list', params: {} }
const CAPABILITY = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' }

/** Each asking flow: its rounds (a map of input requests each), and what it makes of the answers. */
const FLOWS = {
  greet: { rounds: [{ user_name: elicit('What is your name?', { name: { type: 'string' } }) }], done: (v) => `Hello, ${v.user_name.content.name}` },
  plan_trip: {
    rounds: [{ destination: elicit('Where to?', { city: { type: 'string' } }) }, { days: elicit('How many days?', { days: { type: 'integer', minimum: 1 } }) }],
    done: (v) => `Trip to ${v.destination.content.city} for ${v.days.content.days} days`
  },
  profile: {
    rounds: [{ user_name: elicit('What is your name?', { name: { type: 'string' } }), bio: sampling('Write a one-line bio') }],
    done: (v) => `${v.user_name.content.name}: ${v.bio.content.text}`
  },
  welcome: { rounds: [{ user_name: elicit('Who is it for?', { name: { type: 'string' } }) }], done: (v) => `Welcome, ${v.user_name.content.name}!` },
  'workspace://roots': { rounds: [{ client_roots: ROOTS }], done: (v) => v.client_roots.roots.map((r) => r.uri).join('\n') || '(no roots)' }
}

const TOOLS = [
  { name: 'greet', description: 'Greets the user by name (asks for it).', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: {} } },
  { name: 'plan_trip', description: 'Plans a trip (asks where and how long).', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: {} } },
  { name: 'profile', description: 'Writes a profile (asks a name and samples a bio).', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: {} } },
  { name: 'echo', description: 'Echoes the text.', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'What to echo' } }, required: ['text'] } },
  { name: 'delete_note', description: 'Deletes a note.', annotations: { destructiveHint: true }, inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'The note id' } }, required: ['id'] } }
]
const PROMPTS = [{ name: 'welcome', description: 'A welcome message (asks for whom).' }]
const RESOURCES = [{ uri: 'workspace://roots', name: 'roots', description: 'The client roots (asks for them)', mimeType: 'text/plain' }]

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v)
const error = (code, message, data, status) => ({ ...(status ? { status } : {}), error: { code, message, ...(data ? { data } : {}) } })
const complete = (result) => ({ result: { resultType: 'complete', ...result, _meta: SERVER_INFO } })

const sign = (payload) => createHmac('sha256', KEY).update(payload).digest('base64url')
function seal(state) {
  const payload = Buffer.from(JSON.stringify(state)).toString('base64url')
  return `${payload}.${sign(payload)}`
}
/** The state, or null when it fails verification (or, with the defect, whatever can be read of it). */
function unseal(text, name) {
  const [payload, signature] = String(text).split('.')
  const verified = payload && signature && signature.length === sign(payload).length && timingSafeEqual(Buffer.from(signature), Buffer.from(sign(payload)))
  if (!verified && !defects.has('tampered-accepted')) return null
  try {
    const state = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'))
    if (isObject(state) && state.flow === name) return state
  } catch {
    // The defect takes what it cannot read as a fresh start.
  }
  return verified ? null : { flow: name, step: 0, values: {} }
}

/** Whether an answer has the shape of a result of its request. */
function wellFormed(request, answer) {
  if (!isObject(answer)) return false
  if (request.method === 'elicitation/create') return ['accept', 'decline', 'cancel'].includes(answer.action) && (answer.action !== 'accept' || isObject(answer.content))
  if (request.method === 'sampling/createMessage') return answer.role === 'assistant' && isObject(answer.content)
  return Array.isArray(answer.roots)
}

function inputRequired(name, step, values, round) {
  const state = seal({ flow: name, step, values, nonce: randomBytes(4).toString('hex') })
  return { result: { ...(defects.has('no-result-type') ? {} : { resultType: 'input_required' }), inputRequests: round, requestState: state } }
}

/** One call of an asking flow: ask the next round, or finish with `finish(text)`. */
function runFlow(name, params, finish) {
  const flow = FLOWS[name]
  const caps = isObject(params?._meta?.[META_CAPS]) ? params._meta[META_CAPS] : {}
  const needed = [...new Set(flow.rounds.flatMap((round) => Object.values(round).map((r) => CAPABILITY[r.method])))].filter((cap) => !isObject(caps[cap]))
  if (needed.length && !defects.has('no-capability-check')) {
    const status = defects.has('capability-status-200') ? 200 : 400
    return error(-32021, `Server requires the ${needed.join(', ')} capability for this request`, { requiredCapabilities: Object.fromEntries(needed.map((c) => [c, {}])) }, status)
  }
  let state = { flow: name, step: 0, values: {} }
  if (params?.requestState !== undefined && !defects.has('echo-ignored')) {
    state = unseal(params.requestState, name)
    if (!state) return error(-32602, 'requestState failed verification')
  }
  const responses = params?.inputResponses
  if (responses !== undefined && !isObject(responses)) return error(-32602, 'inputResponses must be an object')
  const round = flow.rounds[state.step]
  const values = { ...state.values }
  const given = Object.keys(round).filter((key) => responses?.[key] !== undefined)
  if (given.length < Object.keys(round).length) {
    if (defects.has('missing-input-completes') && params?.requestState !== undefined) return finish('done without the input')
    // Asked again: what is missing, nothing else.
    return inputRequired(name, state.step, values, Object.fromEntries(Object.entries(round).filter(([key]) => !given.includes(key))))
  }
  for (const [key, request] of Object.entries(round)) {
    if (!wellFormed(request, responses[key]) && !defects.has('no-validation')) return error(-32602, `inputResponses.${key} is not a result of ${request.method}`)
    values[key] = responses[key]
  }
  if (defects.has('extra-params-rejected')) {
    const unknown = Object.keys(responses).filter((key) => !(key in round))
    if (unknown.length) return error(-32602, `Unknown inputResponses keys: ${unknown.join(', ')}`)
  }
  if (state.step + 1 < flow.rounds.length) return inputRequired(name, state.step + 1, values, flow.rounds[state.step + 1])
  try {
    return finish(flow.done(values))
  } catch {
    return finish(`done (${JSON.stringify(values).slice(0, 80)})`)
  }
}

function handle(msg) {
  const meta = msg.params?._meta ?? {}
  // A 2025 client's bare initialize: refused naming the versions; one with the modern envelope is a removed method, unknown (404 -32601).
  if (msg.method === 'initialize' && typeof meta[META_VERSION] === 'string') return error(-32601, 'Method not found: initialize', undefined, 404)
  if (msg.method === 'initialize') return error(-32022, 'Unsupported protocol version', { supported: [VERSION], requested: msg.params?.protocolVersion ?? null }, 400)
  if (typeof meta[META_VERSION] !== 'string') return error(-32602, `Missing ${META_VERSION} in _meta`, undefined, 400)
  if (meta[META_VERSION] !== VERSION) return error(-32022, 'Unsupported protocol version', { supported: [VERSION], requested: meta[META_VERSION] ?? null }, 400)
  if (!isObject(meta[META_CAPS])) return error(-32602, `Missing ${META_CAPS} in _meta`, undefined, 400)
  const params = msg.params
  switch (msg.method) {
    case 'server/discover':
      return complete({ supportedVersions: [VERSION], capabilities: { tools: {}, prompts: {}, resources: {} }, ...CACHE })
    case 'tools/list':
      return complete({ tools: TOOLS, ...CACHE })
    case 'prompts/list':
      return complete({ prompts: PROMPTS, ...CACHE })
    case 'resources/list':
      return complete({ resources: RESOURCES, ...CACHE })
    case 'resources/templates/list':
      return complete({ resourceTemplates: [], ...CACHE })
    case 'tools/call': {
      const name = params?.name
      if (FLOWS[name] && TOOLS.some((t) => t.name === name)) return runFlow(name, params, (text) => complete({ content: [{ type: 'text', text }] }))
      if (name === 'echo') {
        if (typeof params?.arguments?.text !== 'string') return complete({ content: [{ type: 'text', text: 'echo needs a text' }], isError: true })
        return complete({ content: [{ type: 'text', text: `echo: ${params.arguments.text}` }] })
      }
      if (name === 'delete_note') return complete({ content: [{ type: 'text', text: 'deleted' }] })
      return error(-32602, `Unknown tool: ${name}`)
    }
    case 'prompts/get':
      if (params?.name !== 'welcome') return error(-32602, `Unknown prompt: ${params?.name}`)
      return runFlow('welcome', params, (text) => complete({ messages: [{ role: 'user', content: { type: 'text', text } }] }))
    case 'resources/read': {
      const uri = params?.uri
      if (uri !== 'workspace://roots') return error(-32602, `Resource not found: ${uri}`, { uri })
      return runFlow(uri, params, (text) => complete({ contents: [{ uri, mimeType: 'text/plain', text }], ...CACHE }))
    }
    default:
      return error(-32601, `Method not found: ${msg.method}`, undefined, 404)
  }
}

const frame = (id, answer) => ({ jsonrpc: '2.0', id, ...(answer.error ? { error: answer.error } : { result: answer.result }) })

function serveStdio() {
  serveStdioLines((msg) => frame(msg.id, handle(msg)))
}

function serveHttp() {
  const server = createServer(async (req, res) => {
    const text = await localPost(req, res)
    if (text === undefined) return
    const send = jsonSender(res)
    let msg
    try {
      msg = JSON.parse(text)
    } catch {
      return send(400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })
    }
    if (msg.id === undefined) return send(202)
    if (req.headers['mcp-method'] !== msg.method) return send(400, frame(msg.id, error(-32020, 'Mcp-Method header missing or not equal to the body')))
    const name = msg.params?.name ?? msg.params?.uri
    // A value sent in the =?base64?…?= sentinel form (§4) is decoded before comparing.
    const sentinel = /^=\?base64\?(.*)\?=$/.exec(req.headers['mcp-name'] ?? '')
    const headerName = sentinel ? Buffer.from(sentinel[1], 'base64').toString('utf8') : req.headers['mcp-name']
    if (['tools/call', 'resources/read', 'prompts/get'].includes(msg.method) && headerName !== name) return send(400, frame(msg.id, error(-32020, 'Mcp-Name header missing or not equal to the body')))
    const version = msg.params?._meta?.[META_VERSION]
    if (version !== undefined && req.headers['mcp-protocol-version'] !== version) return send(400, frame(msg.id, error(-32020, 'MCP-Protocol-Version header not equal to _meta')))
    const answer = handle(msg)
    send(answer.status ?? 200, frame(msg.id, answer))
  })
  server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}/mcp\n`))
}

if (process.argv.includes('--http')) serveHttp()
else serveStdio()
