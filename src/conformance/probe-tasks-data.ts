import type { Exchange } from './wire-types.js'

/** What the tasks probe gathered: the tasks extension (`io.modelcontextprotocol/tasks`), when the server declares it. */
export interface TasksProbes {
  era: 'modern' | 'legacy'
  /** Modern: `capabilities.extensions["io.modelcontextprotocol/tasks"]` is present (its value as declared); legacy: `capabilities.tasks` is. */
  declared: boolean
  /** Modern: the value declared for the extension (it must be an object). */
  declaredValue?: unknown
  /** Modern: the 2025-11-25 `capabilities.tasks` slot is (still) advertised. */
  legacySlot: boolean
  /** Task-augmented tools/call (the extension declared on the request), each followed through its task. */
  calls: TaskCall[]
  /** Why no (or not every) tool was called, for the messages: `probes: none`, tools left out. */
  note: string
  /** tasks/get of an unknown task id, with the extension declared. */
  unknownGet?: Exchange
  /** tasks/update and tasks/cancel of an unknown task id. */
  unknownUpdate?: Exchange
  unknownCancel?: Exchange
  /** HTTP: tasks/get of a created task whose Mcp-Name header names another task. */
  mismatchedName?: Exchange
  /** tasks/get from a request that does not declare the extension. */
  undeclaredGet?: Exchange
  /** tasks/result and tasks/list (removed from the extension). */
  removed?: Exchange[]
  /** A tool with execution.taskSupport "required", called without the extension declared. */
  required?: { tool: string; source: string; exchange: Exchange }
  /** A tool with execution.taskSupport "optional", called without the extension declared (it must not answer a task). */
  undeclaredCall?: { tool: string; source: string; exchange: Exchange }
  /** Why no required tool was called. */
  requiredNote?: string
}

/** One task-augmented call and what followed it. */
export interface TaskCall {
  tool: string
  /** Where its arguments came from: `tool test get-forecast`, `its inputSchema`. */
  source: string
  call: Exchange
  /** tasks/get, in order (the first one right after the CreateTaskResult). */
  polls: Exchange[]
  /** tasks/update answering the task's inputRequests. */
  updates: Exchange[]
  /** tasks/cancel: of a task still running at the end of the window, or (once) of one already terminal. */
  cancel?: Exchange
  /** Whether the task was terminal when tasks/cancel was sent. */
  cancelledTerminal?: boolean
  /** tasks/get after the cancel. */
  afterCancel?: Exchange
}
