import type { ChatTool } from '../llm/chat.js'
import type { McpPrompt, McpResource, McpTool } from '../mcp/session.js'
import type { AppResource } from '../results/types.js'
import { byCodeUnits } from '../util/text.js'

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
 * mapped back when the model calls them. As an MCP Apps host does, it keeps back what is meant
 * for an app, not the model: ui:// resources (isAppResource) and app-only tools (isAppOnlyTool).
 * The tools named in `hidden` (the model's evals/v1 `disallowedTools`) are not offered either:
 * having no function, a call to one is answered as a call to a tool that does not exist.
 */
export function exposeServer(server: { tools: McpTool[]; resources: McpResource[]; prompts: McpPrompt[] }, hidden: readonly string[] = []): Exposure {
  const functions: ChatTool[] = []
  const targets = new Map<string, ExposedTarget>()
  const add = (wanted: string, description: string | undefined, parameters: Record<string, unknown>, target: ExposedTarget) => {
    const name = uniqueFunctionName(wanted, targets)
    targets.set(name, target)
    functions.push({ type: 'function', function: { name, ...(description ? { description } : {}), parameters } })
  }
  for (const tool of server.tools.filter((t) => whyNotOffered(t) === null && !hidden.includes(t.name))) {
    add(tool.name, tool.description, functionParameters(tool.inputSchema), { kind: 'tool', name: tool.name })
  }
  for (const resource of server.resources.filter((r) => !isAppResource(r))) {
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

/** The media type of an MCP Apps UI resource. */
/**
 * Whether a resource is an MCP Apps UI (HTML for a host to render): its uri's scheme is `ui:`,
 * or its mimeType is `text/html` with `profile=mcp-app` (case, spaces, quotes and other
 * parameters aside).
 */
export function isAppResource(resource: Pick<McpResource, 'uri' | 'mime_type'>): boolean {
  return /^ui:/i.test(resource.uri.trim()) || (resource.mime_type !== undefined && isAppMimeType(resource.mime_type))
}

function isAppMimeType(mimeType: string): boolean {
  const [type, ...params] = mimeType.split(';').map((part) => part.trim().toLowerCase())
  if (type !== 'text/html') return false
  return params.some((param) => {
    const [key, value = ''] = param.split('=').map((part) => part.trim())
    return key === 'profile' && value.replace(/^"(.*)"$/, '$1') === 'mcp-app'
  })
}

/**
 * Why the model is never offered a tool, whatever the case: it only runs as a task (every call this
 * client makes would fail; conformance warns about it), or it is for its app only; null when it is offered.
 */
export function whyNotOffered(tool: Pick<McpTool, 'execution' | 'ui'>): string | null {
  if (tool.execution?.taskSupport === 'required') return 'execution.taskSupport is "required": it only runs as a task, which this client does not start'
  if (isAppOnlyTool(tool)) return 'it is for its MCP App only (_meta.ui.visibility has no "model")'
  return null
}

/** Whether a tool is for its app only: its `_meta.ui.visibility` is a list without "model" (the host keeps it from the model). */
export function isAppOnlyTool(tool: Pick<McpTool, 'ui'>): boolean {
  const visibility = tool.ui?.visibility
  return Array.isArray(visibility) && !visibility.includes('model')
}

/** What of a server's MCP Apps surface the model is not offered. */
export interface AppView {
  app_resources: AppResource[]
  /** The app-only tools' names, sorted. */
  app_only_tools: string[]
}

/**
 * A server's MCP Apps surface: every UI resource it lists, and every uri a tool links in
 * `_meta.ui.resourceUri` that it does not list (name and mime_type null; a linked uri listed as
 * an ordinary resource is offered to the model as one, so it is no app resource here),
 * sorted by uri, each with the tools that link it (sorted); and its app-only tools.
 */
export function appViewOf(server: { tools: readonly McpTool[]; resources: readonly McpResource[] }): AppView {
  const linkedBy = new Map<string, string[]>()
  for (const tool of server.tools) {
    const uri = tool.ui?.resource_uri
    if (uri) linkedBy.set(uri, [...(linkedBy.get(uri) ?? []), tool.name])
  }
  const listed = new Map(server.resources.map((resource) => [resource.uri, resource]))
  const uris = new Set([...server.resources.filter(isAppResource).map((resource) => resource.uri), ...[...linkedBy.keys()].filter((uri) => !listed.has(uri))])
  const app_resources = [...uris].sort(byCodeUnits).map((uri): AppResource => {
    const resource = listed.get(uri)
    return { uri, name: resource?.name ?? null, mime_type: resource?.mime_type ?? null, linked_by: [...new Set(linkedBy.get(uri) ?? [])].sort(byCodeUnits) }
  })
  const app_only_tools = [...new Set(server.tools.filter(isAppOnlyTool).map((tool) => tool.name))].sort(byCodeUnits)
  return { app_resources, app_only_tools }
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
