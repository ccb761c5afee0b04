/**
 * How many of the next runs start their servers now, before a slot is free for them.
 *
 * Every run still gets a fresh server of its own, started for it (its config, `${RUN_DIR}`,
 * roots, inputs and trace context decide what starts): what is decided here is only how early.
 * A server start is CPU work (a few hundred ms for a Node.js server) and a run in its slot mostly
 * waits for the model, so starts are best made while the slots wait, and just early enough that
 * a slot that frees finds a server ready. Two bounds, from what the machine is doing:
 *
 * - how many servers may be starting or waiting at once: what the slots will take while one more
 *   starts (the rate runs took their slots lately × how long a start takes, Little's law), at
 *   least the free slots, at most one per slot, and never more than the runs left. A server
 *   waiting for a slot costs little, but a cancel or a budget stop ends it unused;
 * - how many may be starting in parallel: one per core and one more, more while the CPU still had
 *   a spare core over the last window, one per core while the event loop is late (starting many
 *   more servers than cores at once makes each take longer: the first run waits for all of them).
 *
 * Pure: the engine samples the inputs (start-ahead state in run-matrix.ts, util/machine-load.ts).
 */
export interface AheadView {
  concurrency: number
  cores: number
  /** Runs whose servers have not been started yet. */
  remaining: number
  /** Runs whose server is starting (spawn to listed). */
  starting: number
  /** Runs whose server is up, waiting for a slot. */
  ready: number
  /** Slots held now (agent loops and judge calls). */
  slotsHeld: number
  /** Runs that took a slot per second, lately; null before any did. */
  seatsPerSecond: number | null
  /** How long a server start took lately (ms, wall); null before the first. */
  startMs: number | null
  /** The machine's idle share of its CPU over the last window (0–1); null before the first window. */
  idleCpu: number | null
  /** The event loop's delay over the last window (ms, p99); null before the first window. */
  loopDelayMs: number | null
}

/** An event loop this late is itself short of CPU: no more starts beside the ones under way. */
export const LATE_LOOP_MS = 50

/** How many more runs start their servers now (0 when none should). */
export function startsToBegin(view: AheadView): number {
  if (view.remaining <= 0) return 0
  const inFlight = view.starting + view.ready
  const free = Math.max(0, view.concurrency - view.slotsHeld)
  // What the slots will take while one more server starts.
  const needed = view.seatsPerSecond !== null && view.startMs !== null ? Math.ceil((view.seatsPerSecond * view.startMs) / 1000) : view.concurrency
  const wanted = Math.min(view.concurrency, view.remaining + inFlight, Math.max(free, needed, 1))
  const parallel = Math.min(startingLimit(view), 2 * view.cores)
  return Math.max(0, Math.min(wanted - inFlight, parallel - view.starting, view.remaining))
}

/**
 * How many starts may run in parallel, by what the CPU and the event loop did over the last window:
 * one per core and one more (a start is one process busy on one core; the one more is spawning
 * while another finishes, so no core idles in between), one more than now while the CPU still had
 * a spare core (a start that waits on its disk or network leaves one), and one per core at most
 * while the event loop was late (the harness itself is short of CPU: its own requests wait).
 */
export function startingLimit(view: Pick<AheadView, 'cores' | 'starting' | 'idleCpu' | 'loopDelayMs'>): number {
  if (view.loopDelayMs !== null && view.loopDelayMs >= LATE_LOOP_MS) return view.cores
  const spareCore = view.idleCpu !== null && view.idleCpu * view.cores >= 0.5
  return Math.max(view.cores + 1, spareCore ? view.starting + 1 : 0)
}
