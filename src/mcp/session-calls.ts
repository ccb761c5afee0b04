import { SdkErrorCode, type Client } from '@modelcontextprotocol/client'
import type { InputKind } from '../config/types.js'
import type { InputRound } from '../results/types.js'
import { linkedSignal } from '../util/linked-signal.js'
import { isObject } from '../util/objects.js'
import { contentToText } from './content.js'
import { codeOf, describeError, isPeerError, isTimeout, ServerError } from './errors.js'
import { inputKindOf, inputRequiredResult, inputRoundsOf, NOT_DECLARED_REFUSED, URL_MODE_REFUSED, type AnsweredInput } from './input-rounds.js'
import type { InputLedger, OpenCall } from './server-input.js'
import type { CallInput, CallOutcome, McpSession, RawCallResponse, RawToolCall, SessionHappenings } from './types.js'
import type { WindowFrames } from './frames.js'
import type { WireTap } from './wire-tap.js'
import { rejectionOf } from './frame-screen.js'

/**
 * The calls of one open session: tools/call (raw, and as the model sees it is src/mcp/outcome.ts),
 * resources/read and prompts/get, each in a tap window that records its legs and the server's
 * input during it, and what it all says about the server's input.
 */

/** What the calls of one session share. */
export interface CallContext {
  client: Client
  tap: WireTap
  ledger: InputLedger
  declared: InputKind[]
  maxRounds: number
  /** The session's signal: its end ends every call. */
  sessionSignal: AbortSignal
  /** The factory's requestTimeoutMs: the deadline of a whole call; absent: none. */
  requestTimeoutMs?: number
  stderrTail(): string
}

/** The SDK's per-leg timeout when the factory sets no requestTimeoutMs (and then a call has no deadline in all). */
const DEFAULT_REQUEST_TIMEOUT_MS = 300_000

/** One windowed call: its value or what it threw, its frames and answers, and whether it timed out. */
interface Windowed<T> {
  value?: T
  thrown?: unknown
  frames: WindowFrames
  answers: AnsweredInput[]
  timedOut: boolean
}

/** The SDK request options of one request: its signal, the per-leg timeout, and the call's deadline. */
export function requestOptionsOf(ctx: Pick<CallContext, 'requestTimeoutMs'>, signal: AbortSignal) {
  return { signal, timeout: ctx.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, maxTotalTimeout: ctx.requestTimeoutMs }
}

/** The session members that call the server, and what they saw of its input outside the tool calls. */
export type SessionCalls = Pick<McpSession, 'callToolRaw' | 'readResource' | 'getPrompt' | 'sessionHappenings' | 'sessionRounds'>

export function sessionCalls(ctx: CallContext): SessionCalls {
  const { client, tap, declared, maxRounds } = ctx
  const requestOptions = (signal: AbortSignal) => requestOptionsOf(ctx, signal)

  // The server input of resource reads and prompts (from their windows), for the session's happenings.
  const reads: SessionHappenings['reads'] = []

  const callToolRaw = async (name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<RawToolCall> => {
    const started = performance.now()
    const call = await windowed(ctx, signal, () => client.callTool({ name, arguments: args }, requestOptions(signal)))
    const { thrown, frames } = call
    const latency_ms = Math.round(performance.now() - started)
    // The last leg is the answer (earlier ones were input_required rounds).
    const answer = frames.calls.at(-1)
    const frame = answer?.response
    const refused = rejectionOf(frame)
    // Not the server's error: its answer could not be read (src/mcp/frame-screen.ts).
    if (refused) throw new ServerError(`tool call '${name}' failed: ${refused}`, ctx.stderrTail())
    if (answer && frame) {
      const error = frame.error as { code?: unknown; message?: unknown; data?: unknown } | undefined
      const response: RawCallResponse =
        error !== undefined
          ? { kind: 'error', error: { code: typeof error.code === 'number' ? error.code : NaN, message: String(error.message ?? ''), ...(error.data !== undefined ? { data: error.data } : {}) } }
          : { kind: 'result', result: isObject(frame.result) ? frame.result : {} }
      const { input, aborted } = inputOf(ctx, call, signal)
      if (!aborted) return { name, args, request: answer.request, response, latency_ms, ...(input ? { input } : {}) }
    }
    if (thrown === undefined) throw new ServerError(`tool call '${name}' got an answer the client could not match to its request`, ctx.stderrTail())
    throw new ServerError(`tool call '${name}' failed: ${failedBecause(ctx, call)}`, ctx.stderrTail())
  }

  /** A resources/read or prompts/get: its text, its rounds, and its server input kept among the reads. */
  const readWindowed = async (what: string, label: string, signal: AbortSignal, run: () => Promise<string>): Promise<CallOutcome> => {
    const call = await windowed(ctx, signal, run)
    const { input, aborted } = inputOf(ctx, call, signal)
    if (input) reads.push({ label, input })
    const refused = rejectionOf(call.frames.calls.at(-1)?.response)
    if (refused) throw new ServerError(`${what} failed: ${refused}`, ctx.stderrTail())
    const rounds = input?.rounds.length ? { input_rounds: input.rounds } : {}
    if (aborted) throw new ServerError(`${what} failed: ${failedBecause(ctx, call)}`, ctx.stderrTail())
    if (input?.failure) return { text: input.failure, isError: true, ...rounds }
    if (call.thrown === undefined) return { text: call.value ?? '', isError: false, ...rounds }
    return { ...(await guard(ctx, what, () => Promise.reject(call.thrown))), ...rounds }
  }

  return {
    callToolRaw,
    readResource: async (uri, signal) => {
      // The raw answer rides along for the evals/v1 assertions: `{contents}`, or the JSON-RPC error.
      let result: Record<string, unknown> | undefined
      let refusal: CallOutcome['protocol_error']
      const outcome = await readWindowed(`reading resource '${uri}'`, `resources/read ${uri}`, signal, async () => {
        try {
          const read = await client.readResource({ uri }, { ...requestOptions(signal), cacheMode: 'bypass' })
          result = read as Record<string, unknown>
          return contentToText(read.contents.map((c) => ({ type: 'resource', resource: c })))
        } catch (error) {
          if (isPeerError(error)) {
            const { code, message, data } = error as Error & { code: number; data?: unknown }
            refusal = { code, message, ...(data !== undefined ? { data } : {}) }
          }
          throw error
        }
      })
      if (outcome.isError) return refusal && outcome.text.startsWith('MCP error ') ? { ...outcome, protocol_error: refusal } : outcome
      return result ? { ...outcome, result } : outcome
    },
    getPrompt: (name, args, signal) =>
      readWindowed(`getting prompt '${name}'`, `prompts/get ${name}`, signal, async () => {
        const result = await client.getPrompt({ name, arguments: args }, requestOptions(signal))
        return contentToText(result.messages.map((m) => m.content))
      }),
    // Copies, the server requests' too: a reply that comes later does not change a snapshot.
    sessionHappenings: () => ({
      declared,
      max_rounds: maxRounds,
      misplaced_input_required: tap.misplacedInputRequired(),
      outside_server_requests: tap.outsideServerRequests().map((request) => ({ ...request })),
      reads: [...reads]
    }),
    sessionRounds: () => inputRoundsOf({ calls: [], server_requests: tap.outsideServerRequests() }, ctx.ledger.outsideAnswers, declared)
  }
}

/** A call's outcome, or a JSON-RPC error answered by the server as the model sees it; any other failure a ServerError. */
async function guard(ctx: CallContext, what: string, action: () => Promise<CallOutcome>): Promise<CallOutcome> {
  try {
    return await action()
  } catch (error) {
    if (isPeerError(error)) return { text: `MCP error ${(error as { code: number }).code}: ${(error as Error).message}`, isError: true }
    throw new ServerError(`${what} failed: ${describeError(error)}`, ctx.stderrTail())
  }
}

/**
 * One call inside a tap window, with the answers our handlers gave meanwhile; never throws.
 * `timedOut`: the call ran past its deadline (requestTimeoutMs, the SDK's maxTotalTimeout), or
 * the SDK said it timed out. The handlers' signal ends with the call, at its deadline, or when
 * `signal` or the session ends.
 */
async function windowed<T>(ctx: CallContext, signal: AbortSignal, run: () => Promise<T>): Promise<Windowed<T>> {
  // One controller for the call, let go of by the caller's and the session's signals when it ends.
  const handlers = linkedSignal([signal, ctx.sessionSignal], ctx.requestTimeoutMs)
  const call: OpenCall = { window: ctx.tap.open({ keepServerRounds: ctx.maxRounds + 1 }), answers: [], signal: handlers.signal }
  ctx.ledger.openCall = call
  try {
    const value = await run()
    return { value, frames: call.window.closeFrames(), answers: call.answers, timedOut: false }
  } catch (caught) {
    const thrown = caught ?? new Error('the call failed')
    return { thrown, frames: call.window.closeFrames(), answers: call.answers, timedOut: handlers.timedOut || isTimeout(thrown) }
  } finally {
    if (ctx.ledger.openCall === call) ctx.ledger.openCall = null
    handlers.abort(new Error('the call ended'))
  }
}

/**
 * The server input of one windowed call; undefined when the server asked nothing. A call whose
 * last answer is still input_required failed for want of an answer, unless the run was cancelled
 * or the call timed out meanwhile (`aborted`: not the server's doing, the caller sees a
 * ServerError, as for any call that timed out). A legacy server that asked more than maxRounds
 * times failed the call whatever it answered in the end.
 */
function inputOf(ctx: CallContext, call: Windowed<unknown>, signal: AbortSignal): { input?: CallInput; aborted: boolean } {
  const { declared, maxRounds } = ctx
  const { frames, thrown } = call
  const rounds = inputRoundsOf(frames, call.answers, declared)
  const stuck = inputRequiredResult(frames.calls.at(-1)?.response) !== undefined
  if (!rounds.length && !stuck) return { aborted: false }
  const aborted = stuck && (signal.aborted || ctx.sessionSignal.aborted || call.timedOut)
  const legacyRounds = rounds.filter((round) => round.via === 'server_request').length
  const exceeded = legacyRounds > maxRounds || (frames.server_requests_dropped ?? 0) > 0
  const failure = aborted ? null : exceeded ? tooManyRounds(maxRounds) : stuck ? inputFailure(rounds, thrown, maxRounds) : null
  return { input: { rounds, frames, declared, max_rounds: maxRounds, failure }, aborted }
}

/** Why a call that did not finish failed, for its ServerError: the deadline, when it was that. */
function failedBecause(ctx: CallContext, call: Windowed<unknown>): string {
  const callTimeoutMs = ctx.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
  return call.timedOut && !isTimeout(call.thrown) ? `${SdkErrorCode.RequestTimeout}: no answer within ${callTimeoutMs} ms` : describeError(call.thrown)
}

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
