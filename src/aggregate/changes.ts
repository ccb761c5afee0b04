import type {
  ConformanceSection,
  Changes,
  FigureChange,
  FindingChange,
  GateResult,
  ModelChange,
  ModelTelemetry,
  ResilienceChange,
  ResilienceSummary,
  ResultsDocument,
  RunResult,
  RunSnapshot,
  ToolSurfaceDiff
} from '../results/types.js'
import type { BudgetChange, BudgetCheck, TokenUsage, ToolFingerprint, ToolTestChanges, ToolTestsSection } from '../results/types.js'
import { toolTestPassed } from './verdict.js'
import { groupKey, type Baseline } from './gate.js'

/**
 * What differs from the baseline: conformance findings, the tool surface, cost and run time,
 * the Layer 2 cells, the Models table and each tool's p95 latency, the tool tests and budgets
 * that now fail, and for each group that regressed, a run from each side. Pure; the gate supplies the groups.
 */
export function compareWithBaseline(doc: ResultsDocument, gate: GateResult, baseline: Baseline): Changes {
  const before = baseline.document
  return {
    conformance: doc.conformance && before.conformance ? findingChanges(doc.conformance, before.conformance) : null,
    tools: toolSurfaceDiff(doc, before),
    cost_usd: { baseline: totalCost(before), current: totalCost(doc) },
    median_run_s: { baseline: medianRunSeconds(before.runs), current: medianRunSeconds(doc.runs) },
    resilience: resilienceChanges(before.summary.resilience ?? null, doc.summary.resilience ?? null),
    models: modelChanges(before, doc),
    tool_latency: toolLatencyChanges(before, doc),
    regressions: gate.regressed.map((group) => ({
      group,
      baseline: snapshot(runsOf(before, group).find((r) => r.status === 'passed')),
      current: snapshot(runsOf(doc, group).find((r) => r.status !== 'passed'))
    })),
    tool_tests: toolTestChanges(doc.tool_tests, before.tool_tests),
    // The absolute budgets: a trend budget is itself a comparison with this baseline, said where the budgets are.
    budgets: budgetChanges(doc.telemetry?.budgets ?? [], before.telemetry?.budgets ?? [])
  }
}

/**
 * The tool tests by id against the baseline's: a test that passed there and does not now, one the
 * baseline did not have that does not pass, and one that failed there and passes now. A cancelled
 * test is no verdict either way. Null when either side's tool tests did not run.
 */
function toolTestChanges(now: ToolTestsSection | null, then: ToolTestsSection | null | undefined): ToolTestChanges | null {
  if (!now || !then || now.status !== 'ran' || then.status !== 'ran') return null
  const before = new Map(then.tests.map((t) => [t.id, t]))
  const failing = now.tests.filter((t) => t.status === 'failed' || t.status === 'error')
  return {
    regressed: failing.filter((t) => before.get(t.id) && toolTestPassed(before.get(t.id)!)).map((t) => ({ id: t.id, status: t.status })),
    new_failing: failing.filter((t) => !before.has(t.id)).map((t) => ({ id: t.id, status: t.status })),
    fixed: now.tests.filter((t) => toolTestPassed(t) && before.has(t.id) && ['failed', 'error'].includes(before.get(t.id)!.status)).map((t) => t.id)
  }
}

/**
 * The absolute budgets that fail now and did not in the baseline, by budget and subject: it held
 * there, or it was not checked there (a budget set since, a tool or model that is new). One that
 * failed in both is not news.
 */
function budgetChanges(now: BudgetCheck[], then: BudgetCheck[]): BudgetChange[] {
  const key = (c: BudgetCheck) => JSON.stringify([c.budget, c.subject])
  const before = new Map(then.map((c) => [key(c), c]))
  return now
    .filter((c) => !c.passed && before.get(key(c))?.passed !== false)
    .map((c) => ({ budget: c.budget, subject: c.subject, baseline: before.has(key(c)) ? ('passed' as const) : null, reason: c.reason }))
}

/**
 * A finding is new when it got worse than the baseline had it (absent, passing or skipped → warn or
 * fail; warn → fail): a warning that was already there is not news, nor is a failure that eased to
 * a warning. It is resolved when its check now passes. A side that could not be probed says nothing.
 */
function findingChanges(now: ConformanceSection, then: ConformanceSection): { new: FindingChange[]; resolved: FindingChange[] } | null {
  if (now.error || then.error) return null
  const rank = (status: string | undefined) => (status === 'fail' ? 2 : status === 'warn' ? 1 : 0)
  const before = new Map(then.checks.map((c) => [c.id, c.status]))
  const after = new Map(now.checks.map((c) => [c.id, c.status]))
  const finding = (c: ConformanceSection['checks'][number]): FindingChange[] => (c.status === 'fail' || c.status === 'warn' ? [{ id: c.id, status: c.status, message: c.message }] : [])
  return {
    new: now.checks.filter((c) => rank(c.status) > rank(before.get(c.id))).flatMap(finding),
    resolved: then.checks.filter((c) => after.get(c.id) === 'pass').flatMap(finding)
  }
}

/**
 * The tools listed now against the baseline's. A removed and an added tool whose description,
 * input schema and output schema hashes are all equal are one tool under a new name: a rename,
 * listed as such and in neither `added` nor `removed`. Only an exact match is a rename: a tool
 * renamed and changed in the same release (a rug pull hidden behind a rename) stays a removal
 * and an addition, which is the louder of the two readings. Pairs form in listing order, one
 * added tool per removed one.
 */
function toolSurfaceDiff(doc: ResultsDocument, baseline: ResultsDocument): ToolSurfaceDiff | null {
  const now = doc.conformance?.tools
  const then = baseline.conformance?.tools
  if (!now || !then) return null
  const previous = new Map(then.map((t) => [t.name, t]))
  const current = new Map(now.map((t) => [t.name, t]))
  const changed: ToolSurfaceDiff['changed'] = []
  for (const tool of now) {
    const old = previous.get(tool.name)
    if (!old) continue
    const what: ToolSurfaceDiff['changed'][number]['what'] = []
    if (old.description_sha !== tool.description_sha) what.push('description')
    if (old.input_schema_sha !== tool.input_schema_sha) what.push('input schema')
    if (old.output_schema_sha !== tool.output_schema_sha) what.push('output schema')
    if (what.length) changed.push({ name: tool.name, what })
  }
  const added = now.filter((t) => !previous.has(t.name))
  const removed = then.filter((t) => !current.has(t.name))
  const renamed: ToolSurfaceDiff['renamed'] = []
  const paired = new Set<ToolFingerprint>()
  for (const old of removed) {
    const match = added.find((t) => !paired.has(t) && sameSurface(old, t))
    if (!match) continue
    paired.add(old).add(match)
    renamed.push({ from: old.name, to: match.name })
  }
  return { added: added.filter((t) => !paired.has(t)).map((t) => t.name), removed: removed.filter((t) => !paired.has(t)).map((t) => t.name), renamed, changed }
}

const sameSurface = (a: ToolFingerprint, b: ToolFingerprint) => a.description_sha === b.description_sha && a.input_schema_sha === b.input_schema_sha && a.output_schema_sha === b.output_schema_sha

/**
 * The Layer 2 cells (model × fault kind, model × payload) whose rate differs from the baseline's,
 * in this document's order, then the baseline's cells that are gone. A cell on one side only is
 * listed with null on the other, unless it measured nothing there either (a fault that never
 * fired, in a case that is new): nothing changed that anyone could read. Null when neither side
 * had Layer 2.
 */
export function resilienceChanges(before: ResilienceSummary | null, now: ResilienceSummary | null): ResilienceChange[] | null {
  if (!before && !now) return null
  type Cell = Omit<ResilienceChange, 'baseline' | 'current'> & { rate: number | null }
  const cells = (summary: ResilienceSummary | null): Cell[] =>
    (summary?.by_model ?? []).flatMap(({ model, faults, attacks }) => [
      ...faults.map((c) => ({ model, dimension: 'fault' as const, key: c.key, rate: c.rate })),
      ...attacks.map((c) => ({ model, dimension: 'attack' as const, key: c.key, rate: c.rate }))
    ])
  const id = (c: Cell) => JSON.stringify([c.model, c.dimension, c.key])
  const then = new Map(cells(before).map((c) => [id(c), c]))
  const seen = new Set<string>()
  const out: ResilienceChange[] = []
  const push = (c: Cell, baseline: number | null, current: number | null) => {
    if (baseline !== current) out.push({ model: c.model, dimension: c.dimension, key: c.key, baseline, current })
  }
  for (const cell of cells(now)) {
    seen.add(id(cell))
    push(cell, then.get(id(cell))?.rate ?? null, cell.rate)
  }
  for (const [key, cell] of then) if (!seen.has(key)) push(cell, cell.rate, null)
  return out
}

/**
 * Each model's row of the Models table on both sides, this document's models first (in its
 * order), then those only the baseline had: the tool-use metrics and pass rate, p95 run time,
 * mean agent tokens per run and mean agent cost per run.
 */
function modelChanges(before: ResultsDocument, now: ResultsDocument): ModelChange[] {
  const models = [...new Set([...modelsOf(now), ...modelsOf(before)])]
  const figure = (pick: (doc: ResultsDocument, model: string) => number | null) => (model: string): FigureChange => ({ baseline: pick(before, model), current: pick(now, model) })
  const metric = (key: 'tool_selection_accuracy' | 'argument_correctness' | 'task_completion') => figure((doc, model) => doc.metrics?.by_model[model]?.[key] ?? null)
  const measured = (pick: (m: ModelTelemetry) => number | null) => figure((doc, model) => {
    const row = doc.telemetry?.models.find((m) => m.model === model)
    return row && row.runs > 0 ? pick(row) : null
  })
  const selection = metric('tool_selection_accuracy')
  const args = metric('argument_correctness')
  const completion = metric('task_completion')
  const passRate = figure((doc, model) => doc.summary.by_model.find((m) => m.model === model)?.pass_rate ?? null)
  const p95 = measured((m) => m.run_s.p95)
  const tokens = measured((m) => Math.round(m.tokens_per_run.total / m.runs))
  const cost = measured((m) => m.cost_usd.per_run)
  return models.map((model) => ({
    model,
    tool_selection_accuracy: selection(model),
    argument_correctness: args(model),
    task_completion: completion(model),
    pass_rate: passRate(model),
    p95_run_s: p95(model),
    tokens_per_run: tokens(model),
    cost_per_run_usd: cost(model)
  }))
}

/** The models a document has, in its order: its telemetry's, else its summary's. */
function modelsOf(doc: ResultsDocument): string[] {
  return doc.telemetry ? doc.telemetry.models.map((m) => m.model) : doc.summary.by_model.map((m) => m.model)
}

/** Each tool's p95 latency on both sides, by name (tools on one side only included). */
function toolLatencyChanges(before: ResultsDocument, now: ResultsDocument): Changes['tool_latency'] {
  const p95 = (doc: ResultsDocument, name: string) => doc.telemetry?.tools.find((t) => t.name === name)?.latency_ms.p95 ?? null
  const names = [...new Set([...(now.telemetry?.tools ?? []), ...(before.telemetry?.tools ?? [])].map((t) => t.name))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return names.map((name) => ({ name, p95_ms: { baseline: p95(before, name), current: p95(now, name) } }))
}

/**
 * The whole evaluation's cost: the telemetry's total (provider-reported, else priced with
 * `pricing:`); where that is unknown or absent, the agent's and the judge's cost as the provider
 * reported it; null when it reported none.
 */
function totalCost(doc: ResultsDocument): number | null {
  // Telemetry's total is null when any cost is unknown: a partial sum is not compared with a whole one.
  return doc.telemetry ? doc.telemetry.overall.cost_usd.total : reportedCost(doc)
}

function reportedCost(doc: ResultsDocument): number | null {
  const costs = [doc.summary.tokens.agent, doc.summary.tokens.judge].map((u: TokenUsage) => u.cost_usd).filter((c): c is number => typeof c === 'number')
  return costs.length ? costs.reduce((a, b) => a + b, 0) : null
}

/** The median duration of the runs that reached a verdict (errored and cancelled runs say nothing about speed). */
function medianRunSeconds(runs: RunResult[]): number | null {
  const times = runs.filter((r) => r.status === 'passed' || r.status === 'failed').map((r) => r.duration_s).sort((a, b) => a - b)
  if (times.length === 0) return null
  const mid = Math.floor(times.length / 2)
  return times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2
}

const runsOf = (doc: ResultsDocument, group: string) => doc.runs.filter((r) => groupKey(r) === group)

function snapshot(run: RunResult | undefined): RunSnapshot | null {
  if (!run) return null
  // Whole: a cut here would come before redaction and could halve a secret; the renderer cuts.
  return {
    status: run.status,
    final_output: run.final_output,
    tool_calls: run.tool_calls.map((c) => ({ name: c.name, args: c.args })),
    score: run.metrics[0]?.score ?? null
  }
}
