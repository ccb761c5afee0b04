import type { ServerConfig } from '../config/types.js'
import { LEGACY_VERSION, envelope, type Era } from './types.js'
import { HttpWire, StdioWire, type Exchange, type WireRequest } from './wire.js'

/** Everything the checks look at, gathered once. Checks are pure functions of it. */
export interface ProbeData {
  transport: 'stdio' | 'http'
  era: Era
  discover: Exchange
  /** Two consecutive tools/list on one connection. */
  toolsList: Exchange[]
  /** tools/list from a second, fresh process (stdio) or request (HTTP). */
  toolsListFresh?: Exchange
  /** prompts/list, resources/list, resources/templates/list, where advertised. */
  otherLists: Exchange[]
  /** resources/read of the first listed resource. */
  resourceRead?: Exchange
  unknownTool?: Exchange
  missingResource?: Exchange
  unsupportedVersion?: Exchange
  missingVersion?: Exchange
  missingCapabilities?: Exchange
  http?: HttpProbes
  /** Legacy servers: the initialize exchange. */
  initialize?: Exchange
}

export interface HttpProbes {
  missingMethodHeader: Exchange
  mismatchedMethodHeader: Exchange
  missingNameHeader: Exchange
  mismatchedNameHeader: Exchange
  mismatchedVersionHeader: Exchange
  get: Exchange
  delete: Exchange
  unknownMethod: Exchange
}

export interface ProbeOptions {
  /** How long server/discover may stay silent before the server counts as legacy. */
  discoverTimeoutMs?: number
  requestTimeoutMs?: number
  /** Once aborted (the job was cancelled), no further server is started: later probes fail at once. */
  signal?: AbortSignal
}

/** What a probe gets instead of a new server after a cancel. */
const CANCELLED_CONNECTION: Connection = {
  request: async (req) => ({ method: req.method, request: { method: req.method }, response: { failure: 'cancelled' } }),
  close: async () => undefined
}

const UNKNOWN_TOOL = 'mcp-server-evals-no-such-tool'
const MISSING_RESOURCE = 'mcp-server-evals://no-such-resource'
const UNSUPPORTED_VERSION = '2099-01-01'

/** A modern error code in reply to a modern request means a modern server (§11). */
const MODERN_ERROR_CODES = new Set([-32020, -32021, -32022])

function classifyDiscover(exchange: Exchange): Era {
  const { frame } = exchange.response
  if (frame?.result && Array.isArray(frame.result.supportedVersions)) return 'modern'
  if (frame?.error && MODERN_ERROR_CODES.has(frame.error.code)) return 'modern'
  // Any other error, silence, an exit, or (HTTP) a 400 without a modern error body: legacy.
  // Never keyed to one error code: legacy servers answer -32601, -32602, others, or nothing.
  return 'legacy'
}

/** One connection: a stdio process or an HTTP endpoint. */
interface Connection {
  request(req: WireRequest, timeoutMs: number): Promise<Exchange>
  notify?(method: string, params?: Record<string, unknown>): void
  close(): Promise<void>
}

export async function probeServer(config: ServerConfig, options: ProbeOptions = {}): Promise<ProbeData> {
  const discoverTimeout = options.discoverTimeoutMs ?? 3000
  const timeout = options.requestTimeoutMs ?? 5000
  const open = (): Connection =>
    options.signal?.aborted ? CANCELLED_CONNECTION : config.kind === 'stdio' ? new StdioWire(config.command, config.args, config.env, config.cwd) : new HttpWire(config.url, config.headers)
  const transport = config.kind

  const main = open()
  try {
    const discover = await main.request({ method: 'server/discover', params: { _meta: envelope() } }, discoverTimeout)
    if (classifyDiscover(discover) === 'legacy') {
      await main.close()
      return { ...(await probeLegacy(open, timeout)), transport, discover }
    }
    const modern = (method: string, params: Record<string, unknown> = {}): WireRequest => ({ method, params: { ...params, _meta: envelope() } })
    // Negative tests that could pin or poison a connection run on fresh ones, in parallel.
    const fresh = (req: WireRequest) => withConnection(open, (c) => c.request(req, timeout))
    const freshProbes = Promise.all([
      fresh(modern('tools/list')),
      fresh({ method: 'tools/list', params: { _meta: envelope({ version: UNSUPPORTED_VERSION }) } }),
      fresh({ method: 'tools/list', params: { _meta: envelope({ version: null }) } }),
      fresh({ method: 'tools/list', params: { _meta: envelope({ capabilities: false }) } })
    ])
    const capabilities = (discover.response.frame?.result?.capabilities ?? {}) as Record<string, unknown>
    const toolsList = [await main.request(modern('tools/list'), timeout), await main.request(modern('tools/list'), timeout)]
    const otherLists: Exchange[] = []
    if (capabilities.prompts) otherLists.push(await main.request(modern('prompts/list'), timeout))
    let resourceRead: Exchange | undefined
    let missingResource: Exchange | undefined
    if (capabilities.resources) {
      const resources = await main.request(modern('resources/list'), timeout)
      otherLists.push(resources, await main.request(modern('resources/templates/list'), timeout))
      const first = (resources.response.frame?.result?.resources as { uri?: string }[] | undefined)?.[0]
      if (first?.uri) resourceRead = await main.request(modern('resources/read', { uri: first.uri }), timeout)
      missingResource = await main.request(modern('resources/read', { uri: MISSING_RESOURCE }), timeout)
    }
    const unknownTool = await main.request(modern('tools/call', { name: UNKNOWN_TOOL, arguments: {} }), timeout)
    const http = main instanceof HttpWire ? await probeHttpHeaders(main, modern, timeout) : undefined
    const [toolsListFresh, unsupportedVersion, missingVersion, missingCapabilities] = await freshProbes
    return {
      transport,
      era: 'modern',
      discover,
      toolsList,
      toolsListFresh,
      otherLists,
      resourceRead,
      unknownTool,
      missingResource,
      unsupportedVersion,
      missingVersion,
      missingCapabilities,
      http
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

/** Each header rule broken once, on an otherwise valid request (§4). */
async function probeHttpHeaders(wire: HttpWire, modern: (method: string, params?: Record<string, unknown>) => WireRequest, timeout: number): Promise<HttpProbes> {
  const call = modern('tools/call', { name: UNKNOWN_TOOL, arguments: {} })
  return {
    missingMethodHeader: await wire.request(modern('tools/list'), timeout, { 'mcp-method': null }),
    mismatchedMethodHeader: await wire.request(modern('tools/list'), timeout, { 'mcp-method': 'prompts/list' }),
    missingNameHeader: await wire.request(call, timeout, { 'mcp-name': null }),
    mismatchedNameHeader: await wire.request(call, timeout, { 'mcp-name': 'some-other-tool' }),
    mismatchedVersionHeader: await wire.request(modern('tools/list'), timeout, { 'mcp-protocol-version': '2025-06-18' }),
    get: await wire.raw('GET', timeout),
    delete: await wire.raw('DELETE', timeout),
    unknownMethod: await wire.request(modern('mcp-server-evals/no-such-method'), timeout)
  }
}

/** A 2025-era server: the initialize handshake, then what its era can be held to. */
async function probeLegacy(open: () => Connection, timeout: number): Promise<Omit<ProbeData, 'transport' | 'discover'>> {
  const handshake = async (connection: Connection) => {
    const initialize = await connection.request(
      { method: 'initialize', params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'mcp-server-evals-conformance', version: '1' } } },
      timeout
    )
    connection.notify?.('notifications/initialized')
    return initialize
  }
  const main = open()
  try {
    const initialize = await handshake(main)
    const fresh = withConnection(open, async (c) => {
      await handshake(c)
      return c.request({ method: 'tools/list', params: {} }, timeout)
    })
    const capabilities = (initialize.response.frame?.result?.capabilities ?? {}) as Record<string, unknown>
    const toolsList = [await main.request({ method: 'tools/list', params: {} }, timeout), await main.request({ method: 'tools/list', params: {} }, timeout)]
    const otherLists: Exchange[] = []
    let missingResource: Exchange | undefined
    if (capabilities.prompts) otherLists.push(await main.request({ method: 'prompts/list', params: {} }, timeout))
    if (capabilities.resources) {
      otherLists.push(await main.request({ method: 'resources/list', params: {} }, timeout))
      missingResource = await main.request({ method: 'resources/read', params: { uri: MISSING_RESOURCE } }, timeout)
    }
    const unknownTool = await main.request({ method: 'tools/call', params: { name: UNKNOWN_TOOL, arguments: {} } }, timeout)
    return { era: 'legacy', initialize, toolsList, toolsListFresh: await fresh, otherLists, missingResource, unknownTool }
  } finally {
    await main.close()
  }
}
