import { runKey, specKey, type RunSpec } from '../plan/expand.js'
import type { RunResult } from '../results/types.js'
import { usd } from '../util/words.js'
import { judgeSideUsage } from '../aggregate/summarize.js'

/** Where the lines go: a stream (process.stdout), or anything with `write` in a test. */
export interface Output {
  write(text: string): unknown
  /** The terminal's width, when it is one. */
  columns?: number
}

/** Back to the start of the line, and erase it. */
export const CLEAR_LINE = '\r\x1b[2K'

export interface LiveProgressOptions {
  /** Keep a status line at the bottom, rewritten in place; without it, plain lines only and no escape codes. */
  isTTY: boolean
  /** Runs planned. */
  total: number
  /** Milliseconds, for the elapsed time (performance.now by default). */
  now?: () => number
  /** Redraw the status line this often while it is shown, for the clock (0: on events only). */
  tickMs?: number
  /** The spend is a stand-in model's made-up figure (`--demo`): the line says so. */
  simulatedCost?: boolean
}

/**
 * The CLI's progress: one line per finished run, as always; on a terminal (outside CI) also one
 * status line at the bottom — "12/40 done · 4 in flight · 2 failed · 1m05s · $0.0123" — that
 * every event rewrites in place, with the run lines printed above it.
 */
export class LiveProgress {
  private readonly now: () => number
  private readonly startedAt: number
  private readonly inFlight = new Set<string>()
  private done = 0
  private failed = 0
  /** Runs never started: the spend reached max_cost_usd. Not failures of the server. */
  private skipped = 0
  private costUsd: number | null = null
  /** Whether the status line is on the screen now. */
  private drawn = false
  private live: boolean
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly out: Output,
    private readonly options: LiveProgressOptions
  ) {
    this.now = options.now ?? (() => performance.now())
    this.startedAt = this.now()
    this.live = options.isTTY && options.total > 0
    if (this.live) {
      this.draw()
      const tick = options.tickMs ?? 1000
      if (tick > 0) {
        this.timer = setInterval(() => this.draw(), tick)
        this.timer.unref()
      }
    }
  }

  /** Whether a status line should be kept: a terminal, not CI, not a dumb terminal. */
  static wanted(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
    return stream.isTTY === true && !env.CI && env.TERM !== 'dumb'
  }

  /** A line printed above the status line (to `to`, stderr for instance, when not to this output). */
  line(text: string, to: Output = this.out): void {
    if (!this.live) {
      to.write(`${text}\n`)
      return
    }
    if (to === this.out) {
      this.out.write(`${CLEAR_LINE}${text}\n${this.status()}`)
      this.drawn = true
      return
    }
    this.erase()
    to.write(`${text}\n`)
    this.draw()
  }

  /** A run got its server and its slot. */
  started(spec: RunSpec): void {
    this.inFlight.add(specKey(spec))
    if (this.live) this.draw()
  }

  /** A run finished; `text` is its progress line. */
  finished(run: RunResult, text: string): void {
    this.inFlight.delete(runKey(run))
    this.done++
    if (run.status === 'failed' || run.status === 'error') this.failed++
    if (run.status === 'skipped') this.skipped++
    for (const usage of [run.usage, ...judgeSideUsage(run, '').map((side) => side.usage)]) {
      if (usage?.cost_usd !== undefined) this.costUsd = (this.costUsd ?? 0) + usage.cost_usd
    }
    this.line(text)
  }

  /** Remove the status line for good (the evaluation ended, or was cancelled); later lines are plain. */
  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    this.erase()
    this.live = false
  }

  /** "12/40 done · 4 in flight · 2 failed · 3 skipped (budget) · 1m05s · $0.0123"; skipped runs once there are some, the spend once a run reported a cost. */
  status(): string {
    const parts = [`${this.done}/${this.options.total} done`, `${this.inFlight.size} in flight`, `${this.failed} failed`, ...(this.skipped > 0 ? [`${this.skipped} skipped (budget)`] : []), formatElapsed(this.now() - this.startedAt)]
    if (this.costUsd !== null) parts.push(this.options.simulatedCost ? `${usd(this.costUsd)} simulated` : usd(this.costUsd))
    const text = parts.join(' · ')
    const width = this.out.columns
    // A status line that wraps cannot be erased in place.
    return width && text.length >= width ? text.slice(0, Math.max(1, width - 1)) : text
  }

  private draw(): void {
    if (!this.live) return
    this.out.write(`${CLEAR_LINE}${this.status()}`)
    this.drawn = true
  }

  private erase(): void {
    if (!this.drawn) return
    this.out.write(CLEAR_LINE)
    this.drawn = false
  }
}

/** "42s", "1m05s", "2h03m07s". */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  const pad = (n: number) => String(n).padStart(2, '0')
  if (h > 0) return `${h}h${pad(m)}m${pad(s)}s`
  if (m > 0) return `${m}m${pad(s)}s`
  return `${s}s`
}
