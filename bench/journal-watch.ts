// A harness's progress seen from outside while it runs: its run journal followed as it grows
// (one line a finished run) and its RSS (/proc/<pid>/status) read every 100 ms. It tells the RSS
// with half the runs journaled and with all of them, and when the last one was: what comes after
// (building the document from the journal, writing it and the files rendered from it) is the end
// phase, in time and in memory. It can also ask for a heap snapshot at a share of the runs. A
// harness that journals nothing new for STALLED_MS while runs are still missing is stopped (two
// SIGTERMs: the second exits at once), so a run that never ends fails the benchmark instead of
// hanging it.
import type { ChildProcess } from 'node:child_process'
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs'
import { nowMs } from './processes.js'

/** No run finished for this long while some are missing: the harness is stuck. */
const STALLED_MS = 120_000

export interface Moment {
  /** The bench's clock (processes.ts nowMs). */
  at_ms: number
  rss_mb: number
}

export interface JournalTimeline {
  half: Moment | null
  all: Moment | null
}

/** Follow `journal` of a harness that plans `planned` runs until it exits; SIGUSR2 at `snapshotAt` (a share) when given. */
export async function watchJournal(child: ChildProcess, journal: string, planned: number, snapshotAt?: number): Promise<JournalTimeline> {
  const timeline: JournalTimeline = { half: null, all: null }
  let offset = 0
  let partial = ''
  let runs = 0
  let snapshotAsked = false
  let lastProgress = { runs: 0, at: Date.now() }
  const readNew = () => {
    if (!existsSync(journal)) return
    const fd = openSync(journal, 'r')
    try {
      const chunk = Buffer.alloc(1 << 20)
      for (let n; (n = readSync(fd, chunk, 0, chunk.length, offset)) > 0; offset += n) {
        const lines = (partial + chunk.subarray(0, n).toString('utf8')).split('\n')
        partial = lines.pop() ?? ''
        runs += lines.filter((l) => l.startsWith('{"type":"run"')).length
      }
    } finally {
      closeSync(fd)
    }
  }
  while (child.exitCode === null && child.signalCode === null) {
    readNew()
    const moment = (): Moment => ({ at_ms: nowMs(), rss_mb: rssMb(child.pid!) })
    if (!timeline.half && runs >= planned / 2) timeline.half = moment()
    if (!timeline.all && runs >= planned) timeline.all = moment()
    if (snapshotAt !== undefined && !snapshotAsked && runs >= planned * snapshotAt) {
      snapshotAsked = true
      child.kill('SIGUSR2')
    }
    if (runs !== lastProgress.runs) lastProgress = { runs, at: Date.now() }
    else if (runs < planned && Date.now() - lastProgress.at > STALLED_MS) {
      process.stderr.write(`the harness journaled no run for ${STALLED_MS / 1000} s with ${planned - runs} of ${planned} missing (${journal}): stopping it\n`)
      child.kill('SIGTERM')
      setTimeout(() => child.kill('SIGTERM'), 1000).unref()
      lastProgress = { runs, at: Infinity }
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return timeline
}

/** The process's resident set now, in MB (0 once it is gone). */
function rssMb(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'))
    return line ? Number(line.split(/\s+/)[1]) / 1024 : 0
  } catch {
    return 0
  }
}
