import { readFileSync } from 'node:fs'
import { compareWithBaseline } from '../src/aggregate/changes.js'
import { evaluateGate } from '../src/aggregate/gate.js'
import { groupRuns } from '../src/aggregate/groups.js'
import { summarize } from '../src/aggregate/summarize.js'
import type { ToolFingerprint } from '../src/conformance/types.js'
import { ConfigError } from '../src/config/errors.js'
import { fatalDocument } from '../src/evaluate.js'
import type { ResultsDocument, RunResult } from '../src/results/types.js'
import { fixturePath } from './harness.js'

/**
 * One results document per shape a reviewer can meet: passed, failed against a baseline, invalid
 * configuration, cancelled, conformance only. Built from the golden document by changing runs and
 * recomputing groups, summary, gate and changes with the real aggregation code.
 */
export const golden = (): ResultsDocument => JSON.parse(readFileSync(fixturePath('golden/results.json'), 'utf8')) as ResultsDocument

const MODEL_B = 'anthropic/claude-sonnet-4.5'

function passedRun(run: RunResult): RunResult {
  return {
    ...run,
    status: 'passed',
    success: true,
    rubric_passed: true,
    tools_passed: true,
    error: null,
    stop_reason: 'final_answer',
    final_output: run.final_output ?? 'Done.',
    metrics: run.metrics.map((m) => ({ ...m, score: 0.9, success: true, reason: 'covers what the rubric asks' })),
    tool_assertions: { ...run.tool_assertions, passed: true, checks: run.tool_assertions.checks.map((c) => ({ ...c, passed: true, reason: 'called with matching args' })) },
    golden_assertions: run.golden_assertions ? { passed: true, checks: run.golden_assertions.checks.map((c) => ({ ...c, passed: true, reason: 'as expected' })) } : null
  }
}

function failedRun(run: RunResult, reason: string): RunResult {
  return { ...run, status: 'failed', success: false, rubric_passed: false, metrics: run.metrics.map((m) => ({ ...m, score: 0.3, success: false, reason })) }
}

/** Runs renumbered in plan order, groups and summary recomputed. */
function withRuns(doc: ResultsDocument, runs: RunResult[], cost: number | undefined): ResultsDocument {
  const indexed = runs.map((r, i) => ({ ...r, index: i + 1 }))
  const floors = doc.config?.pass_floors ?? { hard: 1, soft: 0.8 }
  const groups = groupRuns(indexed, floors)
  const summary = { ...summarize(indexed, groups), cache: doc.summary.cache }
  if (cost !== undefined) {
    summary.tokens.agent.cost_usd = cost
    summary.tokens.judge.cost_usd = cost / 4
  }
  return { ...doc, runs: indexed, groups, summary, config: doc.config && { ...doc.config, models: [...new Set(indexed.map((r) => r.model))] } }
}

const tool = (name: string, description: string): ToolFingerprint => ({ name, description_sha: description, input_schema_sha: `${name}-in`, output_schema_sha: null })

export function gated(doc: ResultsDocument, baseline: ResultsDocument | null): ResultsDocument {
  const source = baseline ? { document: baseline, source: 'baseline/eval-results.json' } : null
  const gate = evaluateGate(doc, source, null, 0.02)
  return { ...doc, gate, changes: source ? compareWithBaseline(doc, gate, source) : null, passed: gate.passed && (doc.conformance?.passed ?? true) }
}

export function passedShape(): ResultsDocument {
  const doc = golden()
  const conformance = doc.conformance && {
    ...doc.conformance,
    passed: true,
    checks: doc.conformance.checks.map((c) => (c.id === 'list-cache-fields' ? { ...c, status: 'pass' as const, message: 'every list result carries ttlMs and cacheScope' } : c))
  }
  return gated(withRuns({ ...doc, conformance }, doc.runs.map(passedRun), 0.0042), null)
}

export function failedWithBaselineShape(): ResultsDocument {
  const doc = golden()
  const [weather, convert, greeting, crash] = doc.runs
  const onB = (r: RunResult): RunResult => ({ ...r, model: MODEL_B })
  const current = withRuns(
    { ...doc, conformance: doc.conformance && { ...doc.conformance, tools: [tool('get_page', 'a'), tool('get_section', 'n'), tool('search_docs', 'b2')] } },
    [weather, convert, greeting, crash, onB(passedRun(weather)), onB(passedRun(convert)), onB(failedRun(greeting, 'greets without offering the tools')), onB(passedRun(crash))],
    0.0123
  )
  const baselineConformance = doc.conformance && {
    ...doc.conformance,
    passed: true,
    checks: doc.conformance.checks.map((c) => (c.id === 'list-cache-fields' ? { ...c, status: 'pass' as const } : c)),
    tools: [tool('get_page', 'a'), tool('list_sections', 'l'), tool('search_docs', 'b1')]
  }
  const oldCase = { ...passedRun(weather), case_id: 'old-case', input: 'An old question' }
  const baseline = withRuns(
    { ...doc, started_at: '2026-11-29T09:30:00.000Z', conformance: baselineConformance },
    [passedRun(weather), passedRun(convert), passedRun(greeting), onB(passedRun(weather)), onB(passedRun(convert)), onB(passedRun(greeting)), onB(oldCase)],
    0.0101
  )
  baseline.metrics = doc.metrics && { ...doc.metrics, overall: { ...doc.metrics.overall, argument_correctness: 1, task_completion: 1 } }
  return gated(current, baseline)
}

export function invalidConfigurationShape(): ResultsDocument {
  const error = new ConfigError("'tokio' matches no case id (case-sensitive substring); the ids are: weather-paris, convert, greeting, crash", { input: 'filter' })
  return fatalDocument(error.message, new Date('2026-11-30T12:00:00Z'))
}

export function cancelledShape(): ResultsDocument {
  const doc = golden()
  const [weather, convert, greeting, crash] = doc.runs
  const cancel = (r: RunResult): RunResult => ({
    ...r,
    status: 'cancelled',
    success: false,
    stop_reason: 'cancelled',
    final_output: null,
    error: null,
    judge: null,
    metrics: r.metrics.map((m) => ({ ...m, score: null, success: false, reason: 'cancelled' })),
    cancelled: { at: '2026-11-30T12:00:03.000Z', signal: 'SIGINT', waiting_for: 'the model (openai/gpt-4o-mini)' }
  })
  const built = withRuns(doc, [passedRun(weather), passedRun(convert), cancel(greeting), cancel(crash)], undefined)
  return { ...built, gate: null, passed: false, cancelled: { signal: 'SIGINT', at: '2026-11-30T12:00:03.000Z', planned: 4, finished: 2 } }
}

export function conformanceOnlyShape(): ResultsDocument {
  const doc = golden()
  const skipped = withRuns({ ...doc, behaviour: { status: 'skipped', reason: 'conformance is "only"' } }, [], undefined)
  return { ...skipped, gate: null, metrics: null, passed: doc.conformance?.passed ?? true }
}

export const SHAPES: [string, () => ResultsDocument][] = [
  ['passed', passedShape],
  ['failed-with-baseline', failedWithBaselineShape],
  ['invalid-configuration', invalidConfigurationShape],
  ['cancelled', cancelledShape],
  ['conformance-only', conformanceOnlyShape]
]
