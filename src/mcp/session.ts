import { Client, StreamableHTTPClientTransport, type JsonSchemaValidator, type jsonSchemaValidator, type PriorDiscovery } from '@modelcontextprotocol/client'
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio'
import type { ServerConfig } from '../config/types.js'
import { contentToText } from './content.js'
import { GroupStdioTransport } from './stdio-transport.js'
import { withTraceMeta } from './trace-meta.js'
import { WireTap } from './wire-tap.js'
import { isObject } from '../util/objects.js'
import type { FaultRecord, InjectionRecord } from '../results/types.js'

export interface McpTool {
  name: string
  description?: string
  inputSchema: Record<string, unknown>
  outputSchema?: Record<string, unknown>
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean }
  /** `taskSupport: "required"`: the tool only runs as a task, which this client does not start. */
  execution?: { taskSupport?: string }
}

/** What the server answered to one tools/call, as it came over the wire (before the SDK parsed it). */
export type RawCallResponse = { kind: 'result'; result: Record<string, unknown> } | { kind: 'error'; error: { code: number; message: string; data?: unknown } }

/** One tools/call and its raw answer. */
export interface RawToolCall {
  name: string
  args: Record<string, unknown>
  /** The JSON-RPC request as sent (the last one, when an input_required answer made the SDK retry). */
  request: Record<string, unknown>
  response: RawCallResponse
  latency_ms: number
}
export interface McpResource {
  name: string
  uri: string
  description?: string
}
export interface McpPrompt {
  name: string
  description?: string
  arguments?: { name: string; description?: string; required?: boolean }[]
}
export interface CallOutcome {
  text: string
  isError: boolean
  /** Set by the fault wrapper (src/resilience/): the fault this call carried. */
  fault?: FaultRecord
  /** Set by the attack wrapper (src/security/): the attack this call's output carried. */
  injected?: InjectionRecord
  /** Set by the tracing wrapper (src/telemetry/tracing.ts): this call's span id, the parent id the server was sent. */
  span_id?: string
}

/** One connection to the server under test: a fresh process (stdio) or its own session (HTTP). */
export interface McpSession {
  readonly era: 'modern' | 'legacy'
  readonly protocolVersion: string | undefined
  readonly tools: McpTool[]
  readonly resources: McpResource[]
  readonly prompts: McpPrompt[]
  /** How long opening took: spawn or connect plus the handshake, and listing. */
  readonly timings: { connect_ms: number; list_ms: number }
  callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallOutcome>
  /** The same call, answered raw: a JSON-RPC error is a response, not a throw; a local failure throws ServerError. */
  callToolRaw(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<RawToolCall>
  readResource(uri: string, signal: AbortSignal): Promise<CallOutcome>
  getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<CallOutcome>
  /** The last lines the server wrote to stderr (stdio only). */
  stderrTail(): string
  close(): Promise<void>
}

export interface SessionFactory {
  /** How the sessions reach the server; absent: stdio (test doubles). */
  readonly transport?: 'stdio' | 'http'
  open(signal: AbortSignal, options?: OpenOptions): Promise<McpSession>
}

/** A fetch with the signature the SDK's HTTP transport takes. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>

/** What one session needs beyond the server config. */
export interface OpenOptions {
  /**
   * HTTP only: wraps the transport's fetch, so faults at the HTTP level (a 503, a 401, a
   * response cut mid-stream) reach the SDK exactly as a real failure would. Ignored on stdio.
   */
  wrapFetch?: (fetch: FetchLike) => FetchLike
  /**
   * The W3C trace context every request carries in `params._meta` (`traceparent`, `tracestate`),
   * read as each request is sent (src/mcp/trace-meta.ts). Absent: nothing is added.
   */
  traceMeta?: () => Record<string, string>
}

/** Raised when the server cannot be started or reached; carries the stderr tail. */
export class ServerError extends Error {
  constructor(
    message: string,
    readonly stderrTail: string
  ) {
    super(message)
    this.name = 'ServerError'
  }
}

/** Variables eval-action adds so common server frameworks stay quiet; user values win. */
const QUIET_SERVER_ENV = {
  MCP_USE_ANONYMIZED_TELEMETRY: 'false',
  MCP_USE_DEBUG: '0',
  DEBUG: '0',
  SHOW_INSPECTOR_LOGS: 'false',
  PRETTY_PRINT_JSONRPC: 'false'
}

const CLIENT_INFO = { name: 'mcp-server-evals', version: '0.1.0' }
/** More than the 4 KB the record keeps: a secret across the cut is redacted whole before the record cuts it. */
const STDERR_TAIL_BYTES = 8192

/**
 * Opens sessions against one server. The era verdict (modern or legacy) is learned once, by the
 * SDK's `server/discover` probe on the first open, and handed to every later open as `prior`,
 * so the server is spawned once per run instead of twice.
 */
export function createSessionFactory(
  config: ServerConfig,
  options: { probeTimeoutMs?: number; requestTimeoutMs?: number } = {}
): SessionFactory {
  let verdict: Promise<PriorDiscovery | undefined> | undefined
  const settings = { probeTimeoutMs: options.probeTimeoutMs ?? 5000, requestTimeoutMs: options.requestTimeoutMs }
  return {
    transport: config.kind,
    async open(signal, open = {}) {
      const prior = verdict ? await verdict : undefined
      const attempt = openSession(config, { ...settings, prior, signal, wrapFetch: open.wrapFetch, traceMeta: open.traceMeta })
      // A failed probe leaves no verdict: the next open probes again.
      if (!prior) verdict = attempt.then((s) => s.prior, () => undefined)
      return attempt
    }
  }
}

async function openSession(
  config: ServerConfig,
  options: { prior?: PriorDiscovery; probeTimeoutMs: number; requestTimeoutMs?: number; signal: AbortSignal } & OpenOptions
): Promise<McpSession & { prior: PriorDiscovery }> {
  const client = new Client(CLIENT_INFO, {
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: options.probeTimeoutMs } },
    // structuredContent is checked against outputSchema by us (observed conformance) and shown to
    // the model as the server sent it: the SDK's own check would turn it into a local -32602.
    jsonSchemaValidator: ACCEPT_ANY_OUTPUT
  })
  const tap = new WireTap()
  let stderr = ''
  let transport: GroupStdioTransport | StreamableHTTPClientTransport
  if (config.kind === 'stdio') {
    // Not the SDK's StdioClientTransport: ours runs the server in its own process group and
    // terminates the whole group, so a server behind a wrapper cannot outlive the run.
    const stdio = new GroupStdioTransport({
      command: config.command,
      args: config.args,
      env: { ...getDefaultEnvironment(), ...QUIET_SERVER_ENV, ...config.env },
      cwd: config.cwd,
      stderr: 'pipe'
    })
    stdio.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES)
    })
    transport = stdio
  } else {
    // A fault layer (src/resilience/http-faults.ts) sits between the SDK and the network: every
    // request, the discover probe's too, goes through it; it only touches the POSTs it was armed for.
    transport = new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: config.headers },
      ...(options.wrapFetch ? { fetch: options.wrapFetch((url, init) => globalThis.fetch(url, init)) } : {})
    })
  }
  const http = transport instanceof StreamableHTTPClientTransport ? transport : undefined
  const stderrTail = () => stderr.trim()
  const requestOptions = (signal: AbortSignal) => ({ signal, timeout: options.requestTimeoutMs ?? 300_000, maxTotalTimeout: options.requestTimeoutMs })

  const started = performance.now()
  let closing: Promise<void> | undefined
  // client.close() only reaches a transport the client has attached; one aborted during the
  // discover probe is not attached yet, and would otherwise start (and keep) its server afterwards.
  const closeTransport = () => (transport instanceof GroupStdioTransport ? transport.close() : undefined)
  // A legacy HTTP server minted a session: end it (DELETE) rather than leave it to expire.
  const endHttpSession = () => (http?.sessionId ? http.terminateSession().catch(() => undefined) : undefined)
  const closeQuietly = () =>
    (closing ??= Promise.resolve()
      .then(endHttpSession)
      .then(() => client.close())
      .catch(() => undefined)
      .then(closeTransport)
      .catch(() => undefined))
  const onAbort = () => void closeQuietly()
  options.signal.addEventListener('abort', onAbort, { once: true })
  try {
    // Trace context outside the tap: the tap records each frame as it really went out.
    const tapped = tap.wrap(transport)
    await client.connect(options.traceMeta ? withTraceMeta(tapped, options.traceMeta) : tapped, { prior: options.prior, signal: options.signal })
  } catch (error) {
    await closeQuietly()
    throw new ServerError(`server failed to start: ${describeError(error)}`, stderrTail())
  }
  const connected = performance.now()
  const era = client.getProtocolEra() ?? 'legacy'
  const caps = client.getServerCapabilities() ?? {}
  let tools: McpTool[] = []
  let resources: McpResource[] = []
  let prompts: McpPrompt[] = []
  try {
    const opts = { ...requestOptions(options.signal), cacheMode: 'bypass' as const }
    const [t, r, p] = await Promise.all([
      caps.tools ? client.listTools(undefined, opts) : { tools: [] },
      caps.resources ? client.listResources(undefined, opts).catch(() => ({ resources: [] })) : { resources: [] },
      caps.prompts ? client.listPrompts(undefined, opts).catch(() => ({ prompts: [] })) : { prompts: [] }
    ])
    tools = t.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as Record<string, unknown>,
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
      ...(tool.execution ? { execution: tool.execution as McpTool['execution'] } : {})
    }))
    resources = r.resources.map((res) => ({ name: res.name, uri: res.uri, description: res.description }))
    prompts = p.prompts.map((pr) => ({ name: pr.name, description: pr.description, arguments: pr.arguments }))
  } catch (error) {
    await closeQuietly()
    throw new ServerError(`server failed to list its tools: ${describeError(error)}`, stderrTail())
  }
  const listed = performance.now()
  const discover = client.getDiscoverResult()
  const prior: PriorDiscovery = discover ? { kind: 'modern', discover } : { kind: 'legacy' }

  const guard = async (what: string, action: () => Promise<CallOutcome>): Promise<CallOutcome> => {
    try {
      return await action()
    } catch (error) {
      if (isPeerError(error)) return { text: `MCP error ${(error as { code: number }).code}: ${(error as Error).message}`, isError: true }
      throw new ServerError(`${what} failed: ${describeError(error)}`, stderrTail())
    }
  }

  const callToolRaw = async (name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<RawToolCall> => {
    const started = performance.now()
    const window = tap.open()
    let thrown: unknown
    try {
      await client.callTool({ name, arguments: args }, requestOptions(signal))
    } catch (error) {
      thrown = error
    }
    const latency_ms = Math.round(performance.now() - started)
    // The last exchange is the answer (earlier ones were input_required rounds).
    const answer = window.close().at(-1)
    const frame = answer?.response
    if (answer && frame) {
      const error = frame.error as { code?: unknown; message?: unknown; data?: unknown } | undefined
      const response: RawCallResponse =
        error !== undefined
          ? { kind: 'error', error: { code: typeof error.code === 'number' ? error.code : NaN, message: String(error.message ?? ''), ...(error.data !== undefined ? { data: error.data } : {}) } }
          : { kind: 'result', result: isObject(frame.result) ? frame.result : {} }
      return { name, args, request: answer.request, response, latency_ms }
    }
    if (thrown === undefined) throw new ServerError(`tool call '${name}' got an answer the client could not match to its request`, stderrTail())
    throw new ServerError(`tool call '${name}' failed: ${describeError(thrown)}`, stderrTail())
  }

  return {
    era,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    tools,
    resources,
    prompts,
    prior,
    stderrTail,
    timings: { connect_ms: Math.round(connected - started), list_ms: Math.round(listed - connected) },
    callToolRaw,
    callTool: async (name, args, signal) => outcomeOf(await callToolRaw(name, args, signal)),
    readResource: (uri, signal) =>
      guard(`reading resource '${uri}'`, async () => {
        const result = await client.readResource({ uri }, { ...requestOptions(signal), cacheMode: 'bypass' })
        return { text: contentToText(result.contents.map((c) => ({ type: 'resource', resource: c }))), isError: false }
      }),
    getPrompt: (name, args, signal) =>
      guard(`getting prompt '${name}'`, async () => {
        const result = await client.getPrompt({ name, arguments: args }, requestOptions(signal))
        return { text: contentToText(result.messages.map((m) => m.content)), isError: false }
      }),
    async close() {
      options.signal.removeEventListener('abort', onAbort)
      await closeQuietly()
    }
  }
}

/** What the model is shown for a raw answer: a JSON-RPC error as eval-action shows it, a result as its text. */
export function outcomeOf(call: RawToolCall): CallOutcome {
  if (call.response.kind === 'error') return { text: `MCP error ${call.response.error.code}: ${call.response.error.message}`, isError: true }
  const { result } = call.response
  return { text: contentToText(result.content, result.structuredContent), isError: result.isError === true }
}

/** Accepts any structuredContent: the SDK's JSON Schema validator hook, switched off. */
const ACCEPT_ANY_OUTPUT: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined })
  }
}


/** A JSON-RPC error answered by the server: the model should see it, as eval-action does. */
function isPeerError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ProtocolError' && typeof (error as { code?: unknown }).code === 'number'
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = (error as { cause?: unknown }).cause
  const code = (error as { code?: unknown }).code
  let text = error.message
  if (typeof code === 'string' && !text.includes(code)) text = `${code}: ${text}`
  if (cause instanceof Error && !text.includes(cause.message)) text += ` (${cause.message})`
  return text
}

