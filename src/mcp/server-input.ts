import { ProtocolError, ProtocolErrorCode, type Client } from '@modelcontextprotocol/client'
import { INPUT_KINDS, type InputKind } from '../config/types.js'
import { isObject, keepLast } from '../util/objects.js'
import { waitFor } from '../util/delay.js'
import { linkedSignal } from '../util/linked-signal.js'
import { INPUT_REQUEST_KINDS, MAX_ROUNDS_REFUSED, type AnsweredInput } from './input-rounds.js'
import type { ClientInputs, InputAnswer } from './types.js'
import type { TapWindow, WireTap } from './wire-tap.js'

/**
 * Answering what the server asks: the capabilities the client declares, the handlers that answer
 * MRTR input requests and a legacy server's requests alike, and the wait for a start-up roots/list.
 */

/** The call open on a session: its tap window, what our handlers answered during it, and the signal that ends with it. */
export interface OpenCall {
  window: TapWindow
  answers: AnsweredInput[]
  signal: AbortSignal
}

/** The call open now (calls on one session are sequential), and what was answered outside any call (the last few). */
export interface InputLedger {
  openCall: OpenCall | null
  outsideAnswers: AnsweredInput[]
}

/** How many answers outside any call a session keeps. */
const OUTSIDE_ANSWERS = 20

/** The kinds of input these inputs declare, in INPUT_KINDS order; none without inputs. */
export function declaredKinds(inputs: ClientInputs | undefined): InputKind[] {
  return INPUT_KINDS.filter((kind) => inputs?.capabilities[kind] !== undefined)
}

/** The capabilities object a client declares for these kinds: elicitation as form (the bare `{}`). */
export function declaredCapabilities(kinds: readonly InputKind[]): ClientInputs['capabilities'] {
  return Object.fromEntries(kinds.map((kind) => [kind, {}]))
}

/**
 * Sets the client's handlers for the declared kinds: the same handlers answer MRTR input
 * requests (the SDK's auto-fulfil) and a legacy server's requests. Each answer is filed in
 * `ledger`: under the call it came in, else among the answers outside any call.
 * `sessionSignal` stops an answer outside any call.
 */
export function answerServerInput(client: Client, inputs: ClientInputs, settings: { declared: readonly InputKind[]; maxRounds: number; ledger: InputLedger; sessionSignal: AbortSignal }): void {
  const { declared, maxRounds, ledger } = settings
  for (const [method, kind] of Object.entries(INPUT_REQUEST_KINDS)) {
    if (!declared.includes(kind)) continue
    const handler = async (request: { id?: unknown; params?: unknown }, ctx: { mcpReq?: { id?: unknown; signal?: AbortSignal } } | undefined) => {
      const params = isObject(request.params) ? request.params : {}
      // The call this request came in, taken now: its answer is filed under that call only,
      // and it stops when that call ends, even when a later call is open by then.
      const call = ledger.openCall
      const round = call?.window.serverRound(ctx?.mcpReq?.id ?? request.id)
      if (call && round !== undefined && round > maxRounds) {
        // A legacy server past max_input_rounds: refused, unanswered; only the first such round is recorded.
        const answer = roundsRefusal(maxRounds)
        if (round === maxRounds + 1) call.answers.push({ method, params, answer })
        throw new ProtocolError(answer.error.code, answer.error.message)
      }
      // The request's own cancel, and the call's end, deadline and cancel (or the session's, outside a call).
      const requestSignal = ctx?.mcpReq?.signal
      const callSignal = call?.signal ?? settings.sessionSignal
      // Linked for this answer only, and let go of when it is given (not AbortSignal.any: util/linked-signal.ts).
      const answering = requestSignal ? linkedSignal([requestSignal, callSignal]) : null
      let answer: InputAnswer
      try {
        answer = await inputs.answer(method, params, answering?.signal ?? callSignal)
      } finally {
        answering?.release()
      }
      const entry: AnsweredInput = { method, params, answer }
      if (call) call.answers.push(entry)
      else keepLast(ledger.outsideAnswers, entry, OUTSIDE_ANSWERS)
      if ('error' in answer) throw new ProtocolError(answer.error.code, answer.error.message)
      return answer.result
    }
    client.setRequestHandler(method as 'roots/list', handler as never)
  }
}

/** The answer to a legacy server request past max_input_rounds: refused with -32603. */
function roundsRefusal(maxRounds: number): InputAnswer & { error: { code: number; message: string } } {
  return {
    error: { code: ProtocolErrorCode.InternalError, message: `no more input for this call: max_input_rounds (${maxRounds}) reached` },
    answered_by: MAX_ROUNDS_REFUSED,
    problem: null
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
export async function settleStartupRoots(tap: WireTap, signal: AbortSignal): Promise<void> {
  const asked = () => tap.outsideServerRequests().filter((r) => r.request.method === 'roots/list')
  if (asked().length === 0) return
  const until = performance.now() + ROOTS_REPLY_WAIT_MS
  // An abort (a cancel, the run's time limit) ends the wait; the caller sees the signal itself.
  const wait = (ms: number) => waitFor(ms, signal).then(() => true, () => false)
  while (asked().some((r) => r.reply === undefined) && performance.now() < until) if (!(await wait(5))) return
  await wait(ROOTS_SETTLE_MS)
}
