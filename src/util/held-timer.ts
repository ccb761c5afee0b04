/**
 * A timeout whose clock can be held: the time spent in `aside(work)` does not count against it
 * (a tool test's app render has its own timeout, not the attempt's). One `aside` at a time.
 */
export interface HeldTimer {
  aside<T>(work: () => Promise<T>): Promise<T>
  clear(): void
}

export function heldTimer(ms: number, expire: () => void): HeldTimer {
  let left = ms
  let since = performance.now()
  let fired = false
  const fire = () => {
    fired = true
    expire()
  }
  let timer: ReturnType<typeof setTimeout> | null = setTimeout(fire, left)
  let cleared = false
  return {
    async aside(work) {
      if (timer && !fired) {
        clearTimeout(timer)
        timer = null
        left -= performance.now() - since
      }
      try {
        return await work()
      } finally {
        if (!cleared && !fired && timer === null) {
          since = performance.now()
          timer = setTimeout(fire, Math.max(0, left))
        }
      }
    },
    clear() {
      cleared = true
      if (timer) clearTimeout(timer)
      timer = null
    }
  }
}
