import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCliProcess } from '../__fixtures__/cli.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { kindOf, startScriptedLlm, type Responder, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { withoutTimings } from '../__fixtures__/timings.js'
import { demoBrain } from '../examples/demo-model/brain.js'
import { fatalDocument } from '../src/output/documents.js'
import { withoutFloatNoise } from '../src/output/write-results.js'
import type { JournalRecord } from '../src/execute/journal.js'
import { renderBadge } from '../src/report/badge.js'
import { renderComment } from '../src/report/comment.js'
import { renderJUnit } from '../src/report/junit.js'
import { renderMarkdownReport } from '../src/report/markdown.js'
import { renderSarif } from '../src/report/sarif.js'
import type { ResultsDocument } from '../src/results/types.js'

// The merge as users run it: the CLI as real processes, one per shard (as the jobs of a matrix),
// against the example server and a scripted model on 127.0.0.1.

const SERVER = JSON.stringify({ command: process.execPath, args: [fixturePath('../examples/server/server.mjs')] })

/** Several cases (hard and soft, one that fails), two models, two prompts, repeats, and two tool tests; conformance is on (auto). */
const SUITE = `judge_model: openai/gpt-4o-mini
models: [openai/gpt-4o-mini, anthropic/claude-haiku-4.5]
system_prompts:
  default: "You are a helpful travel assistant. Today is {today}."
  terse: "Answer in one short sentence. Date: {today}."
cases:
  - id: weather-paris
    prompt: What's the weather like in Paris right now?
    rubric: The answer states the current condition and temperature in Paris.
    required_tools: [get_weather]
    expect_tool: get_weather
    runs: 2
  - id: convert-eur-usd
    kind: hard
    prompt: How many US dollars is 250 euros?
    rubric: The answer gives the converted amount in US dollars.
    required_tools:
      - name: convert_currency
        args: { amount: 250, from: eur }
    expect_tool: convert_currency
    expect_args: { amount: 250, from: EUR }
  - id: greeting
    prompt: Hi! What can you help me with?
    rubric: The answer briefly explains what it can help with.
    required_tools: null
    runs: 3
  - id: train-joke
    prompt: Tell me a joke about trains.
    rubric: The answer tells a joke about trains.
    runs: 2
tool_tests:
  - id: convert-250-eur
    tool: convert_currency
    args: { amount: 250, from: EUR, to: USD }
    expect: { json: { "$.converted": { number: 270, tolerance: 0.01 } } }
    runs: 2
  - id: unknown-city-is-refused
    tool: get_weather
    args: { city: Atlantis }
    expect: { is_error: true, contains: unknown city }
`
const PLANNED = 32

/**
 * The demo model, with the judge's one-off requests (evaluation steps, semantic matches) reported
 * as free: each shard generates the steps of the rubrics it meets, so only then do an unsharded
 * run and the merge of its shards spend the same (the overhead's own test is below).
 */
const freeOneOffs: Responder = async (request, index) => {
  const reply = await demoBrain(request, index)
  const kind = kindOf(request)
  if (kind !== 'steps' && kind !== 'semantic') return reply
  return { ...reply, body: { ...(reply.body as object), usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cost: 0 } } }
}

const readDoc = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as ResultsDocument
const readRecords = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as JournalRecord)

/** The CLI's flags for the suite in `dir`/suite.yaml, run from a directory beside it (so every path in the documents is the same). */
const suiteFlags = (url: string, ...more: string[]) => ['--server-config', SERVER, '--eval-cases', '../suite.yaml', '--base-url', url, '--api-key', 'sk-test', '--concurrency', '2', ...more]

let llm: ScriptedLlm
let work: string
/** What the runs printed and returned. */
let whole: Awaited<ReturnType<typeof runCliProcess>>
let shardRuns: Awaited<ReturnType<typeof runCliProcess>>[]
let merged: Awaited<ReturnType<typeof runCliProcess>>
const shardFile = (i: number) => join(work, 'shards', `eval-results.shard-${i}-of-4.json`)

beforeAll(async () => {
  llm = await startScriptedLlm(freeOneOffs)
  work = mkdtempSync(join(tmpdir(), 'merge-'))
  writeFileSync(join(work, 'suite.yaml'), SUITE)
  mkdirSync(join(work, 'whole'))
  mkdirSync(join(work, 'shards'))
  // The unsharded run and the four shards at once, each its own process, as a matrix runs them.
  ;[whole, ...shardRuns] = await Promise.all([
    runCliProcess(suiteFlags(llm.url), join(work, 'whole')),
    ...[1, 2, 3, 4].map((i) => runCliProcess(suiteFlags(llm.url, '--shard', `${i}/4`), join(work, 'shards')))
  ])
  merged = await runCliProcess(['merge', 'eval-results.shard-*.json', '--junit', 'junit.xml', '--sarif', 'results.sarif', '--comment', 'comment.md'], join(work, 'shards'))
}, 240_000)
afterAll(async () => llm.close())

describe('a suite run as four shards in four processes, then merged, is the unsharded run', () => {
  test('every shard ran its share and no verdict; together they are the plan', () => {
    expect(whole.code).toBe(1) // train-joke fails its soft floor
    for (const [i, run] of shardRuns.entries()) {
      expect({ shard: i + 1, code: run.code, stderr: run.stderr }).toEqual({ shard: i + 1, code: 0, stderr: '' })
      expect(run.stdout).toContain(`SHARD ${i + 1}/4 DONE (no verdict until merged)`)
    }
    const shards = [1, 2, 3, 4].map((i) => readDoc(shardFile(i)))
    expect(shards.map((d) => d.runs.length).reduce((a, b) => a + b, 0)).toBe(PLANNED)
    expect(shards.every((d) => d.runs.length > 0 && d.gate === null)).toBe(true)
    // Conformance and the tool tests ran once, in shard 1.
    expect(shards.map((d) => [d.conformance !== null, d.tool_tests?.total ?? 0])).toEqual([[true, 2], [false, 0], [false, 0], [false, 0]])
  })

  test('the merge says what it merged, then the verdict of the whole suite, with the exit status of the unsharded run', () => {
    expect(merged.stderr).toBe('')
    expect(merged.code).toBe(whole.code)
    const lines = merged.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe(`Merging 4 shards: ${PLANNED} planned runs in 16 groups (case × model × prompt)`)
    expect(lines[1]).toMatch(/^ {2}shard 1: 8\/8 runs, conformance, 2 tool tests \(eval-results\.shard-1-of-4\.json\)$/)
    expect(lines.slice(2, 5)).toEqual([2, 3, 4].map((i) => `  shard ${i}: 8/8 runs (eval-results.shard-${i}-of-4.json)`))
    // The summary line is the unsharded run's, apart from the time.
    const summary = (out: string) => out.split('\n').find((l) => /^(PASSED|FAILED)/.test(l))?.replace(/ · [\d.]+s$/, '')
    expect(summary(merged.stdout)).toBe(summary(whole.stdout))
    expect(lines.slice(-5)).toEqual(['Results: eval-results.json', 'Report:  eval-report.md', 'HTML:    eval-report.html', 'Journal: eval-runs.jsonl', 'Comment: comment.md'])
  })

  test('the merged document equals the unsharded one apart from timings', () => {
    const unsharded = readDoc(join(work, 'whole/eval-results.json'))
    const fromShards = readDoc(join(work, 'shards/eval-results.json'))
    expect(fromShards.shard).toBeNull()
    expect(fromShards.gate).not.toBeNull()
    expect(fromShards.runs).toHaveLength(PLANNED)
    expect(withoutTimings(fromShards)).toEqual(withoutTimings(unsharded))
  })

  test('the report, JUnit, SARIF, badge and comment rendered from the two are byte-identical', () => {
    const [a, b] = [join(work, 'whole/eval-results.json'), join(work, 'shards/eval-results.json')].map((p) => withoutTimings(readDoc(p)))
    const context = { marker: '<!-- mcp-server-evals:sticky:test -->', links: {} }
    expect(renderMarkdownReport(b)).toBe(renderMarkdownReport(a))
    expect(renderJUnit(b)).toBe(renderJUnit(a))
    expect(JSON.stringify(renderSarif(b))).toBe(JSON.stringify(renderSarif(a)))
    expect(JSON.stringify(renderBadge(b))).toBe(JSON.stringify(renderBadge(a)))
    expect(renderComment(b, context)).toBe(renderComment(a, context))
    // The files the merge wrote are those renderings of its own document.
    const written = readDoc(join(work, 'shards/eval-results.json'))
    expect(readFileSync(join(work, 'shards/eval-report.md'), 'utf8')).toBe(renderMarkdownReport(written))
    expect(readFileSync(join(work, 'shards/junit.xml'), 'utf8')).toBe(renderJUnit(written))
    expect(readFileSync(join(work, 'shards/comment.md'), 'utf8')).toBe(renderComment(written, { marker: '<!-- mcp-server-evals:sticky:local -->', links: {} }))
    expect(existsSync(join(work, 'shards/results.sarif'))).toBe(true)
  })

  test('the merged journal is the unsharded journal apart from timings, and report --from it writes the same document', async () => {
    const byType = (records: JournalRecord[]) => {
      const runs = records.filter((r) => r.type === 'run').sort((x, y) => (x.type === 'run' && y.type === 'run' ? x.run.index - y.run.index : 0))
      const tests = records.filter((r) => r.type === 'tool_test').sort((x, y) => (x.type === 'tool_test' && y.type === 'tool_test' ? x.test.id.localeCompare(y.test.id) : 0))
      // A shard's document holds its runs' fractions as written (to 12 digits), as the merged journal then does.
      return withoutTimings(withoutFloatNoise([...records.filter((r) => r.type !== 'run' && r.type !== 'tool_test'), ...runs, ...tests]))
    }
    expect(byType(readRecords(join(work, 'shards/eval-runs.jsonl')))).toEqual(byType(readRecords(join(work, 'whole/eval-runs.jsonl'))))
    const again = await runCliProcess(['report', '--from', 'eval-runs.jsonl', '--output', 'again.json', '--report', 'again.md'], join(work, 'shards'))
    expect(again.code).toBe(merged.code)
    expect(readFileSync(join(work, 'shards/again.json'), 'utf8')).toBe(readFileSync(join(work, 'shards/eval-results.json'), 'utf8'))
  })
})

describe('what the judge spends once per rubric', () => {
  test('is, merged, the sum of what each shard spent (each generates the steps of the rubrics it meets)', async () => {
    const paid = await startScriptedLlm(demoBrain)
    try {
      const dir = mkdtempSync(join(tmpdir(), 'merge-overhead-'))
      writeFileSync(join(dir, 'suite.yaml'), SUITE)
      mkdirSync(join(dir, 'run'))
      const flags = (i: number) => suiteFlags(paid.url, '--shard', `${i}/2`, '--conformance', 'off', '--tool-tests', 'off', '--models', 'openai/gpt-4o-mini')
      const shards = await Promise.all([1, 2].map((i) => runCliProcess(flags(i), join(dir, 'run'))))
      expect(shards.map((s) => s.code)).toEqual([0, 0])
      expect((await runCliProcess(['merge', 'eval-results.shard-1-of-2.json', 'eval-results.shard-2-of-2.json'], join(dir, 'run'))).code).toBe(1)
      const docs = [1, 2].map((i) => readDoc(join(dir, 'run', `eval-results.shard-${i}-of-2.json`)))
      const overheads = docs.map((d) => d.shard!.overhead.total_tokens)
      // Both shards judged runs, so both generated evaluation steps: a sum of two non-zero figures.
      expect(overheads.every((t) => t > 0)).toBe(true)
      const end = readRecords(join(dir, 'run/eval-runs.jsonl')).find((r) => r.type === 'end')
      expect(end?.type === 'end' && end.overhead.total_tokens).toBe(overheads[0]! + overheads[1]!)
      const mergedDoc = readDoc(join(dir, 'run/eval-results.json'))
      expect(mergedDoc.summary.tokens.judge.total_tokens).toBe(docs[0]!.summary.tokens.judge.total_tokens + docs[1]!.summary.tokens.judge.total_tokens)
    } finally {
      await paid.close()
    }
  }, 120_000)
})

describe('a server shard 1 cannot reach', () => {
  test('merges to what an unsharded run writes: behaviour skipped once with the reason, no runs (the other shards\' errored runs left out)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'merge-unreachable-'))
    writeFileSync(join(dir, 'suite.yaml'), SUITE)
    mkdirSync(join(dir, 'whole'))
    mkdirSync(join(dir, 'shards'))
    const flags = (...more: string[]) => ['--server-config', JSON.stringify({ command: '/bin/false' }), '--eval-cases', '../suite.yaml', '--base-url', llm.url, '--api-key', 'sk-test', ...more]
    const [unsharded, ...shards] = await Promise.all([runCliProcess(flags(), join(dir, 'whole')), ...[1, 2].map((i) => runCliProcess(flags('--shard', `${i}/2`), join(dir, 'shards')))])
    expect(unsharded.code).toBe(1)
    expect(shards.map((s) => s.code)).toEqual([0, 0])
    // A shard gives no verdict, also when it found the server unreachable: its line says so, not FAILED.
    expect(shards[0]!.stdout).toContain('SHARD 1/2 DONE (no verdict until merged): server unreachable')
    // Shard 1 found the server unreachable; shard 2, with no probe of its own, tried its runs.
    expect(readDoc(join(dir, 'shards/eval-results.shard-2-of-2.json')).runs.length).toBeGreaterThan(0)
    const merge = await runCliProcess(['merge', 'eval-results.shard-*.json'], join(dir, 'shards'))
    expect(merge.stderr).toBe('')
    expect(merge.code).toBe(1)
    const fromShards = readDoc(join(dir, 'shards/eval-results.json'))
    expect(fromShards.runs).toEqual([])
    expect(fromShards.behaviour.status).toBe('skipped')
    expect(withoutTimings(fromShards)).toEqual(withoutTimings(readDoc(join(dir, 'whole/eval-results.json'))))
  }, 120_000)
})

describe('a cancelled shard', () => {
  test('makes the merged evaluation cancelled, out of the whole plan, with the runs every shard finished; it never passes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'merge-cancelled-'))
    for (const i of [1, 2, 4]) copyFileSync(shardFile(i), join(dir, `eval-results.shard-${i}-of-4.json`))
    // Shard 3's job was cancelled after six of its eight runs (the document a cancelled shard writes: its last runs cancelled).
    const third = readDoc(shardFile(3))
    const runs = third.runs.map((r, i) => (i < 6 ? r : { ...r, status: 'cancelled' as const, success: false }))
    writeFileSync(join(dir, 'eval-results.shard-3-of-4.json'), JSON.stringify({ ...third, runs, passed: false, cancelled: { signal: 'SIGTERM', at: '2026-12-01T10:00:00.000Z', planned: 8, finished: 6 } }))
    const result = await runCliProcess(['merge', 'eval-results.shard-*.json'], dir)
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('  shard 3: 8/8 runs, cancelled (eval-results.shard-3-of-4.json)')
    const doc = readDoc(join(dir, 'eval-results.json'))
    expect(doc.cancelled).toEqual({ signal: 'SIGTERM', at: '2026-12-01T10:00:00.000Z', planned: PLANNED, finished: PLANNED - 2 })
    expect(doc).toMatchObject({ passed: false, gate: null })
  })
})

describe('shards that are not one whole suite are refused, naming the file (exit 2, nothing written)', () => {
  /** Each case: a directory of its own with the files to merge, the merge's arguments, and what stderr must say. */
  interface Refusal {
    name: string
    files: Record<string, string | ((docs: ResultsDocument[]) => unknown)>
    args: string[]
    message: RegExp
  }
  const shard = (i: number) => (docs: ResultsDocument[]) => docs[i - 1]
  const all = { 'eval-results.shard-1-of-4.json': shard(1), 'eval-results.shard-2-of-4.json': shard(2), 'eval-results.shard-3-of-4.json': shard(3), 'eval-results.shard-4-of-4.json': shard(4) }
  const changed = (i: number, change: (doc: ResultsDocument) => void) => (docs: ResultsDocument[]) => {
    const doc = structuredClone(docs[i - 1]!)
    change(doc)
    return doc
  }
  const refusals: Refusal[] = [
    {
      name: 'a missing shard',
      files: { 'eval-results.shard-1-of-4.json': shard(1), 'eval-results.shard-2-of-4.json': shard(2), 'eval-results.shard-4-of-4.json': shard(4) },
      args: ['eval-results.shard-*.json'],
      message: /^error: shard 3 of 4 is missing: given were shard 1 \(eval-results\.shard-1-of-4\.json\), 2 \(eval-results\.shard-2-of-4\.json\), 4 \(eval-results\.shard-4-of-4\.json\)/
    },
    {
      name: 'a duplicated shard',
      files: { ...all, 'again/eval-results.shard-2-of-4.json': shard(2) },
      args: ['eval-results.shard-*.json', 'again/eval-results.shard-2-of-4.json'],
      message: /^error: eval-results\.shard-2-of-4\.json and again\/eval-results\.shard-2-of-4\.json are both shard 2 of 4/
    },
    {
      name: 'a shard of another suite',
      files: { ...all, 'eval-results.shard-3-of-4.json': changed(3, (d) => (d.shard!.suite_hash = '0123456789abcdef')) },
      args: ['eval-results.shard-*.json'],
      message: /^error: eval-results\.shard-3-of-4\.json: the suite \(suite_hash: .*\) differs from eval-results\.shard-1-of-4\.json's \(0123456789abcdef, not [0-9a-f]{16}\)/
    },
    {
      name: 'a shard run with other models',
      files: { ...all, 'eval-results.shard-4-of-4.json': changed(4, (d) => (d.config!.models = ['openai/gpt-4o'])) },
      args: ['eval-results.shard-*.json'],
      message: /^error: eval-results\.shard-4-of-4\.json: config\.models differs from eval-results\.shard-1-of-4\.json's \(\["openai\/gpt-4o"\], not \["openai\/gpt-4o-mini","anthropic\/claude-haiku-4\.5"\]\)/
    },
    {
      name: 'a shard whose cases say otherwise',
      files: { ...all, 'eval-results.shard-2-of-4.json': changed(2, (d) => (d.shard!.cases[2]!.rubric = 'Another rubric.')) },
      args: ['eval-results.shard-*.json'],
      message: /^error: eval-results\.shard-2-of-4\.json: cases\[2\]\.rubric \(case greeting\) differs from eval-results\.shard-1-of-4\.json's \(Another rubric\., not The answer briefly explains what it can help with\.\)/
    },
    {
      name: 'a shard written by another version',
      files: { ...all, 'eval-results.shard-2-of-4.json': changed(2, (d) => (d.tool.version = '0.0.1')) },
      args: ['eval-results.shard-*.json'],
      message: /^error: eval-results\.shard-2-of-4\.json: was written by mcp-server-evals 0\.0\.1, and this merge is mcp-server-evals \d+\.\d+\.\d+/
    },
    {
      name: 'the results of an unsharded run',
      files: { ...all, 'eval-results.json': () => readDoc(join(work, 'whole/eval-results.json')) },
      args: ['eval-results*.json'],
      message: /^error: eval-results\.json: is not a shard's results \(it has no shard section: it is the results of an unsharded run\)/
    },
    {
      name: 'a shard whose evaluation could not run',
      files: { ...all, 'eval-results.shard-3-of-4.json': () => fatalDocument("input 'eval_cases' suite.yaml: cannot read eval cases file") },
      args: ['eval-results.shard-*.json'],
      message: /^error: eval-results\.shard-3-of-4\.json: this shard's evaluation could not run: input 'eval_cases' suite\.yaml: cannot read eval cases file/
    },
    {
      name: 'a run in two shards',
      files: { ...all, 'eval-results.shard-2-of-4.json': (docs) => ({ ...docs[1]!, runs: [...docs[1]!.runs, docs[0]!.runs[0]] }) },
      args: ['eval-results.shard-*.json'],
      message: /^error: the run .+ \(attempt \d\) is in both eval-results\.shard-1-of-4\.json and eval-results\.shard-2-of-4\.json: the shards overlap/
    },
    {
      name: 'shards that do not add up to the plan',
      files: { ...all, 'eval-results.shard-4-of-4.json': changed(4, (d) => (d.shard!.planned -= 1)) },
      args: ['eval-results.shard-*.json'],
      message: /^error: the shards plan 31 runs in 16 groups, and the suite 32 runs in 16 groups \(.*eval-results\.shard-4-of-4\.json: 7\): they do not split one plan/
    },
    {
      name: 'a file that is not JSON',
      files: { ...all, 'eval-results.shard-1-of-4.json': 'not json' },
      args: ['eval-results.shard-*.json'],
      message: /^error: eval-results\.shard-1-of-4\.json: is not JSON, so not a shard's results document/
    },
    {
      name: 'a glob that matches nothing',
      files: all,
      args: ['shards/*.json'],
      message: /^error: 'shards\/\*\.json' matches no file/
    },
    {
      name: 'a file that is not there',
      files: all,
      args: ['eval-results.shard-*.json', 'eval-results.shard-5-of-4.json'],
      message: /^error: 'eval-results\.shard-5-of-4\.json' matches no file/
    },
    {
      name: 'an output over a shard',
      files: all,
      args: ['eval-results.shard-*.json', '--output', 'eval-results.shard-1-of-4.json'],
      message: /^error: eval-results\.shard-1-of-4\.json: is a shard's results, and the merged results would be written over it/
    }
  ]
  const outcomes = new Map<string, { dir: string; before: string[]; result: Awaited<ReturnType<typeof runCliProcess>> }>()

  beforeAll(async () => {
    const docs = [1, 2, 3, 4].map((i) => readDoc(shardFile(i)))
    await Promise.all(
      refusals.map(async ({ name, files, args }) => {
        const dir = mkdtempSync(join(tmpdir(), 'merge-refusal-'))
        for (const [file, content] of Object.entries(files)) {
          mkdirSync(join(dir, file, '..'), { recursive: true })
          if (typeof content === 'string') writeFileSync(join(dir, file), content)
          else writeFileSync(join(dir, file), JSON.stringify(content(docs)))
        }
        const before = readdirSync(dir, { recursive: true }).map(String).sort()
        outcomes.set(name, { dir, before, result: await runCliProcess(['merge', ...args], dir) })
      })
    )
  }, 120_000)

  test.each(refusals.map((r) => [r.name, r] as const))('%s', (name, { message }) => {
    const { dir, before, result } = outcomes.get(name)!
    expect(result.stderr).toMatch(message)
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(readdirSync(dir, { recursive: true }).map(String).sort()).toEqual(before)
  })

  test('the same shards, complete, merge (so each refusal above is about what was changed)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'merge-whole-'))
    for (const i of [1, 2, 3, 4]) copyFileSync(shardFile(i), join(dir, `eval-results.shard-${i}-of-4.json`))
    const result = await runCliProcess(['merge', 'eval-results.shard-1-of-4.json', 'eval-results.shard-[2-4]-of-4.json'], dir)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(merged.code)
  })
})
