// Cold start of the action: `node dist/index.js` (today's sources bundled as `npm run package`
// does, or --bundle PATH) with the INPUT_* environment the runner gives it — action.yml's
// defaults, plus a one-case suite — from the process's spawn to its first server spawn (the
// conformance probe's). Target: under 0.2 s. Then one run under `--cpu-prof`: what the main
// thread did until then (Node's start-up, module loading by package, the harness's own work).
//
//   npm run bench:cold-start
//   npm run bench:cold-start -- --repeats 20 --bundle dist/index.js
//   npm run bench:cold-start -- --warm-compile-cache   (Node 22.1+: every run's RUNNER_TEMP is one
//     folder, so the action's compile cache is warm after the first run, as for a second step of a job)
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { parse } from 'yaml'
import { bundleOf } from './bundle.js'
import { startUpOf, type CpuProfile } from './cpu-profile.js'
import { API_KEY, cpuOf, here, machineLine, round, runHarness, serverCommand, startLlmProcess, tail, type HarnessProcess } from './processes.js'

const { values } = parseArgs({
  options: {
    repeats: { type: 'string', default: '10' },
    bundle: { type: 'string' },
    'warm-compile-cache': { type: 'boolean', default: false }
  }
})
const REPEATS = Number(values.repeats)
const TARGET_MS = 200
const PYTHON = '/usr/bin/python3'

/** What the runner sets for the action's inputs that the workflow leaves out: action.yml's defaults. */
function actionDefaults(): Record<string, string> {
  const action = parse(readFileSync(here('../action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }> }
  const env: Record<string, string> = {}
  for (const [name, input] of Object.entries(action.inputs)) {
    // `${{ github.token }}` is the runner's to expand; outside a workflow there is none.
    if (input.default !== undefined) env[`INPUT_${name.toUpperCase()}`] = input.default.includes('${{') ? '' : input.default
  }
  return env
}

const bundle = await bundleOf('action', values.bundle)
const llm = await startLlmProcess(0, { name: 'lookup', args: { key: 'k' } })
// A runner's RUNNER_TEMP is new in every job: each run's own (a cold compile cache), unless asked.
const sharedRunnerTemp = values['warm-compile-cache'] ? mkdtempSync(join(tmpdir(), 'bench-cold-runner-temp-')) : null

async function once(nodeArgs: string[] = [], model = llm): Promise<{ harness: HarnessProcess; cwd: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'bench-cold-'))
  const probeFile = join(cwd, 'probe.jsonl')
  writeFileSync(join(cwd, 'evals.yaml'), 'models: [m/a]\nsystem_prompts: {d: "Be brief."}\ncases:\n  - {id: one, prompt: "Look up k.", rubric: "answers"}\n')
  const server = serverCommand({ command: PYTHON, args: ['-S', here('minimal_server.py')] }, probeFile)
  const env = {
    ...actionDefaults(),
    INPUT_SERVER_CONFIG: JSON.stringify(server),
    INPUT_EVAL_CASES: 'evals.yaml',
    INPUT_API_KEY: API_KEY,
    INPUT_BASE_URL: model.url,
    // The files a runner gives every step.
    RUNNER_TEMP: sharedRunnerTemp ?? cwd,
    GITHUB_WORKSPACE: cwd,
    GITHUB_OUTPUT: join(cwd, 'github-output'),
    GITHUB_STEP_SUMMARY: join(cwd, 'step-summary.md')
  }
  const harness = await runHarness(bundle.entry, [], { cwd, probeFile, env, nodeArgs })
  if (harness.first_server_ms === null) throw new Error(`the action spawned no server (exit ${harness.code}) in ${cwd}:\n${tail(harness.stdoutPath)}\n${tail(harness.stderrPath)}`)
  return { harness, cwd }
}

try {
  rmSync((await once()).cwd, { recursive: true, force: true }) // warm the page cache: a runner's first step reads the bundle from disk too, but once
  const samples: { first: number; node: number; exec: number }[] = []
  // What the rest of the machine spent while the timed runs ran: the machine's CPU (/proc/stat)
  // less the harness's and its servers' (and, below, the scripted model's, which serves only these runs).
  const timedLlm = await startLlmProcess(0, { name: 'lookup', args: { key: 'k' } })
  let othersMs = 0
  for (let i = 0; i < REPEATS; i++) {
    const { harness, cwd } = await once([], timedLlm)
    othersMs += harness.machine_cpu_ms - cpuOf(harness.harness) - cpuOf(harness.servers)
    rmSync(cwd, { recursive: true, force: true })
    const first = harness.first_server_ms! - harness.spawned_ms
    const node = harness.harness[0].started_ms - harness.spawned_ms
    const server = harness.servers.find((s) => s.started_ms >= harness.first_server_ms!)
    samples.push({ first, node, exec: server ? server.started_ms - harness.first_server_ms! : NaN })
  }
  othersMs = Math.max(0, othersMs - (await timedLlm.close()).cpu_ms)
  const stats = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b)
    return { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] }
  }
  const row = (label: string, xs: number[], target = '') => {
    const s = stats(xs)
    return `${label} | ${round(s.min, 0)} | ${round(s.median, 0)} | ${round(s.max, 0)} | ${target}\n`
  }
  const first = samples.map((s) => s.first)
  process.stdout.write(
    `cold start: the action bundle (${bundle.entry}), action.yml's defaults, a one-case suite, ${machineLine()}, ${REPEATS} runs after one to warm the page cache${sharedRunnerTemp ? ' (and the compile cache: one RUNNER_TEMP for all)' : ''}\n\n` +
      'from spawn | min ms | median ms | max ms | target\n--- | ---: | ---: | ---: | ---\n' +
      row('to the first server spawn', first, `< ${TARGET_MS} (median/target ${round(stats(first).median / TARGET_MS, 2)})`) +
      row("to Node's own time origin (exec, Node's bootstrap)", samples.map((s) => s.node)) +
      row("first spawn to the server's own start (fork, exec, interpreter)", samples.map((s) => s.exec)) +
      `\nothers' CPU during the ${REPEATS} timed runs: ${round(othersMs / 1000, 2)} s (what the rest of the machine spent meanwhile: other work beside the benchmark skews its figures)\n`
  )

  // Where the main thread's time goes until the first spawn (the profiler's own cost inflates it a little).
  const { harness, cwd } = await once(['--cpu-prof', '--cpu-prof-dir', 'profile'])
  const file = readdirSync(join(cwd, 'profile')).find((f) => f.endsWith('.cpuprofile'))
  if (!file) throw new Error(`no CPU profile in ${cwd}/profile`)
  const profile = JSON.parse(readFileSync(join(cwd, 'profile', file), 'utf8')) as CpuProfile
  const { phases, loading, work } = startUpOf(profile, bundle, harness.first_server_ms!)
  const total = Object.values(phases).reduce((a, b) => a + b, 0)
  const before = profile.startTime / 1000 - harness.spawned_ms
  const share = (ms: number) => `${round((ms / total) * 100, 0)} %`
  process.stdout.write(
    `\nunder --cpu-prof: ${round(harness.first_server_ms! - harness.spawned_ms, 0)} ms to the first server spawn; the profile starts ${round(before, 0)} ms after the spawn and covers ${round(total, 0)} ms of it\n\n` +
      'main thread until the first spawn | ms | share\n--- | ---: | ---:\n' +
      Object.entries(phases)
        .map(([phase, ms]) => `${phase} | ${round(ms, 0)} | ${share(ms)}\n`)
        .join('') +
      '\nmodule loading by package | under it ms (its dependencies included) | its own code ms\n--- | ---: | ---:\n' +
      loading
        .slice(0, 15)
        .map((l) => `${l.package} | ${round(l.under_ms, 1)} | ${round(l.own_ms, 1)}\n`)
        .join('') +
      '\nharness work by function | ms\n--- | ---:\n' +
      work
        .slice(0, 10)
        .map(([name, ms]) => `${name} | ${round(ms, 1)}\n`)
        .join('')
  )
  rmSync(cwd, { recursive: true, force: true })
} finally {
  await llm.close()
  if (sharedRunnerTemp) rmSync(sharedRunnerTemp, { recursive: true, force: true })
}
