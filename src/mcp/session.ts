import { Client, ProtocolError, ProtocolErrorCode, SdkErrorCode, StreamableHTTPClientTransport, type JsonSchemaValidator, type jsonSchemaValidator, type DiscoverResult, type PriorDiscovery, type Transport } from '@modelcontextprotocol/client'
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio'
import { DEFAULT_MAX_INPUT_ROUNDS, INPUT_KINDS, type InputKind, type ServerConfig } from '../config/types.js'
import { observeInputs, observeMisplacedInputRequired } from '../conformance/observed-inputs.js'
import { contentToText, mediaOf, type McpMedia } from './content.js'
import { inputKindOf, inputRequiredResult, inputRoundsOf, INPUT_REQUEST_KINDS, MAX_ROUNDS_REFUSED, NOT_DECLARED_REFUSED, URL_MODE_REFUSED, type AnsweredInput } from './input-rounds.js'
import { waitFor } from '../resilience/delay.js'
import { GroupStdioTransport } from './stdio-transport.js'
import { withTraceMeta } from './trace-meta.js'
import { WireTap, type TapWindow, type WindowFrames } from './wire-tap.js'
import { isObject, keepLast } from '../util/objects.js'
import { resolveRunDir, runDirSubdirs, usesRunDir } from '../config/run-dir.js'
import { makeRunDir, runDirsBase } from '../execute/run-dirs.js'
import type { CallAnnotations, InputRound, Observation } from '../results/types.js'

export interface McpTool {
  name: string
  description?: string
  inputSchema: Record<string, unknown>
  outputSchema?: Record<string, unknown>
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean }
  /** `taskSupport: "required"`: the tool only runs as a task, which this client does not start. */
  execution?: { taskSupport?: string }
  /** MCP Apps: the UI resource the tool links, and who may call it; absent when its `_meta` says nothing of a UI. */
  ui?: McpToolUi
}

/**
 * A tool's MCP Apps metadata (`_meta.ui`): `resource_uri` from `resourceUri` (or the deprecated
 * `_meta["ui/resourceUri"]`), null when it links none; `visibility` as listed (`["model", "app"]`,
 * `["app"]`…), null when not given (the spec's default: both).
 */
export interface McpToolUi {
  resource_uri: string | null
  visibility: string[] | null
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
  /** What the server asked the client during this call; absent when it asked nothing. */
  input?: CallInput
}

/** The server input of one call: the rounds, the frames they were read from, and what the client allowed. */
export interface CallInput {
  rounds: InputRound[]
  /** Every leg of the call and every server request, as they went over the wire (for the observed checks). */
  frames: WindowFrames
  /** The capabilities this client declared. */
  declared: InputKind[]
  /** max_input_rounds: the SDK's inputRequired.maxRounds. */
  max_rounds: number
  /**
   * Set when the call could not go on for want of an answer (more rounds than max_rounds, a request
   * for a capability not declared, an answer that failed), or asked more than max_rounds times (a
   * legacy server, whose later requests were refused): the text the model is shown, as an isError
   * outcome. Null otherwise.
   */
  failure: string | null
}
export interface McpResource {
  name: string
  uri: string
  description?: string
  /** Its `mimeType` in resources/list (`text/html;profile=mcp-app` for an MCP Apps UI). */
  mime_type?: string
}
export interface McpPrompt {
  name: string
  description?: string
  arguments?: { name: string; description?: string; required?: boolean }[]
}
export interface CallOutcome {
  text: string
  isError: boolean
  /** What the run layers' wrappers noted on this call (a fault, an attack, its span); absent when none did. */
  annotations?: CallAnnotations
  /** What the server asked the client during this call (MRTR rounds or legacy server requests); absent when nothing. */
  input_rounds?: InputRound[]
  /**
   * The image and audio blocks of a tools/call result, in order (their placeholders are in
   * `text`); absent when none. A wrapper that returns the real answer passes them on; one that
   * replaces the answer's text leaves them out.
   */
  media?: McpMedia[]
}

/** One answer to a server's question: a result, or a JSON-RPC error (a legacy request we do not answer). */
export type InputAnswer =
  | { result: Record<string, unknown>; answered_by: string; problem: string | null }
  | { error: { code: number; message: string }; answered_by: string; problem: string | null }

/**
 * What the client can answer when the server asks (issue 13): the capabilities it declares,
 * and how it answers. One object per run, from src/agent/input-answers.ts.
 */
export interface ClientInputs {
  /** Declared exactly: elicitation (form), sampling, roots. */
  capabilities: { elicitation?: Record<string, never>; sampling?: Record<string, never>; roots?: Record<string, never> }
  /**
   * max_input_rounds: the SDK's inputRequired.maxRounds (more MRTR rounds fail the call); a legacy
   * server's requests past this many rounds are refused, unanswered by `answer`, and fail the call too.
   */
  maxRounds: number
  /**
   * Answers one request, an MRTR input request or a legacy server request alike. Never throws.
   * `signal` ends when the request is cancelled, when its call ends, or at the call's deadline.
   */
  answer(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<InputAnswer>
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
  /**
   * False once the connection is gone (the server exited, the session closed): a session reused
   * across runs (src/mcp/session-reuse.ts) is checked before it is lent again. Absent on test doubles.
   */
  readonly connected?: boolean
  /** The last lines the server wrote to stderr (stdio only). */
  stderrTail(): string
  /**
   * Conformance findings about server input seen outside the tool calls (an input_required answer
   * to a method that may not send one, e.g. a list at open); empty when none.
   */
  sessionFindings(): Observation[]
  /**
   * What the server asked outside any call (a legacy server listing the roots as it starts, as
   * server-filesystem does), at most the last 20 requests.
   */
  sessionRounds(): InputRound[]
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
  /**
   * What the client declares and answers when the server asks (MRTR `input_required`, legacy
   * `elicitation/create`, `sampling/createMessage`, `roots/list`). Absent: nothing is declared.
   */
  inputs?: ClientInputs
  /**
   * This run's `${RUN_DIR}` (stdio args, env, cwd; roots). Absent while the config uses it: the
   * session makes a directory of its own and removes it when it closes (tool tests, `init`).
   */
  runDir?: string
}

/** Raised when the server cannot be started or reached; carries the stderr tail, and what the SDK threw (`cause`). */
export class ServerError extends Error {
  constructor(
    message: string,
    readonly stderrTail: string,
    options?: ErrorOptions
  ) {
    super(message, options)
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
 * Opens sessions against one server, each with the era verdict as the SDK's `prior`, so no open
 * probes and none waits: the conformance probe's verdict when it ran (`options.prior`), else the
 * first verdict an open learned. An open without one negotiates in place, on its own process
 * (`server/discover`, then `initialize` for a legacy server): no throw-away copy of the server
 * starts, and the opens that come before the first verdict negotiate too rather than wait for it.
 * A verdict that does not fit (a legacy server told modern, a modern-only one told legacy, a
 * discover result the SDK refuses) costs that open one more try, negotiating, and what it learns
 * replaces the verdict; a legacy server that exits on any request before `initialize` (why the
 * SDK would probe on a sibling) is opened again as legacy.
 */
export function createSessionFactory(
  config: ServerConfig,
  options: { probeTimeoutMs?: number; requestTimeoutMs?: number; prior?: PriorDiscovery } = {}
): SessionFactory {
  let verdict = options.prior
  const settings = { probeTimeoutMs: options.probeTimeoutMs ?? 5000, requestTimeoutMs: options.requestTimeoutMs }
  return {
    transport: config.kind,
    async open(signal, open = {}) {
      // A server that keeps its state in ${RUN_DIR} gets a directory per session when the caller has none for it.
      const own = usesRunDir(config) && open.runDir === undefined ? await makeRunDir(runDirsBase(), 'session', (dir) => runDirSubdirs(dir, config.kind === 'stdio' ? config.cwd : undefined, config.roots ?? [])) : undefined
      const runDir = open.runDir ?? own?.path
      // Without a directory there is no `${RUN_DIR}` to fill, but an escaped `$${RUN_DIR}` still becomes its literal.
      const resolved = resolveRunDir(config, runDir ?? '')
      // The verdict is the era and the server's discover result only: the client capabilities a
      // later open declares (per request on modern, at initialize on legacy) do not change it.
      const attempt = (prior: PriorDiscovery | undefined) =>
        openSession(resolved, { ...settings, prior, signal, wrapFetch: open.wrapFetch, traceMeta: open.traceMeta, inputs: open.inputs })
      const opening = (async () => {
        const prior = verdict
        try {
          const session = await attempt(prior)
          // A failed open leaves no verdict: the next open negotiates again.
          verdict ??= session.prior
          return session
        } catch (error) {
          const retry = signal.aborted ? null : retryFor(error, prior)
          if (!retry) throw error
          const session = await attempt(retry.prior)
          verdict = session.prior
          return session
        }
      })()
      if (!own) return opening
      const session = await opening.catch(async (error: unknown) => {
        await own.dispose(false)
        throw error
      })
      return { ...session, close: () => session.close().finally(() => own.dispose(false)) }
    }
  }
}

/**
 * The `prior` a conformance era verdict gives the sessions; undefined when it gives none (a
 * modern error code without a discover result). The SDK checks a discover result against its
 * schema when it is used: one it refuses makes that open negotiate (see retryFor).
 */
export function priorOf(verdict: { era: 'modern'; discover: Record<string, unknown> | null } | { era: 'legacy' }): PriorDiscovery | undefined {
  if (verdict.era === 'legacy') return LEGACY_PRIOR
  return verdict.discover ? { kind: 'modern', discover: verdict.discover as DiscoverResult } : undefined
}

const LEGACY_PRIOR: PriorDiscovery = { kind: 'legacy' }

/**
 * What a failed open is tried again with, once; null when the failure is the server's own (it
 * crashed, hung, or was cancelled: a retry would only fail again). With a prior: the SDK refused
 * it, or the server answered the handshake or the listing with a JSON-RPC error (a legacy server
 * asked without initialize, a modern-only one sent initialize): negotiate instead. Without: the
 * connection closed during the in-place `server/discover`, as a legacy server that exits on it
 * does: open as legacy (a server that dies as it starts looks the same, and is started twice, as
 * the SDK's sibling probe started it twice).
 */
function retryFor(error: unknown, prior: PriorDiscovery | undefined): { prior: PriorDiscovery | undefined } | null {
  const cause = error instanceof ServerError ? error.cause : undefined
  if (prior) return isPeerError(cause) || codeOf(cause) === SdkErrorCode.EraNegotiationFailed ? { prior: undefined } : null
  const closedOnProbe = codeOf(cause) === SdkErrorCode.EraNegotiationFailed && cause instanceof Error && cause.message.includes('closed during the server/discover probe')
  return closedOnProbe ? { prior: LEGACY_PRIOR } : null
}

/**
 * The transport as the SDK's era negotiation sees it: without the spawn parameters that make the
 * SDK send `server/discover` to a disposable sibling process, so the probe goes to this
 * session's own process (see retryFor for a server that exits on it).
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

async function openSession(
  config: ServerConfig,
  options: { prior?: PriorDiscovery; probeTimeoutMs: number; requestTimeoutMs?: number; signal: AbortSignal } & OpenOptions
): Promise<McpSession & { prior: PriorDiscovery }> {
  const inputs = options.inputs
  const declared: InputKind[] = INPUT_KINDS.filter((kind) => inputs?.capabilities[kind] !== undefined)
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
  const tap = new WireTap()
  // The call open now (calls on one session are sequential), and what was answered outside any call (the last few).
  let openCall: OpenCall | null = null
  const outsideAnswers: AnsweredInput[] = []
  if (inputs) {
    // The same handlers answer MRTR input requests (the SDK's auto-fulfil) and a legacy server's requests.
    for (const [method, kind] of Object.entries(INPUT_REQUEST_KINDS)) {
      if (!declared.includes(kind)) continue
      const handler = async (request: { id?: unknown; params?: unknown }, ctx: { mcpReq?: { id?: unknown; signal?: AbortSignal } } | undefined) => {
        const params = isObject(request.params) ? request.params : {}
        // The call this request came in, taken now: its answer is filed under that call only,
        // and it stops when that call ends, even when a later call is open by then.
        const call = openCall
        const round = call?.window.serverRound(ctx?.mcpReq?.id ?? request.id)
        if (call && round !== undefined && round > maxRounds) {
          // A legacy server past max_input_rounds: refused, unanswered; only the first such round is recorded.
          const answer = roundsRefusal(maxRounds)
          if (round === maxRounds + 1) call.answers.push({ method, params, answer })
          throw new ProtocolError(answer.error.code, answer.error.message)
        }
        // The request's own cancel, and the call's end, deadline and cancel (or the session's, outside a call).
        const requestSignal = ctx?.mcpReq?.signal
        const callSignal = call?.signal ?? options.signal
        const answer = await inputs.answer(method, params, requestSignal ? AbortSignal.any([requestSignal, callSignal]) : callSignal)
        const entry: AnsweredInput = { method, params, answer }
        if (call) call.answers.push(entry)
        else keepLast(outsideAnswers, entry, OUTSIDE_ANSWERS)
        if ('error' in answer) throw new ProtocolError(answer.error.code, answer.error.message)
        return answer.result
      }
      client.setRequestHandler(method as 'roots/list', handler as never)
    }
  }
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
  const callTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
  const requestOptions = (signal: AbortSignal) => ({ signal, timeout: callTimeoutMs, maxTotalTimeout: options.requestTimeoutMs })

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
    throw new ServerError(`server failed to start: ${describeError(error)}`, stderrTail(), { cause: error })
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
      ...(tool.execution ? { execution: tool.execution as McpTool['execution'] } : {}),
      ...optionalUi(toolUiOf((tool as { _meta?: unknown })._meta))
    }))
    resources = r.resources.map((res) => ({ name: res.name, uri: res.uri, description: res.description, ...(typeof res.mimeType === 'string' ? { mime_type: res.mimeType } : {}) }))
    prompts = p.prompts.map((pr) => ({ name: pr.name, description: pr.description, arguments: pr.arguments }))
  } catch (error) {
    await closeQuietly()
    throw new ServerError(`server failed to list its tools: ${describeError(error)}`, stderrTail(), { cause: error })
  }
  // A server that asked for the roots as it started (server-filesystem) applies our answer a
  // moment after it gets it: the first call, which an instant (replayed) answer can send within
  // milliseconds, waits for that instead of being refused.
  if (declared.includes('roots')) await settleStartupRoots(tap, options.signal)
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

  /**
   * One call inside a tap window, with the answers our handlers gave meanwhile; never throws.
   * `timedOut`: the call ran past its deadline (requestTimeoutMs, the SDK's maxTotalTimeout), or
   * the SDK said it timed out. The handlers' signal ends with the call, at its deadline, or when
   * `signal` or the session ends.
   */
  const windowed = async <T>(signal: AbortSignal, run: () => Promise<T>): Promise<Windowed<T>> => {
    const ended = new AbortController()
    const deadline = options.requestTimeoutMs !== undefined ? AbortSignal.timeout(options.requestTimeoutMs) : undefined
    const ends = [signal, options.signal, ended.signal, ...(deadline ? [deadline] : [])]
    const call: OpenCall = { window: tap.open({ keepServerRounds: maxRounds + 1 }), answers: [], signal: AbortSignal.any(ends) }
    openCall = call
    try {
      const value = await run()
      return { value, frames: call.window.closeFrames(), answers: call.answers, timedOut: false }
    } catch (caught) {
      const thrown = caught ?? new Error('the call failed')
      return { thrown, frames: call.window.closeFrames(), answers: call.answers, timedOut: deadline?.aborted === true || isTimeout(thrown) }
    } finally {
      if (openCall === call) openCall = null
      ended.abort(new Error('the call ended'))
    }
  }

  /**
   * The server input of one windowed call; undefined when the server asked nothing. A call whose
   * last answer is still input_required failed for want of an answer, unless the run was cancelled
   * or the call timed out meanwhile (`aborted`: not the server's doing, the caller sees a
   * ServerError, as for any call that timed out). A legacy server that asked more than maxRounds
   * times failed the call whatever it answered in the end.
   */
  const inputOf = (call: Windowed<unknown>, signal: AbortSignal): { input?: CallInput; aborted: boolean } => {
    const { frames, thrown } = call
    const rounds = inputRoundsOf(frames, call.answers, declared)
    const stuck = inputRequiredResult(frames.calls.at(-1)?.response) !== undefined
    if (!rounds.length && !stuck) return { aborted: false }
    const aborted = stuck && (signal.aborted || options.signal.aborted || call.timedOut)
    const legacyRounds = rounds.filter((round) => round.via === 'server_request').length
    const exceeded = legacyRounds > maxRounds || (frames.server_requests_dropped ?? 0) > 0
    const failure = aborted ? null : exceeded ? tooManyRounds(maxRounds) : stuck ? inputFailure(rounds, thrown, maxRounds) : null
    return { input: { rounds, frames, declared, max_rounds: maxRounds, failure }, aborted }
  }

  /** Why a call that did not finish failed, for its ServerError: the deadline, when it was that. */
  const failedBecause = (call: Windowed<unknown>): string =>
    call.timedOut && !isTimeout(call.thrown) ? `${SdkErrorCode.RequestTimeout}: no answer within ${callTimeoutMs} ms` : describeError(call.thrown)

  // Findings on server input outside the tool calls: resource reads and prompts (from their windows).
  const otherFindings: Observation[] = []
  const noteFindings = (label: string, input: CallInput | undefined) => {
    if (!input) return
    for (const finding of observeInputs(label, input)) {
      if (otherFindings.length < OUTSIDE_FINDINGS && !otherFindings.some((f) => f.check === finding.check && f.message === finding.message)) otherFindings.push(finding)
    }
  }

  const callToolRaw = async (name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<RawToolCall> => {
    const started = performance.now()
    const call = await windowed(signal, () => client.callTool({ name, arguments: args }, requestOptions(signal)))
    const { thrown, frames } = call
    const latency_ms = Math.round(performance.now() - started)
    // The last leg is the answer (earlier ones were input_required rounds).
    const answer = frames.calls.at(-1)
    const frame = answer?.response
    if (answer && frame) {
      const error = frame.error as { code?: unknown; message?: unknown; data?: unknown } | undefined
      const response: RawCallResponse =
        error !== undefined
          ? { kind: 'error', error: { code: typeof error.code === 'number' ? error.code : NaN, message: String(error.message ?? ''), ...(error.data !== undefined ? { data: error.data } : {}) } }
          : { kind: 'result', result: isObject(frame.result) ? frame.result : {} }
      const { input, aborted } = inputOf(call, signal)
      if (!aborted) return { name, args, request: answer.request, response, latency_ms, ...(input ? { input } : {}) }
    }
    if (thrown === undefined) throw new ServerError(`tool call '${name}' got an answer the client could not match to its request`, stderrTail())
    throw new ServerError(`tool call '${name}' failed: ${failedBecause(call)}`, stderrTail())
  }

  /** A resources/read or prompts/get: its text, its rounds, and its input findings noted. */
  const readWindowed = async (what: string, label: string, signal: AbortSignal, run: () => Promise<string>): Promise<CallOutcome> => {
    const call = await windowed(signal, run)
    const { input, aborted } = inputOf(call, signal)
    noteFindings(label, input)
    const rounds = input?.rounds.length ? { input_rounds: input.rounds } : {}
    if (aborted) throw new ServerError(`${what} failed: ${failedBecause(call)}`, stderrTail())
    if (input?.failure) return { text: input.failure, isError: true, ...rounds }
    if (call.thrown === undefined) return { text: call.value ?? '', isError: false, ...rounds }
    return { ...(await guard(what, () => Promise.reject(call.thrown))), ...rounds }
  }

  return {
    era,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    tools,
    resources,
    prompts,
    prior,
    stderrTail,
    sessionFindings: () => {
      const misplaced = tap.misplacedInputRequired().map(observeMisplacedInputRequired)
      const outside = observeInputs('(outside a call)', { rounds: [], frames: { calls: [], server_requests: tap.outsideServerRequests() }, declared, max_rounds: maxRounds, failure: null })
      return dedupe([...misplaced, ...outside, ...otherFindings])
    },
    sessionRounds: () => inputRoundsOf({ calls: [], server_requests: tap.outsideServerRequests() }, outsideAnswers, declared),
    timings: { connect_ms: Math.round(connected - started), list_ms: Math.round(listed - connected) },
    callToolRaw,
    callTool: async (name, args, signal) => outcomeOf(await callToolRaw(name, args, signal)),
    readResource: (uri, signal) =>
      readWindowed(`reading resource '${uri}'`, `resources/read ${uri}`, signal, async () => {
        const result = await client.readResource({ uri }, { ...requestOptions(signal), cacheMode: 'bypass' })
        return contentToText(result.contents.map((c) => ({ type: 'resource', resource: c })))
      }),
    getPrompt: (name, args, signal) =>
      readWindowed(`getting prompt '${name}'`, `prompts/get ${name}`, signal, async () => {
        const result = await client.getPrompt({ name, arguments: args }, requestOptions(signal))
        return contentToText(result.messages.map((m) => m.content))
      }),
    get connected() {
      return client.transport !== undefined
    },
    async close() {
      options.signal.removeEventListener('abort', onAbort)
      await closeQuietly()
    }
  }
}

/** How long a server that asked for the roots at start gets to take our answer in (it checks each directory on disk). */
const ROOTS_SETTLE_MS = 100
/** The longest the first call waits for our answer to a start-up roots/list to be sent. */
const ROOTS_REPLY_WAIT_MS = 1000

/**
 * When the server asked for the roots before the first call: wait until every such request has
 * our reply (they are answered locally, so at once), then ROOTS_SETTLE_MS. A server that did not
 * ask costs nothing.
 */
async function settleStartupRoots(tap: WireTap, signal: AbortSignal): Promise<void> {
  const asked = () => tap.outsideServerRequests().filter((r) => r.request.method === 'roots/list')
  if (asked().length === 0) return
  const until = performance.now() + ROOTS_REPLY_WAIT_MS
  // An abort (a cancel, the run's time limit) ends the wait; the caller sees the signal itself.
  const wait = (ms: number) => waitFor(ms, signal).then(() => true, () => false)
  while (asked().some((r) => r.reply === undefined) && performance.now() < until) if (!(await wait(5))) return
  await wait(ROOTS_SETTLE_MS)
}

/** What the model is shown for a raw answer: a JSON-RPC error as eval-action shows it, a result as its text; the call's input rounds with it. */
export function outcomeOf(call: RawToolCall): CallOutcome {
  const rounds = call.input?.rounds.length ? { input_rounds: call.input.rounds } : {}
  if (call.input?.failure) return { text: call.input.failure, isError: true, ...rounds }
  if (call.response.kind === 'error') return { text: `MCP error ${call.response.error.code}: ${call.response.error.message}`, isError: true, ...rounds }
  const { result } = call.response
  const media = mediaOf(result.content)
  return { text: contentToText(result.content, result.structuredContent), isError: result.isError === true, ...rounds, ...(media.length ? { media } : {}) }
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

/**
 * Why a call whose last answer was still input_required could not go on, as the model is shown
 * it: too many rounds, a request for a capability this client did not declare, an answer that
 * failed, or what the SDK said (a malformed input_required answer).
 */
function inputFailure(rounds: InputRound[], thrown: unknown, maxRounds: number): string {
  const mrtrRounds = rounds.filter((r) => r.via === 'input_required').length
  if (codeOf(thrown) === SdkErrorCode.InputRequiredRoundsExceeded || thrown === undefined || mrtrRounds > maxRounds) return tooManyRounds(maxRounds)
  const exchanges = rounds.at(-1)?.exchanges ?? []
  const refused = exchanges.find((e) => e.answered_by === NOT_DECLARED_REFUSED)
  if (refused) return `Error: the server asked for ${refused.method}, but this client did not declare ${inputKindOf(refused.method) ?? 'it'}`
  if (exchanges.some((e) => e.answered_by === URL_MODE_REFUSED)) return 'Error: the server asked for a url-mode elicitation, but this client declared form mode only'
  const failed = exchanges.find((e) => e.error !== null)
  if (failed?.error) return `Error: the client could not answer the server's ${failed.method}: ${failed.error.message}`
  return `Error: the server's input request could not be answered: ${describeError(thrown)}`
}

/** The isError text of a call whose server asked for input more than max_input_rounds times (MRTR and legacy alike). */
function tooManyRounds(maxRounds: number): string {
  return `Error: the server asked for input more than ${maxRounds} times (max_input_rounds ${maxRounds})`
}

/** The answer to a legacy server request past max_input_rounds: refused with -32603. */
function roundsRefusal(maxRounds: number): InputAnswer & { error: { code: number; message: string } } {
  return {
    error: { code: ProtocolErrorCode.InternalError, message: `no more input for this call: max_input_rounds (${maxRounds}) reached` },
    answered_by: MAX_ROUNDS_REFUSED,
    problem: null
  }
}

/** The call open on a session: its tap window, what our handlers answered during it, and the signal that ends with it. */
interface OpenCall {
  window: TapWindow
  answers: AnsweredInput[]
  signal: AbortSignal
}

/** One windowed call: its value or what it threw, its frames and answers, and whether it timed out. */
interface Windowed<T> {
  value?: T
  thrown?: unknown
  frames: WindowFrames
  answers: AnsweredInput[]
  timedOut: boolean
}

/** The capabilities object a client declares for these kinds: elicitation as form (the bare `{}`). */
function declaredCapabilities(kinds: readonly InputKind[]): ClientInputs['capabilities'] {
  return Object.fromEntries(kinds.map((kind) => [kind, {}]))
}

function dedupe(findings: Observation[]): Observation[] {
  const seen = new Set<string>()
  return findings.filter((f) => {
    const key = `${f.check}\u0000${f.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** The SDK's per-leg timeout when the factory sets no requestTimeoutMs (and then a call has no deadline in all). */
const DEFAULT_REQUEST_TIMEOUT_MS = 300_000

/** How many answers outside any call, and findings outside the tool calls, a session keeps. */
const OUTSIDE_ANSWERS = 20
const OUTSIDE_FINDINGS = 20

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

function codeOf(thrown: unknown): unknown {
  return isObject(thrown) || thrown instanceof Error ? (thrown as { code?: unknown }).code : undefined
}

/** The SDK's own timeout (a leg, or the total budget of the call, ran out). */
function isTimeout(thrown: unknown): boolean {
  return codeOf(thrown) === SdkErrorCode.RequestTimeout
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

