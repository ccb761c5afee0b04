// The processes a benchmark runs: the scripted model in a process of its own, and the harness
// (the bundled CLI or action) as a real child process, measured from outside and by
// bench/probe.mjs inside: every process of the harness and every server reports its own CPU as it
// exits (process.resourceUsage() in Node.js, getrusage in the Python server), so the split between
// the harness and the servers holds however the harness spawns them (directly, or from a helper).
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { availableParallelism, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'

/** A path beside this file (bench/), as the benchmarks name their fixtures. */
export const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** The monotonic clock in ms, shared by every process on Linux (bench/probe.mjs reads the same). */
export const nowMs = () => Number(process.hrtime.bigint()) / 1e6

/** `n` to `places` decimals, for the printed tables. */
export const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places

/** The harness's API key for the scripted model: long enough that redacting it from the files hides nothing else. */
export const API_KEY = 'scripted-model-key'

/**
 * The CPU the whole machine spent so far, in ms (/proc/stat: user, nice, system, irq, softirq,
 * steal; USER_HZ = 100 on Linux): a measurement's share of it tells how much other work ran beside it.
 */
export function machineCpuMs(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/)
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number)
  return (user + nice + system + irq + softirq + steal) * 10
}

/** Node, the cores, and how busy the machine is as a benchmark starts (other work skews every figure). */
export const machineLine = () => `node ${process.version}, ${availableParallelism()} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`

/** The scripted model's own account, printed as it stops. */
export interface LlmAccount {
  requests: number
  cpu_ms: number
}

/** The scripted model (bench/llm-server.ts) in a process of its own; closing it reports what it served. */
export async function startLlmProcess(delayMs: number, tool: { name: string; args: unknown }) {
  const child = spawn(process.execPath, ['--import', 'tsx', here('llm-server.ts'), String(delayMs), tool.name, JSON.stringify(tool.args)], {
    stdio: ['pipe', 'pipe', 'inherit']
  })
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const url = (await lines.next()).value as string
  return {
    url,
    close: async (): Promise<LlmAccount> => {
      child.stdin.end()
      const account = JSON.parse((await lines.next()).value as string) as LlmAccount
      if (child.exitCode === null) await once(child, 'exit')
      return account
    }
  }
}

/** One process's own report (bench/probe.mjs, or bench/minimal_server.py's report_cpu). */
export interface ProbeLine {
  role: 'harness' | 'server'
  pid: number
  started_ms: number
  exited_ms: number
  cpu_ms: number
  max_rss_mb: number
  /** Harness processes only. */
  argv?: string[]
  code?: number
  event_loop_utilization?: number
  spawns?: number
  servers?: number
  first_server_ms?: number | null
  /** process.memoryUsage() in MB at the highest RSS sampled (every 100 ms). */
  memory_at_peak?: { rss: number; heap_total: number; heap_used: number; external: number; array_buffers: number } | null
  /** The event loop's delay over the process's life (monitorEventLoopDelay, 10 ms resolution), ms. */
  event_loop_delay_ms?: { p50: number; p99: number; max: number } | null
}

/** The probe as node's --import takes it, reporting as `role` into `out`. */
export const probeImport = (role: 'harness' | 'server', out: string) => {
  const url = new URL('probe.mjs', import.meta.url)
  url.searchParams.set('role', role)
  url.searchParams.set('out', out)
  return url.href
}

/** What one harness process did, seen from outside and from the probes. */
export interface HarnessProcess {
  code: number | null
  /** The bench's clock at the spawn and at the exit. */
  spawned_ms: number
  /** What every process on the machine spent meanwhile (machineCpuMs). */
  machine_cpu_ms: number
  exited_ms: number
  wall_ms: number
  /** The harness's own processes, the main one first (then helpers it started, each loaded with the probe). */
  harness: ProbeLine[]
  /** Every server that reported (see serverCommand). */
  servers: ProbeLine[]
  /** The first server spawn, by the harness's clock (null: it spawned none). */
  first_server_ms: number | null
  stdoutPath: string
  stderrPath: string
}

/**
 * A server command that reports its CPU into `out` as it exits: a Node.js server with the probe
 * loaded, bench/minimal_server.py with its report_cpu switch.
 */
export function serverCommand(server: { command: string; args: string[] }, out: string): { command: string; args: string[] } {
  if (server.args.some((a) => a.endsWith('minimal_server.py'))) return { command: server.command, args: [...server.args, `report_cpu=${out}`] }
  if (server.command === process.execPath) return { command: server.command, args: ['--import', probeImport('server', out), ...server.args] }
  throw new Error(`cannot account for the CPU of ${server.command} ${server.args.join(' ')}: a Node.js server (process.execPath) or bench/minimal_server.py`)
}

/**
 * Run `node <entry> <args>` in `cwd` with `env` (nothing else of this process's environment but
 * PATH and HOME), its output into files in `cwd`, and measure it. Its probe lines go to
 * `probeFile` (the servers given serverCommand(…, probeFile) report there too). `nodeArgs` go
 * before the entry (e.g. --cpu-prof); `whileRunning` is given the process as it starts (to signal it).
 */
export async function runHarness(
  entry: string,
  args: string[],
  options: { cwd: string; probeFile: string; env?: NodeJS.ProcessEnv; nodeArgs?: string[]; whileRunning?: (child: ChildProcess) => Promise<void> }
): Promise<HarnessProcess> {
  const stdoutPath = `${options.cwd}/harness.stdout`
  const stderrPath = `${options.cwd}/harness.stderr`
  const out = openSync(stdoutPath, 'w')
  const err = openSync(stderrPath, 'w')
  const machineBefore = machineCpuMs()
  const spawned_ms = nowMs()
  const child = spawn(process.execPath, ['--import', probeImport('harness', options.probeFile), ...(options.nodeArgs ?? []), entry, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
    stdio: ['ignore', out, err]
  })
  closeSync(out)
  closeSync(err)
  const exited = once(child, 'exit')
  await options.whileRunning?.(child)
  const [code] = (await exited) as [number | null]
  const exited_ms = nowMs()
  const machine_cpu_ms = machineCpuMs() - machineBefore
  const lines = existsSync(options.probeFile) ? readFileSync(options.probeFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as ProbeLine) : []
  lines.sort((a, b) => a.started_ms - b.started_ms)
  const harness = lines.filter((l) => l.role === 'harness')
  const firsts = harness.flatMap((h) => (h.first_server_ms ? [h.first_server_ms] : []))
  return {
    code,
    spawned_ms,
    machine_cpu_ms,
    exited_ms,
    wall_ms: exited_ms - spawned_ms,
    harness,
    servers: lines.filter((l) => l.role === 'server'),
    first_server_ms: firsts.length ? Math.min(...firsts) : null,
    stdoutPath,
    stderrPath
  }
}

/** The CPU of a set of processes, in ms. */
export const cpuOf = (lines: ProbeLine[]) => lines.reduce((sum, l) => sum + l.cpu_ms, 0)

/** The last lines a harness wrote, for an error message. */
export function tail(path: string, lines = 20): string {
  return existsSync(path) ? readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') : ''
}
