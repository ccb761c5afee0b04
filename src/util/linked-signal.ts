/** A signal that aborts when the first of its sources does, until it is released. */
export interface LinkedSignal {
  readonly signal: AbortSignal
  /** Abort it now, with `reason` (its sources are let go). */
  abort(reason: unknown): void
  /** Whether it was the deadline that aborted it (it fired, whatever came after). */
  readonly timedOut: boolean
  /** Let go of the sources (and the deadline's timer): nothing refers to this signal from them any more. */
  release(): void
}

/**
 * One controller aborted by the first of `sources` to abort (with its reason), or at `deadlineMs`
 * (with a TimeoutError DOMException, as AbortSignal.timeout's), linked by one listener on each
 * source, removed on release. Not AbortSignal.any: in Node a signal composed with it stays among
 * its sources' dependants until a collection finds it unreferenced, so a long-lived source (the
 * job's cancel, a session's signal) gathers one per call; these are let go when the call ends.
 */
export function linkedSignal(sources: readonly (AbortSignal | undefined)[], deadlineMs?: number): LinkedSignal {
  const controller = new AbortController()
  const linked = sources.filter((s): s is AbortSignal => s !== undefined)
  let timer: ReturnType<typeof setTimeout> | undefined
  let timedOut = false
  const release = () => {
    for (const source of linked) source.removeEventListener('abort', onAbort)
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
  }
  const abort = (reason: unknown) => {
    release()
    if (!controller.signal.aborted) controller.abort(reason)
  }
  const onAbort = (event: Event) => abort((event.target as AbortSignal).reason)
  const already = linked.find((s) => s.aborted)
  if (already) controller.abort(already.reason)
  else {
    for (const source of linked) source.addEventListener('abort', onAbort, { once: true })
    if (deadlineMs !== undefined) {
      timer = setTimeout(() => {
        timedOut = true
        abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))
      }, deadlineMs)
      // As AbortSignal.timeout's: a deadline alone never keeps the process alive.
      timer.unref?.()
    }
  }
  return {
    signal: controller.signal,
    abort,
    release,
    get timedOut() {
      return timedOut
    }
  }
}
