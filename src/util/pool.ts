/**
 * One bounded pool for all work that holds a slot (agent runs and judge calls alike).
 * Urgent tasks (judging a finished run) jump the queue so results complete as early as possible
 * while the slots stay full.
 */
export interface Pool {
  run<T>(task: () => Promise<T>, options?: { urgent?: boolean }): Promise<T>
  readonly concurrency: number
}

export function createPool(concurrency: number): Pool {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`concurrency must be a positive integer, got ${concurrency}`)
  let active = 0
  const urgent: (() => void)[] = []
  const normal: (() => void)[] = []

  const next = () => {
    const start = urgent.shift() ?? normal.shift()
    if (start) start()
  }

  return {
    concurrency,
    run<T>(task: () => Promise<T>, options: { urgent?: boolean } = {}): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          active++
          Promise.resolve()
            .then(task)
            .then(resolve, reject)
            .finally(() => {
              active--
              next()
            })
        }
        if (active < concurrency) start()
        else (options.urgent ? urgent : normal).push(start)
      })
    }
  }
}
