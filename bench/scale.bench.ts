// The harness at scale, against the physical floor (bench/floor.ts): 1,000 runs with a cheap
// server (bench/minimal_server.py, ~15 ms of CPU a start), and the harness's peak RSS at 1,000
// and 10,000 runs (a shorter LLM delay at 10,000 keeps it to a few minutes). Cases × 10 models ×
// 1 prompt, `conformance: auto`, the bundled CLI as a process. Targets: wall ≤ 1.15 × the floor
// at 1,000 runs; peak RSS under 300 MB at 1,000 and under 500 MB at 10,000. The journal is
// followed as it grows (bench/journal-watch.ts): the RSS with half and all of the runs journaled,
// and the end phase (building the document from the journal and writing every file).
//
//   npm run bench:scale                                  (1000:16:200 and 10000:16:20)
//   npm run bench:scale -- --level 1000:16:200           (runs:concurrency:LLM delay ms)
//   npm run bench:scale -- --level 1000:16:50 --heap-snapshot  (and what holds the runs in memory)
//   npm run bench:scale -- --level 1000:16:50 --heap-prof      (and where the live memory was allocated)
//   npm run bench:scale -- --level 1000:16:50 --cpu-prof       (and where the main thread's time went)
//   npm run bench:scale -- --level 10000:16:20 --trace-gc      (and the live heap after each full collection)
// A snapshot stops the harness's main thread for seconds: its wall time is not the harness's then,
// and a stall over ~5 s can leave a run waiting forever (the spawner helper's token wait); the
// journal watch then stops the harness after 2 minutes without progress.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { bundleOf } from './bundle.js'
import { conformanceAlone, floorCells, mainThreadReport, measureCli, METHOD, physicalFloor, tableHead, type Evaluation } from './floor.js'
import { fullCollections, type FullGc } from './gc-trace.js'
import { liveAllocations } from './heap-profile.js'
import { runsInMemory } from './heap-snapshot.js'
import { watchJournal, type JournalTimeline, type Moment } from './journal-watch.js'
import { here, machineLine, round } from './processes.js'

const { values } = parseArgs({
  options: {
    level: { type: 'string', multiple: true },
    cli: { type: 'string' },
    'heap-prof': { type: 'boolean', default: false },
    'heap-snapshot': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    'trace-gc': { type: 'boolean', default: false }
  }
})
const LEVELS = (values.level ?? ['1000:16:200', '10000:16:20']).map((spec) => {
  const [runs, concurrency, delay] = spec.split(':').map(Number)
  if (!(runs > 0 && runs % 10 === 0 && concurrency > 0 && delay >= 0)) throw new Error(`--level ${spec}: expected runs:concurrency:delay, runs a multiple of 10`)
  return { runs, concurrency, delay }
})
const RATIO_TARGET = (runs: number) => (runs === 1000 ? '≤ 1.15' : '—')
const RSS_TARGET_MB = (runs: number) => (runs <= 1000 ? 300 : 500)
// The pyenv shim costs ~200 ms per start; the system interpreter a few ms.
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'

const bundle = await bundleOf('cli', values.cli)
const evaluationOf = (runs: number, delayMs: number): Evaluation => {
  const cases = Array.from({ length: runs / 10 }, (_, i) => `  - {id: c${i}, prompt: "question ${i}", rubric: "answers"}\n`).join('')
  const models = Array.from({ length: 10 }, (_, i) => `m/${i}`).join(', ')
  return {
    cli: bundle.entry,
    suite: `models: [${models}]\nsystem_prompts: {d: "be brief"}\ncases:\n${cases}`,
    server: { command: PYTHON, args: ['-S', here('minimal_server.py')] },
    delayMs,
    tool: { name: 'lookup', args: { key: 'k' } },
    flags: [],
    nodeArgs: [
      ...(values['heap-prof'] ? ['--heap-prof'] : []),
      ...(values['heap-snapshot'] ? ['--heapsnapshot-signal=SIGUSR2'] : []),
      ...(values['cpu-prof'] ? ['--cpu-prof'] : []),
      ...(values['trace-gc'] ? ['--trace-gc'] : [])
    ],
    whileRunning: async (child, cwd) => {
      timelines.set(cwd, await watchJournal(child, join(cwd, 'eval-runs.jsonl'), runs, values['heap-snapshot'] ? 0.9 : undefined))
    }
  }
}
const timelines = new Map<string, JournalTimeline>()

const alone = await conformanceAlone(evaluationOf(10, 0))
process.stdout.write(
  `scale benchmark: a fresh minimal Python server per run (stdio), conformance auto, the bundled CLI (${bundle.entry}), ${machineLine()}\n` +
    `conformance alone: ${round(alone.ms / 1000, 2)} s, ${alone.spawns} server processes\n\n` +
    tableHead(['runs', 'concurrency', 'LLM delay ms'], ['peak RSS target MB', 'RSS at 50 % / 100 % of the runs MB', 'end phase s'])
)
const profiles: string[] = []
for (const { runs, concurrency, delay } of LEVELS) {
  const m = await measureCli({ ...evaluationOf(runs, delay), flags: ['--concurrency', String(concurrency)] })
  const floor = physicalFloor(m, runs, concurrency, delay, alone)
  // After the last run is journaled: the document built from the journal, written, and the files rendered from it.
  const timeline = timelines.get(m.cwd)
  // A harness that ends within one look of its last run leaves no moment for it.
  const endPhase = timeline?.all ? round((m.harness.exited_ms - timeline.all.at_ms) / 1000, 2) : '—'
  const rssAt = (moment: Moment | null | undefined) => (moment ? round(moment.rss_mb, 0) : '—')
  const rss = `${rssAt(timeline?.half)} / ${rssAt(timeline?.all)}`
  process.stdout.write(`${[runs, concurrency, delay, ...floorCells(m, floor, runs, RATIO_TARGET(runs)), `< ${RSS_TARGET_MB(runs)}`, rss, endPhase].join(' | ')}\n`)
  const profile = readdirSync(m.cwd).find((f) => f.endsWith('.heapprofile'))
  if (profile) profiles.push(`\n${runs} runs: live memory as the harness exited (sampled), by where it was allocated\n${liveAllocations(JSON.parse(readFileSync(join(m.cwd, profile), 'utf8')), bundle, 25)}`)
  profiles.push(mainThreadReport(m.cwd, bundle, `${runs} runs`))
  const collections = values['trace-gc'] ? fullCollections(m.harness.stdoutPath) : []
  if (collections.length > 0) {
    // The harness's clock for each collection: its heap starts about when the process does.
    const at = (c: FullGc) => m.harness.harness[0].started_ms + c.at_ms
    const beforeEnd = collections.filter((c) => !timeline?.all || at(c) <= timeline.all.at_ms)
    const last = beforeEnd.at(-1)
    const max = (xs: number[]) => Math.max(...xs)
    profiles.push(
      `\n${runs} runs: ${collections.length} full collections; live heap after them at most ${max(collections.map((c) => c.live_mb))} MB (committed at most ${max(collections.map((c) => c.committed_mb))} MB)` +
        (last ? `; after the last one before every run was journaled (${round((at(last) - m.harness.spawned_ms) / 1000, 1)} s in): ${last.live_mb} MB live, ${last.committed_mb} MB committed` : '') +
        '\n'
    )
  }
  const snapshot = readdirSync(m.cwd).find((f) => f.endsWith('.heapsnapshot'))
  if (snapshot) {
    const held = runsInMemory(join(m.cwd, snapshot))
    profiles.push(
      `\n${runs} runs: the heap with 90 % of them journaled: ${held.heap_mb} MB, ${held.runs} run records, ${held.retained_mb} MB kept alive by them alone\n\n` +
        `held by (outermost named holder → the run's own) | run records\n--- | ---:\n${held.holders.map(([h, n]) => `${h.replaceAll('|', '\\|')} | ${n}`).join('\n')}\n` +
        `\nthe heap by kind (largest first) | objects | self MB\n--- | ---: | ---:\n${held.kinds.map(([k, n, mb]) => `${k.replaceAll('|', '\\|')} | ${n} | ${mb}`).join('\n')}\n`
    )
  }
  rmSync(m.cwd, { recursive: true, force: true })
}
process.stdout.write(`\n${METHOD}${profiles.join('')}`)
