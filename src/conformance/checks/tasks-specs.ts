import type { Catalog } from '../catalog-types.js'
import type { CheckSpec } from './common.js'

/** The tasks extension's checks (SEP-2663, `io.modelcontextprotocol/tasks`) and their mapping to the official suite. */

const SEP = 'SEP-2663 tasks extension'

export const TASKS_DECLARED: CheckSpec = {
  id: 'tasks-extension-declared',
  severity: 'error',
  spec: `${SEP}: declared in server/discover under capabilities.extensions["io.modelcontextprotocol/tasks"] (an object); the 2025-11-25 capabilities.tasks MUST NOT still be advertised`
}
export const TASKS_GATED: CheckSpec = {
  id: 'tasks-gated-on-capability',
  severity: 'error',
  spec: `${SEP}: tasks/get from a request that does not declare the extension → -32021; no CreateTaskResult to a request that does not declare it`
}
export const TASKS_CREATE: CheckSpec = {
  id: 'tasks-create-result',
  severity: 'error',
  spec: `${SEP}: a CreateTaskResult is flat (Result & Task) with resultType "task" and a taskId; result, error and inputRequests live on tasks/get`
}
export const TASKS_WIRE: CheckSpec = {
  id: 'tasks-wire-fields',
  severity: 'error',
  spec: `${SEP}: a Task has taskId, status, createdAt and lastUpdatedAt (ISO 8601), ttlMs (integer ms or null), pollIntervalMs (integer ms) if any; no 2025-11-25 ttl/pollInterval, no requestState`
}
export const TASKS_GET: CheckSpec = {
  id: 'tasks-get',
  severity: 'error',
  spec: `${SEP}: tasks/get resolves a task as soon as it is created, with resultType "complete", its taskId, and the status's payload (completed: result; failed: error; input_required: inputRequests)`
}
export const TASKS_GET_UNKNOWN: CheckSpec = {
  id: 'tasks-get-unknown-task',
  severity: 'error',
  spec: `${SEP}: tasks/get of an unknown taskId → -32602 (Invalid params); the same in the 2025-11-25 tasks utility`
}
export const TASKS_UNKNOWN_WRITES: CheckSpec = {
  id: 'tasks-unknown-task-update-cancel',
  severity: 'warning',
  spec: `${SEP}: tasks/update and tasks/cancel of an unknown taskId SHOULD get a JSON-RPC error (-32602)`
}
export const TASKS_MCP_NAME: CheckSpec = {
  id: 'tasks-mcp-name-header',
  severity: 'error',
  spec: `${SEP}, Streamable HTTP: tasks/get, tasks/update, tasks/cancel carry Mcp-Name: <taskId>; one that differs from params.taskId → -32020 (HTTP 400), as SEP-2243 validates Mcp-Name`
}
export const TASKS_TRANSITIONS: CheckSpec = {
  id: 'tasks-status-transitions',
  severity: 'error',
  spec: `${SEP}: statuses are working, input_required, completed, failed, cancelled; completed, failed and cancelled are terminal: the task's state does not change after`
}
export const TASKS_UPDATE: CheckSpec = {
  id: 'tasks-update',
  severity: 'error',
  spec: `${SEP}: tasks/update with inputResponses for an input_required task is acknowledged with an empty result (resultType "complete")`
}
export const TASKS_CANCEL: CheckSpec = {
  id: 'tasks-cancel',
  severity: 'error',
  spec: `${SEP}: tasks/cancel is acknowledged with an empty result (resultType "complete"), also for a task already terminal`
}
export const TASKS_REQUIRED: CheckSpec = {
  id: 'tasks-required-task-error',
  severity: 'error',
  spec: `${SEP}: a request the server can only serve as a task, from a client without the extension → -32021 naming the extension in data.requiredCapabilities`
}
export const TASKS_REMOVED: CheckSpec = {
  id: 'tasks-removed-methods',
  severity: 'error',
  spec: `${SEP}: tasks/result and tasks/list (2025-11-25) are removed → -32601 (Method not found)`
}

export const TASKS_CHECKS: readonly CheckSpec[] = [
  TASKS_DECLARED,
  TASKS_GATED,
  TASKS_CREATE,
  TASKS_WIRE,
  TASKS_GET,
  TASKS_GET_UNKNOWN,
  TASKS_UNKNOWN_WRITES,
  TASKS_TRANSITIONS,
  TASKS_UPDATE,
  TASKS_CANCEL,
  TASKS_REQUIRED,
  TASKS_REMOVED,
  TASKS_MCP_NAME
]

const EXTENSION = 'not scored: the official suite runs its tasks-* scenarios for visibility only (requirements 2026-07-28: not_scored, reason extension)'
const FIXED_TOOLS = 'its scenarios call fixed tool names (slow_compute, confirm_delete, failing_job, …) that only its own fixture has; ours call the server’s own tools that declare execution.taskSupport'
const unscored = (scenarios: string[], note = EXTENSION) => ({ revision: '2026-07-28' as const, official: { scenarios, scoring: 'unscored' as const, note } })

/** These checks' revisions and official-suite mapping. */
export const TASKS_CATALOG: Catalog = {
  [TASKS_DECLARED.id]: unscored(['tasks-capability-negotiation:tasks-extension-advertised']),
  [TASKS_GATED.id]: unscored(['tasks-capability-negotiation:sep-2663-tasks-methods-non-declaring', 'tasks-capability-negotiation:sep-2663-server-rejects-undeclared-client']),
  [TASKS_CREATE.id]: unscored(['tasks-lifecycle:sep-2663-result-type-task-on-create', 'tasks-dispatch-and-envelope:tasks-server-directed-creation-no-hint'], `${EXTENSION}; ${FIXED_TOOLS}`),
  [TASKS_WIRE.id]: unscored(
    ['tasks-wire-fields:tasks-wire-field-renames', 'tasks-request-state-removal:tasks-create-result-no-request-state', 'tasks-request-state-removal:tasks-get-detailed-no-request-state'],
    `${EXTENSION}; ${FIXED_TOOLS}`
  ),
  [TASKS_GET.id]: unscored(
    [
      'tasks-lifecycle:sep-2663-tasks-get-status-working',
      'tasks-lifecycle:sep-2663-tasks-get-status-completed',
      'tasks-lifecycle:sep-2663-tasks-get-status-failed',
      'tasks-mrtr-input:sep-2663-tasks-get-status-input-required',
      'tasks-dispatch-and-envelope:sep-2663-durable-create-strong-consistency',
      'tasks-dispatch-and-envelope:tasks-result-type-complete-on-non-task-responses'
    ],
    `${EXTENSION}; ${FIXED_TOOLS}`
  ),
  [TASKS_GET_UNKNOWN.id]: {
    revision: 'both',
    official: { scenarios: ['tasks-dispatch-and-envelope:sep-2663-tasks-get-invalid-task-id-32602'], scoring: 'unscored', note: `${EXTENSION}; it has no check of a 2025-11-25 server's tasks` }
  },
  [TASKS_UNKNOWN_WRITES.id]: {
    revision: '2026-07-28',
    official: { scenarios: [], scoring: 'none', note: 'the official suite checks only tasks/get of an unknown task' }
  },
  [TASKS_MCP_NAME.id]: unscored(['tasks-request-headers:sep-2663-server-rejects-mismatched-mcp-name-on-tasks-get', 'tasks-request-headers:sep-2663-routing-headers-accepted-on-tasks-get']),
  [TASKS_TRANSITIONS.id]: {
    revision: '2026-07-28',
    official: { scenarios: [], scoring: 'none', note: 'the official suite polls tasks to a terminal status but never checks that a terminal status stays put (after a tasks/cancel, say)' }
  },
  [TASKS_UPDATE.id]: unscored(['tasks-mrtr-input:tasks-mrtr-tasks-update-resumes', 'tasks-mrtr-input:tasks-mrtr-partial-fulfillment'], `${EXTENSION}; ${FIXED_TOOLS}`),
  [TASKS_CANCEL.id]: unscored(['tasks-lifecycle:sep-2663-cancel-ack-empty-result', 'tasks-lifecycle:tasks-cancel-terminal-idempotent-ack'], `${EXTENSION}; ${FIXED_TOOLS}`),
  [TASKS_REQUIRED.id]: unscored(
    ['tasks-required-task-error:sep-2663-server-returns-missing-capability-when-required', 'tasks-required-task-error:sep-2663-server-returns-missing-capability-data-shape'],
    `${EXTENSION}; it only reports a -32021 without data.requiredCapabilities (INFO), where SEP-2663 says the error indicates the extension, which we require`
  ),
  [TASKS_REMOVED.id]: unscored(['tasks-dispatch-and-envelope:sep-2663-tasks-result-removed-method-not-found', 'tasks-dispatch-and-envelope:tasks-removed-tasks-list'])
}
