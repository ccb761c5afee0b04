import type { ServerReuse } from '../config/options.js'
import type { InputRound } from '../results/types.js'
import { ServerError } from './errors.js'
import type { ClientInputs, McpSession, OpenOptions, SessionFactory, SessionHappenings } from './types.js'
import { wrapSession } from './wrap-session.js'

/**
 * `server_reuse: worker`: one server process per pool slot, lent to the runs that slot runs,
 * instead of a fresh one per run (`run`, the default: eval-action's isolation). For servers that
 * keep nothing between sessions, it saves a server start per run.
 *
 * A run's `open()` borrows an idle live session (or opens one, up to `size` at once: with every
 * one lent, it waits for one to come back), and its `close()` gives it back. A session whose call
 * threw (the server died, hung past the run's time limit, or the connection broke) or whose
 * connection is gone is discarded when it comes back, and the next run gets a new one.
 *
 * What cannot be shared gets a fresh process of its own, opened and closed as with `run`:
 * - a run with a `${RUN_DIR}` (a case whose roots use one): its server starts in that directory;
 * - a run with HTTP faults (`wrapFetch`): they sit in the transport (and HTTP is refused anyway).
 * A session is lent only to runs whose client looks the same to the server as the one it was
 * opened for: the same capabilities declared (elicitation, sampling, roots: a legacy server reads
 * them once, at initialize), the same max_input_rounds, the same answer to `roots/list` (a server
 * may read the roots once, as it starts), and tracing on or off alike. Otherwise an idle session
 * is closed to make room, so at most `size` processes run. What differs per run is routed to the
 * run that holds the session: the trace context every request carries, and who answers the
 * server's questions (the run's own elicitation rules and sampling model; between runs, the last
 * run's, whose answers to roots are the same by the rule above).
 *
 * A run sees its own share of the session: its calls, the stderr written since it borrowed it,
 * and what the server asked or was found doing outside any call since then; plus what the
 * server did as it started (asking for the roots, say), which every run would have seen with a
 * process of its own. A borrowed session's `timings` are zero: that run started nothing.
 */
export interface ReusingSessions extends SessionFactory {
  /** Close every session (the lent ones as they come back); later opens get a process of their own. */
  closeAll(): Promise<void>
}

/** Run `run` with the session factory `reuse` asks for: the factory itself, or one lending sessions across runs, all closed when `run` ends. */
export async function withServerReuse<T>(
  sessions: SessionFactory,
  settings: { reuse: ServerReuse; size: number; cancel?: AbortSignal },
  run: (sessions: SessionFactory) => Promise<T>
): Promise<T> {
  if (settings.reuse === 'run') return run(sessions)
  const reusing = reusingSessions(sessions, settings)
  try {
    return await run(reusing)
  } finally {
    await reusing.closeAll()
  }
}

/** A borrowed session has started nothing. */
const BORROWED_TIMINGS = { connect_ms: 0, list_ms: 0 }
/** How much of the stderr tail at borrowing marks where this run's part starts. */
const TAIL_MARK_CHARS = 200
/** What a worker's server did before it started: nothing. */
const NOTHING_YET: SessionHappenings = { declared: [], max_rounds: 0, misplaced_input_required: [], outside_server_requests: [], reads: [] }

interface Worker {
  /** Who may borrow it (see shareKey). */
  key: string
  /** Null while its server starts. */
  session: McpSession | null
  lent: boolean
  /** A call threw: discarded when it comes back. */
  broken: boolean
  /** The current (else the last) borrower's: every request's trace context, and the answers to the server's questions. */
  traceMeta?: () => Record<string, string>
  inputs?: ClientInputs
  /** The current borrower's frame sink (OpenOptions.serverFrames); none between loans. */
  serverFrames?: OpenOptions['serverFrames']
  /** What the server asked, and did about input, as it started: every borrower sees it. */
  atStart: { happenings: SessionHappenings; rounds: InputRound[] }
}

/**
 * Sessions of `inner` lent across runs, at most `size` at once. Waiting for one to come back is
 * waiting for a slot, not the server's start: it ends on `cancel` only (the run's own start
 * timer is not stopped by it), and a session opened after such a wait has only `cancel` to stop
 * its start when the run's timer ran out meanwhile (the SDK's request timeout still bounds it).
 */
export function reusingSessions(inner: SessionFactory, options: { size: number; cancel?: AbortSignal }): ReusingSessions {
  const workers = new Set<Worker>()
  let wake: () => void = () => undefined
  let changed = new Promise<void>((resolve) => (wake = resolve))
  let closing = false
  const notify = () => {
    wake()
    changed = new Promise<void>((resolve) => (wake = resolve))
  }

  const discard = async (worker: Worker) => {
    workers.delete(worker)
    notify()
    await worker.session?.close()
  }
  if (options.cancel?.aborted) closing = true
  else options.cancel?.addEventListener('abort', () => void closeAll(), { once: true })

  async function closeAll(): Promise<void> {
    closing = true
    notify()
    await Promise.all([...workers].filter((w) => !w.lent && w.session).map(discard))
  }

  /** Wait until a session comes back or is discarded; throws when the job is cancelled. */
  const nextChange = async (): Promise<void> => {
    const cancel = options.cancel
    if (!cancel) return changed
    cancel.throwIfAborted()
    let onAbort: () => void = () => undefined
    const aborted = new Promise<never>((_, reject) => cancel.addEventListener('abort', (onAbort = () => reject(cancel.reason)), { once: true }))
    try {
      await Promise.race([changed, aborted])
    } finally {
      cancel.removeEventListener('abort', onAbort)
    }
  }

  const lend = (worker: Worker, open: OpenOptions, started: boolean): McpSession => {
    worker.lent = true
    worker.traceMeta = open.traceMeta
    worker.inputs = open.inputs
    worker.serverFrames = open.serverFrames
    return borrowed(worker, started, (session) => giveBack(worker, session))
  }

  const giveBack = async (worker: Worker, session: McpSession) => {
    worker.lent = false
    worker.serverFrames = undefined
    if (closing || worker.broken || session.connected === false) return discard(worker)
    notify()
  }

  return {
    transport: inner.transport,
    closeAll,
    async open(signal, open = {}) {
      const key = closing ? null : await shareKey(open)
      // Not shareable (or everything is closing): a process of its own, as with `run`.
      if (key === null) return inner.open(signal, open)
      let waited = false
      for (;;) {
        options.cancel?.throwIfAborted()
        if (closing) return inner.open(signal, open)
        // Closing a session frees its place at once; its process is ended meanwhile, not waited for.
        for (const worker of workers) if (!worker.lent && worker.session?.connected === false) void discard(worker)
        const idle = [...workers].find((w) => !w.lent && w.session && w.key === key)
        if (idle) return lend(idle, open, false)
        if (workers.size < options.size) break
        const other = [...workers].find((w) => !w.lent && w.session)
        if (other) {
          void discard(other)
          continue
        }
        await nextChange()
        waited = true
      }
      const worker: Worker = { key, session: null, lent: true, broken: false, atStart: { happenings: NOTHING_YET, rounds: [] } }
      workers.add(worker)
      worker.traceMeta = open.traceMeta
      worker.inputs = open.inputs
      worker.serverFrames = open.serverFrames
      try {
        const startSignal = waited && signal.aborted ? (options.cancel ?? new AbortController().signal) : signal
        const session = await inner.open(startSignal, routed(worker, open))
        worker.session = session
        worker.atStart = { happenings: session.sessionHappenings(), rounds: session.sessionRounds() }
        return lend(worker, open, true)
      } catch (error) {
        workers.delete(worker)
        notify()
        throw error
      }
    }
  }
}

/**
 * Who may borrow a session opened with these options: null when nobody (its own `${RUN_DIR}`,
 * its own HTTP faults); else a key equal for runs whose client the server cannot tell apart.
 */
async function shareKey(open: OpenOptions): Promise<string | null> {
  if (open.runDir !== undefined || open.wrapFetch !== undefined) return null
  const inputs = open.inputs
  const roots = inputs?.capabilities.roots ? await inputs.answer('roots/list', {}, new AbortController().signal) : null
  return JSON.stringify({
    traced: open.traceMeta !== undefined,
    declared: inputs ? Object.keys(inputs.capabilities).sort() : null,
    max_rounds: inputs?.maxRounds ?? null,
    roots: roots && ('result' in roots ? roots.result : roots.error)
  })
}

/** The options a shared session is opened with: trace context, answers and the frame sink of whoever holds it. */
function routed(worker: Worker, open: OpenOptions): OpenOptions {
  const inputs = open.inputs
  return {
    ...(open.traceMeta ? { traceMeta: () => worker.traceMeta?.() ?? {} } : {}),
    // Every session gets a sink: a later borrower may watch its frames though the first did not.
    serverFrames: (message, request) => worker.serverFrames?.(message, request),
    ...(inputs ? { inputs: { capabilities: inputs.capabilities, maxRounds: inputs.maxRounds, answer: (method, params, signal) => (worker.inputs ?? inputs).answer(method, params, signal) } } : {})
  }
}

/**
 * One run's loan of a worker's session: its calls mark the worker broken when they throw, its
 * stderr tail and outside happenings and rounds are its own share (see reusingSessions), frozen
 * when it gives the session back (the engine reads them after closing, while another run may
 * already hold the session). The happenings of a borrower that did not start the server carry
 * the loan (what they were at the server's start and at borrowing): the conformance layer makes
 * the share's findings from them (src/conformance/observe-session.ts).
 */
function borrowed(worker: Worker, started: boolean, giveBack: (session: McpSession) => Promise<void>): McpSession {
  const session = worker.session!
  const before = { tail: session.stderrTail(), happenings: session.sessionHappenings(), rounds: new Set(session.sessionRounds().map(roundKey)) }
  let returned: Promise<void> | undefined
  let frozen: { tail: string; happenings: SessionHappenings; rounds: InputRound[] } | undefined

  // The run that started the server sees all it wrote, as with a process of its own; a borrower, what came after.
  const ownTail = (tail: string) => (started ? tail : tailSince(before.tail, tail))
  const tail = () => frozen?.tail ?? ownTail(session.stderrTail())
  const happenings = (): SessionHappenings =>
    frozen?.happenings ?? (started ? session.sessionHappenings() : { ...session.sessionHappenings(), loan: { at_start: worker.atStart.happenings, at_borrow: before.happenings } })
  const rounds = () => frozen?.rounds ?? (started ? session.sessionRounds() : [...worker.atStart.rounds, ...session.sessionRounds().filter((r) => !before.rounds.has(roundKey(r)))])
  /** A call of this loan: refused once it is over; a throw breaks the worker and carries this loan's stderr. */
  const call =
    <A extends unknown[], R>(what: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (returned) throw new ServerError('the session was given back', tail())
      try {
        return await what(...args)
      } catch (error) {
        worker.broken = true
        throw error instanceof ServerError && !started ? new ServerError(error.message, ownTail(error.stderrTail), { cause: error.cause }) : error
      }
    }

  return wrapSession(session, {
    timings: started ? session.timings : BORROWED_TIMINGS,
    callTool: call((name: string, args: Record<string, unknown>, signal: AbortSignal) => session.callTool(name, args, signal)),
    callToolRaw: call((name: string, args: Record<string, unknown>, signal: AbortSignal) => session.callToolRaw(name, args, signal)),
    readResource: call((uri: string, signal: AbortSignal) => session.readResource(uri, signal)),
    getPrompt: call((name: string, args: Record<string, string>, signal: AbortSignal) => session.getPrompt(name, args, signal)),
    stderrTail: tail,
    sessionHappenings: happenings,
    sessionRounds: rounds,
    close() {
      if (!returned) {
        frozen = { tail: tail(), happenings: happenings(), rounds: rounds() }
        returned = giveBack(session)
      }
      return returned
    }
  })
}

/**
 * The part of a stderr tail written after `before` (an earlier tail of the same process): what
 * follows the end of `before` where it is found again; all of it when that end has scrolled out.
 */
function tailSince(before: string, now: string): string {
  if (before === '') return now
  const mark = before.slice(-TAIL_MARK_CHARS)
  // The last place the mark is found: a server that logs the same lines over and over must not
  // show a run its predecessor's (the price: where the run wrote those same lines, fewer of them).
  const at = now.lastIndexOf(mark)
  return at === -1 ? now : now.slice(at + mark.length).trim()
}

const roundKey = (round: InputRound) => JSON.stringify(round)
