/**
 * Which method a negative probe is sent as. A probe whose method the server does not serve
 * gets a 404 for the method, not the rule under test; so each probe picks a method the server
 * declares: `tools/list`, else `resources/list`, else `prompts/list`, else `server/discover`
 * (every modern server serves it).
 */

export const UNKNOWN_TOOL = 'mcp-server-evals-no-such-tool'
export const MISSING_RESOURCE = 'mcp-server-evals://no-such-resource'
export const UNKNOWN_PROMPT = 'mcp-server-evals-no-such-prompt'

export type ProbeMethod = 'tools/list' | 'resources/list' | 'prompts/list' | 'server/discover'

/** The list method of the first capability the server declares; `fallback` when it declares none of them. */
export function probeMethodFor<T extends string = 'server/discover'>(capabilities: Record<string, unknown>, fallback?: T): ProbeMethod | T {
  if (capabilities.tools) return 'tools/list'
  if (capabilities.resources) return 'resources/list'
  if (capabilities.prompts) return 'prompts/list'
  return fallback ?? ('server/discover' as T)
}

/** Another method for a probe's `Mcp-Method` header that differs from its body. */
export const otherMethod = (method: string): string => (method === 'prompts/list' ? 'tools/list' : 'prompts/list')

/** A request that needs `Mcp-Name` (§4), for a name nothing has: the method the server declares, tools/call when it declares none. */
export interface NamedProbe {
  method: 'tools/call' | 'resources/read' | 'prompts/get'
  params: Record<string, unknown>
  /** Another name, for an `Mcp-Name` that differs from the body. */
  otherName: string
}

export function namedProbeFor(capabilities: Record<string, unknown>): NamedProbe {
  if (!capabilities.tools && capabilities.resources) return { method: 'resources/read', params: { uri: MISSING_RESOURCE }, otherName: 'mcp-server-evals://other-resource' }
  if (!capabilities.tools && capabilities.prompts) return { method: 'prompts/get', params: { name: UNKNOWN_PROMPT }, otherName: 'some-other-prompt' }
  return { method: 'tools/call', params: { name: UNKNOWN_TOOL, arguments: {} }, otherName: 'some-other-tool' }
}
