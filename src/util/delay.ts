/**
 * Wait `ms`, or less if `signal` aborts first: then reject with the signal's reason, so a wait
 * (a fault's delay, a session settling its start-up roots) never outlives the run that asked for
 * it (the run's timeout bounds every fault).
 */
export function waitFor(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason as unknown)
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason as unknown)
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
