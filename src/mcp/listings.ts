import type { Client } from '@modelcontextprotocol/client'
import { isObject } from '../util/objects.js'
import type { McpPrompt, McpResource, McpTool, McpToolUi } from './types.js'

/** What a server lists as a session opens. */
export interface Listings {
  tools: McpTool[]
  resources: McpResource[]
  prompts: McpPrompt[]
}

/**
 * The tools, resources and prompts of the server, each asked only when its capabilities offer
 * it. A resources or prompts list that fails is empty; a tools list that fails throws.
 */
export async function listServer(client: Client, options: { signal: AbortSignal; timeout: number; maxTotalTimeout?: number }): Promise<Listings> {
  const caps = client.getServerCapabilities() ?? {}
  const opts = { ...options, cacheMode: 'bypass' as const }
  const [t, r, p] = await Promise.all([
    caps.tools ? client.listTools(undefined, opts) : { tools: [] },
    caps.resources ? client.listResources(undefined, opts).catch(() => ({ resources: [] })) : { resources: [] },
    caps.prompts ? client.listPrompts(undefined, opts).catch(() => ({ prompts: [] })) : { prompts: [] }
  ])
  const tools = t.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.execution ? { execution: tool.execution as McpTool['execution'] } : {}),
    ...optionalUi(toolUiOf((tool as { _meta?: unknown })._meta))
  }))
  const resources = r.resources.map((res) => ({ name: res.name, uri: res.uri, description: res.description, ...(typeof res.mimeType === 'string' ? { mime_type: res.mimeType } : {}) }))
  const prompts = p.prompts.map((pr) => ({ name: pr.name, description: pr.description, arguments: pr.arguments }))
  return { tools, resources, prompts }
}

/** A tool's MCP Apps metadata read from its `_meta` in tools/list; undefined when it has none. */
export function toolUiOf(meta: unknown): McpToolUi | undefined {
  if (!isObject(meta)) return undefined
  const ui = isObject(meta.ui) ? meta.ui : undefined
  const deprecated = meta['ui/resourceUri']
  if (ui === undefined && deprecated === undefined) return undefined
  const uri = typeof ui?.resourceUri === 'string' ? ui.resourceUri : typeof deprecated === 'string' ? deprecated : null
  const visibility = Array.isArray(ui?.visibility) ? ui.visibility.filter((v): v is string => typeof v === 'string') : null
  return { resource_uri: uri, visibility }
}

const optionalUi = (ui: McpToolUi | undefined): { ui?: McpToolUi } => (ui ? { ui } : {})
