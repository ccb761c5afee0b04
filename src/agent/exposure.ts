import type { ChatTool } from '../llm/chat.js'
import type { McpPrompt, McpResource, McpTool } from '../mcp/session.js'

/** What a function offered to the model stands for on the MCP server. */
export type ExposedTarget =
  | { kind: 'tool'; name: string }
  | { kind: 'resource'; name: string; uri: string }
  | { kind: 'prompt'; name: string }

export interface Exposure {
  functions: ChatTool[]
  /** Function name as the model sees it → what it calls on the server. */
  targets: Map<string, ExposedTarget>
}

/**
 * Offer the server to the model as eval-action does: every tool as a function (same description
 * and input schema), every resource as an argument-less function, every prompt as a function
 * taking the prompt's arguments. Names the OpenAI API would reject are mapped to legal ones and
 * mapped back when the model calls them.
 */
export function exposeServer(server: { tools: McpTool[]; resources: McpResource[]; prompts: McpPrompt[] }): Exposure {
  const functions: ChatTool[] = []
  const targets = new Map<string, ExposedTarget>()
  const add = (wanted: string, description: string | undefined, parameters: Record<string, unknown>, target: ExposedTarget) => {
    const name = uniqueFunctionName(wanted, targets)
    targets.set(name, target)
    functions.push({ type: 'function', function: { name, ...(description ? { description } : {}), parameters } })
  }
  // A tool that only runs as a task would fail every call this client makes (conformance warns about it).
  for (const tool of server.tools.filter((t) => t.execution?.taskSupport !== 'required')) add(tool.name, tool.description, functionParameters(tool.inputSchema), { kind: 'tool', name: tool.name })
  for (const resource of server.resources) {
    const name = resourceFunctionName(resource.name || resource.uri)
    add(name, resource.description || resource.uri, { type: 'object', properties: {} }, { kind: 'resource', name, uri: resource.uri })
  }
  for (const prompt of server.prompts) {
    const properties: Record<string, unknown> = {}
    for (const arg of prompt.arguments ?? []) properties[arg.name] = { type: 'string', ...(arg.description ? { description: arg.description } : {}) }
    const required = (prompt.arguments ?? []).filter((a) => a.required).map((a) => a.name)
    add(prompt.name, prompt.description, { type: 'object', properties, ...(required.length ? { required } : {}) }, { kind: 'prompt', name: prompt.name })
  }
  return { functions, targets }
}

/** eval-action's resource tool name: runs of characters outside [A-Za-z0-9_] become `_`, lower-cased, `_` trimmed. */
export function resourceFunctionName(name: string): string {
  return name
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .toLowerCase()
    .replace(/^_+|_+$/g, '') || 'resource'
}

/** What OpenAI-style APIs accept as a function name. */
export const LEGAL_FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/
export const MAX_FUNCTION_NAME = 64

/** A name as the model is offered it: illegal characters become `_`, cut to 64. */
export function legalFunctionName(name: string): string {
  return LEGAL_FUNCTION_NAME.test(name) ? name : name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, MAX_FUNCTION_NAME) || 'tool'
}

function uniqueFunctionName(wanted: string, taken: Map<string, unknown>): string {
  let base = legalFunctionName(wanted)
  if (!taken.has(base)) return base
  base = base.slice(0, 60)
  for (let i = 2; ; i++) if (!taken.has(`${base}_${i}`)) return `${base}_${i}`
}

/** OpenAI wants an object schema; some providers choke on a root `$schema`. */
function functionParameters(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema ?? {}
  return { ...rest, type: 'object', properties: (rest.properties as Record<string, unknown> | undefined) ?? {} }
}
