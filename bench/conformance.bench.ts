// Conformance layer timing on the example server, over stdio and over Streamable HTTP.
// Prints the whole layer's wall time (target: under 3 s for stdio), the time of every probe
// exchange (most checks are decided by one or two of them), and each check's evaluation time.
//   npm run bench:conformance
import { fileURLToPath } from 'node:url'
import { startHttpServer } from '../__fixtures__/servers/http-server.mjs'
import type { ServerConfig } from '../src/config/types.js'
import { probeServer, type ProbeData } from '../src/conformance/probe.js'
import { MODERN_CHECKS, evaluateProbe, runConformance } from '../src/conformance/run.js'
import type { Exchange } from '../src/conformance/wire.js'

const example = fileURLToPath(new URL('../examples/server/server.mjs', import.meta.url))

function exchangesOf(probe: ProbeData): [string, Exchange][] {
  const named: [string, Exchange | undefined][] = [
    ['server/discover (era detection)', probe.discover],
    ['tools/list #1', probe.toolsList[0]],
    ['tools/list #2', probe.toolsList[1]],
    [`tools/list (${probe.transport === 'stdio' ? 'fresh process' : 'second request'})`, probe.toolsListFresh],
    ...probe.otherLists.map((e): [string, Exchange] => [e.method, e]),
    ['resources/read', probe.resourceRead],
    ['resources/read (missing)', probe.missingResource],
    ['tools/call (unknown tool)', probe.unknownTool],
    ['unsupported version (fresh)', probe.unsupportedVersion],
    ['no protocolVersion (fresh)', probe.missingVersion],
    ['no clientCapabilities (fresh)', probe.missingCapabilities],
    ...Object.entries(probe.http ?? {}).map(([k, e]): [string, Exchange] => [`HTTP ${k}`, e])
  ]
  return named.filter((n): n is [string, Exchange] => !!n[1])
}

async function measure(name: string, config: ServerConfig) {
  // End to end, as the action runs it.
  const whole = await runConformance(config)
  // Then the parts: the probes, and the checks over what they saw.
  const started = performance.now()
  const probe = await probeServer(config)
  const probeMs = performance.now() - started
  const evalStarted = performance.now()
  evaluateProbe(probe)
  const evalMs = performance.now() - evalStarted
  process.stdout.write(`\n${name}: ${whole.duration_ms} ms end to end (${whole.era}, ${whole.checks.length} checks, ${whole.checks.filter((c) => c.status === 'fail').length} failed)\n`)
  process.stdout.write(`  probes ${probeMs.toFixed(0)} ms (fresh-process probes run in parallel), checks ${evalMs.toFixed(1)} ms\n`)
  process.stdout.write('  probe exchange | ms\n  --- | ---:\n')
  for (const [label, exchange] of exchangesOf(probe)) process.stdout.write(`  ${label} | ${exchange.ms ?? '-'}\n`)
  process.stdout.write('  checks | evaluation µs\n  --- | ---:\n')
  for (const [label, check] of MODERN_CHECKS) {
    const t = performance.now()
    for (let i = 0; i < 200; i++) check(probe)
    process.stdout.write(`  ${label} | ${(((performance.now() - t) / 200) * 1000).toFixed(0)}\n`)
  }
}

process.stdout.write(`conformance benchmark, node ${process.version}\n`)
await measure('example server over stdio', { kind: 'stdio', command: process.execPath, args: [example], env: {} })
const http = await startHttpServer()
try {
  await measure('example server over Streamable HTTP', { kind: 'http', url: http.url, headers: {} })
} finally {
  await http.close()
}
