#!/usr/bin/env node
// A hand-written MCP 2026-07-28 server that declares the tasks extension (SEP-2663,
// `io.modelcontextprotocol/tasks`), over stdio, or Streamable HTTP with --http (it prints its URL).
// Tools (all readOnlyHint: true):
//   echo {text}            no execution.taskSupport: always a plain result.
//   quick_sum {a, b}       taskSupport "optional": with the extension declared, a task that
//                          completes after ~120 ms with "sum: a+b"; without it, a plain result.
//   confirm_report {}      taskSupport "optional": a task that goes input_required (~60 ms) with one
//                          form elicitation (key confirm-<n>); after tasks/update it works ~60 ms more
//                          and completes ("report confirmed" / "report not confirmed").
//   export_all {}          taskSupport "required": without the extension → -32021 naming it; with
//                          it, a task that completes after ~150 ms.
// One seeded defect per name in DEFECT (comma-separated):
//   terminal-state-changes   tasks/cancel of a completed task makes it "cancelled"
//   legacy-wire-fields       Tasks carry the 2025-11-25 ttl/pollInterval instead of ttlMs/pollIntervalMs
//   required-task-runs-inline export_all without the extension runs and answers a plain result
//   get-unknown-task-ok      tasks/get of an unknown taskId answers a "working" task
//   ungated                  tasks/* are served to a request that does not declare the extension
//   task-without-extension   quick_sum answers a task even when the request does not declare the extension
//   nested-task              the CreateTaskResult is the 2025-11-25 {task: {...}} shape
//   ack-with-task            tasks/update and tasks/cancel answer the Task instead of an empty ack
//   not-durable              the first tasks/get of a task does not find it ("not created yet"); later ones do
//   get-result-type-task     tasks/get answers resultType "task"
//   completed-without-result a completed task's tasks/get carries no result
//   tasks-result-served      tasks/result (removed) still answers
//   v1-capability            server/discover also advertises capabilities.tasks
//   required-error-no-data   export_all's -32021 carries no data
//   unknown-writes-ok        tasks/update and tasks/cancel of an unknown taskId are acknowledged
//   no-task-name-check       (HTTP) Mcp-Name is not checked against params.taskId on tasks/*
// And one switch that is no defect: `unflagged` lists no execution.taskSupport (SEP-2663 has no
// per-tool flag: the server decides per request).
import { createServer } from 'node:http'
import { randomUUID } from 'node:crypto'
import { jsonSender, localPost, serveStdioLines } from './hand-wire.mjs'

const defects = new Set((process.env.DEFECT ?? '').split(',').filter(Boolean))
const VERSION = '2026-07-28'
const META_VERSION = 'io.modelcontextprotocol/protocolVersion'
const META_CAPS = 'io.modelcontextprotocol/clientCapabilities'
const EXTENSION = 'io.modelcontextprotocol/tasks'
const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'tasks-fixture', version: '1.0.0' } }
const TTL_MS = 60000
const POLL_MS = 50

const readOnly = { readOnlyHint: true }
const TOOLS = [
  { name: 'echo', description: 'Echo the text back.', annotations: readOnly, inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'What to echo' } }, required: ['text'] } },
  {
    name: 'quick_sum',
    description: 'Add two numbers (as a task when the client supports tasks).',
    annotations: readOnly,
    execution: { taskSupport: 'optional' },
    inputSchema: { type: 'object', properties: { a: { type: 'integer', description: 'First number' }, b: { type: 'integer', description: 'Second number' } }, required: ['a', 'b'] }
  },
  {
    name: 'confirm_report',
    description: 'Build a report once the user confirms it.',
    annotations: readOnly,
    execution: { taskSupport: 'optional' },
    inputSchema: { type: 'object', properties: {} }
  },
  { name: 'export_all', description: 'Export everything (only as a task).', annotations: readOnly, execution: { taskSupport: 'required' }, inputSchema: { type: 'object', properties: {} } }
]
if (defects.has('unflagged')) for (const tool of TOOLS) delete tool.execution

const complete = (result) => ({ resultType: 'complete', ...result, _meta: SERVER_INFO })
const error = (code, message, data) => ({ error: { code, message, ...(data ? { data } : {}) } })
const text = (value) => ({ content: [{ type: 'text', text: value }] })
const declares = (meta) => typeof meta[META_CAPS]?.extensions?.[EXTENSION] === 'object'

/** Tasks by id: {task fields, result?, error?, inputRequests?, pending?: key}. */
const tasks = new Map()
let keys = 0

function newTask(work) {
  const now = new Date().toISOString()
  const task = { taskId: randomUUID(), status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs: TTL_MS, pollIntervalMs: POLL_MS }
  // The defect: the first tasks/get of the task does not find it yet (the ones after it do).
  const entry = { task, visible: !defects.has('not-durable') }
  tasks.set(task.taskId, entry)
  work(entry)
  return entry
}

function setStatus(entry, status, extra = {}) {
  if (['completed', 'failed', 'cancelled'].includes(entry.task.status)) return
  entry.task.status = status
  entry.task.lastUpdatedAt = new Date().toISOString()
  Object.assign(entry, extra)
}

const finishAfter = (ms, result) => (entry) => setTimeout(() => setStatus(entry, 'completed', { result }), ms)

function confirmWork(entry) {
  setTimeout(() => {
    const key = `confirm-${++keys}`
    const request = {
      method: 'elicitation/create',
      params: { mode: 'form', message: 'Build the report now?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } }
    }
    setStatus(entry, 'input_required', { inputRequests: { [key]: request }, pending: key })
  }, 60)
}

/** The Task as the wire carries it (the defects' variants). */
function wireTask(entry) {
  const task = { ...entry.task }
  if (defects.has('legacy-wire-fields')) {
    task.ttl = task.ttlMs
    task.pollInterval = task.pollIntervalMs
    delete task.ttlMs
    delete task.pollIntervalMs
  }
  return task
}

function detailed(entry) {
  const task = wireTask(entry)
  if (task.status === 'completed' && !defects.has('completed-without-result')) task.result = entry.result
  if (task.status === 'failed') task.error = entry.error
  if (task.status === 'input_required') task.inputRequests = entry.inputRequests
  return { resultType: defects.has('get-result-type-task') ? 'task' : 'complete', ...task }
}

function created(entry) {
  if (defects.has('nested-task')) return { task: wireTask(entry) }
  return { resultType: 'task', ...wireTask(entry) }
}

function callTool(msg, meta) {
  const tool = TOOLS.find((t) => t.name === msg.params?.name)
  if (!tool) return error(-32602, `Unknown tool: ${msg.params?.name}`)
  const args = msg.params?.arguments ?? {}
  const asTask = declares(meta) || (defects.has('task-without-extension') && tool.name === 'quick_sum')
  switch (tool.name) {
    case 'echo':
      if (typeof args.text !== 'string') return { result: complete({ ...text('echo needs a string text'), isError: true }) }
      return { result: complete(text(args.text)) }
    case 'quick_sum': {
      if (!Number.isInteger(args.a) || !Number.isInteger(args.b)) return { result: complete({ ...text('quick_sum needs integers a and b'), isError: true }) }
      const result = text(`sum: ${args.a + args.b}`)
      return { result: asTask ? created(newTask(finishAfter(120, result))) : complete(result) }
    }
    case 'confirm_report':
      return asTask ? { result: created(newTask(confirmWork)) } : { result: complete(text('report built without confirmation')) }
    case 'export_all':
      if (asTask) return { result: created(newTask(finishAfter(150, text('exported 3 items')))) }
      if (defects.has('required-task-runs-inline')) return { result: complete(text('exported 3 items')) }
      return error(-32021, 'Missing required client capability', defects.has('required-error-no-data') ? undefined : { requiredCapabilities: { extensions: { [EXTENSION]: {} } } })
  }
}

function tasksMethod(msg, meta) {
  if (!declares(meta) && !defects.has('ungated')) return error(-32021, 'Missing required client capability', { requiredCapabilities: { extensions: { [EXTENSION]: {} } } })
  const id = msg.params?.taskId
  const entry = tasks.get(id)
  const known = entry?.visible
  if (entry && !known && msg.method === 'tasks/get') entry.visible = true
  switch (msg.method) {
    case 'tasks/get':
      if (!known) {
        if (defects.has('get-unknown-task-ok') && !entry) {
          const now = new Date().toISOString()
          return { result: { resultType: 'complete', taskId: String(id), status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs: TTL_MS } }
        }
        return error(-32602, 'Failed to retrieve task: Task not found')
      }
      return { result: detailed(entry) }
    case 'tasks/update': {
      if (!known) return defects.has('unknown-writes-ok') ? { result: { resultType: 'complete' } } : error(-32602, 'Task not found')
      const answer = msg.params?.inputResponses?.[entry.pending]
      if (answer && entry.task.status === 'input_required') {
        const confirmed = answer.action === 'accept' && answer.content?.confirm === true
        setStatus(entry, 'working', { inputRequests: undefined, pending: undefined })
        finishAfter(60, text(confirmed ? 'report confirmed' : 'report not confirmed'))(entry)
      }
      return { result: defects.has('ack-with-task') ? detailed(entry) : { resultType: 'complete' } }
    }
    case 'tasks/cancel':
      if (!known) return defects.has('unknown-writes-ok') ? { result: { resultType: 'complete' } } : error(-32602, 'Task not found')
      if (defects.has('terminal-state-changes') && entry.task.status === 'completed') {
        entry.task.status = 'cancelled'
        entry.task.lastUpdatedAt = new Date().toISOString()
      } else setStatus(entry, 'cancelled')
      return { result: defects.has('ack-with-task') ? detailed(entry) : { resultType: 'complete' } }
    case 'tasks/result':
      if (defects.has('tasks-result-served') && known) return { result: entry.result ?? {} }
      if (defects.has('tasks-result-served')) return error(-32602, 'Task not found')
      return error(-32601, `Method not found: ${msg.method}`)
    default:
      return error(-32601, `Method not found: ${msg.method}`)
  }
}

/** Answer one JSON-RPC request: `{result}` or `{error}`, plus the HTTP status it deserves. */
function handle(msg) {
  const meta = msg.params?._meta ?? {}
  if (msg.method === 'initialize') return { status: 400, ...error(-32022, 'Unsupported protocol version', { supported: [VERSION], requested: msg.params?.protocolVersion ?? null }) }
  if (typeof meta[META_VERSION] !== 'string') return { status: 400, ...error(-32602, `Missing ${META_VERSION} in _meta`) }
  if (meta[META_VERSION] !== VERSION) return { status: 400, ...error(-32022, 'Unsupported protocol version', { supported: [VERSION], requested: meta[META_VERSION] }) }
  if (typeof meta[META_CAPS] !== 'object' || meta[META_CAPS] === null) return { status: 400, ...error(-32602, `Missing ${META_CAPS} in _meta`) }
  switch (msg.method) {
    case 'server/discover': {
      const capabilities = { tools: {}, extensions: { [EXTENSION]: {} }, ...(defects.has('v1-capability') ? { tasks: { requests: { tools: { call: {} } } } } : {}) }
      return { result: complete({ supportedVersions: [VERSION], capabilities, ttlMs: 60000, cacheScope: 'public' }) }
    }
    case 'tools/list':
      return { result: complete({ tools: TOOLS, ttlMs: 60000, cacheScope: 'public' }) }
    case 'tools/call':
      return callTool(msg, meta)
    default:
      if (msg.method.startsWith('tasks/')) {
        const answer = tasksMethod(msg, meta)
        return answer.error?.code === -32601 ? { status: 404, ...answer } : answer
      }
      return { status: 404, ...error(-32601, `Method not found: ${msg.method}`) }
  }
}

const frame = (id, { result, error: err }) => ({ jsonrpc: '2.0', id, ...(err ? { error: err } : { result }) })

function serveStdio() {
  serveStdioLines((msg) => frame(msg.id, handle(msg)))
}

function serveHttp() {
  const server = createServer(async (req, res) => {
    const text = await localPost(req, res)
    if (text === undefined) return
    const send = jsonSender(res)
    const msg = JSON.parse(text)
    if (msg.id === undefined) return send(202)
    const headerError = (message) => send(400, frame(msg.id, error(-32020, message)))
    if (req.headers['mcp-method'] !== msg.method) return headerError('Mcp-Method header missing or not equal to the body')
    // SEP-2243 for tools/call, SEP-2663 for tasks/*: Mcp-Name mirrors params.name / params.taskId.
    const taskMethod = ['tasks/get', 'tasks/update', 'tasks/cancel'].includes(msg.method) && !defects.has('no-task-name-check')
    const name = msg.method === 'tools/call' ? msg.params?.name : taskMethod ? msg.params?.taskId : undefined
    if (name !== undefined && req.headers['mcp-name'] !== name) return headerError('Mcp-Name header missing or not equal to the body')
    const version = msg.params?._meta?.[META_VERSION]
    if (version !== undefined && req.headers['mcp-protocol-version'] !== version) return headerError('MCP-Protocol-Version header not equal to _meta')
    const answer = handle(msg)
    send(answer.status ?? 200, frame(msg.id, answer))
  })
  server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}/mcp\n`))
}

if (process.argv.includes('--http')) serveHttp()
else serveStdio()
