import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import schema from '../schema/results.schema.json' with { type: 'json' }
import { fixturePath } from '../__fixtures__/harness.js'
import { budgets, judged, llmCall, telemetryRun, toolCall, usage } from '../__fixtures__/telemetry-sections.js'
import { compareWithBaseline } from '../src/aggregate/changes.js'
import { assembleDocument, type DocumentParts } from '../src/aggregate/document.js'
import { evaluateGate } from '../src/aggregate/gate.js'
import { parseSuite } from '../src/config/suite.js'
import { NO_BUDGETS, type Budgets } from '../src/config/types.js'
import { documentFromJournal, JournalWriter, readJournal, reusableRuns } from '../src/execute/journal.js'
import { emptyUsage } from '../src/llm/chat.js'
import type { ResultsConfig, ResultsDocument, RunResult } from '../src/results/types.js'
import { upgradeDocument } from '../src/aggregate/upgrade-document.js'
import { summarizeTelemetry } from '../src/telemetry/summarize.js'
import { journalHeader } from '../__fixtures__/journal.js'
import { asVersion } from '../__fixtures__/older-documents.js'

const golden = (): ResultsDocument => JSON.parse(readFileSync(fixturePath('golden/results.json'), 'utf8')) as ResultsDocument
const ajv = new Ajv2020({ allErrors: true, strict: false })
addFormats.default(ajv)
const validate = ajv.compile(schema)
const schemaErrors = (doc: unknown) => (validate(JSON.parse(JSON.stringify(doc))) ? [] : validate.errors)

const suite = parseSuite(
  `system_prompts: {default: x}
cases:
  - {id: pick, prompt: p, rubric: r, expect_tool: search}
`,
  'evals.yaml'
)
const JUDGE = golden().config!.judge_model
const config = (set: Partial<Budgets> = {}, pricing: ResultsConfig['pricing'] = { m: { input_per_mtok: 1, output_per_mtok: 1 }, new: { input_per_mtok: 1, output_per_mtok: 1 }, [JUDGE]: { input_per_mtok: 1, output_per_mtok: 1 } }): ResultsConfig => ({
  ...golden().config!,
  models: ['m'],
  budgets: budgets(set),
  pricing
})

/** A run of the case `pick` that passed, calling search once with the given latency. */
const picked = (index: number, searchMs: number, extra: Partial<RunResult> = {}): RunResult =>
  telemetryRun({
    case_id: 'pick',
    index,
    attempt: index,
    tool_calls: [toolCall('search', searchMs)],
    llm_calls: [llmCall(100, usage(500, 500))],
    judge: judged(usage(10, 10), 200),
    golden_assertions: { passed: true, checks: [{ check: 'expect_tool', passed: true, reason: 'ok' }] },
    ...extra
  })
const skippedRun = (index: number): RunResult =>
  telemetryRun({
    case_id: 'pick',
    index,
    attempt: index,
    status: 'skipped',
    success: false,
    stop_reason: 'skipped',
    final_output: null,
    skipped: { reason: 'budget', detail: 'the spend reached max_cost_usd ($0.50 of $0.50) before this run started' },
    server: { era: null, protocol_version: null, connect_ms: null, list_ms: null, tools: null }
  })

function parts(runs: RunResult[], resultsConfig: ResultsConfig = config()): DocumentParts {
  return {
    started_at: '2026-12-01T10:00:00.000Z',
    duration_s: 3,
    config: resultsConfig,
    cases: suite.cases,
    behaviour: { status: 'ran', reason: null },
    conformance: null,
    tool_tests: null,
    runs,
    overhead: emptyUsage(),
    cache: null,
    cancelled: null,
    journal: null
  }
}

describe('assembleDocument: the telemetry section and the budgets in the verdict', () => {
  test('telemetry is computed from the runs and the configured pricing; the document matches the schema', () => {
    const doc = assembleDocument(parts([picked(1, 100), picked(2, 300)]))
    expect(doc.passed).toBe(true)
    expect(doc.telemetry?.tools).toEqual([expect.objectContaining({ name: 'search', calls: 2, latency_ms: { samples: 2, p50: 100, p95: 300, max: 300 } })])
    // 1,000 tokens at $1 per million each run.
    expect(doc.telemetry?.models[0].cost_usd).toMatchObject({ per_run: 0.001, total: 0.002 })
    expect(schemaErrors(doc)).toEqual([])
  })

  test('a budget that fails fails the document', () => {
    const doc = assembleDocument(parts([picked(1, 100), picked(2, 300)], config({ max_p95_tool_ms: 299 })))
    expect(doc.passed).toBe(false)
    expect(doc.telemetry?.budgets).toEqual([expect.objectContaining({ budget: 'max_p95_tool_ms', subject: 'search', actual: 300, passed: false })])
    expect(assembleDocument(parts([picked(1, 100), picked(2, 300)], config({ max_p95_tool_ms: 300 }))).passed).toBe(true)
  })

  test('runs the budget skipped: counted, never a verdict, out of the metrics, and the document fails', () => {
    const doc = assembleDocument(parts([picked(1, 100), skippedRun(2)], config({ max_cost_usd: 0.001 })))
    expect(doc.summary).toMatchObject({ total: 2, passed: 1, failed: 0, skipped: 1 })
    // Like a cancelled run for its group: not passed, and shown as not run.
    expect(doc.groups[0]).toMatchObject({ runs: 2, passed: 1, cancelled: 1, success: false })
    // The skipped run chose no tool: selection is over the run that ran.
    expect(doc.metrics?.overall.tool_selection_accuracy).toBe(1)
    expect(doc.telemetry).toMatchObject({ skipped_runs: 1, models: [expect.objectContaining({ runs: 1 })] })
    expect(doc.passed).toBe(false)
    expect(schemaErrors(doc)).toEqual([])
  })

  test('a configuration from before Layer 3 (an older journal) gets no budgets and no pricing', () => {
    const { budgets: _b, pricing: _p, ...older } = config()
    const doc = assembleDocument(parts([picked(1, 100)], older as ResultsConfig))
    expect(doc.config).toMatchObject({ budgets: NO_BUDGETS, pricing: {} })
    expect(doc.telemetry?.models[0].cost_usd.total).toBeNull()
    expect(doc.telemetry?.budgets).toEqual([])
    expect(schemaErrors(doc)).toEqual([])
  })
})

describe('evaluateGate: budgets in every mode, trends against the baseline', () => {
  const baseline = assembleDocument(parts([picked(1, 100), picked(2, 200)]))
  const source = (document: ResultsDocument) => ({ document, source: 'baseline.json' })

  test.each(['delta', 'absolute', 'both'] as const)('%s: a failed budget is a reason', (mode) => {
    const doc = assembleDocument(parts([picked(1, 100), picked(2, 300)], config({ max_p95_tool_ms: 250 })))
    for (const base of [null, source(baseline)]) {
      const gate = evaluateGate(doc, base, mode, 0.02)
      expect(gate.reasons).toContain("tool 'search': p95 latency 300 ms is over max_p95_tool_ms (250 ms)")
      expect(gate.passed).toBe(false)
    }
  })

  test.each(['delta', 'absolute', 'both'] as const)('%s: a trend budget against the baseline is checked and gates', (mode) => {
    // 20 calls a side: enough for a p95 to be compared (telemetry/budgets.ts P95_MIN_SAMPLES).
    const calls = (ms: number) => Array.from({ length: 20 }, (_, i) => picked(i + 1, ms))
    const before = assembleDocument(parts(calls(200)))
    const doc = assembleDocument(parts(calls(500), config({ max_p95_increase: 0.25 })))
    const gate = evaluateGate(doc, source(before), mode, 0.02)
    expect(gate.trends).toEqual([
      expect.objectContaining({ budget: 'max_p95_increase', subject: 'search', baseline: 200, actual: 500, passed: false }),
      expect.objectContaining({ budget: 'max_p95_increase', subject: 'm', passed: true })
    ])
    expect(gate.reasons).toEqual(["tool 'search': p95 latency rose from 200 ms to 500 ms (+150%, +300 ms over 20 and 20 calls), more than max_p95_increase (+25%) and its 200 ms floor"])
    expect(gate.passed).toBe(false)
    expect(evaluateGate(doc, null, mode, 0.02)).toMatchObject({ trends: [], passed: true })
  })

  test('the runs the budget skipped fail the gate with that reason', () => {
    const doc = assembleDocument(parts([picked(1, 100), skippedRun(2)], config({ max_cost_usd: 0.001 })))
    expect(evaluateGate(doc, null, null, 0.02).reasons).toContain('max_cost_usd: the spend reached $0.00102 of $0.001; 1 run was skipped')
  })
})

describe('compareWithBaseline: the Models table and tool latency, before and after', () => {
  test('each model on either side, each tool on either side, and the cost from telemetry (pricing counts)', () => {
    const before = assembleDocument(parts([picked(1, 100), picked(2, 200, { model: 'gone', duration_s: 2 })]))
    const now = assembleDocument(parts([picked(1, 150, { duration_s: 3 }), picked(2, 50, { tool_calls: [toolCall('fetch', 50)], model: 'new' })]))
    const gate = evaluateGate(now, { document: before, source: 'b.json' }, null, 0.02)
    const changes = compareWithBaseline(now, gate, { document: before, source: 'b.json' })
    expect(changes.models.map((m) => m.model)).toEqual(['m', 'new', 'gone'])
    expect(changes.models[0]).toEqual({
      model: 'm',
      tool_selection_accuracy: { baseline: 1, current: 1 },
      argument_correctness: { baseline: null, current: null },
      task_completion: { baseline: 1, current: 1 },
      pass_rate: { baseline: 1, current: 1 },
      p95_run_s: { baseline: 1, current: 3 },
      tokens_per_run: { baseline: 1000, current: 1000 },
      cost_per_run_usd: { baseline: 0.001, current: 0.001 }
    })
    expect(changes.models[2]).toMatchObject({ model: 'gone', p95_run_s: { baseline: 2, current: null }, pass_rate: { baseline: 1, current: null } })
    expect(changes.tool_latency).toEqual([
      { name: 'fetch', p95_ms: { baseline: null, current: 50 } },
      { name: 'search', p95_ms: { baseline: 200, current: 150 } }
    ])
    // The provider reported nothing: the cost is the priced one, agent and judge (two runs of 1,000 tokens and 20 judge tokens at $1
    // per million); the baseline's model 'gone' has no price, so its total is unknown.
    expect(changes.cost_usd).toEqual({ baseline: null, current: 0.00204 })
  })
})

/** The golden document as version 4 wrote it: no Layer 3 (nor what came after it) anywhere. */
const version4 = () => asVersion(golden(), 4)

describe('upgradeDocument: versions 1 to 7', () => {
  test('version 7 is read as it is', () => {
    const doc = golden()
    expect(upgradeDocument(doc)).toBe(doc)
  })

  test('a version 4 document gets the Layer 3 defaults and telemetry computed from its runs, and matches the schema', () => {
    const old = version4()
    const doc = upgradeDocument(old)!
    expect(doc.version).toBe(9)
    expect(doc.config).toMatchObject({ budgets: NO_BUDGETS, pricing: {} })
    expect(doc.summary.skipped).toBe(0)
    expect(doc.gate?.trends).toEqual([])
    expect(doc.runs.every((r) => r.trace_id === null && r.skipped === null && (r.judge === null || r.judge.latency_ms === null))).toBe(true)
    expect(doc.telemetry).toEqual(
      summarizeTelemetry({
        runs: doc.runs,
        tool_tests: doc.tool_tests,
        wall_s: doc.duration_s,
        // The golden summary's judge tokens less its runs' own.
        overhead: usage(100, 20),
        cache: doc.summary.cache,
        judge_model: doc.config!.judge_model,
        pricing: {},
        budgets: NO_BUDGETS
      })
    )
    expect(doc.telemetry?.tools.length).toBeGreaterThan(0)
    expect(schemaErrors(doc)).toEqual([])
  })

  test("an older document's judge overhead is its judge tokens not owned by a run", () => {
    const old = version4() as { summary: { tokens: { judge: { prompt_tokens: number; total_tokens: number } } } }
    old.summary.tokens.judge.prompt_tokens += 70
    old.summary.tokens.judge.total_tokens += 70
    const doc = upgradeDocument(old)!
    expect(doc.telemetry?.overall.tokens.judge.input).toBe(golden().telemetry!.overall.tokens.judge.input + 70)
  })

  test('changes from before Layer 3 get empty models and tool latency; a fatal document no telemetry', () => {
    const old = version4()
    old.changes = { conformance: null, tools: null, cost_usd: { baseline: null, current: null }, median_run_s: { baseline: null, current: null }, resilience: null, regressions: [] }
    expect(upgradeDocument(old)!.changes).toMatchObject({ models: [], tool_latency: [] })
    expect(upgradeDocument({ ...version4(), fatal_error: 'bad', runs: [], config: null })!.telemetry).toBeNull()
  })

  test('a version 4 baseline serves the trend budgets', () => {
    const baseline = upgradeDocument(version4())!
    const tool = baseline.telemetry!.tools[0]
    const slower = golden()
    slower.config = { ...slower.config!, budgets: budgets({ max_p95_increase: 0.1 }) }
    // Enough calls on both sides for the p95s to be compared.
    baseline.telemetry!.tools[0] = { ...tool, latency_ms: { ...tool.latency_ms, samples: 20 } }
    slower.telemetry = { ...slower.telemetry!, tools: [{ ...tool, latency_ms: { ...tool.latency_ms, samples: 20, p95: tool.latency_ms.p95! + 1000 } }] }
    const gate = evaluateGate(slower, { document: baseline, source: 'v4.json' }, 'delta', 1)
    expect(gate.trends).toContainEqual(expect.objectContaining({ budget: 'max_p95_increase', subject: tool.name, passed: false }))
  })
})

describe('the run journal across Layer 3', () => {
  const header = (planned: number) => journalHeader(planned, { config: config(), cases: suite.cases })


  test('a run journaled before Layer 3 gets no trace, no skip and no judge latency; the header no budgets', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'journal-l3-')), 'eval-runs.jsonl')
    const { trace_id: _t, skipped: _s, ...old } = picked(1, 100)
    const { latency_ms: _l, ...oldJudge } = old.judge!
    const { budgets: _b, pricing: _p, ...oldConfig } = config()
    writeFileSync(path, `${JSON.stringify({ ...header(1), config: oldConfig })}\n${JSON.stringify({ type: 'run', run: { ...old, judge: oldJudge } })}\n`)
    const doc = documentFromJournal(readJournal(path).state)
    expect(doc.runs[0]).toMatchObject({ trace_id: null, skipped: null, judge: { latency_ms: null } })
    expect(doc.config).toMatchObject({ budgets: NO_BUDGETS, pricing: {} })
    expect(schemaErrors(doc)).toEqual([])
  })

  test('a skipped run is never reused on resume', () => {
    const writer = new JournalWriter(null, header(3), [], [])
    writer.append({ type: 'run', run: picked(1, 100) })
    writer.append({ type: 'run', run: skippedRun(2) })
    writer.append({ type: 'run', run: picked(3, 100, { status: 'cancelled' }) })
    expect(reusableRuns(writer.state).map((r) => r.index)).toEqual([1])
    expect(documentFromJournal(writer.state).summary.skipped).toBe(1)
  })
})
