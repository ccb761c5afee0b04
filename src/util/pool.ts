/**
 * A counting semaphore: at most `size` holders at once. Urgent waiters (judging a finished run)
 * are served before normal ones, so results complete early while the slots stay full.
 */
export interface Pool {
  readonly concurrency: number
  /** Slots held now. */
  readonly active: number
  /** Wait for a slot; call the returned function to give it back. */
  acquire(options?: { urgent?: boolean }): Promise<() => void>
  /** Run a task in a slot. */
  run<T>(task: () => Promise<T>, options?: { urgent?: boolean }): Promise<T>
}

/** `onRelease`: called after each slot is given back (whether a waiter took it or not). */
export function createPool(concurrency: number, onRelease?: () => void): Pool {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`concurrency must be a positive integer, got ${concurrency}`)
  let active = 0
  const urgent: (() => void)[] = []
  const normal: (() => void)[] = []

  const release = () => {
    const next = urgent.shift() ?? normal.shift()
    if (next) next()
    else active--
  }

  const acquire = (options: { urgent?: boolean } = {}) =>
    new Promise<() => void>((resolve) => {
      let released = false
      const grant = () =>
        resolve(() => {
          if (released) return
          released = true
          release()
          onRelease?.()
        })
      if (active < concurrency) {
        active++
        grant()
      } else (options.urgent ? urgent : normal).push(grant)
    })

  return {
    concurrency,
    get active() {
      return active
    },
    acquire,
    async run(task, options) {
      const done = await acquire(options)
      try {
        return await task()
      } finally {
        done()
      }
    }
  }
}
