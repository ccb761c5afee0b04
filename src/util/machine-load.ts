import { cpus } from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'

/** What the machine and this process's event loop did over the last window. */
export interface Load {
  /** The machine's idle share of its CPU (0–1), every core and every process counted. */
  idleCpu: number
  /** The event loop's delay, p99, in ms. */
  loopDelayMs: number
}

export interface LoadSampler {
  /** The last window's figures; null before the first window closed. */
  latest(): Load | null
  stop(): void
}

/**
 * Samples the machine's CPU times (os.cpus(), ~0.1 ms a call) and the event loop's delay every
 * `windowMs`, calling `onWindow` after each, until stopped. The timer does not keep the process up.
 */
export function sampleLoad(windowMs: number, onWindow: (load: Load) => void): LoadSampler {
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  let before = cpuTimes()
  let latest: Load | null = null
  const timer = setInterval(() => {
    const now = cpuTimes()
    const total = now.total - before.total
    latest = { idleCpu: total > 0 ? (now.idle - before.idle) / total : 0, loopDelayMs: delay.percentile(99) / 1e6 }
    before = now
    delay.reset()
    onWindow(latest)
  }, windowMs)
  timer.unref()
  return {
    latest: () => latest,
    stop() {
      clearInterval(timer)
      delay.disable()
    }
  }
}

function cpuTimes(): { idle: number; total: number } {
  let idle = 0
  let total = 0
  for (const { times } of cpus()) {
    idle += times.idle
    total += times.user + times.nice + times.sys + times.idle + times.irq
  }
  return { idle, total }
}
