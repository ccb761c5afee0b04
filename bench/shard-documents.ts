// Shard results documents of a large suite, for timing the merge, made the way a shard makes
// them but without running every run: each shard of the suite is run for real by the bundled CLI
// (`--shard I/N`: its real journal header, conformance in shard 1, a few real runs), stopped, and
// the rest of its plan filled with copies of its real runs under the keys the plan gives them
// (case, model, prompt, repeat, plan index, a trace id of their own); the document is then built
// from that journal as a run builds it (documentFromJournal) and written by writeResults.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseSuite } from '../src/config/suite.js'
import { writeResults } from '../src/output/write-results.js'
import { documentFromJournal, readJournal } from '../src/execute/journal.js'
import { emptyUsage } from '../src/llm/chat.js'
import { expandMatrix, specKey } from '../src/plan/expand.js'
import { shardFileName, shardOf, type Shard } from '../src/plan/shard.js'
import type { RunResult } from '../src/results/types.js'
import { API_KEY, here, startLlmProcess, tail } from './processes.js'

/** The suite: cases × models × prompts × repeats runs. */
export interface ShardedSuite {
  cases: number
  models: number
  prompts: number
  repeats: number
  shards: number
}

/** Real runs each shard makes before it is stopped (their copies fill the rest of its plan). */
const REAL_RUNS = 8
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'

/** Write the shards' documents under `dir` (shard-I/eval-results.shard-I-of-N.json); returns their paths. */
export async function writeShardDocuments(dir: string, suite: ShardedSuite, cli: string): Promise<string[]> {
  const yaml =
    `models: [${Array.from({ length: suite.models }, (_, i) => `m/${i}`).join(', ')}]\n` +
    `system_prompts: {${Array.from({ length: suite.prompts }, (_, i) => `p${i}: "Prompt ${i}."`).join(', ')}}\n` +
    `cases:\n${Array.from({ length: suite.cases }, (_, i) => `  - {id: c${i}, prompt: "Look up key ${i}.", rubric: "answers with the value", runs: ${suite.repeats}}\n`).join('')}`
  const parsed = parseSuite(yaml, 'evals.yaml')
  const llm = await startLlmProcess(0, { name: 'lookup', args: { key: 'k' } })
  const paths: string[] = []
  try {
    for (let index = 1; index <= suite.shards; index++) {
      const shard: Shard = { index, count: suite.shards }
      const cwd = join(dir, `shard-${index}`)
      mkdirSync(cwd, { recursive: true })
      writeFileSync(join(cwd, 'evals.yaml'), yaml)
      const journalPath = await runUntil(cli, cwd, shard, llm.url)
      const { state } = readJournal(journalPath)
      const real = [...state.runs.values()].filter((r) => r.status === 'passed' || r.status === 'failed')
      if (real.length === 0) throw new Error(`shard ${index}/${suite.shards} finished no run in ${cwd}:\n${tail(join(cwd, 'cli.stdout'))}`)
      const today = state.header.started_at.slice(0, 10)
      const plan = shardOf(expandMatrix(parsed, { filter: '', today }), shard)
      const runs = new Map<string, RunResult>()
      plan.forEach((spec, i) => {
        const kept = state.runs.get(specKey(spec))
        if (kept && (kept.status === 'passed' || kept.status === 'failed')) return runs.set(specKey(spec), kept)
        const copy: RunResult = structuredClone(real[i % real.length])
        Object.assign(copy, {
          case_id: spec.case.id,
          model: spec.model,
          prompt_name: spec.prompt_name,
          index: spec.index,
          attempt: spec.attempt,
          attempts: spec.case.runs,
          input: spec.case.prompt,
          system_prompt: spec.system_prompt,
          trace_id: copy.trace_id === null ? null : randomBytes(16).toString('hex')
        })
        runs.set(specKey(spec), copy)
      })
      state.runs = runs
      state.end = { type: 'end', duration_s: state.end?.duration_s ?? 0, overhead: state.end?.overhead ?? emptyUsage(), cache: null, cancelled: null }
      const doc = documentFromJournal(state)
      const resultsPath = join(cwd, shardFileName('eval-results.json', shard))
      writeResults(doc, { resultsPath, reportPath: join(cwd, shardFileName('eval-report.md', shard)) }, [API_KEY])
      paths.push(resultsPath)
    }
  } finally {
    await llm.close()
  }
  return paths
}

/** Run the shard with the bundled CLI until it has journaled REAL_RUNS runs, then interrupt it; its journal's path. */
async function runUntil(cli: string, cwd: string, shard: Shard, baseUrl: string): Promise<string> {
  const server = JSON.stringify({ command: PYTHON, args: ['-S', here('minimal_server.py')] })
  const args = [cli, '--server-config', server, '--eval-cases', 'evals.yaml', '--base-url', baseUrl, '--api-key', API_KEY, '--shard', `${shard.index}/${shard.count}`, '--concurrency', '4']
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stdout += d.toString()))
  const exited = once(child, 'exit')
  const journal = () => readdirSync(cwd).find((f) => f.startsWith('eval-runs') && f.endsWith('.jsonl'))
  const runsIn = (name: string) => readFileSync(join(cwd, name), 'utf8').split('\n').filter((l) => l.startsWith('{"type":"run"')).length
  for (;;) {
    const name = journal()
    if ((name && runsIn(name) >= REAL_RUNS) || child.exitCode !== null) break
    await new Promise((r) => setTimeout(r, 50))
  }
  child.kill('SIGINT')
  await exited
  writeFileSync(join(cwd, 'cli.stdout'), stdout)
  const name = journal()
  if (!name) throw new Error(`shard ${shard.index}/${shard.count} wrote no journal in ${cwd}:\n${stdout.slice(-2000)}`)
  return join(cwd, name)
}
