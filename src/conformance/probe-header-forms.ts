import type { HeaderFormProbes } from './probe-header-forms-data.js'
import type { ProbeContext } from './probe-context.js'
import { MODERN_VERSION } from './types.js'
import { nodePost } from './wire-body.js'
import type { Exchange, WireRequest } from './wire.js'

/**
 * The header-forms probe (§4, SEP-2243): header names are case-insensitive, values are read
 * without the whitespace around them (RFC 9110 §5.5) and are case-sensitive, and an Mcp-Name in
 * the =?base64?…?= form is decoded. The request is one that runs nothing: tools/call of an
 * unknown tool, resources/read of a missing resource or prompts/get of a missing prompt (the
 * first the server declares), else server/discover.
 */

const UNKNOWN = 'mcp-server-evals-no-such-name'
const MISSING_RESOURCE = 'mcp-server-evals://no-such-resource'

export async function probeHeaderForms(context: ProbeContext): Promise<HeaderFormProbes | undefined> {
  if (context.config.kind !== 'http' || context.era !== 'modern' || context.signal?.aborted) return undefined
  const { url, headers: configured } = context.config
  const req = namedRequest(context)
  const name = typeof req.params?.name === 'string' ? req.params.name : typeof req.params?.uri === 'string' ? req.params.uri : undefined
  const mcp = (names: [string, string, string], value: (v: string) => string, overrides: Record<string, string> = {}): Record<string, string> => ({
    [names[0]]: value(req.method),
    [names[1]]: value(MODERN_VERSION),
    ...(name !== undefined ? { [names[2]]: value(name) } : {}),
    ...overrides
  })
  const lower: [string, string, string] = ['mcp-method', 'mcp-protocol-version', 'mcp-name']
  const upper: [string, string, string] = ['MCP-METHOD', 'MCP-PROTOCOL-VERSION', 'MCP-NAME']
  const same = (v: string) => v
  const send = (headers: Record<string, string>, id: number) => post(url, configured, req, headers, id, context.timeout)
  const [normal, otherCase, padded, upperValue, base64Name] = await Promise.all([
    send(mcp(lower, same), 1),
    send(mcp(upper, same), 2),
    send(mcp(lower, (v) => ` \t${v}  `), 3),
    send(mcp(lower, same, { 'mcp-method': req.method.toUpperCase() }), 4),
    name !== undefined ? send(mcp(lower, same, { 'mcp-name': `=?base64?${Buffer.from(name, 'utf8').toString('base64')}?=` }), 5) : undefined
  ])
  return { method: req.method, named: name !== undefined, normal, otherCase, padded, upperValue, ...(base64Name ? { base64Name } : {}) }
}

function namedRequest(context: ProbeContext): WireRequest {
  const caps = context.capabilities
  if (caps.tools) return context.request('tools/call', { name: UNKNOWN, arguments: {} })
  if (caps.resources) return context.request('resources/read', { uri: MISSING_RESOURCE })
  if (caps.prompts) return context.request('prompts/get', { name: UNKNOWN })
  return context.request('server/discover')
}

/** One POST with exactly these MCP headers (names as written), the user's headers besides; only the MCP ones are shown. */
async function post(url: string, configured: Record<string, string>, req: WireRequest, mcp: Record<string, string>, id: number, timeout: number): Promise<Exchange> {
  const body = { jsonrpc: '2.0', id, method: req.method, ...(req.params ? { params: req.params } : {}) }
  const user = Object.fromEntries(Object.entries(configured).filter(([name]) => !/^mcp-/i.test(name)))
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...user, ...mcp }
  const started = performance.now()
  const response = await nodePost(url, JSON.stringify(body), headers, timeout)
  return { method: req.method, request: { ...body, headers: { 'content-type': 'application/json', ...mcp } }, response, ms: Math.round(performance.now() - started) }
}
