import { isObject } from './checks/common.js'
import { scanHeaderMarkers } from './checks/param-headers.js'
import { mayCall } from './checks/probes.js'
import type { Tool } from './checks/schemas.js'
import type { ProbeContext } from './probe-context.js'
import type { ConcurrentProbe, ListenProbe, LogLevelProbe, StreamsProbes, SubscriptionFilter } from './probe-streams-data.js'
import { listenHttp, listenStdio } from './wire-listen.js'
import type { WireRequest } from './wire-types.js'

/** How long a subscriptions/listen stream stays open: long enough for the acknowledgement and what follows at once, short enough to run beside the other probes. */
export const LISTEN_WINDOW_MS = 500
/** Identical requests sent at once (as the official suite's server-sse-multiple-streams does). */
const CONCURRENT_REQUESTS = 3
export const LOG_LEVEL = 'debug'
export const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel'
const NO_SUCH_RESOURCE = 'mcp-server-evals://no-such-resource'

type FlagKind = 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged'
const FLAG_KINDS: FlagKind[] = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged']

/** The streams probe: subscriptions/listen, log notifications, what rides on a response stream. */
export async function probeStreams(context: ProbeContext): Promise<StreamsProbes | undefined> {
  const concurrent = probeConcurrent(context)
  if (context.era === 'legacy') return { listens: [], listenSkipped: 'legacy server', logLevelSkipped: 'legacy server', concurrent: await concurrent }
  const filters = listenFilters(context)
  const [listens, logLevel] = await Promise.all([
    Promise.all(filters.map(({ role, filter }) => probeListen(context, role, filter))),
    probeLogLevel(context)
  ])
  return {
    listens,
    ...(filters.length ? {} : { listenSkipped: 'the server declares no listChanged (tools, prompts, resources) nor resources.subscribe, so subscriptions/listen has nothing to deliver' }),
    ...(logLevel ? { logLevel } : { logLevelSkipped: 'no request to send' }),
    concurrent: await concurrent
  }
}

const flag = (capabilities: Record<string, unknown>, name: string, key: string) => {
  const capability = capabilities[name]
  return isObject(capability) && capability[key] === true
}

/** The declared listen (every kind the capabilities enable) and a narrow one (a single other kind), or none. */
export function listenFilters(context: Pick<ProbeContext, 'capabilities' | 'resources'>): { role: ListenProbe['role']; filter: SubscriptionFilter }[] {
  const { capabilities } = context
  const declared: FlagKind[] = []
  if (flag(capabilities, 'tools', 'listChanged')) declared.push('toolsListChanged')
  if (flag(capabilities, 'prompts', 'listChanged')) declared.push('promptsListChanged')
  if (flag(capabilities, 'resources', 'listChanged')) declared.push('resourcesListChanged')
  const subscribe = flag(capabilities, 'resources', 'subscribe')
  if (declared.length === 0 && !subscribe) return []
  const uri = context.resources.find((r) => typeof r.uri === 'string')?.uri as string | undefined
  const all: SubscriptionFilter = Object.fromEntries(declared.map((k) => [k, true]))
  if (subscribe) all.resourceSubscriptions = [uri ?? NO_SUCH_RESOURCE]
  // Narrow: a kind other than the first declared one, declared itself when there is one.
  const narrow = declared[1] ?? FLAG_KINDS.find((k) => k !== declared[0])!
  return [
    { role: 'declared', filter: all },
    { role: 'narrow', filter: { [narrow]: true } }
  ]
}

async function probeListen(context: ProbeContext, role: ListenProbe['role'], filter: SubscriptionFilter): Promise<ListenProbe> {
  const req = context.request('subscriptions/listen', { notifications: filter })
  const read = context.http ? await listenHttp(context.http, req, LISTEN_WINDOW_MS, context.timeout) : await listenStdio(context.main, req, LISTEN_WINDOW_MS, context.timeout)
  return { role, filter, ...read, windowMs: LISTEN_WINDOW_MS }
}

/** The list the server declares (its negative probes' method too), else server/discover (modern) or ping (legacy). */
function cheapMethod(context: ProbeContext): string {
  const declared = ['tools', 'prompts', 'resources'].find((c) => context.capabilities[c] !== undefined)
  if (declared) return `${declared}/list`
  return context.era === 'modern' ? 'server/discover' : 'ping'
}

async function probeConcurrent(context: ProbeContext): Promise<ConcurrentProbe> {
  const method = cheapMethod(context)
  const exchanges = await Promise.all(Array.from({ length: CONCURRENT_REQUESTS }, () => context.main.request(context.request(method), context.timeout)))
  return { method, exchanges }
}

const marked = (tool: Tool | undefined) => {
  const scan = scanHeaderMarkers(tool?.inputSchema)
  return !scan.valid || scan.markers.length > 0
}
const required = (tool: Tool) => (isObject(tool.inputSchema) && Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required.length : 0)

/**
 * What to send twice: a tool test's call of a tool the probes may call, else such a tool that
 * needs no arguments, else the cheap list. Tools that mark an argument for an Mcp-Param header
 * are left out (the request would need the header).
 */
function logRequest(context: ProbeContext): { label: string; method: string; params?: Record<string, unknown> } {
  const callable = (tool: Tool | undefined): tool is Tool => tool !== undefined && mayCall(tool, context.mode) && !marked(tool)
  for (const seed of context.seeds) {
    if (callable(context.tools.find((t) => t.name === seed.tool))) return { label: `tools/call ${seed.tool} (${seed.source})`, method: 'tools/call', params: { name: seed.tool, arguments: seed.args } }
  }
  const bare = context.tools.find((t) => callable(t) && required(t) === 0)
  if (bare) return { label: `tools/call ${bare.name}`, method: 'tools/call', params: { name: bare.name, arguments: {} } }
  const method = cheapMethod(context)
  return { label: method, method }
}

function withLogLevel(req: WireRequest): WireRequest {
  const meta = isObject(req.params?._meta) ? req.params._meta : {}
  return { ...req, params: { ...req.params, _meta: { ...meta, [LOG_LEVEL_KEY]: LOG_LEVEL } } }
}

/** The same request without a logLevel, then with one (after: on stdio a log notification is kept with the request that asked for logs). */
async function probeLogLevel(context: ProbeContext): Promise<LogLevelProbe | undefined> {
  const { label, method, params } = logRequest(context)
  const req = context.request(method, params)
  const without = await context.main.request(req, context.timeout)
  const withLevel = await context.main.request(withLogLevel(req), context.timeout)
  return { label, without, with: withLevel, level: LOG_LEVEL }
}
