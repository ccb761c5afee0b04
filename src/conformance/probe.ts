import type { ServerConfig } from '../config/types.js'
import { isObject, resultOf } from './checks/common.js'
import { encodeHeaderValue, scanHeaderMarkers, type HeaderMarker } from './checks/param-headers.js'
import { mayCall, planInvalidArguments } from './checks/probes.js'
import { toolsOfPages, type Tool } from './checks/schemas.js'
import { LEGACY_VERSION, MODERN_VERSION, envelope, type Era } from './types.js'
import { trimEvidence } from '../util/text.js'
import { someOf } from '../util/words.js'
import { HttpWire, StdioWire, type Exchange, type RepeatedAnswer, type WireRequest } from './wire.js'
import type { DnsRebindingProbes, HttpProbes, InvalidArgumentsProbes, ListMethod, ParamHeaderProbes, ProbeData, ProbeMode } from './probe-data.js'
import { resolveRunDir, runDirSubdirs, usesRunDir } from '../config/run-dir.js'
import { runDirsBase } from '../config/run-dir.js'
import { makeRunDirSync } from '../mcp/run-dirs.js'
import type { Connection, ProbeContext, ProbeSeed, RequestBuilder } from './probe-context.js'
import { probeModules } from './probe-modules.js'
import { MISSING_RESOURCE, UNKNOWN_TOOL, namedProbeFor, otherMethod, probeMethodFor } from './probe-methods.js'
import { probeRefusedAuth } from './probe-auth.js'
import { warmRevision } from './wire-schema/schemas.js'

// The checks read ProbeData from its own module, so they need not import the probe that gathers it.
export type { ProbeData } from './probe-data.js'

export interface ProbeOptions {
  /** How long server/discover may stay silent before the server counts as legacy. */
  discoverTimeoutMs?: number
  requestTimeoutMs?: number
  /** Once aborted (the job was cancelled), no further server is started: later probes fail at once. */
  signal?: AbortSignal
  /** Which tools the active probes may call (default `safe`: read-only ones only). */
  probes?: ProbeMode
  /**
   * Called once, as soon as the server is reached and its era known (or it is known to be
   * unreachable), while the remaining probes go on: the behaviour runs start from it instead of
   * waiting for the whole probe. Not called when the probe throws.
   */
  onEra?: (verdict: EraVerdict) => void
  /** The suite's tool-test calls: the probes that need a real call (MRTR rounds) start from these. */
  seeds?: ProbeSeed[]
}

/**
 * What the first step of the probe learned: a modern server and its discover result (null when
 * only a modern error code showed the era), a legacy server that answered initialize, or why
 * nothing could be reached (the report's `error`).
 */
export type EraVerdict = { era: 'modern'; discover: Record<string, unknown> | null } | { era: 'legacy' } | { era: 'unreachable'; reason: string }

/** What a probe gets instead of a new server after a cancel. */
const CANCELLED_CONNECTION: Connection = {
  request: async (req) => ({ method: req.method, request: { method: req.method }, response: { failure: 'cancelled', cause: 'cancelled' } }),
  close: async () => undefined
}

const UNSUPPORTED_VERSION = '2099-01-01'
/** Pages followed per list: a real list rarely needs more, a looping cursor never ends. */
export const LIST_MAX_PAGES = 20
/** Tools whose Mcp-Param headers are probed; each costs two calls. */
const MAX_PARAM_HEADER_TOOLS = 3
const FOREIGN_HOST = 'evil.example'

/** A modern error code in reply to a modern request means a modern server (§11). */
const MODERN_ERROR_CODES = new Set([-32020, -32021, -32022])
/** A stdio server that exits on a request before initialize may still be legacy: it gets a fresh process and initialize. */
const EXITED = /^(exited|killed|closed)/

/** HTTP statuses that refuse us rather than tell an era: never legacy (the SDK's probe agrees, §12). */
function refused(status: number | undefined): boolean {
  return status === 401 || status === 403 || status === 407 || (status !== undefined && status >= 500)
}

function classifyDiscover(exchange: Exchange, transport: 'stdio' | 'http'): Era {
  const { frame, status, failure, cause } = exchange.response
  if (frame?.result && Array.isArray(frame.result.supportedVersions)) return 'modern'
  if (frame?.error && MODERN_ERROR_CODES.has(frame.error.code)) return 'modern'
  if (refused(status)) return 'unreachable'
  // Nothing listens, the command is not found, the server wrote non-JSON-RPC to stdout.
  if (failure && (transport === 'http' || !EXITED.test(cause ?? ''))) return 'unreachable'
  // Any other error, silence, an exit, or (HTTP) a 400 without a modern error body: legacy.
  // Never keyed to one error code: legacy servers answer -32601, -32602, others, or nothing.
  return 'legacy'
}


export async function probeServer(config: ServerConfig, options: ProbeOptions = {}): Promise<ProbeData> {
  const discoverTimeout = options.discoverTimeoutMs ?? 3000
  const timeout = options.requestTimeoutMs ?? 5000
  const mode = options.probes ?? 'safe'
  // stdio: answers the server sent again for requests it had answered, on any of the probe's connections.
  const repeatedAnswers: RepeatedAnswer[] = []
  const onRepeated = (answer: RepeatedAnswer) => void (repeatedAnswers.length < 100 && repeatedAnswers.push(answer))
  const open = (): Connection => {
    if (options.signal?.aborted) return CANCELLED_CONNECTION
    if (config.kind === 'http') return new HttpWire(config.url, config.headers)
    // Every probe's server process gets a ${RUN_DIR} of its own, removed with the connection (an escaped `$${RUN_DIR}` becomes its literal either way).
    const dir = usesRunDir(config) ? makeRunDirSync(runDirsBase(), 'conformance', (path) => runDirSubdirs(path, config.cwd, config.roots ?? [])) : null
    const own = resolveRunDir(config, dir?.path ?? '') as typeof config
    const wire = new StdioWire(own.command, own.args, own.env, own.cwd, onRepeated)
    if (!dir) return wire
    return { request: (req, ms) => wire.request(req, ms), listen: (req, ms, afterFirstMs) => wire.listen(req, ms, afterFirstMs), notify: (method, params) => wire.notify(method, params), close: () => wire.close().finally(dir.remove) }
  }
  const transport = config.kind
  const dnsRebinding = (req: WireRequest) =>
    config.kind === 'http' && !options.signal?.aborted ? probeDnsRebinding(config.url, config.headers, req, timeout) : Promise.resolve(undefined)

  const onEra = options.onEra ?? (() => undefined)
  const unreachable = (probe: ProbeData): ProbeData => {
    onEra({ era: 'unreachable', reason: probe.unreachable?.reason ?? 'the server could not be reached' })
    return probe
  }
  const main = open()
  try {
    const discover = await main.request({ method: 'server/discover', params: { _meta: envelope() } }, discoverTimeout)
    const era = classifyDiscover(discover, transport)
    if (era === 'unreachable') {
      // A 401 is told first; what the refusal is worth (its challenge, its metadata) comes after.
      const refused = unreachable(unreachableProbe(transport, mode, discover, discover))
      const auth = await probeRefusedAuth(config, discover, timeout)
      return auth ? { ...refused, auth } : refused
    }
    // wire-schema-valid's validators compile while the probes wait on the server (checks/wire-schema.ts).
    void warmRevision(era === 'modern' ? MODERN_VERSION : LEGACY_VERSION, options.signal)
    if (era === 'legacy') {
      await main.close()
      const legacy = await probeLegacy(open, timeout, mode, () => onEra({ era: 'legacy' }), (main) => ({ config, transport, mode, timeout, signal: options.signal, open, fresh: (use) => withConnection(open, use), main, ...(main instanceof HttpWire ? { http: main } : {}), seeds: options.seeds ?? [] }))
      if ('unreachableAt' in legacy) return unreachable(unreachableProbe(transport, mode, discover, legacy.unreachableAt, legacy.initialize))
      const initialize = { method: 'initialize', params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: CLIENT_INFO } }
      return { ...legacy, transport, discover, probes: mode, dnsRebinding: await dnsRebinding(initialize), repeatedAnswers }
    }
    const result = resultOf(discover)
    onEra({ era: 'modern', discover: result && Array.isArray(result.supportedVersions) ? result : null })
    const modern: RequestBuilder = (method, params = {}) => ({ method, params: { ...params, _meta: envelope() } })
    const capabilities = (discover.response.frame?.result?.capabilities ?? {}) as Record<string, unknown>
    // Negative tests that could pin or poison a connection run on fresh ones, in parallel, each as
    // a method the server declares (probe-methods.ts): the answer is then the rule's, not the method's.
    const fresh = (req: WireRequest) => withConnection(open, (c) => c.request(req, timeout))
    const negative = probeMethodFor(capabilities)
    const freshProbes = Promise.all([
      fresh(modern('tools/list')),
      fresh({ method: negative, params: { _meta: envelope({ version: UNSUPPORTED_VERSION }) } }),
      // Over HTTP the MCP-Protocol-Version header still says 2026-07-28: only the _meta key is
      // missing, so a dual-era server cannot take it for a 2025-era request (§3, §4).
      fresh({ method: negative, params: { _meta: envelope({ version: null }) }, headers: { 'mcp-protocol-version': MODERN_VERSION } }),
      fresh({ method: negative, params: { _meta: envelope({ capabilities: false }) } }),
      dnsRebinding(modern('server/discover'))
    ])
    const page = (method: ListMethod) => (cursor?: string) => modern(method, cursor ? { cursor } : {})
    const toolPages = await listAll(main, page('tools/list'), timeout)
    const toolsList = [toolPages[0], await main.request(modern('tools/list'), timeout)]
    // Listed whether advertised or not: discover-capabilities-honest compares the two (§2).
    const listPages: ProbeData['listPages'] = {
      'tools/list': toolPages,
      'prompts/list': await listAll(main, page('prompts/list'), timeout),
      'resources/list': await listAll(main, page('resources/list'), timeout)
    }
    const resources = itemsOf(listPages['resources/list'], 'resources')
    if (capabilities.resources || resultOf(listPages['resources/list']?.[0])) {
      listPages['resources/templates/list'] = await listAll(main, page('resources/templates/list'), timeout)
    }
    const otherLists = (['prompts/list', 'resources/list', 'resources/templates/list'] as const).flatMap((m) => listPages[m]?.slice(0, 1) ?? [])
    const firstUri = resources.find((r) => typeof r.uri === 'string')?.uri as string | undefined
    const resourceRead = firstUri ? await main.request(modern('resources/read', { uri: firstUri }), timeout) : undefined
    const missingResource = capabilities.resources ? await main.request(modern('resources/read', { uri: MISSING_RESOURCE }), timeout) : undefined
    const unknownTool = await main.request(modern('tools/call', { name: UNKNOWN_TOOL, arguments: {} }), timeout)
    const tools = toolsOfPages(toolPages) ?? []
    const invalidArguments = await probeInvalidArguments(main, tools, mode, modern, timeout)
    const http = main instanceof HttpWire ? await probeHttpHeaders(main, modern, capabilities, timeout) : undefined
    const paramHeaders = main instanceof HttpWire ? await probeParamHeaders(main, tools, mode, modern, timeout) : undefined
    const context: ProbeContext = {
      config,
      transport,
      era: 'modern',
      mode,
      timeout,
      signal: options.signal,
      open,
      fresh: (use) => withConnection(open, use),
      main,
      ...(main instanceof HttpWire ? { http: main } : {}),
      request: modern,
      handshake: result,
      capabilities,
      tools,
      prompts: itemsOf(listPages['prompts/list'], 'prompts'),
      resources,
      seeds: options.seeds ?? []
    }
    const modules = await probeModules(context)
    const [toolsListFresh, unsupportedVersion, missingVersion, missingCapabilities, rebinding] = await freshProbes
    return {
      ...modules,
      transport,
      era: 'modern',
      probes: mode,
      discover,
      toolsList,
      toolsListFresh,
      otherLists,
      listPages,
      resourceRead,
      unknownTool,
      missingResource,
      unsupportedVersion,
      missingVersion,
      missingCapabilities,
      invalidArguments,
      http,
      dnsRebinding: rebinding,
      paramHeaders,
      repeatedAnswers
    }
  } finally {
    await main.close()
  }
}

async function withConnection<T>(open: () => Connection, use: (c: Connection) => Promise<T>): Promise<T> {
  const connection = open()
  try {
    return await use(connection)
  } finally {
    await connection.close()
  }
}

/** The items of every page of a list (`tools`, `prompts`, `resources`) that are objects. */
function itemsOf(pages: Exchange[] | undefined, key: string): Record<string, unknown>[] {
  return (pages ?? []).flatMap((p) => {
    const listed = resultOf(p)?.[key]
    return Array.isArray(listed) ? listed.filter(isObject) : []
  })
}

/** A list and the pages after it, following nextCursor until it ends, repeats, or LIST_MAX_PAGES. */
async function listAll(connection: Connection, page: (cursor?: string) => WireRequest, timeout: number): Promise<Exchange[]> {
  const pages = [await connection.request(page(), timeout)]
  const seen = new Set<string>()
  for (;;) {
    const cursor = resultOf(pages[pages.length - 1])?.nextCursor
    if (typeof cursor !== 'string' || cursor === '' || seen.has(cursor) || pages.length >= LIST_MAX_PAGES) return pages
    seen.add(cursor)
    pages.push(await connection.request(page(cursor), timeout))
  }
}

/** The value at a chain of `properties` keys, as an arguments object. */
function argumentsWith(path: string[], value: unknown): Record<string, unknown> {
  return path.reduceRight<Record<string, unknown>>((inner, key, i) => (i === path.length - 1 ? { [key]: value } : { [key]: inner }), {})
}

function valueAt(args: Record<string, unknown>, path: string[]): unknown {
  let node: unknown = args
  for (const key of path) node = isObject(node) ? node[key] : undefined
  return node
}

/** The Mcp-Param-* headers a conforming client sends for these arguments (§4). */
function paramHeadersFor(markers: HeaderMarker[], args: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const marker of markers) {
    const value = valueAt(args, marker.path)
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') headers[`mcp-param-${marker.header.toLowerCase()}`] = encodeHeaderValue(value)
  }
  return headers
}

const markersOf = (tool: Tool | undefined): HeaderMarker[] => {
  const scan = scanHeaderMarkers(tool?.inputSchema)
  return scan.valid ? scan.markers : []
}

/** Each allowed tool once, with arguments its schema rejects; the calls run in parallel. */
async function probeInvalidArguments(main: Connection, tools: Tool[], mode: ProbeMode, build: RequestBuilder, timeout: number): Promise<InvalidArgumentsProbes | undefined> {
  if (mode === 'none') return undefined
  const plan = planInvalidArguments(tools, mode)
  const calls = await Promise.all(
    plan.calls.map(async ({ tool, args, broken }) => {
      const headers = paramHeadersFor(markersOf(tools.find((t) => t.name === tool)), args)
      const exchange = await main.request({ ...build('tools/call', { name: tool, arguments: args }), headers }, timeout)
      return { tool, broken, exchange }
    })
  )
  return { calls, notReadOnly: plan.notReadOnly, untestable: plan.untestable, capped: plan.capped }
}

/** Each header rule broken once, on an otherwise valid request of a method the server declares (§4). */
async function probeHttpHeaders(wire: HttpWire, modern: RequestBuilder, capabilities: Record<string, unknown>, timeout: number): Promise<HttpProbes> {
  const method = probeMethodFor(capabilities)
  const named = namedProbeFor(capabilities)
  const call = modern(named.method, named.params)
  return {
    missingMethodHeader: await wire.request(modern(method), timeout, { 'mcp-method': null }),
    mismatchedMethodHeader: await wire.request(modern(method), timeout, { 'mcp-method': otherMethod(method) }),
    missingNameHeader: await wire.request(call, timeout, { 'mcp-name': null }),
    mismatchedNameHeader: await wire.request(call, timeout, { 'mcp-name': named.otherName }),
    mismatchedVersionHeader: await wire.request(modern(method), timeout, { 'mcp-protocol-version': '2025-06-18' }),
    get: await wire.raw('GET', timeout),
    delete: await wire.raw('DELETE', timeout),
    unknownMethod: await wire.request(modern('mcp-server-evals/no-such-method'), timeout)
  }
}

const SAMPLE_VALUE = { string: 'mcp-server-evals', integer: 7, boolean: true } as const
const OTHER_VALUE = { string: 'mcp-server-evals-other', integer: 8, boolean: false } as const

/**
 * A call that carries a marked argument without its Mcp-Param header, and one whose header
 * differs. The server must refuse both before the tool runs; the tool still only gets a
 * sample value, so only tools `probes` allows are called.
 */
async function probeParamHeaders(wire: HttpWire, tools: Tool[], mode: ProbeMode, modern: RequestBuilder, timeout: number): Promise<ParamHeaderProbes> {
  const marked = tools.map((tool) => ({ tool, markers: markersOf(tool) })).filter((t) => t.markers.length > 0)
  if (marked.length === 0) return { probed: [], note: 'no tool marks an argument with x-mcp-header' }
  if (mode === 'none') return { probed: [], note: 'probes: none (no tool is called)' }
  const allowed = marked.filter((t) => mayCall(t.tool, mode))
  const left = marked.filter((t) => !allowed.includes(t)).map((t) => t.tool.name)
  const note = left.length ? `not called, not annotated readOnlyHint: true (probes: safe): ${someOf(left)}` : ''
  const probed: ParamHeaderProbes['probed'] = []
  for (const { tool, markers } of allowed.slice(0, MAX_PARAM_HEADER_TOOLS)) {
    const [marker] = markers
    const call = (value: string | number | boolean) => modern('tools/call', { name: tool.name, arguments: argumentsWith(marker.path, value) })
    const header = `mcp-param-${marker.header.toLowerCase()}`
    const [missing, mismatched] = await Promise.all([
      wire.request(call(SAMPLE_VALUE[marker.type]), timeout, { [header]: null }),
      wire.request(call(SAMPLE_VALUE[marker.type]), timeout, { [header]: encodeHeaderValue(OTHER_VALUE[marker.type]) })
    ])
    probed.push({ tool: tool.name, header: marker.header, case: 'missing', exchange: missing }, { tool: tool.name, header: marker.header, case: 'mismatched', exchange: mismatched })
  }
  return { probed, note }
}

/** Loopback hosts: the ones a DNS-rebinding page can reach through the user's browser. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127(\.\d{1,3}){3}$/.test(hostname)
}

/**
 * A request from a foreign web page, as a browser sends it after DNS rebinding: a foreign Origin
 * (Host still ours), and a foreign Host with a matching Origin (which a naive "Origin equals
 * Host" check lets through). Both must get 403 (§4).
 */
async function probeDnsRebinding(url: string, headers: Record<string, string>, req: WireRequest, timeout: number): Promise<DnsRebindingProbes> {
  const target = new URL(url)
  if (!isLoopback(target.hostname)) return { local: false, host: target.hostname }
  const wire = new HttpWire(url, headers)
  const foreign = `${FOREIGN_HOST}${target.port ? `:${target.port}` : ''}`
  const [badOrigin, badHostAndOrigin] = await Promise.all([
    wire.requestWithHost(req, timeout, { origin: `http://${FOREIGN_HOST}` }),
    wire.requestWithHost(req, timeout, { host: foreign, origin: `http://${foreign}` })
  ])
  return { local: true, badOrigin, badHostAndOrigin }
}

const CLIENT_INFO = { name: 'mcp-server-evals-conformance', version: '1' }

/** The server answered no handshake with anything JSON-RPC: what it got instead, for the report. */
function unreachableProbe(transport: 'stdio' | 'http', mode: ProbeMode, discover: Exchange, at: Exchange, initialize?: Exchange): ProbeData {
  const r = at.response
  const cause = r.cause ?? (r.timedOut ? 'no answer before the timeout' : r.status !== undefined ? `HTTP ${r.status}` : null)
  const body = r.body ? r.body.slice(0, 500) : r.frame ? trimEvidence(r.frame, 500) : null
  let reason: string
  // A failure first: one with a status (a redirect not followed) says more than the status.
  // The stderr is kept apart (unreachable.stderr) and shown apart: said once, not inside the reason too.
  if (r.failure) reason = r.stderr && r.failureAlone ? r.failureAlone : r.failure
  else if (r.status !== undefined) reason = `the server refused the request: HTTP ${r.status}${body ? ` ${oneLine(body, 200)}` : ''}`
  else if (initialize) reason = `no answer to server/discover (${describeSilence(discover)}) nor to initialize (${describeSilence(at)})`
  else reason = `no answer to server/discover (${describeSilence(discover)})`
  return {
    transport,
    era: 'unreachable',
    probes: mode,
    discover,
    toolsList: [],
    otherLists: [],
    ...(initialize ? { initialize } : {}),
    unreachable: { http_status: r.status ?? null, body, cause, stderr: r.stderr ?? null, stdout: r.stdout ?? null, reason: oneLine(reason, 400), exchange: at }
  }
}

const describeSilence = (e: Exchange) => (e.response.timedOut ? `silent for ${e.ms ?? '?'} ms` : (e.response.failure ?? `HTTP ${e.response.status}`))
const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s*\n\s*/g, ' | ').trim()
  return flat.length > max ? `${flat.slice(0, max)}…` : flat
}

type LegacyProbe = Omit<ProbeData, 'transport' | 'discover' | 'probes'> | { unreachableAt: Exchange; initialize: Exchange }

/** A 2025-era server: the initialize handshake (`onReached` once it is answered), then what its era can be held to. */
type LegacyContext = Omit<ProbeContext, 'era' | 'request' | 'handshake' | 'capabilities' | 'tools' | 'prompts' | 'resources'>

async function probeLegacy(open: () => Connection, timeout: number, mode: ProbeMode, onReached: () => void, contextOf: (main: Connection) => LegacyContext): Promise<LegacyProbe> {
  const handshake = async (connection: Connection) => {
    const initialize = await connection.request({ method: 'initialize', params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: CLIENT_INFO } }, timeout)
    connection.notify?.('notifications/initialized')
    return initialize
  }
  const legacy: RequestBuilder = (method, params = {}) => ({ method, params })
  const main = open()
  try {
    const initialize = await handshake(main)
    // No JSON-RPC answer to either handshake (an exit, silence, a refusal): not a legacy server, an unreachable one.
    if (!initialize.response.frame || refused(initialize.response.status)) return { unreachableAt: initialize, initialize }
    onReached()
    const fresh = withConnection(open, async (c) => {
      await handshake(c)
      return c.request({ method: 'tools/list', params: {} }, timeout)
    })
    const capabilities = (initialize.response.frame?.result?.capabilities ?? {}) as Record<string, unknown>
    const page = (method: ListMethod) => (cursor?: string) => legacy(method, cursor ? { cursor } : {})
    const toolPages = await listAll(main, page('tools/list'), timeout)
    const toolsList = [toolPages[0], await main.request({ method: 'tools/list', params: {} }, timeout)]
    const otherLists: Exchange[] = []
    let missingResource: Exchange | undefined
    if (capabilities.prompts) otherLists.push(await main.request({ method: 'prompts/list', params: {} }, timeout))
    if (capabilities.resources) {
      otherLists.push(await main.request({ method: 'resources/list', params: {} }, timeout))
      missingResource = await main.request({ method: 'resources/read', params: { uri: MISSING_RESOURCE } }, timeout)
    }
    const unknownTool = await main.request({ method: 'tools/call', params: { name: UNKNOWN_TOOL, arguments: {} } }, timeout)
    const tools = toolsOfPages(toolPages) ?? []
    const invalidArguments = await probeInvalidArguments(main, tools, mode, legacy, timeout)
    const listed = (method: string, key: string) => itemsOf(otherLists.filter((e) => e.method === method), key)
    const modules = await probeModules({
      ...contextOf(main),
      era: 'legacy',
      request: legacy,
      handshake: resultOf(initialize),
      capabilities,
      tools,
      prompts: listed('prompts/list', 'prompts'),
      resources: listed('resources/list', 'resources')
    })
    return { ...modules, era: 'legacy', initialize, toolsList, toolsListFresh: await fresh, otherLists, listPages: { 'tools/list': toolPages }, missingResource, unknownTool, invalidArguments }
  } finally {
    await main.close()
  }
}
