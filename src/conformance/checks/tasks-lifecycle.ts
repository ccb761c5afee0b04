import type { TaskCall, TasksProbes } from '../probe-tasks-data.js'
import type { CheckResult } from '../types.js'
import type { Exchange } from '../wire.js'
import { describeResponse, failed, isObject, passed, resultOf, skipped } from './common.js'
import { TASKS_CANCEL, TASKS_CREATE, TASKS_GET, TASKS_TRANSITIONS, TASKS_UPDATE, TASKS_WIRE } from './tasks-specs.js'

/** The checks on the tasks the probe created and followed (SEP-2663): the CreateTaskResult, the Task fields, tasks/get, the statuses, tasks/update, tasks/cancel. */

const STATUSES = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled'])
const TERMINAL = new Set(['completed', 'failed', 'cancelled'])
/** Fields of a Task that an acknowledgement (tasks/update, tasks/cancel) does not carry. */
const ENVELOPE = ['taskId', 'status', 'result', 'error', 'inputRequests']
/** ISO 8601 date and time, as the official suite reads it. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/

export interface LifecycleResults {
  create: CheckResult
  wire: CheckResult
  get: CheckResult
  transitions: CheckResult
  update: CheckResult
  cancel: CheckResult
}

interface Created {
  call: TaskCall
  taskId: string
  label: string
}

const created = (call: TaskCall): Created | undefined => {
  const result = resultOf(call.call)
  if (result?.resultType !== 'task' || typeof result.taskId !== 'string' || result.taskId === '') return undefined
  return { call, taskId: result.taskId, label: `${JSON.stringify(call.tool)}'s task ${JSON.stringify(result.taskId)}` }
}

export function checkTaskLifecycle(tasks: TasksProbes): LifecycleResults {
  const all = tasks.calls.map(created).filter((c): c is Created => c !== undefined)
  const noCall = `no tool was called${tasks.note ? `: ${tasks.note}` : ''}`
  const noTask = tasks.calls.length === 0 ? noCall : `no task was created: ${tasks.calls.map((c) => `tools/call of ${JSON.stringify(c.tool)} got ${describeCall(c.call)}`).join('; ')} (a server MAY answer with a plain result)`
  const skipAll = (spec: typeof TASKS_CREATE) => skipped(spec, noTask)
  return {
    create: tasks.calls.length === 0 ? skipped(TASKS_CREATE, noCall) : checkCreate(tasks.calls, all, noTask),
    wire: all.length ? checkWire(all) : skipAll(TASKS_WIRE),
    get: all.length ? checkGet(all) : skipAll(TASKS_GET),
    transitions: all.length ? checkTransitions(all) : skipAll(TASKS_TRANSITIONS),
    update: all.length ? checkUpdate(all) : skipAll(TASKS_UPDATE),
    cancel: all.length ? checkCancel(all) : skipAll(TASKS_CANCEL)
  }
}

function describeCall(exchange: Exchange): string {
  const result = resultOf(exchange)
  if (result && typeof result.resultType === 'string') return `a result (resultType ${JSON.stringify(result.resultType)})`
  return describeResponse(exchange)
}

function checkCreate(calls: TaskCall[], all: Created[], noTask: string): CheckResult {
  for (const call of calls) {
    const result = resultOf(call.call)
    if (!result) continue
    const what = `tools/call of ${JSON.stringify(call.tool)} (${call.source}, the extension declared)`
    if (result.resultType !== 'task') {
      if (isObject(result.task)) return failed(TASKS_CREATE, `${what} was answered with the 2025-11-25 shape, a nested "task" object without resultType "task"; SEP-2663's CreateTaskResult is flat: resultType "task" and the Task's fields at the top level`, call.call)
      continue
    }
    const problems: string[] = []
    if (typeof result.taskId !== 'string' || result.taskId === '') problems.push(`no taskId string at the top level (got ${JSON.stringify(result.taskId)})`)
    if ('task' in result) problems.push('a nested "task" wrapper')
    for (const key of ['result', 'error', 'inputRequests']) if (key in result) problems.push(`"${key}" (it belongs on tasks/get)`)
    if (problems.length) return failed(TASKS_CREATE, `${what} was answered with resultType "task" but ${problems.join(', ')}`, call.call)
  }
  if (all.length === 0) return skipped(TASKS_CREATE, noTask)
  const first = all[0]
  return passed(TASKS_CREATE, `tools/call of ${all.map((c) => JSON.stringify(c.call.tool)).join(', ')} (the extension declared) answered with a flat CreateTaskResult (resultType "task", taskId)`, first.call.call)
}

/** Every Task object the task's exchanges carried: the CreateTaskResult, each tasks/get. */
function taskObjects(c: Created): { exchange: Exchange; task: Record<string, unknown> }[] {
  return [c.call.call, ...c.call.polls, ...(c.call.afterCancel ? [c.call.afterCancel] : [])].flatMap((exchange) => {
    const task = resultOf(exchange)
    return task ? [{ exchange, task }] : []
  })
}

const isMs = (value: unknown, min: number) => typeof value === 'number' && Number.isInteger(value) && value >= min

function wireProblems(task: Record<string, unknown>): string[] {
  const problems: string[] = []
  if (typeof task.taskId !== 'string' || task.taskId === '') problems.push(`taskId ${JSON.stringify(task.taskId)} (a non-empty string)`)
  if (!STATUSES.has(task.status as string)) problems.push(`status ${JSON.stringify(task.status)} (one of ${[...STATUSES].join(', ')})`)
  for (const key of ['createdAt', 'lastUpdatedAt']) if (typeof task[key] !== 'string' || !ISO_8601.test(task[key] as string)) problems.push(`${key} ${JSON.stringify(task[key])} (an ISO 8601 timestamp)`)
  if (!('ttlMs' in task)) problems.push('no ttlMs (integer milliseconds, or null for unlimited)')
  else if (task.ttlMs !== null && !isMs(task.ttlMs, 0)) problems.push(`ttlMs ${JSON.stringify(task.ttlMs)} (integer milliseconds, or null)`)
  if (task.pollIntervalMs !== undefined && !isMs(task.pollIntervalMs, 1)) problems.push(`pollIntervalMs ${JSON.stringify(task.pollIntervalMs)} (a positive integer of milliseconds)`)
  for (const old of ['ttl', 'pollInterval']) if (old in task) problems.push(`the 2025-11-25 field "${old}" (SEP-2663 names it ${old}Ms)`)
  if ('requestState' in task) problems.push('requestState (not a Task field: MRTR state does not leak into a task)')
  return problems
}

function checkWire(all: Created[]): CheckResult {
  let count = 0
  for (const c of all) {
    for (const { exchange, task } of taskObjects(c)) {
      count++
      const problems = wireProblems(task)
      if (problems.length) return failed(TASKS_WIRE, `${exchange.method} for ${c.label} answered a Task with ${problems.join('; ')}`, exchange)
    }
  }
  return passed(TASKS_WIRE, `${count} Task objects (the CreateTaskResult and each tasks/get) carry taskId, status, createdAt, lastUpdatedAt, ttlMs and a well-formed pollIntervalMs if any`, all[0].call.call)
}

function payloadProblem(task: Record<string, unknown>): string | undefined {
  switch (task.status) {
    case 'completed':
      if (!isObject(task.result)) return 'status "completed" without the result inlined in "result"'
      if (!Array.isArray(task.result.content)) return 'status "completed" with a "result" that is no CallToolResult (no content array)'
      return undefined
    case 'failed':
      if (!isObject(task.error) || typeof task.error.code !== 'number' || typeof task.error.message !== 'string') return 'status "failed" without a JSON-RPC error ({code, message}) in "error"'
      if ('result' in task) return 'status "failed" with a "result" (a tool error is status "completed" with result.isError)'
      return undefined
    case 'input_required': {
      const requests = task.inputRequests
      if (!isObject(requests) || Object.keys(requests).length === 0) return 'status "input_required" without a non-empty inputRequests map'
      const bad = Object.entries(requests).find(([, r]) => !isObject(r) || typeof r.method !== 'string')
      return bad ? `status "input_required" with inputRequests["${bad[0]}"] that carries no method` : undefined
    }
    default:
      return undefined
  }
}

function checkGet(all: Created[]): CheckResult {
  const seen = new Set<string>()
  let count = 0
  for (const c of all) {
    const gets = [...c.call.polls, ...(c.call.afterCancel ? [c.call.afterCancel] : [])]
    for (const [i, get] of gets.entries()) {
      count++
      const task = resultOf(get)
      const when = i === 0 ? 'right after the CreateTaskResult' : c.call.afterCancel === get ? 'after tasks/cancel' : `(poll ${i + 1})`
      if (!task) {
        const why = i === 0 ? '; a server MUST NOT return a CreateTaskResult before tasks/get resolves the task' : ''
        return failed(TASKS_GET, `tasks/get of ${c.label} ${when} got ${describeResponse(get)}; expected the task${why}`, get)
      }
      if (task.resultType !== 'complete') return failed(TASKS_GET, `tasks/get of ${c.label} ${when} answered resultType ${JSON.stringify(task.resultType)}; expected "complete" (tasks/get's own result shape)`, get)
      if (task.taskId !== c.taskId) return failed(TASKS_GET, `tasks/get of ${c.label} ${when} answered taskId ${JSON.stringify(task.taskId)}; expected the task asked for`, get)
      const problem = payloadProblem(task)
      if (problem) return failed(TASKS_GET, `tasks/get of ${c.label} ${when} answered ${problem}`, get)
      if (typeof task.status === 'string') seen.add(task.status)
    }
  }
  if (count === 0) return skipped(TASKS_GET, 'no tasks/get was sent')
  return passed(TASKS_GET, `${count} tasks/get resolved their task from the first poll on (statuses seen: ${[...seen].join(', ') || 'none'}), each with resultType "complete" and its status's payload`, all[0].call.polls[0])
}

function checkTransitions(all: Created[]): CheckResult {
  const paths: string[] = []
  for (const c of all) {
    let terminal: { status: string; payload: string } | undefined
    const path: string[] = []
    for (const { exchange, task } of taskObjects(c)) {
      const status = task.status
      if (typeof status !== 'string') continue
      if (path[path.length - 1] !== status) path.push(status)
      const payload = JSON.stringify(task.result ?? task.error ?? null)
      const after = exchange === c.call.afterCancel ? (c.call.cancelledTerminal ? ' after a tasks/cancel of the finished task' : ' after tasks/cancel') : ''
      if (terminal && status !== terminal.status) return failed(TASKS_TRANSITIONS, `${c.label} went ${path.join(' → ')}${after}: it left the terminal status "${terminal.status}", which never changes`, exchange)
      if (terminal && payload !== terminal.payload) return failed(TASKS_TRANSITIONS, `${c.label} is "${status}", but its ${status === 'failed' ? 'error' : 'result'} changed${after}: a terminal task's state does not change`, exchange)
      if (!terminal && TERMINAL.has(status)) terminal = { status, payload }
    }
    const ended = terminal ? '' : ` (not terminal within the probe's window${c.call.cancel ? ', then cancelled' : ''})`
    paths.push(`${JSON.stringify(c.call.tool)}: ${path.join(' → ')}${ended}`)
  }
  return passed(TASKS_TRANSITIONS, `statuses seen: ${paths.join('; ')}; no task left a terminal status`)
}

/** What is wrong with an acknowledgement (tasks/update, tasks/cancel): it must be an empty result with resultType "complete". */
function ackProblem(ack: Exchange): string | undefined {
  const result = resultOf(ack)
  if (!result) return `got ${describeResponse(ack)}; expected an empty result`
  if (result.resultType !== 'complete') return `answered resultType ${JSON.stringify(result.resultType)}; expected "complete"`
  const extra = ENVELOPE.filter((key) => key in result)
  return extra.length ? `answered Task fields (${extra.join(', ')}); the acknowledgement is an empty result, the task is read with tasks/get` : undefined
}

function checkUpdate(all: Created[]): CheckResult {
  const updated = all.filter((c) => c.call.updates.length > 0)
  if (updated.length === 0) {
    const asked = all.some((c) => c.call.polls.some((p) => resultOf(p)?.status === 'input_required'))
    return skipped(TASKS_UPDATE, asked ? 'a task asked for input, but its inputRequests held no elicitation or roots request to answer' : 'no task asked for input (input_required) within the probe’s window')
  }
  for (const c of updated) {
    for (const update of c.call.updates) {
      const problem = ackProblem(update)
      if (problem) return failed(TASKS_UPDATE, `tasks/update of ${c.label} with inputResponses for ${keysOf(update)} ${problem}`, update)
    }
  }
  const c = updated[0]
  const statuses = c.call.polls.map((p) => resultOf(p)?.status).filter((s) => typeof s === 'string')
  return passed(TASKS_UPDATE, `tasks/update of ${c.label} with inputResponses for ${keysOf(c.call.updates[0])} was acknowledged with an empty result; the task was then ${JSON.stringify(statuses[statuses.length - 1])}`, c.call.updates[0])
}

const keysOf = (update: Exchange) => {
  const responses = (update.request.params as { inputResponses?: unknown } | undefined)?.inputResponses
  return isObject(responses) ? Object.keys(responses).map((k) => JSON.stringify(k)).join(', ') : '(none)'
}

function checkCancel(all: Created[]): CheckResult {
  const cancelled = all.filter((c) => c.call.cancel)
  if (cancelled.length === 0) return skipped(TASKS_CANCEL, 'no task was cancelled')
  for (const c of cancelled) {
    const problem = ackProblem(c.call.cancel!)
    const which = c.call.cancelledTerminal ? 'already terminal' : 'still running'
    if (problem) return failed(TASKS_CANCEL, `tasks/cancel of ${c.label} (${which}) ${problem}`, c.call.cancel)
  }
  const described = cancelled.map((c) => `${c.label} (${c.call.cancelledTerminal ? 'already terminal' : 'still running'})`).join(', ')
  return passed(TASKS_CANCEL, `tasks/cancel of ${described} was acknowledged with an empty result`, cancelled[0].call.cancel)
}
