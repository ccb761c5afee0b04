// What the floor benchmarks share: one evaluation through the bundled CLI as a process, with the
// scripted model in its own process, and the physical floor of what it did.
//
// floor = max(LLM time / concurrency, the longest serial chain, CPU the servers need / cores):
// - LLM time: every request the model served × its fixed delay (what no harness can remove);
// - the chain: one run's calls in sequence once its server is up (a start is CPU-bound: the mean
//   CPU of one server process), or conformance alone (measured in a run of its own), which need
//   not precede the runs: they use other processes;
// - the servers' CPU as each reported it (bench/processes.ts), less any copy beyond one per run
//   and those conformance starts, over os.availableParallelism() cores.
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ResultsDocument } from '../src/results/types.js'
import type { Bundle } from './bundle.js'
import { mainThreadOf, type CpuProfile } from './cpu-profile.js'
import { API_KEY, cpuOf, round, runHarness, serverCommand, startLlmProcess, tail, type HarnessProcess } from './processes.js'

export const CORES = availableParallelism()

/** One evaluation as a user runs it: the suite file, the server, the model's delay and the tool it calls. */
export interface Evaluation {
  cli: string
  suite: string
  server: { command: string; args: string[] }
  delayMs: number
  tool: { name: string; args: unknown }
  /** More CLI flags (--concurrency, --conformance). */
  flags: string[]
  /** Node flags for the harness (--heap-prof). */
  nodeArgs?: string[]
  /** Given the harness process as it starts, with its directory. */
  whileRunning?: (child: ChildProcess, cwd: string) => Promise<void>
}

export interface Measured {
  cwd: string
  harness: HarnessProcess
  doc: ResultsDocument
  requests: number
  llm_cpu_ms: number
}

/** Run the evaluation in a directory of its own and read back what it wrote (the caller removes the directory; a failure keeps it and names it). */
export async function measureCli(evaluation: Evaluation): Promise<Measured> {
  const cwd = mkdtempSync(join(tmpdir(), 'bench-floor-'))
  const probeFile = join(cwd, 'probe.jsonl')
  writeFileSync(join(cwd, 'evals.yaml'), evaluation.suite)
  const llm = await startLlmProcess(evaluation.delayMs, evaluation.tool)
  const server = JSON.stringify(serverCommand(evaluation.server, probeFile))
  const args = ['--server-config', server, '--eval-cases', 'evals.yaml', '--base-url', llm.url, '--api-key', API_KEY, ...evaluation.flags]
  const whileRunning = evaluation.whileRunning
  const harness = await runHarness(evaluation.cli, args, { cwd, probeFile, nodeArgs: evaluation.nodeArgs, whileRunning: whileRunning && ((child) => whileRunning(child, cwd)) })
  const account = await llm.close()
  if (harness.code !== 0 && harness.code !== 1) throw new Error(`the CLI exited with ${harness.code} in ${cwd}:\n${tail(harness.stderrPath)}\n${tail(harness.stdoutPath)}`)
  const doc = JSON.parse(readFileSync(join(cwd, 'eval-results.json'), 'utf8')) as ResultsDocument
  if (!harness.harness[0]) throw new Error(`the harness wrote no probe line (bench/probe.mjs) in ${cwd}`)
  return { cwd, harness, doc, requests: account.requests, llm_cpu_ms: account.cpu_ms }
}

/** Conformance alone, nothing else running: how long its chain is and how many server processes it needs. */
export interface ConformanceAlone {
  ms: number
  spawns: number
  cpu_ms: number
}

export async function conformanceAlone(evaluation: Evaluation): Promise<ConformanceAlone> {
  const m = await measureCli({ ...evaluation, flags: ['--conformance', 'only'] })
  rmSync(m.cwd, { recursive: true, force: true })
  return { ms: m.doc.conformance?.duration_ms ?? 0, spawns: m.harness.servers.length, cpu_ms: cpuOf(m.harness.servers) }
}

export interface Floor {
  floor_ms: number
  bound_by: 'LLM' | 'chain' | 'server CPU'
  llm_ms: number
  chain_ms: number
  servers_ms: number
  spawns: number
  per_server_ms: number
}

/** The physical floor of a measured evaluation of `runs` runs with one rubric (one evaluation-steps request). */
export function physicalFloor(m: Measured, runs: number, concurrency: number, delayMs: number, conformance: ConformanceAlone | null): Floor {
  const spawns = m.harness.servers.length
  const per_server_ms = cpuOf(m.harness.servers) / Math.max(1, spawns)
  // A copy beyond one per run and conformance's own is the harness's doing, not the servers' need.
  const needed = Math.min(spawns, runs + (conformance?.spawns ?? 0))
  const servers_ms = (per_server_ms * needed) / CORES
  const llm_ms = (m.requests * delayMs) / concurrency
  const callsPerRun = (m.requests - 1) / runs
  const chain_ms = Math.max(per_server_ms + callsPerRun * delayMs, conformance?.ms ?? 0)
  const terms: [Floor['bound_by'], number][] = [
    ['LLM', llm_ms],
    ['chain', chain_ms],
    ['server CPU', servers_ms]
  ]
  const [bound_by, floor_ms] = terms.reduce((a, b) => (b[1] > a[1] ? b : a))
  return { floor_ms, bound_by, llm_ms, chain_ms, servers_ms, spawns, per_server_ms }
}

/** The columns every floor table has, after its own first ones. */
export const FLOOR_COLUMNS = [
  'wall s',
  'floor s',
  'wall/floor',
  'target',
  'bound by',
  'LLM/c s',
  'chain s',
  'servers CPU/cores s',
  'from spawn s',
  'from spawn/floor',
  'start-up to spawn ms',
  'conformance s',
  'server processes',
  'servers CPU s',
  'harness CPU s',
  'harness CPU ms/run',
  'model CPU s',
  "others' CPU s",
  'harness peak RSS MB',
  'at peak: heap used/total, external MB',
  'main thread busy',
  'event-loop delay p50/p99/max ms',
  'passed'
]

/** A row's cells under FLOOR_COLUMNS; `target` as printed ("≤ 1.1"). */
export function floorCells(m: Measured, f: Floor, runs: number, target: string): (string | number)[] {
  const main = m.harness.harness[0]
  const firstSpawn = m.harness.first_server_ms ?? m.harness.spawned_ms
  const fromSpawn = m.harness.exited_ms - firstSpawn
  const s = (ms: number) => round(ms / 1000, 2)
  return [
    s(m.harness.wall_ms),
    s(f.floor_ms),
    round(m.harness.wall_ms / f.floor_ms, 3),
    target,
    f.bound_by,
    s(f.llm_ms),
    s(f.chain_ms),
    s(f.servers_ms),
    s(fromSpawn),
    round(fromSpawn / f.floor_ms, 3),
    round(firstSpawn - m.harness.spawned_ms, 0),
    s(m.doc.conformance?.duration_ms ?? 0),
    `${f.spawns} (${round(f.per_server_ms, 0)} ms each)`,
    s(cpuOf(m.harness.servers)),
    s(cpuOf(m.harness.harness)),
    round(cpuOf(m.harness.harness) / runs, 1),
    s(m.llm_cpu_ms),
    // /proc/stat counts in 10 ms ticks: a few ticks below zero is none at all.
    s(Math.max(0, m.harness.machine_cpu_ms - cpuOf(m.harness.servers) - cpuOf(m.harness.harness) - m.llm_cpu_ms)),
    round(main.max_rss_mb, 1),
    main.memory_at_peak ? `${main.memory_at_peak.heap_used}/${main.memory_at_peak.heap_total}, ${main.memory_at_peak.external}` : '',
    `${round((main.event_loop_utilization ?? 0) * 100, 0)} %`,
    main.event_loop_delay_ms ? `${main.event_loop_delay_ms.p50}/${main.event_loop_delay_ms.p99}/${main.event_loop_delay_ms.max}` : '',
    `${m.doc.summary.passed}/${runs}`
  ]
}

/** The Markdown head of a floor table: its own first columns, the floor's, and its own last ones. */
export function tableHead(first: string[], last: string[] = []): string {
  const columns = [...first, ...FLOOR_COLUMNS, ...last]
  return `${columns.join(' | ')}\n${columns.map((c) => (c === 'bound by' ? '---' : '---:')).join(' | ')}\n`
}

export const METHOD =
  "wall: the CLI process, spawn to exit (start-up and writing the files included); from spawn: from the harness's first server spawn to its exit. " +
  'CPU: each process\'s own account as it exits (process.resourceUsage() through bench/probe.mjs; getrusage in bench/minimal_server.py): every server, and the harness with any helper process it starts (its peak RSS is the main process\'s). ' +
  "Model CPU: the scripted model's process (not on the floor: a real model runs elsewhere). Others' CPU: what the machine spent meanwhile (/proc/stat) beyond all of these — other work beside the benchmark skews its figures. " +
  "Main thread busy: the harness's event loop utilization over its life; event-loop delay: how late its loop ran from its first server spawn to its exit (perf_hooks.monitorEventLoopDelay, 10 ms resolution).\n"

/** Where the harness's main thread spent a run under --cpu-prof (the profile in `cwd`), as Markdown tables; '' without one. */
export function mainThreadReport(cwd: string, bundle: Bundle, label: string): string {
  const file = readdirSync(cwd).find((f) => f.endsWith('.cpuprofile'))
  if (!file) return ''
  const main = mainThreadOf(JSON.parse(readFileSync(join(cwd, file), 'utf8')) as CpuProfile, bundle)
  const rows = (list: [string, number][], n: number) =>
    list
      .slice(0, n)
      .map(([name, ms]) => `${name.replaceAll('|', '\\|')} | ${round(ms / 1000, 2)} | ${round((ms / main.total_ms) * 100, 1)} %`)
      .join('\n')
  return (
    `\n${label}: the harness's main thread under --cpu-prof (${round(main.total_ms / 1000, 1)} s profiled), by package (innermost frame of the bundle)\n\npackage | s | share\n--- | ---: | ---:\n${rows(main.packages, 15)}\n` +
    `\nby function | s | share\n--- | ---: | ---:\n${rows(main.functions, 20)}\n`
  )
}
