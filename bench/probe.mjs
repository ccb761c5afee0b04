// Loaded by the benchmarks into the processes they measure, as
//   node --import 'file:///…/bench/probe.mjs?role=harness&out=/tmp/…/probe.jsonl' dist/cli/index.js …
//   node --import 'file:///…/bench/probe.mjs?role=server&out=/tmp/…/probe.jsonl' server.js
// It reports what a process cannot be asked from outside once it has exited: as the process
// exits it appends one JSON line to `out` with its own CPU (every thread: process.resourceUsage()),
// its peak RSS, how busy its main thread was and how late its event loop ran from the first server spawn (p50/p99/max) and, in the harness, the servers it spawned (how many,
// and when the first was, and where its memory was at its highest RSS: process.memoryUsage() every
// 100 ms). A server also reports when it ends on SIGTERM (the harness's way of ending a server
// that outstays stdin's end).
//
// In the harness, a child that runs this same node and is not detached is a helper of the
// harness (servers are spawned detached: each leads its own process group), so it is given the
// probe too and reports itself. Times are the monotonic clock in ms (process.hrtime), which Linux
// shares between processes.
import childProcess from 'node:child_process'
import { appendFileSync } from 'node:fs'
import module from 'node:module'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'

const query = new URL(import.meta.url).searchParams
const out = query.get('out')
const role = query.get('role') ?? 'harness'
const nowMs = () => Number(process.hrtime.bigint()) / 1e6
// The process's own start on the same clock: the time origin is taken as Node starts.
const startedMs = nowMs() - performance.now()
const servers = { count: 0, first_ms: null }
const spawns = { count: 0 }

if (out && role === 'harness') {
  const original = childProcess.spawn
  childProcess.spawn = function (command, args, options) {
    spawns.count++
    const opts = Array.isArray(args) ? options : args
    if (opts?.detached) {
      // The loop's delay counts from here: the runs, not the start-up's module loading.
      if (servers.first_ms === null) loopDelay?.reset()
      servers.first_ms ??= nowMs()
      servers.count++
    } else if (command === process.execPath && Array.isArray(args)) {
      args = ['--import', import.meta.url, ...args]
    }
    return original.call(this, command, args, options)
  }
  // `import { spawn } from 'node:child_process'` (sources run by tsx) sees the patched function too.
  module.syncBuiltinESMExports()
  setInterval(sampleMemory, 100).unref()
}

// The harness's event-loop delay from its first server spawn (what a timer or an answer waited for the main thread meanwhile).
const loopDelay = out && role === 'harness' ? monitorEventLoopDelay({ resolution: 10 }) : null
loopDelay?.enable()

/** A histogram's nanoseconds in ms, to a tenth. */
const ms = (ns) => Math.round(ns / 1e5) / 10

/** process.memoryUsage() (MB) when the RSS was highest. */
let atPeak = null
function sampleMemory() {
  const m = process.memoryUsage()
  if (atPeak && m.rss <= atPeak.rss * 2 ** 20) return
  const mb = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10
  atPeak = { rss: mb(m.rss), heap_total: mb(m.heapTotal), heap_used: mb(m.heapUsed), external: mb(m.external), array_buffers: mb(m.arrayBuffers) }
}
if (out && role === 'server') process.on('SIGTERM', () => process.exit(143))
if (out) {
  process.on('exit', (code) => {
    if (role === 'harness') sampleMemory()
    const usage = process.resourceUsage()
    const line = {
      role,
      pid: process.pid,
      argv: process.argv.slice(1, 3),
      code,
      started_ms: startedMs,
      exited_ms: nowMs(),
      cpu_ms: (usage.userCPUTime + usage.systemCPUTime) / 1000,
      max_rss_mb: usage.maxRSS / 1024,
      event_loop_utilization: performance.eventLoopUtilization().utilization,
      spawns: spawns.count,
      servers: servers.count,
      first_server_ms: servers.first_ms,
      memory_at_peak: atPeak,
      event_loop_delay_ms: loopDelay ? { p50: ms(loopDelay.percentile(50)), p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max) } : null
    }
    appendFileSync(out, `${JSON.stringify(line)}\n`)
  })
}
