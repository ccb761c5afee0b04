import { Client, StreamableHTTPClientTransport, type JsonSchemaValidator, type jsonSchemaValidator, type PriorDiscovery, type Transport } from '@modelcontextprotocol/client'
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio'
import { DEFAULT_MAX_INPUT_ROUNDS, type InputKind, type ServerConfig } from '../config/types.js'
import { describeSpawnError } from '../util/command-lookup.js'
import { describeError, ServerError } from './errors.js'
import { screenedFetch } from './http-screen.js'
import { listServer } from './listings.js'
import { outcomeOf } from './outcome.js'
import { answerServerInput, declaredCapabilities, declaredKinds, settleStartupRoots, type InputLedger } from './server-input.js'
import { requestOptionsOf, sessionCalls } from './session-calls.js'
import { GroupStdioTransport } from './stdio-transport.js'
import { withTraceMeta } from './trace-meta.js'
import type { McpSession, McpTool, OpenOptions } from './types.js'
import { WireTap } from './wire-tap.js'

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

/** Accepts any structuredContent: the SDK's JSON Schema validator hook, switched off. */
const ACCEPT_ANY_OUTPUT: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined })
  }
}

/** What one open needs: the era verdict to open with (none: negotiate), the timeouts, the session's signal, and the per-session options. */
export type SessionSettings = { prior?: PriorDiscovery; probeTimeoutMs: number; requestTimeoutMs?: number; signal: AbortSignal } & OpenOptions

/**
 * The tools with `execution.taskSupport: "required"` where the server listed it: a 2026-era
 * listing reaches us without the key, yet such a tool still runs only as a task (which this
 * client does not start), so it must not be offered to the model, or drafted into a case by init.
 */
function withTaskSupport(tools: McpTool[], taskOnly: ReadonlySet<string>): McpTool[] {
  return tools.map((tool) => (taskOnly.has(tool.name) && tool.execution?.taskSupport !== 'required' ? { ...tool, execution: { ...tool.execution, taskSupport: 'required' } } : tool))
}

/** Why the connect failed: a stdio command the spawn could not find, in words ("'uvx' was not found on PATH"), else the error as it is. */
function startError(config: ServerConfig, error: unknown): string {
  const spawnFailed = config.kind === 'stdio' && error instanceof Error && String((error as NodeJS.ErrnoException).syscall ?? '').startsWith('spawn')
  return spawnFailed ? describeSpawnError(config.command, error, config.cwd) : describeError(error)
}

/** One session to the server (config with `${RUN_DIR}` resolved), opened and listed; with the era verdict the open learned (`prior`). */
export async function openSession(config: ServerConfig, options: SessionSettings): Promise<McpSession & { prior: PriorDiscovery }> {
  const inputs = options.inputs
  const declared: InputKind[] = declaredKinds(inputs)
  const maxRounds = inputs?.maxRounds ?? DEFAULT_MAX_INPUT_ROUNDS
  const client = new Client(CLIENT_INFO, {
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: options.probeTimeoutMs } },
    // structuredContent is checked against outputSchema by us (observed conformance) and shown to
    // the model as the server sent it: the SDK's own check would turn it into a local -32602.
    jsonSchemaValidator: ACCEPT_ANY_OUTPUT,
    // Exactly what the case can answer; nothing without inputs.
    ...(inputs ? { capabilities: declaredCapabilities(declared) } : {}),
    inputRequired: { autoFulfill: true, maxRounds }
  })
  const tap = new WireTap({ onServerFrame: options.serverFrames })
  const ledger: InputLedger = { openCall: null, outsideAnswers: [] }
  if (inputs) answerServerInput(client, inputs, { declared, maxRounds, ledger, sessionSignal: options.signal })
  const { transport, stderrTail } = serverTransport(config, options.wrapFetch)
  const http = transport instanceof StreamableHTTPClientTransport ? transport : undefined

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
    const tapped = tap.wrap(probedInPlace(transport))
    await client.connect(options.traceMeta ? withTraceMeta(tapped, options.traceMeta) : tapped, { prior: options.prior, signal: options.signal })
  } catch (error) {
    await closeQuietly()
    throw new ServerError(`server failed to start: ${startError(config, error)}`, stderrTail(), { cause: error })
  }
  const connected = performance.now()
  const era = client.getProtocolEra() ?? 'legacy'
  const listings = await listServer(client, requestOptionsOf(options, options.signal)).catch(async (error: unknown) => {
    await closeQuietly()
    throw new ServerError(`server failed to list its tools: ${describeError(error)}`, stderrTail(), { cause: error })
  })
  // A server that asked for the roots as it started (server-filesystem) applies our answer a
  // moment after it gets it: the first call, which an instant (replayed) answer can send within
  // milliseconds, waits for that instead of being refused.
  if (declared.includes('roots')) await settleStartupRoots(tap, options.signal)
  const listed = performance.now()
  const discover = client.getDiscoverResult()
  const prior: PriorDiscovery = discover ? { kind: 'modern', discover } : { kind: 'legacy' }
  const calls = sessionCalls({ client, tap, ledger, declared, maxRounds, sessionSignal: options.signal, requestTimeoutMs: options.requestTimeoutMs, stderrTail })

  return {
    era,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    ...listings,
    tools: withTaskSupport(listings.tools, tap.taskOnlyTools()),
    prior,
    stderrTail,
    timings: { connect_ms: Math.round(connected - started), list_ms: Math.round(listed - connected) },
    ...calls,
    callTool: async (name, args, signal) => outcomeOf(await calls.callToolRaw(name, args, signal)),
    get connected() {
      return client.transport !== undefined
    },
    async close() {
      options.signal.removeEventListener('abort', onAbort)
      await closeQuietly()
    }
  }
}

/** The transport to the server, and the tail of what it wrote to stderr (stdio; empty over HTTP). */
function serverTransport(config: ServerConfig, wrapFetch: OpenOptions['wrapFetch']): { transport: GroupStdioTransport | StreamableHTTPClientTransport; stderrTail: () => string } {
  let stderr = ''
  const stderrTail = () => stderr.trim()
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
    return { transport: stdio, stderrTail }
  }
  // A fault layer (src/resilience/http-faults.ts) sits between the SDK and the network: every
  // request, the discover probe's too, goes through it; it only touches the POSTs it was armed for.
  // Beneath it every answer is bounded and screened as over stdio (src/mcp/http-screen.ts). The
  // SDK follows a redirect only within the origin (its default redirectPolicy), so the headers
  // never reach another host.
  const fetch = screenedFetch()
  const http = new StreamableHTTPClientTransport(new URL(config.url), {
    requestInit: { headers: config.headers },
    fetch: wrapFetch ? wrapFetch(fetch) : fetch
  })
  return { transport: http, stderrTail }
}

/**
 * The transport as the SDK's era negotiation sees it: without the spawn parameters that make the
 * SDK send `server/discover` to a disposable sibling process, so the probe goes to this
 * session's own process (see retryFor in src/mcp/session.ts for a server that exits on it).
 */
function probedInPlace<T extends Transport>(transport: T): T {
  return new Proxy(transport, {
    get(target, prop) {
      if (prop === '_serverParams') return undefined
      const value = Reflect.get(target, prop) as unknown
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
    // On the target itself: the SDK arms its one-shot start() and sets the handlers there.
    set(target, prop, value) {
      return Reflect.set(target, prop, value)
    }
  })
}
