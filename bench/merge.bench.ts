// The merge of a large sharded suite: 4 shards × 2,500 runs (250 cases × 4 models × 2 prompts ×
// 5 repeats), their documents made by bench/shard-documents.ts, merged by the bundled CLI's
// `mcp-server-evals merge` as a process, timed from spawn to exit. Target: under 10 s.
//
//   npm run bench:merge
//   npm run bench:merge -- --repeats 5 --cases 500       (4 shards × 5,000 runs)
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { bundleOf } from './bundle.js'
import { cpuOf, machineLine, round, runHarness, tail } from './processes.js'
import { writeShardDocuments, type ShardedSuite } from './shard-documents.js'

const { values } = parseArgs({
  options: {
    repeats: { type: 'string', default: '3' },
    cases: { type: 'string', default: '250' },
    cli: { type: 'string' }
  }
})
const TARGET_S = 10
const suite: ShardedSuite = { cases: Number(values.cases), models: 4, prompts: 2, repeats: 5, shards: 4 }
const runs = suite.cases * suite.models * suite.prompts * suite.repeats

const bundle = await bundleOf('cli', values.cli)
const dir = mkdtempSync(join(tmpdir(), 'bench-merge-'))
const made = performance.now()
const shards = await writeShardDocuments(dir, suite, bundle.entry)
const mb = (bytes: number) => round(bytes / 2 ** 20, 1)
process.stdout.write(
  `merge benchmark: ${suite.shards} shards × ${runs / suite.shards} runs (${suite.cases} cases × ${suite.models} models × ${suite.prompts} prompts × ${suite.repeats} repeats), the bundled CLI (${bundle.entry}), ${machineLine()}\n` +
    `shard documents: ${shards.map((p) => `${mb(statSync(p).size)} MB`).join(', ')} (made in ${round((performance.now() - made) / 1000, 1)} s)\n\n` +
    "repeat | wall s | target | wall/target | CPU s | others' CPU s | peak RSS MB | merged document MB | exit\n---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---:\n"
)
const walls: number[] = []
for (let i = 1; i <= Number(values.repeats); i++) {
  const cwd = mkdtempSync(join(dir, 'merged-'))
  const merged = await runHarness(bundle.entry, ['merge', ...shards, '--output', join(cwd, 'eval-results.json'), '--report', join(cwd, 'eval-report.md'), '--junit', join(cwd, 'eval-junit.xml'), '--comment', join(cwd, 'comment.md')], {
    cwd,
    probeFile: join(cwd, 'probe.jsonl')
  })
  if (merged.code !== 0 && merged.code !== 1) throw new Error(`merge exited with ${merged.code}:\n${tail(merged.stderrPath)}\n${tail(merged.stdoutPath)}`)
  const s = merged.wall_ms / 1000
  walls.push(s)
  process.stdout.write(
    `${i} | ${round(s, 2)} | < ${TARGET_S} | ${round(s / TARGET_S, 2)} | ${round(cpuOf(merged.harness) / 1000, 2)} | ${round((merged.machine_cpu_ms - cpuOf(merged.harness)) / 1000, 2)} | ${round(merged.harness[0]?.max_rss_mb ?? NaN, 0)} | ${mb(statSync(join(cwd, 'eval-results.json')).size)} | ${merged.code}\n`
  )
}
walls.sort((a, b) => a - b)
process.stdout.write(`\nmedian ${round(walls[Math.floor(walls.length / 2)], 2)} s (target < ${TARGET_S} s)\n`)
rmSync(dir, { recursive: true, force: true })
