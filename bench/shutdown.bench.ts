// How long a cancelled evaluation takes to shut down: from SIGINT to the process's exit, with
// every in-flight run aborted, every server tree (each behind `sh -c`) ended, and the results,
// report, JUnit and journal written. The runner sends SIGTERM 7.5 s after SIGINT; our target is
// under 2 s. Runs the built CLI (npm run package first) against a scripted model that never
// answers the agent in time.
//   npm run bench:shutdown
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { answer, kindOf, startScriptedLlm, steps, verdict } from '../__fixtures__/scripted-llm.js'

const CLI = fileURLToPath(new URL('../dist/cli/index.js', import.meta.url))
const SERVER = fileURLToPath(new URL('../examples/server/server.mjs', import.meta.url))
const TARGET_MS = 2000
const GRACE_MS = 7500
const REPEATS = 5

const llm = await startScriptedLlm((request) => {
  const kind = kindOf(request)
  if (kind === 'steps') return steps(request.model)
  if (kind === 'score') return verdict(request.model, 9, 'good')
  return { ...answer(request.model, 'late'), delayMs: 120_000 }
})

async function once_(concurrency: number): Promise<number> {
  const work = mkdtempSync(join(tmpdir(), 'bench-shutdown-'))
  const cases = Array.from({ length: concurrency * 2 }, (_, i) => `  - {id: c${i}, prompt: "case ${i}", rubric: r}\n`).join('')
  writeFileSync(join(work, 'evals.yaml'), `system_prompts: {d: "Be brief."}\ncases:\n${cases}`)
  const server = JSON.stringify({ command: 'sh', args: ['-c', `"${process.execPath}" "${SERVER}"; true`] })
  const args = [CLI, '--server-config', server, '--eval-cases', 'evals.yaml', '--base-url', llm.url, '--api-key', 'k', '--conformance', 'off', '--concurrency', String(concurrency)]
  const before = llm.requests.length
  const child = spawn(process.execPath, args, { cwd: work, stdio: 'ignore' })
  const exited = once(child, 'exit')
  // Every slot is waiting for the model.
  while (llm.requests.length - before < concurrency) await new Promise((r) => setTimeout(r, 20))
  const started = performance.now()
  child.kill('SIGINT')
  const [code] = (await exited) as [number]
  const ms = performance.now() - started
  if (code !== 130) throw new Error(`exit ${code}, expected 130`)
  return ms
}

process.stdout.write(`shutdown benchmark (SIGINT → exit, ${REPEATS} runs each), node ${process.version}\n`)
process.stdout.write('in flight | min ms | median ms | max ms | median / 2 s target | median / 7.5 s grace\n--- | ---: | ---: | ---: | ---: | ---:\n')
try {
  for (const concurrency of [1, 4, 16]) {
    const samples: number[] = []
    for (let i = 0; i < REPEATS; i++) samples.push(await once_(concurrency))
    samples.sort((a, b) => a - b)
    const median = samples[Math.floor(samples.length / 2)]
    process.stdout.write(
      `${concurrency} | ${samples[0].toFixed(0)} | ${median.toFixed(0)} | ${samples[samples.length - 1].toFixed(0)} | ${(median / TARGET_MS).toFixed(2)} | ${(median / GRACE_MS).toFixed(2)}\n`
    )
  }
} finally {
  await llm.close()
}
