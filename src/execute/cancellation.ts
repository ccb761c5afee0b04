import { setMaxListeners } from 'node:events'
import type { CancelSignal } from '../results/types.js'
import { linkedSignal } from '../util/linked-signal.js'

/** The reason an evaluation's cancel signal carries: which signal, and when it came. */
export class CancelledError extends Error {
  constructor(
    readonly signalName: CancelSignal,
    readonly at: string
  ) {
    super(`cancelled by ${signalName}`)
    this.name = 'CancelledError'
  }
}

/** The exit status of a process ended by a signal, as shells and the Actions runner read it. */
export const CANCEL_EXIT_CODES: Record<CancelSignal, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 }

export function cancellationOf(signal: AbortSignal | undefined): CancelledError | null {
  return signal?.aborted && signal.reason instanceof CancelledError ? signal.reason : null
}

export interface SignalWatch {
  /** Aborted with a CancelledError on the first SIGINT, SIGTERM or SIGHUP. */
  readonly signal: AbortSignal
  /** The first signal, once one came. */
  received(): CancelledError | null
  /** Stop listening (the process then dies on a signal as usual). */
  dispose(): void
}

/**
 * A cancelled or timed-out job gets SIGINT, then SIGTERM 7.5 s later; a closed terminal sends
 * SIGHUP. The first signal aborts the evaluation (`onCancel` runs at once, to end the server
 * process trees); the pipeline then writes everything with what had finished. A second signal means "now": `onForce` runs (kill
 * what is left, synchronously) and the process exits with the first signal's code.
 */
export function watchSignals(handlers: { onCancel?: (reason: CancelledError) => void; onForce?: () => void } = {}): SignalWatch {
  const controller = new AbortController()
  // Every run waiting for a slot or the judge, and every request in flight, listens (and stops
  // listening when done): dozens at once is the design, not a leak, so no MaxListeners warning.
  setMaxListeners(0, controller.signal)
  let first: CancelledError | null = null
  const onSignal = (name: CancelSignal) => {
    if (first) {
      handlers.onForce?.()
      process.exit(CANCEL_EXIT_CODES[first.signalName])
    }
    first = new CancelledError(name, new Date().toISOString())
    controller.abort(first)
    handlers.onCancel?.(first)
  }
  const listeners = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((name) => [name, () => onSignal(name)] as const)
  for (const [name, handler] of listeners) process.on(name, handler)
  return {
    signal: controller.signal,
    received: () => first,
    dispose() {
      for (const [name, handler] of listeners) process.off(name, handler)
    }
  }
}

/** One run's abort: its own time limits, or the job's cancel, whichever comes first. */
export interface RunAbort {
  readonly signal: AbortSignal
  /** Abort with `message` unless done within `ms`; the returned function clears that limit. */
  limit(ms: number, message: string): () => void
  /** The run is over: stop listening to the job's cancel. */
  dispose(): void
}

/**
 * One signal per run (util/linked-signal.ts), which the job's cancel aborts with its own reason
 * through one listener, removed when the run ends: not an AbortSignal.any per phase, which Node
 * keeps alive with its sources (a known leak) for as long as the job's signal lives.
 */
export function runAbort(cancel: AbortSignal | undefined): RunAbort {
  const linked = linkedSignal([cancel])
  return {
    signal: linked.signal,
    limit(ms, message) {
      const timer = setTimeout(() => linked.abort(new Error(message)), ms)
      return () => clearTimeout(timer)
    },
    dispose: linked.release
  }
}
