import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoBrain } from '../examples/demo-model/brain.js'
import { runCliProcess } from '../__fixtures__/cli.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { startScriptedLlm, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import type { ResultsDocument } from '../src/results/types.js'

// An evals/v1 suite resumed after an interruption, and split across two shards then merged, as a
// user runs them: the CLI as a child process, the example server, the demo model on 127.0.0.1.
const server = fixturePath('../examples/server/server.mjs')

const SUITE = `apiVersion: mcp-use.com/evals/v1
kind: EvalSuite
name: resume-and-shard
server:
  command: node
  args: [${JSON.stringify(server)}]
flows:
  - id: main
    type: agent
    clients:
      - target: mcp-use
        models: [openai/gpt-4o-mini, anthropic/claude-haiku-4.5]
      - target: chatgpt
    checks:
      - id: forecast
        call: { tool: get_forecast, args: { city: paris } }
        assert: [{ kind: outputSchemaValid }, { kind: jsonpath, path: $.structuredContent.city, equals: Paris }]
    scenarios:
      - id: weather
        turns:
          - user: What's the weather like in Paris right now?
            expect: { tools: [{ name: get_weather, args: { city: paris } }] }
      - id: destinations
        turns:
          - user: Find destinations for tokyo and show them to me.
            expect: { widget: { fields: { query: tokyo } } }
`

interface ResultsJson {
  passed: boolean
  checks: { id: string; passed: boolean }[]
  scenarios: { scenarioId: string; model: string; success: boolean }[]
  metrics: { scenarios: { total: number; passed: number }; byClient: Record<string, { count: number }> }
  notRunParts: { what: string; where: string }[]
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T
const pairs = (results: ResultsJson) => results.scenarios.map((s) => `${s.scenarioId} · ${s.model}`).sort()

describe('an evals/v1 suite, resumed and sharded', () => {
  let llm: ScriptedLlm
  let dir: string
  let suite: string
  beforeAll(async () => {
    llm = await startScriptedLlm(demoBrain)
    dir = mkdtempSync(join(tmpdir(), 'evals-v1-rs-'))
    suite = join(dir, 'smoke.suite.yaml')
    writeFileSync(suite, SUITE)
  })
  afterAll(async () => llm.close())
  const model = () => ['--api-key', 'sk-test', '--base-url', llm.url]

  test('a resumed run reuses what the interrupted one finished and writes the same results.json', async () => {
    const out = join(dir, 'resume')
    const first = await runCliProcess(['--eval-suite', suite, '--output-dir', out, ...model()], dir)
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    const complete = readJson<ResultsJson>(join(out, 'results.json'))
    expect(pairs(complete)).toHaveLength(4)

    // The interruption: the journal lost its last run and its end, as when the job is killed mid-run.
    const journal = join(out, 'eval-runs.jsonl')
    const lines = readFileSync(journal, 'utf8').trim().split('\n')
    const runs = lines.filter((l) => l.includes('"type":"run"'))
    expect(runs).toHaveLength(4)
    const cut = lines.filter((l) => l !== runs[3] && !l.startsWith('{"type":"end"'))
    writeFileSync(journal, cut.join('\n') + '\n')
    const asked = llm.requests.length

    const resumed = await runCliProcess(['--eval-suite', suite, '--output-dir', out, '--resume', ...model()], dir)
    expect(resumed.code).toBe(0)
    const doc = readJson<ResultsDocument>(join(out, 'eval-results.json'))
    expect(doc.journal).toMatchObject({ reused: 3 })
    // One run ran again (two model calls: a tool call and the answer), the other three did not.
    expect(llm.requests.length - asked).toBe(2)
    const again = readJson<ResultsJson>(join(out, 'results.json'))
    expect(pairs(again)).toEqual(pairs(complete))
    expect([again.passed, again.metrics.scenarios, again.checks.map((c) => c.passed)]).toEqual([true, { ...complete.metrics.scenarios }, [true]])
    expect(doc.evals_v1?.name).toBe('resume-and-shard')
    expect(again.notRunParts.map((p) => `${p.what} ${p.where}`)).toEqual(['client flows[0].clients[1]'])
  }, 60_000)

  test('two shards merged give the results.json of the whole suite', async () => {
    const shards = join(dir, 'shards')
    for (const shard of ['1/2', '2/2']) {
      const run = await runCliProcess(['--eval-suite', suite, '--output-dir', shards, '--shard', shard, ...model()], dir)
      expect(run.code).toBe(0)
    }
    // A shard has no verdict: results.json is the merge's to write.
    const merged = join(dir, 'merged')
    const merge = await runCliProcess(['merge', join(shards, 'eval-results.shard-*.json'), '--output', join(merged, 'eval-results.json'), '--report', join(merged, 'report.md'), '--output-dir', merged], dir)
    expect(merge.stderr).toBe('')
    expect(merge.code).toBe(0)
    const results = readJson<ResultsJson>(join(merged, 'results.json'))
    expect(pairs(results)).toEqual(['destinations · anthropic/claude-haiku-4.5', 'destinations · openai/gpt-4o-mini', 'weather · anthropic/claude-haiku-4.5', 'weather · openai/gpt-4o-mini'])
    expect(results.passed).toBe(true)
    expect(results.checks).toEqual([expect.objectContaining({ id: 'forecast', passed: true })])
    expect(results.metrics.byClient).toEqual({ 'mcp-use': { passRate: 1, count: 4 } })
    expect(readFileSync(join(merged, 'report.md'), 'utf8')).toContain('chatgpt')
  }, 60_000)
})
