import type { ProbeData } from '../probe-data.js'
import type { TasksProbes } from '../probe-tasks-data.js'
import type { CheckResult } from '../types.js'
import type { Exchange } from '../wire.js'
import { describeResponse, errorCode, exchangesIn, failed, isObject, passed, resultOf, skipped, type CheckSpec } from './common.js'
import { checkTaskLifecycle } from './tasks-lifecycle.js'
import { TASKS_EXTENSION } from './tasks-plan.js'
import { TASKS_CHECKS, TASKS_DECLARED, TASKS_GATED, TASKS_GET_UNKNOWN, TASKS_MCP_NAME, TASKS_REMOVED, TASKS_REQUIRED, TASKS_UNKNOWN_WRITES } from './tasks-specs.js'

export { TASKS_CATALOG, TASKS_CHECKS } from './tasks-specs.js'

/**
 * Checks on the tasks extension (SEP-2663), when the server declares it. Called for every era:
 * every check is emitted on every server, skipped with the reason when it does not apply.
 */
export function checkTasks(probe: ProbeData): CheckResult[] {
  const tasks = probe.tasks
  const why = notApplicable(probe, tasks)
  if (why !== undefined || !tasks) {
    const decided = new Map<CheckSpec, CheckResult | undefined>([
      [TASKS_DECLARED, declaredCheck(probe, tasks)],
      // A legacy server's 2025-11-25 tasks: tasks/get of an unknown task is the one rule both revisions share.
      [TASKS_GET_UNKNOWN, probe.era === 'legacy' && tasks?.unknownGet ? checkUnknownGet(tasks) : undefined]
    ])
    return TASKS_CHECKS.map((spec) => decided.get(spec) ?? skipped(spec, why ?? 'not probed'))
  }
  const life = checkTaskLifecycle(tasks)
  return [
    declaredCheck(probe, tasks)!,
    checkGated(probe, tasks),
    life.create,
    life.wire,
    life.get,
    checkUnknownGet(tasks),
    checkUnknownWrites(tasks),
    life.transitions,
    life.update,
    life.cancel,
    checkRequired(tasks),
    checkRemoved(tasks),
    checkMcpName(probe, tasks, life.create.status === 'pass')
  ]
}

/** Why the checks do not apply (undefined: they do). */
function notApplicable(probe: ProbeData, tasks: TasksProbes | undefined): string | undefined {
  if (probe.era === 'legacy') {
    return tasks?.declared
      ? 'legacy server: applies from 2026-07-28 (its 2025-11-25 tasks, capabilities.tasks, are not followed: only tasks/get of an unknown task is probed)'
      : 'legacy server: applies from 2026-07-28'
  }
  if (!tasks) return 'not probed'
  if (!tasks.declared) return `the server does not declare ${TASKS_EXTENSION}`
  return undefined
}

/** tasks-extension-declared: decided on a modern server whenever it advertises either slot; undefined when it is to be skipped. */
function declaredCheck(probe: ProbeData, tasks: TasksProbes | undefined): CheckResult | undefined {
  if (probe.era !== 'modern' || !tasks || (!tasks.declared && !tasks.legacySlot)) return undefined
  const slot = tasks.legacySlot ? 'it also advertises capabilities.tasks, the 2025-11-25 tasks capability, which a server on a revision with the extension MUST NOT advertise' : ''
  if (!tasks.declared) return failed(TASKS_DECLARED, `server/discover advertises capabilities.tasks (the 2025-11-25 tasks capability) but not ${TASKS_EXTENSION} under capabilities.extensions: on 2026-07-28 tasks are the extension`, probe.discover)
  if (!isObject(tasks.declaredValue)) return failed(TASKS_DECLARED, `capabilities.extensions["${TASKS_EXTENSION}"] is ${JSON.stringify(tasks.declaredValue)}; an extension's settings are an object ({} for none)${slot ? `; ${slot}` : ''}`, probe.discover)
  if (slot) return failed(TASKS_DECLARED, `${TASKS_EXTENSION} is declared, but ${slot}`, probe.discover)
  return passed(TASKS_DECLARED, `server/discover declares ${TASKS_EXTENSION} under capabilities.extensions, and no capabilities.tasks`)
}

/** A tools/call that carried no extension in its per-request capabilities. */
function undeclared(exchange: Exchange): boolean {
  if (exchange.method !== 'tools/call') return false
  const caps = (exchange.request.params as { _meta?: Record<string, unknown> } | undefined)?._meta?.['io.modelcontextprotocol/clientCapabilities']
  return !(isObject(caps) && isObject(caps.extensions) && TASKS_EXTENSION in caps.extensions)
}

function checkGated(probe: ProbeData, tasks: TasksProbes): CheckResult {
  const get = tasks.undeclaredGet
  if (!get) return skipped(TASKS_GATED, 'not probed')
  if (errorCode(get) !== -32021) {
    return failed(TASKS_GATED, `tasks/get from a request whose capabilities do not declare ${TASKS_EXTENSION} got ${describeResponse(get)}; expected -32021 (Missing required client capability)`, get)
  }
  // Every other tools/call of the probe (and the task-only tool's) declared no extension: none may have made a task.
  const { calls: _calls, ...rest } = tasks
  void _calls
  const others = [...exchangesIn({ ...probe, tasks: rest }, new Set())].filter(undeclared)
  const task = others.find((e) => resultOf(e)?.resultType === 'task')
  if (task) {
    const name = (task.request.params as { name?: unknown } | undefined)?.name
    return failed(TASKS_GATED, `tools/call of ${JSON.stringify(name)} from a request that does not declare ${TASKS_EXTENSION} was answered with a CreateTaskResult (resultType "task"); a server MUST NOT return one to such a client`, task)
  }
  const optional = tasks.undeclaredCall ? `, tools/call of ${JSON.stringify(tasks.undeclaredCall.tool)} (execution.taskSupport "optional") without it got ${resultOf(tasks.undeclaredCall.exchange) ? 'a plain result' : describeResponse(tasks.undeclaredCall.exchange)}` : ''
  return passed(TASKS_GATED, `tasks/get without the extension declared got -32021${optional}, and none of the ${others.length} tools/call without it was answered with a task`, get)
}

function checkUnknownGet(tasks: TasksProbes): CheckResult {
  const get = tasks.unknownGet
  if (!get) return skipped(TASKS_GET_UNKNOWN, 'not probed')
  if (errorCode(get) === -32602) return passed(TASKS_GET_UNKNOWN, 'tasks/get of an unknown taskId got -32602', get)
  return failed(TASKS_GET_UNKNOWN, `tasks/get of a taskId the server never issued got ${describeResponse(get)}; expected -32602 (Invalid params)`, get)
}

function checkUnknownWrites(tasks: TasksProbes): CheckResult {
  const writes = [tasks.unknownUpdate, tasks.unknownCancel].filter((e): e is Exchange => e !== undefined)
  if (writes.length === 0) return skipped(TASKS_UNKNOWN_WRITES, 'not probed')
  const accepted = writes.find((e) => !e.response.frame?.error)
  if (accepted) return failed(TASKS_UNKNOWN_WRITES, `${accepted.method} of a taskId the server never issued got ${describeResponse(accepted)}; expected a JSON-RPC error (-32602), a faster signal than a later tasks/get`, accepted)
  return passed(TASKS_UNKNOWN_WRITES, `tasks/update and tasks/cancel of an unknown taskId got ${writes.map((e) => `error ${errorCode(e)}`).join(' and ')}`)
}

function checkMcpName(probe: ProbeData, tasks: TasksProbes, created: boolean): CheckResult {
  if (probe.transport !== 'http') return skipped(TASKS_MCP_NAME, 'stdio: no HTTP headers')
  const get = tasks.mismatchedName
  if (!get) return skipped(TASKS_MCP_NAME, created ? 'not probed' : 'no task was created to ask for')
  if (errorCode(get) === -32020 && get.response.status === 400) return passed(TASKS_MCP_NAME, 'tasks/get with an Mcp-Name header naming another task got HTTP 400 with -32020', get)
  return failed(TASKS_MCP_NAME, `tasks/get of a real task with Mcp-Name naming another task got ${describeResponse(get)}; expected HTTP 400 with -32020 (the header must equal params.taskId, or routing by it breaks)`, get)
}

function checkRequired(tasks: TasksProbes): CheckResult {
  const required = tasks.required
  if (!required) return skipped(TASKS_REQUIRED, tasks.requiredNote || 'no tool declares execution.taskSupport "required"')
  const { exchange, tool } = required
  const what = `tools/call of ${JSON.stringify(tool)} (execution.taskSupport "required", ${required.source}) from a request that does not declare ${TASKS_EXTENSION}`
  if (errorCode(exchange) !== -32021) return failed(TASKS_REQUIRED, `${what} got ${describeResponse(exchange)}; expected -32021 (Missing required client capability)`, exchange)
  const data = exchange.response.frame?.error?.data
  const named = isObject(data) && isObject(data.requiredCapabilities) && isObject(data.requiredCapabilities.extensions) && TASKS_EXTENSION in data.requiredCapabilities.extensions
  if (!named) return failed(TASKS_REQUIRED, `${what} got -32021, but its data does not name the extension: expected data.requiredCapabilities.extensions["${TASKS_EXTENSION}"]`, exchange)
  return passed(TASKS_REQUIRED, `${what} got -32021 naming ${TASKS_EXTENSION} in data.requiredCapabilities`, exchange)
}

function checkRemoved(tasks: TasksProbes): CheckResult {
  const removed = tasks.removed ?? []
  if (removed.length === 0) return skipped(TASKS_REMOVED, 'not probed')
  const wrong = removed.find((e) => errorCode(e) !== -32601)
  if (wrong) return failed(TASKS_REMOVED, `${wrong.method} (2025-11-25, removed from the extension) got ${describeResponse(wrong)}; expected -32601 (Method not found)`, wrong)
  return passed(TASKS_REMOVED, `${removed.map((e) => e.method).join(' and ')} got -32601`)
}
