import { afterAll, describe, expect, test } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { evalsRun, evalsV1Document, evalsV1Section, failedEvalsRun, goldenCheck, turn } from '../__fixtures__/evals-v1.js'
import { journalHeader } from '../__fixtures__/journal.js'
import { gfm, seen } from '../__fixtures__/rendered.js'
import { HOSTILE } from '../__fixtures__/report-shapes.js'
import { assembleDocument } from '../src/aggregate/document.js'
import { documentFromJournal, JournalError, JournalWriter, readJournal } from '../src/execute/journal.js'
import { shapeProblem } from '../src/execute/record-shapes.js'
import { mergeCommand } from '../src/cli/merge.js'
import { checkShardSet } from '../src/merge/check-shards.js'
import { mergeShards } from '../src/merge/merge-document.js'
import { MergeError, readShardFiles } from '../src/merge/read-shards.js'
import { evalsV1Results } from '../src/output/evals-v1-results.js'
import { writeResults } from '../src/output/write-results.js'
import { renderComment } from '../src/report/comment.js'
import { renderMarkdownReport } from '../src/report/markdown.js'
import type { EvalsV1Section, ResultsDocument, RunResult, ShardSection, ToolTestsSection } from '../src/results/types.js'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'evals-v1-outputs-'))
  dirs.push(dir)
  return dir
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

/** One check (tool test) with one attempt: an executionError rule that held and a jsonpath rule that did not. */
const toolTests = (): ToolTestsSection => ({
  status: 'ran',
  reason: null,
  snapshot_dir: '__snapshots__',
  total: 2,
  passed: 0,
  failed: 1,
  errored: 1,
  cancelled: 0,
  tests: [
    {
      id: 'fetch-weather-paris',
      tags: [],
      status: 'failed',
      passed: false,
      runs: 1,
      duration_ms: 12,
      attempts: [
        {
          attempt: 1,
          status: 'failed',
          error: null,
          stderr_tail: null,
          duration_ms: 12,
          steps: [
            {
              index: 1,
              tool: 'fetch-weather',
              args: { city: 'paris' },
              latency_ms: 10,
              response: { kind: 'result', is_error: false, content: [{ type: 'text', text: '{"city":"berlin"}' }], structured_content: { city: 'berlin' } },
              checks: [
                { check: 'is_error', path: null, passed: true, expected: false, actual: false, reason: 'not an error' },
                { check: 'jsonpath', path: '$.structuredContent.city', passed: false, expected: 'paris', actual: 'berlin', reason: '$.structuredContent.city is "berlin", not "paris"' }
              ],
              captured: {},
              passed: false,
              observed: { calls: 1, findings: [] }
            } as unknown as ToolTestsSection['tests'][number]['attempts'][number]['steps'][number]
          ]
        }
      ]
    },
    {
      id: 'list-tools',
      tags: [],
      status: 'error',
      passed: false,
      runs: 1,
      duration_ms: 3,
      attempts: [{ attempt: 1, status: 'error', error: 'the server did not start', stderr_tail: null, duration_ms: 3, steps: [] }]
    }
  ]
})

/** A two-turn scenario whose result check failed while its tools and widget checks held. */
function scenarioRun(): RunResult {
  const base = evalsRun()
  return failedEvalsRun({
    case_id: 'convert',
    tool_calls: [base.tool_calls[0]!, { ...base.tool_calls[0]!, name: 'search-tools', args: { query: 'mango' } }],
    dialogue: {
      kind: 'turns',
      ended: 'script_done',
      user_model: null,
      user_usage: null,
      user_latency_ms: null,
      turns_passed: false,
      turns: [
        turn(1, { first_call: 0, calls: 1, golden_assertions: { passed: true, checks: [goldenCheck('tools', true)] } }),
        turn(2, { first_call: 1, calls: 1, passed: false, golden_assertions: { passed: false, checks: [goldenCheck('tools', true), goldenCheck('result', false, 'no result'), goldenCheck('widget', true)] } })
      ]
    }
  })
}

const SCENARIO_KEYS = ['scenarioId', 'client', 'model', 'systemPrompt', 'success', 'toolTracePassed', 'resultPassed', 'widgetPassed', 'judgePassed', 'judgeScore', 'judgeReason', 'toolCalls', 'durationMs', 'agentSteps', 'usage', 'errors']

describe("results.json in @mcp-use/evals' shape", () => {
  const doc = evalsV1Document([evalsRun(), scenarioRun()], { tool_tests: toolTests() })
  const results = evalsV1Results(doc, 'eval-results/eval-results.json')

  test("the top level: theirs in their order, then ours", () => {
    expect(Object.keys(results)).toEqual(['suite', 'passed', 'checks', 'scenarios', 'metrics', 'document', 'notRun', 'notRunParts'])
    expect([results.suite, results.passed, results.document]).toEqual(['smoke', false, 'eval-results/eval-results.json'])
    // The parts of the suite not run here are the document's evals_v1.not_run, as they are.
    expect(results.notRunParts).toEqual(doc.evals_v1?.not_run)
  })

  test("a scenario: ScenarioRunResult's fields by their names, then attempt and status", () => {
    expect(Object.keys(results.scenarios[0]!)).toEqual([...SCENARIO_KEYS, 'attempt', 'status'])
    expect(results.scenarios[0]!.judgeScore).toBeCloseTo(0.87, 10)
    expect(Object.keys(results.scenarios[0]!.usage)).toEqual(['promptTokens', 'completionTokens', 'totalTokens'])
    expect(Object.keys(results.scenarios[0]!.toolCalls[0]!)).toEqual(['tool', 'args', 'turnIndex', 'result'])
    expect(results.scenarios[0]).toMatchObject({ scenarioId: 'weather-paris', client: 'mcp-use', model: 'openai/gpt-4o-mini', systemPrompt: 'default', success: true, judgePassed: true, agentSteps: 3, durationMs: 1500, errors: [] })
  })

  test('toolTracePassed, resultPassed and widgetPassed come each from its own checks, not from success', () => {
    const scenario = results.scenarios[1]!
    expect([scenario.success, scenario.toolTracePassed, scenario.resultPassed, scenario.widgetPassed]).toEqual([false, true, false, true])
    expect(scenario.errors).toEqual(['turn 2: no result'])
    expect(scenario.toolCalls.map((c) => [c.tool, c.turnIndex])).toEqual([
      ['get_weather', 0],
      ['search-tools', 1]
    ])
    // A reason that says "tool" does not fail the tool trace (it did there).
    const judged = evalsV1Results(evalsV1Document([failedEvalsRun({ judge: { ...evalsRun().judge!, score: 0.2, reason: 'never used the right tool' } })]), undefined).scenarios[0]!
    expect([judged.toolTracePassed, judged.judgePassed, judged.errors]).toEqual([true, false, ['judge: never used the right tool (score 0.2)']])
  })

  test("a check: CheckResult's fields, kinds by evals/v1's names, the raw result as output, why it had none as error", () => {
    expect(results.checks).toEqual([
      {
        id: 'fetch-weather-paris',
        passed: false,
        outcomes: [
          { kind: 'executionError', passed: true, reason: 'not an error' },
          { kind: 'jsonpath', passed: false, reason: '$.structuredContent.city is "berlin", not "paris"' }
        ],
        durationMs: 12,
        output: { content: [{ type: 'text', text: '{"city":"berlin"}' }], structuredContent: { city: 'berlin' }, isError: false },
        attempt: 1
      },
      { id: 'list-tools', passed: false, outcomes: [{ kind: 'call', passed: false, reason: 'the server did not start' }], durationMs: 3, error: 'the server did not start', attempt: 1 }
    ])
    expect(results.metrics.checks).toEqual({ total: 2, passed: 0 })
  })

  test('runs without a verdict are listed under notRun, in no scenario and no figure', () => {
    const skipped = evalsRun({ attempt: 2, status: 'skipped', success: false, skipped: { reason: 'budget', detail: 'the spend reached max_cost_usd ($0.01 of $0.01) before this run started' } })
    const withSkip = evalsV1Results(evalsV1Document([evalsRun(), skipped]), undefined)
    expect([withSkip.scenarios.length, withSkip.metrics.scenarios.total, withSkip.document]).toEqual([1, 1, null])
    expect(withSkip.notRun).toEqual([{ scenarioId: 'weather-paris', client: 'mcp-use', model: 'openai/gpt-4o-mini', systemPrompt: 'default', attempt: 2, status: 'skipped', reason: 'the spend reached max_cost_usd ($0.01 of $0.01) before this run started' }])
  })
})

describe('writeResults: results.json and metrics.json beside the document', () => {
  test('written into the output_dir for an evals/v1 document, redacted', () => {
    const dir = tempDir()
    const secret = 'sk-very-secret-123456'
    const doc = evalsV1Document([evalsRun({ final_output: `the key is ${secret}` , tool_calls: [{ ...evalsRun().tool_calls[0]!, result: `token ${secret}` }] })])
    const written = writeResults(doc, { resultsPath: join(dir, 'eval-results.json'), reportPath: join(dir, 'report.md'), evalsV1Dir: dir }, [secret])
    expect(written.files).toEqual([join(dir, 'eval-results.json'), join(dir, 'results.json'), join(dir, 'metrics.json'), join(dir, 'report.md')])
    const results = readFileSync(join(dir, 'results.json'), 'utf8')
    expect(results).not.toContain(secret)
    expect(JSON.parse(results).document).toBe(join(dir, 'eval-results.json'))
    expect(JSON.parse(readFileSync(join(dir, 'metrics.json'), 'utf8'))).toEqual(JSON.parse(results).metrics)
  })

  test("not written for an eval_cases document, without an output_dir, nor for one shard's document (the merge's verdict is the suite's)", () => {
    const dir = tempDir()
    writeResults(evalsV1Document([evalsRun()], { section: null }), { resultsPath: join(dir, 'eval-results.json'), reportPath: join(dir, 'report.md'), evalsV1Dir: dir }, [])
    writeResults(evalsV1Document([evalsRun()]), { resultsPath: join(dir, 'other.json'), reportPath: join(dir, 'other.md'), evalsV1Dir: '' }, [])
    const shard: ShardSection = { index: 1, count: 2, planned_total: 2, groups_total: 2, groups: 1, suite_hash: 'abc', planned: 1, cases: [], tool_tests_plan: null, overhead: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } }
    writeResults({ ...evalsV1Document([evalsRun()]), shard }, { resultsPath: join(dir, 'shard.json'), reportPath: join(dir, 'shard.md'), evalsV1Dir: dir }, [])
    expect(existsSync(join(dir, 'shard.json'))).toBe(true)
    expect([existsSync(join(dir, 'results.json')), existsSync(join(dir, 'metrics.json'))]).toEqual([false, false])
  })

  test('never over our results document: that one is written, results.json refused saying why', () => {
    const dir = tempDir()
    const paths = { resultsPath: join(dir, 'results.json'), reportPath: join(dir, 'report.md'), evalsV1Dir: dir }
    expect(() => writeResults(evalsV1Document([evalsRun()]), paths, [])).toThrow(/results\.json: the evals\/v1 results\.json could not be rendered \(it is also the path of another file written here/)
    expect(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).version).toBe(9)
    expect(existsSync(join(dir, 'metrics.json'))).toBe(true)
  })
})

describe('the report and the comment', () => {
  const hostile = (): EvalsV1Section =>
    evalsV1Section({
      name: `smoke ${HOSTILE}`,
      intent: `intent ${HOSTILE}`,
      flows: [{ id: `main ${HOSTILE}`, checks: [], scenarios: ['weather-paris'] }],
      clients: [
        { flow: 'main', target: 'mcp-use', models: [`model ${HOSTILE}`], disallowed_tools: [], run_on: null, run: true, reason: null },
        { flow: 'main', target: 'chatgpt', models: [], disallowed_tools: [], run_on: null, run: false, reason: `hosted ${HOSTILE}` }
      ],
      gates: { toolErrorRateMax: 0.5, agentStepsP95Max: null, tokensPerSuccessP95Max: null },
      not_run: [{ what: 'widget_screenshot', where: `flows[0].scenarios[0].turns[0].expect.widget.screenshot ${HOSTILE}`, reason: `needs a browser ${HOSTILE}` }]
    })

  test('its section: name, intent, clients run and not run with why, screenshots not run, the gates; every suite text escaped', () => {
    const report = renderMarkdownReport(evalsV1Document([evalsRun()], { section: hostile(), budgets: { max_tool_error_rate: 0.5 } }))
    // The section alone (the rest of the report has its own images: badges).
    const start = report.indexOf('## evals/v1 suite')
    const section = report.slice(start, report.indexOf('\n## ', start + 1))
    expect(start).toBeGreaterThan(0)
    const html = gfm.render(section)
    expect(html).not.toMatch(/<img|<\/details>|<a |href=/)
    const text = seen(section)
    expect(text).toContain(`evals/v1 suite smoke ${HOSTILE.slice(0, 30)}`)
    expect(text).toContain(`intent ${HOSTILE.slice(0, 30)}`)
    expect(text).toContain('⏭ chatgpt in flow main, not run: hosted <img')
    expect(text).toContain('widget screenshot at flows[0].scenarios[0].turns[0].expect.widget.screenshot <img')
    expect(text).toContain('✅ toolErrorRateMax: 0.5 (the budget max_tool_error_rate ): tool error rate 0 (0 errors in 1 run)')
    const failing = seen(renderMarkdownReport(evalsV1Document([failedEvalsRun()], { section: hostile(), budgets: { max_tool_error_rate: 0.5 } })))
    expect(failing).toContain('❌ toolErrorRateMax: 0.5 (the budget max_tool_error_rate ): tool error rate 1 (1 error in 1 run)')
  })

  test('the comment: one line when part of the suite did not run, none when everything ran', () => {
    const comment = renderComment(evalsV1Document([evalsRun()], { section: hostile() }), { marker: '<!-- m -->', links: {} })
    const line = comment.split('\n').find((l) => l.startsWith('**evals/v1 suite'))
    expect(seen(line!).trim()).toBe(`evals/v1 suite smoke ${HOSTILE} — not run here: 1 client (chatgpt: hosted ${HOSTILE}), 1 widget screenshot; see the job summary.`)
    expect(gfm.render(line!)).not.toMatch(/<img|<\/details>|<a |href=/)
    const everything = evalsV1Section({ clients: [evalsV1Section().clients[0]!], not_run: [] })
    expect(renderComment(evalsV1Document([evalsRun()], { section: everything }), { marker: '<!-- m -->', links: {} })).not.toContain('evals/v1 suite')
  })
})

describe('the evals_v1 section through the journal, the schema and the merge', () => {
  test('a journal keeps it: the document rebuilt from it (a resumed run, report --from) has it', () => {
    const dir = tempDir()
    const doc = evalsV1Document([evalsRun()])
    const header = { ...journalHeader(1, { config: doc.config!, cases: [] }), evals_v1: evalsV1Section() }
    const writer = new JournalWriter(join(dir, 'eval-runs.jsonl'), header, [], [])
    writer.append({ type: 'run', run: doc.runs[0]! })
    writer.close()
    const { state, skipped } = readJournal(join(dir, 'eval-runs.jsonl'))
    expect(skipped).toBe(0)
    expect(documentFromJournal(state).evals_v1).toEqual(evalsV1Section())
    // An eval_cases suite's journal has none, and its document no key.
    const plain = new JournalWriter(join(dir, 'plain.jsonl'), journalHeader(0, { config: doc.config!, cases: [] }), [], [])
    plain.close()
    expect('evals_v1' in documentFromJournal(readJournal(join(dir, 'plain.jsonl')).state)).toBe(false)
  })

  test('a header whose evals_v1 is not the section is refused with the field that is wrong', () => {
    const dir = tempDir()
    const doc = evalsV1Document([evalsRun()])
    const bad = { ...journalHeader(1, { config: doc.config!, cases: [] }), evals_v1: { ...evalsV1Section(), clients: [{ flow: 'main', target: 'mcp-use' }] } }
    writeFileSync(join(dir, 'bad.jsonl'), `${JSON.stringify(bad)}\n`)
    expect(() => readJournal(join(dir, 'bad.jsonl'))).toThrow(JournalError)
    expect(() => readJournal(join(dir, 'bad.jsonl'))).toThrow(/header\.evals_v1\.clients\[0\]\.models is missing/)
  })

  test('the results schema knows it (optional, null allowed) and refuses a wrong one', () => {
    const doc = evalsV1Document([evalsRun()])
    expect(shapeProblem('document', JSON.parse(JSON.stringify(doc)), '')).toBeNull()
    expect(shapeProblem('document', { ...doc, evals_v1: null }, '')).toBeNull()
    expect(shapeProblem('evalsV1', { ...evalsV1Section(), context: 'nightly' })).toMatch(/^evalsV1\.context/)
    // evals/v1 gates are numbers: a limit of 7.5 steps is one (a journal header's config must take it).
    expect(shapeProblem('config', { ...doc.config, budgets: { ...doc.config!.budgets, max_agent_steps_p95: 7.5, max_tokens_per_success_p95: 1e3 / 3 } })).toBeNull()
  })

  /** Shard `index` of 2 of the golden runs (two each), as its document is written. */
  function shardFile(dir: string, index: number, section: EvalsV1Section | null): string {
    const doc = evalsV1Document([evalsRun()])
    const runs = evalsV1Document([evalsRun(), evalsRun({ case_id: 'convert' }), evalsRun({ case_id: 'greeting' }), evalsRun({ case_id: 'crash' })]).runs.slice((index - 1) * 2, index * 2)
    const shard: ShardSection = { index, count: 2, planned_total: 4, groups_total: 4, groups: 2, suite_hash: 'abc', planned: 2, cases: [], tool_tests_plan: null, overhead: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } }
    const shardDoc: ResultsDocument = assembleDocument({
      started_at: doc.started_at,
      duration_s: 3,
      config: doc.config!,
      cases: [],
      behaviour: { status: 'ran', reason: null },
      conformance: null,
      tool_tests: null,
      runs,
      overhead: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      cache: null,
      cancelled: null,
      journal: { path: `eval-runs.shard-${index}-of-2.jsonl`, reused: 0, missing: 0 },
      shard,
      evals_v1: section
    })
    const path = join(dir, `eval-results.shard-${index}-of-2.json`)
    writeFileSync(path, JSON.stringify(shardDoc))
    return path
  }

  test("the merge keeps shard 1's, and refuses shards that say otherwise", () => {
    const dir = tempDir()
    const files = readShardFiles([shardFile(dir, 1, evalsV1Section()), shardFile(dir, 2, evalsV1Section())])
    const merged = mergeShards(checkShardSet(files), { gate: { mode: null, max_drop: 0.02, baseline: '' }, journalPath: join(dir, 'merged.jsonl') })
    expect(merged.evals_v1).toEqual(evalsV1Section())
    expect(merged.runs).toHaveLength(4)

    const other = readShardFiles([shardFile(dir, 1, evalsV1Section()), shardFile(dir, 2, evalsV1Section({ context: 'manual' }))])
    expect(() => checkShardSet(other)).toThrow(MergeError)
    expect(() => checkShardSet(other)).toThrow(/evals_v1\.context differs from .*shard-1-of-2\.json's \(manual, not ci\)/)
    // The merge command writes results.json and metrics.json in its --output-dir (default eval-results, as an unsharded run).
    const out = join(dir, 'merged')
    const io = { stdout: { write: () => true }, stderr: { write: () => true } }
    const code = mergeCommand([join(dir, 'eval-results.shard-1-of-2.json'), shardFile(dir, 2, evalsV1Section()), '--output', join(dir, 'eval-results.json'), '--report', join(dir, 'merged.md'), '--output-dir', out], io)
    expect(code).toBe(0)
    expect(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')).scenarios).toHaveLength(4)
    expect(existsSync(join(out, 'metrics.json'))).toBe(true)
    const none = readShardFiles([shardFile(dir, 1, evalsV1Section()), shardFile(dir, 2, null)])
    expect(() => checkShardSet(none)).toThrow(/evals_v1 differs .*\(none, not an evals\/v1 suite\)/)
  })
})
