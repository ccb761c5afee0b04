import { isObject, resultOf } from './checks/common.js'
import { encodeHeaderValue, scanHeaderMarkers } from './checks/param-headers.js'
import { TASKS_EXTENSION, inputAnswers, planTaskCalls, type PlannedCall } from './checks/tasks-plan.js'
import type { Tool } from './checks/schemas.js'
import type { ProbeContext } from './probe-context.js'
import type { TaskCall, TasksProbes } from './probe-tasks-data.js'
import { META, envelope } from './types.js'
import type { Exchange, WireRequest } from './wire.js'

/**
 * The tasks probe (the `io.modelcontextprotocol/tasks` extension, SEP-2663), when a modern server
 * declares it: task-augmented calls of the tools that support tasks, each task polled with
 * tasks/get through its statuses for a bounded window (its input requests answered with
 * tasks/update, and tasks/cancel at the end), and the extension's error rules (an unknown task,
 * a request that does not declare the extension, the removed methods, a task-only tool called
 * without the extension). All on the main connection, the calls in parallel.
 */

/** How long one task is followed: polls until it is terminal or this has passed. */
const WINDOW_MS = 1200
/** tasks/get per task, at most. */
const MAX_POLLS = 8
/** tasks/update per task, at most. */
const MAX_UPDATES = 2
/** tasks/get answered with an error, per task, before the probe stops polling it. */
const MAX_POLL_ERRORS = 3
/** The wait between polls: the server's pollIntervalMs, kept within these bounds. */
const MIN_POLL_MS = 50
const MAX_POLL_MS = 250
const UNKNOWN_TASK = 'mcp-server-evals-no-such-task'
const TERMINAL = new Set(['completed', 'failed', 'cancelled'])

export async function probeTasks(context: ProbeContext): Promise<TasksProbes | undefined> {
  const { capabilities } = context
  if (context.era === 'legacy') {
    // 2025-11-25 tasks: only the rule both revisions share is probed (tasks/get of an unknown task → -32602).
    const declared = isObject(capabilities.tasks)
    const legacy = { era: 'legacy' as const, declared, legacySlot: declared, calls: [], note: '' }
    return declared ? { ...legacy, unknownGet: await context.main.request(context.request('tasks/get', { taskId: UNKNOWN_TASK }), context.timeout) } : legacy
  }
  const extensions = isObject(capabilities.extensions) ? capabilities.extensions : {}
  const declared = TASKS_EXTENSION in extensions
  const base = { era: 'modern' as const, declared, legacySlot: 'tasks' in capabilities, calls: [], note: '' }
  if (!declared) return base
  const plan = planTaskCalls(context.tools, context.seeds, context.mode)
  const withTasks = builder(context, true)
  const without = builder(context, false)
  const ask = (req: WireRequest) => context.main.request(req, context.timeout)
  const withoutExtension = (planned: PlannedCall | undefined) =>
    planned ? callTool(context, planned, false).then((exchange) => ({ tool: planned.tool, source: planned.source, exchange })) : undefined
  const [calls, unknownGet, unknownUpdate, unknownCancel, undeclaredGet, removed, required, undeclaredCall] = await Promise.all([
    Promise.all(plan.calls.map((planned) => followTask(context, planned))).then(cancelOneTerminal(context)),
    ask(withTasks('tasks/get', { taskId: UNKNOWN_TASK })),
    ask(withTasks('tasks/update', { taskId: UNKNOWN_TASK, inputResponses: {} })),
    ask(withTasks('tasks/cancel', { taskId: UNKNOWN_TASK })),
    ask(without('tasks/get', { taskId: UNKNOWN_TASK })),
    Promise.all([ask(withTasks('tasks/result', { taskId: UNKNOWN_TASK })), ask(withTasks('tasks/list', {}))]),
    withoutExtension(plan.required),
    withoutExtension(plan.optional)
  ])
  // HTTP: Mcp-Name must mirror params.taskId (SEP-2663); one tasks/get of a real task names another.
  const taskId = calls.map((c) => resultOf(c.call)).find((r) => r?.resultType === 'task' && typeof r.taskId === 'string')?.taskId as string | undefined
  const mismatchedName = context.http && taskId !== undefined ? await ask({ ...withTasks('tasks/get', { taskId }), headers: { 'mcp-name': `${taskId}-other` } }) : undefined
  return {
    ...base,
    declaredValue: extensions[TASKS_EXTENSION],
    calls,
    note: plan.note,
    unknownGet,
    unknownUpdate,
    unknownCancel,
    ...(mismatchedName ? { mismatchedName } : {}),
    undeclaredGet,
    removed,
    ...(required ? { required } : { requiredNote: plan.requiredNote }),
    ...(undeclaredCall ? { undeclaredCall } : {})
  }
}

type Builder = (method: string, params: Record<string, unknown>) => WireRequest

/** Requests with the modern envelope, declaring the extension (and form elicitation, for a task's input requests) or not; tasks/* carry Mcp-Name: <taskId> (SEP-2663, Streamable HTTP). */
function builder(context: ProbeContext, declare: boolean): Builder {
  return (method, params) => {
    const meta = envelope()
    if (declare) meta[META.clientCapabilities] = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } }
    const taskId = method.startsWith('tasks/') && typeof params.taskId === 'string' ? params.taskId : undefined
    return { method, params: { ...params, _meta: meta }, ...(taskId !== undefined && context.http ? { headers: { 'mcp-name': taskId } } : {}) }
  }
}

function callTool(context: ProbeContext, planned: PlannedCall, declare: boolean): Promise<Exchange> {
  const req = builder(context, declare)('tools/call', { name: planned.tool, arguments: planned.args })
  const headers = context.http ? paramHeaders(context.tools.find((t) => t.name === planned.tool), planned.args) : {}
  return context.main.request({ ...req, headers: { ...req.headers, ...headers } }, context.timeout)
}

/** The Mcp-Param-* headers a conforming client sends for these arguments (§4). */
function paramHeaders(tool: Tool | undefined, args: Record<string, unknown>): Record<string, string> {
  const scan = scanHeaderMarkers(tool?.inputSchema)
  const headers: Record<string, string> = {}
  if (!scan.valid) return headers
  for (const marker of scan.markers) {
    let value: unknown = args
    for (const key of marker.path) value = isObject(value) ? value[key] : undefined
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') headers[`mcp-param-${marker.header.toLowerCase()}`] = encodeHeaderValue(value)
  }
  return headers
}

const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => {
  const timer = setTimeout(resolve, ms)
  signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
})

const statusOf = (exchange: Exchange | undefined): unknown => resultOf(exchange)?.status

/** One task-augmented call, then its task: polled right away (it must already exist), its input requests answered, until it is terminal or the window ends (then cancelled). */
async function followTask(context: ProbeContext, planned: PlannedCall): Promise<TaskCall> {
  const call = await callTool(context, planned, true)
  const followed: TaskCall = { tool: planned.tool, source: planned.source, call, polls: [], updates: [] }
  const created = resultOf(call)
  const taskId = created?.resultType === 'task' && typeof created.taskId === 'string' ? created.taskId : undefined
  if (taskId === undefined || !created) return followed
  const request = builder(context, true)
  const ask = (method: string, params: Record<string, unknown> = {}) => context.main.request(request(method, { taskId, ...params }), context.timeout)
  const deadline = performance.now() + WINDOW_MS
  let latest: Record<string, unknown> = created
  let errors = 0
  while (followed.polls.length < MAX_POLLS && !context.signal?.aborted) {
    const poll = await ask('tasks/get')
    followed.polls.push(poll)
    const task = resultOf(poll)
    // An error (the task not there yet, say) is polled again, a few times.
    if (!task && (++errors >= MAX_POLL_ERRORS || !poll.response.frame)) break
    if (task) latest = task
    if (task && TERMINAL.has(task.status as string)) return followed
    if (task?.status === 'input_required' && followed.updates.length < MAX_UPDATES) {
      const answers = inputAnswers(task.inputRequests)
      if (Object.keys(answers).length) followed.updates.push(await ask('tasks/update', { inputResponses: answers }))
    }
    if (performance.now() >= deadline) break
    const interval = typeof latest.pollIntervalMs === 'number' ? latest.pollIntervalMs : MIN_POLL_MS
    await sleep(Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, interval), Math.max(0, deadline - performance.now())), context.signal)
  }
  // Still running (or unreadable): cancelled, so the probe leaves no work behind.
  followed.cancel = await ask('tasks/cancel')
  followed.cancelledTerminal = false
  followed.afterCancel = await ask('tasks/get')
  return followed
}

/** One task that ended on its own is cancelled once more: the ack is the same (SEP-2663), and its terminal status must not change. */
function cancelOneTerminal(context: ProbeContext) {
  return async (calls: TaskCall[]): Promise<TaskCall[]> => {
    const ended = calls.find((c) => !c.cancel && TERMINAL.has(statusOf(c.polls[c.polls.length - 1]) as string))
    if (!ended) return calls
    const taskId = resultOf(ended.call)?.taskId as string
    const request = builder(context, true)
    ended.cancel = await context.main.request(request('tasks/cancel', { taskId }), context.timeout)
    ended.cancelledTerminal = true
    ended.afterCancel = await context.main.request(request('tasks/get', { taskId }), context.timeout)
    return calls
  }
}
