import type { ProbeMode } from '../probe-data.js'
import { isObject } from './common.js'
import { mayCall } from './probes.js'
import type { Tool } from './schemas.js'
import { someOf } from '../../util/words.js'

/** Which tools the tasks probe calls, with what, and how it answers a task's input requests. Pure. */

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks'
/** Task-augmented calls per run: one of each kind a server is likely to have (quick, asking for input, task-only). */
export const MAX_TASK_CALLS = 3
/** Calls from the suite's tool tests when no tool declares task support (the server decides per request whether to make a task). */
const MAX_UNDECLARED_CALLS = 2

export interface PlannedCall {
  tool: string
  args: Record<string, unknown>
  source: string
}

export interface TaskPlan {
  calls: PlannedCall[]
  /** A tool with taskSupport "required" to call without the extension. */
  required?: PlannedCall
  /** A tool with taskSupport "optional" to call without the extension. */
  optional?: PlannedCall
  note: string
  requiredNote: string
}

export const taskSupportOf = (tool: Tool): unknown => (isObject(tool.execution) ? tool.execution.taskSupport : undefined)

/**
 * The calls: tools whose execution.taskSupport is "optional" or "required", with a tool test's
 * arguments when the suite has one, else (when `probes` allows calling the tool) arguments made
 * from its inputSchema; without such tools, the suite's tool tests (a server may make a task of
 * any call). `probes: none` calls nothing.
 */
export function planTaskCalls(tools: Tool[], seeds: PlannedCall[], mode: ProbeMode): TaskPlan {
  if (mode === 'none') return { calls: [], note: 'probes: none (no tool is called)', requiredNote: 'probes: none (no tool is called)' }
  const supporting = tools.filter((t) => ['optional', 'required'].includes(taskSupportOf(t) as string))
  const planned: PlannedCall[] = []
  const refused: string[] = []
  for (const tool of supporting) {
    const seed = seeds.find((s) => s.tool === tool.name)
    if (seed) planned.push({ tool: tool.name, args: seed.args, source: seed.source })
    else if (mayCall(tool, mode)) planned.push({ tool: tool.name, args: sampleArguments(tool.inputSchema), source: 'arguments made from its inputSchema' })
    else refused.push(tool.name)
  }
  const notes: string[] = []
  if (refused.length) notes.push(`not called, not annotated readOnlyHint: true and no tool test calls them (probes: safe): ${someOf(refused)}`)
  // Prefer variety: the task-only tools, then the optional ones, at most MAX_TASK_CALLS.
  const ordered = [...planned.filter((p) => taskSupportOf(byName(tools, p.tool)) === 'required').slice(0, 1), ...planned]
  let calls = unique(ordered).slice(0, MAX_TASK_CALLS)
  if (planned.length > MAX_TASK_CALLS) notes.push(`${planned.length - MAX_TASK_CALLS} more not called (at most ${MAX_TASK_CALLS})`)
  if (supporting.length === 0) {
    // SEP-2663 has no per-tool flag: the server decides per request. The tool tests' calls first, then tools `probes` allows.
    const allowed = tools.filter((t) => mayCall(t, mode)).map((t) => ({ tool: t.name, args: sampleArguments(t.inputSchema), source: 'arguments made from its inputSchema' }))
    calls = unique([...seeds.map((s) => ({ tool: s.tool, args: s.args, source: s.source })), ...allowed]).slice(0, MAX_UNDECLARED_CALLS)
    notes.push(calls.length ? 'no tool declares execution.taskSupport: other tools called' : 'no tool declares execution.taskSupport, none is annotated readOnlyHint: true (probes: safe) and no tool test gives a call to start from')
  }
  const requiredTools = supporting.filter((t) => taskSupportOf(t) === 'required')
  const required = planned.find((p) => requiredTools.some((t) => t.name === p.tool))
  const requiredNote = requiredTools.length === 0 ? 'no tool declares execution.taskSupport "required"' : required ? '' : `not called (probes: safe, no readOnlyHint: true, no tool test): ${someOf(requiredTools.map((t) => t.name))}`
  const optional = planned.find((p) => taskSupportOf(byName(tools, p.tool)) === 'optional')
  return { calls, ...(required ? { required } : {}), ...(optional ? { optional } : {}), note: notes.join('; '), requiredNote }
}

const byName = (tools: Tool[], name: string): Tool => tools.find((t) => t.name === name) ?? { name }

function unique(calls: PlannedCall[]): PlannedCall[] {
  const seen = new Set<string>()
  return calls.filter((c) => !seen.has(c.tool) && seen.add(c.tool))
}

/** Arguments that satisfy a simple inputSchema: each required property given a plain value of its type (its const, enum, default or example first). */
export function sampleArguments(inputSchema: unknown): Record<string, unknown> {
  return sampleObject(inputSchema, inputSchema, 0)
}

function sampleObject(schema: unknown, root: unknown, depth: number): Record<string, unknown> {
  if (!isObject(schema)) return {}
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []
  const properties = isObject(schema.properties) ? schema.properties : {}
  return Object.fromEntries(required.map((name) => [name, sampleValue(resolve(root, properties[name]), root, depth + 1)]))
}

function resolve(root: unknown, schema: unknown): unknown {
  if (!isObject(schema) || typeof schema.$ref !== 'string' || !schema.$ref.startsWith('#/')) return schema
  let node: unknown = root
  for (const part of schema.$ref.slice(2).split('/')) node = isObject(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined
  return node
}

function sampleValue(schema: unknown, root: unknown, depth: number): unknown {
  if (!isObject(schema)) return 'mcp-server-evals'
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0]
  if ('default' in schema) return schema.default
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0]
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type
  const minimum = typeof schema.minimum === 'number' ? schema.minimum : 1
  switch (type) {
    case 'integer':
      return Math.ceil(minimum)
    case 'number':
      return minimum
    case 'boolean':
      return true
    case 'array':
      return []
    case 'object':
      return depth < 4 ? sampleObject(schema, root, depth) : {}
    default:
      return 'mcp-server-evals'
  }
}

/**
 * The answers to a task's inputRequests, for tasks/update: an elicitation is declined (an answer
 * every form accepts, and one that makes a tool do nothing), a roots listing is empty; a request
 * of another kind is left unanswered.
 */
export function inputAnswers(inputRequests: unknown): Record<string, unknown> {
  if (!isObject(inputRequests)) return {}
  const answers: Record<string, unknown> = {}
  for (const [key, request] of Object.entries(inputRequests)) {
    const method = isObject(request) ? request.method : undefined
    if (method === 'elicitation/create') answers[key] = { action: 'decline' }
    else if (method === 'roots/list') answers[key] = { roots: [] }
  }
  return answers
}
