import { availableParallelism } from 'node:os'
import { sampleLoad } from '../util/machine-load.js'
import type { Pool } from '../util/pool.js'
import { startsToBegin } from './start-ahead.js'

/** A begun run's way through the start-ahead set: its server is up (or failed), then it has its slot (or never will). */
export interface AheadTicket {
  /** The run's server is up (or could not start): no longer starting. */
  opened(): void
  /** The run took its pool slot (`seated`), or will take none: no longer ahead. */
  left(seated: boolean): void
}

/** How often the machine's load is sampled while runs are scheduled. */
const LOAD_WINDOW_MS = 100
/** How many recent seats the seat rate is taken over. */
const SEAT_HISTORY = 8

/**
 * Begins `count` runs in plan order, each as the start-ahead sizing (start-ahead.ts) lets one more
 * server start: a run's closure is created only then, so a plan of 10,000 runs holds the runs in
 * flight, not 10,000 pending promises. A run begun starts its own server; its ticket says when
 * that is up and when it took its slot. `unbounded()` true (a cancel, a reached budget: every
 * run left ends at once, starting nothing) begins every run left. Resolves when every begun run
 * has settled; a run's `begin` never rejects (the engine records its failure). `poke()`: a slot
 * was given back (the sizing looks again).
 */
export function scheduleRuns(
  count: number,
  options: { pool: Pool; unbounded: () => boolean; cores?: number },
  begin: (index: number, ticket: AheadTicket) => Promise<void>
): { done: Promise<void>; poke(): void } {
  const cores = options.cores ?? availableParallelism()
  const { pool } = options
  let next = 0
  let settled = 0
  let starting = 0
  let ready = 0
  let startMs: number | null = null
  const seats: number[] = []
  let pumping = false
  let again = false
  let finish!: () => void
  const done = new Promise<void>((resolve) => (finish = resolve))
  const load = sampleLoad(LOAD_WINDOW_MS, () => pump())

  const seatsPerSecond = () => (seats.length < 2 ? null : ((seats.length - 1) * 1000) / Math.max(1, seats[seats.length - 1] - seats[0]))

  function pump(): void {
    // A ticket that moves while runs are being begun asks again once this pass is over.
    if (pumping) return void (again = true)
    pumping = true
    do {
      again = false
      const latest = load.latest()
      const n = options.unbounded()
        ? count - next
        : startsToBegin({
            concurrency: pool.concurrency,
            cores,
            remaining: count - next,
            starting,
            ready,
            slotsHeld: pool.active,
            seatsPerSecond: seatsPerSecond(),
            startMs,
            idleCpu: latest?.idleCpu ?? null,
            loopDelayMs: latest?.loopDelayMs ?? null
          })
      for (let i = 0; i < n; i++) launch(next++)
    } while (again)
    pumping = false
    if (settled === count) {
      load.stop()
      finish()
    }
  }

  function launch(index: number): void {
    starting++
    const began = performance.now()
    let where: 'starting' | 'ready' | 'gone' = 'starting'
    const ticket: AheadTicket = {
      opened() {
        if (where !== 'starting') return
        where = 'ready'
        starting--
        ready++
        const took = performance.now() - began
        startMs = startMs === null ? took : 0.7 * startMs + 0.3 * took
        pump()
      },
      left(seated) {
        if (where === 'gone') return
        if (where === 'starting') starting--
        else ready--
        where = 'gone'
        if (seated) {
          seats.push(performance.now())
          if (seats.length > SEAT_HISTORY) seats.shift()
        }
        pump()
      }
    }
    void begin(index, ticket).finally(() => {
      ticket.left(false)
      settled++
      pump()
    })
  }

  if (count === 0) {
    load.stop()
    return { done: Promise.resolve(), poke: () => undefined }
  }
  pump()
  return { done, poke: () => queueMicrotask(() => (settled < count ? pump() : undefined)) }
}
