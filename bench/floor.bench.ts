// The harness against the physical floor (bench/floor.ts): the 40-run matrix (10 cases × 2
// models × 2 prompts) with a fresh @modelcontextprotocol/server-everything per run over stdio,
// the scripted model in its own process answering every request after a fixed delay,
// `conformance: auto` as a user runs it, through the bundled CLI as a real process, at
// concurrency 4 and 16. Target: wall ≤ 1.10 × the floor.
//
//   npm run bench:floor                          (200 ms LLM delay, concurrency 4 and 16)
//   npm run bench:floor -- --delay 100 --concurrency 16 --cli dist/cli/index.js
//   npm run bench:floor -- --concurrency 16 --cpu-prof   (and where the harness's main thread went)
import { rmSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { bundleOf } from './bundle.js'
import { conformanceAlone, floorCells, mainThreadReport, measureCli, METHOD, physicalFloor, tableHead, type Evaluation } from './floor.js'
import { here, machineLine, round } from './processes.js'

const { values } = parseArgs({
  options: {
    delay: { type: 'string', default: '200' },
    concurrency: { type: 'string', multiple: true },
    cli: { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false }
  }
})
const DELAY_MS = Number(values.delay)
const LEVELS = (values.concurrency ?? ['4', '16']).map(Number)
const TARGET = 1.1
const CASES = 10
const RUNS = CASES * 2 * 2
const cases = Array.from({ length: CASES }, (_, i) => `  - {id: c${i + 1}, prompt: "Echo ${i + 1}.", rubric: "echoes the message"}\n`).join('')

const bundle = await bundleOf('cli', values.cli)
const evaluation: Evaluation = {
  cli: bundle.entry,
  suite: `models: [m/a, m/b]\nsystem_prompts: {p1: "Be brief.", p2: "Be exact."}\ncases:\n${cases}`,
  server: { command: process.execPath, args: [here('../node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] },
  delayMs: DELAY_MS,
  tool: { name: 'echo', args: { message: 'hi' } },
  flags: [],
  nodeArgs: values['cpu-prof'] ? ['--cpu-prof'] : []
}
const alone = await conformanceAlone({ ...evaluation, nodeArgs: [] })
process.stdout.write(
  `floor benchmark: ${RUNS} runs, a fresh server-everything per run (stdio), LLM delay ${DELAY_MS} ms, conformance auto, the bundled CLI (${bundle.entry}), ${machineLine()}\n` +
    `conformance alone: ${round(alone.ms / 1000, 2)} s, ${alone.spawns} server processes (${round(alone.cpu_ms / 1000, 2)} s of their CPU)\n\n` +
    tableHead(['concurrency'])
)
const profiles: string[] = []
for (const concurrency of LEVELS) {
  const m = await measureCli({ ...evaluation, flags: ['--concurrency', String(concurrency)] })
  const floor = physicalFloor(m, RUNS, concurrency, DELAY_MS, alone)
  process.stdout.write(`${[concurrency, ...floorCells(m, floor, RUNS, `≤ ${TARGET}`)].join(' | ')}\n`)
  profiles.push(mainThreadReport(m.cwd, bundle, `concurrency ${concurrency}`))
  rmSync(m.cwd, { recursive: true, force: true })
}
process.stdout.write(`\n${METHOD}${profiles.join('')}`)
