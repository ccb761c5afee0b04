import type { GateResult, GroupResult, MetricSet, ResultsDocument } from '../results/types.js'
import { round4 } from '../util/text.js'
import { count, percent, points } from '../util/words.js'
import { resilienceReasons } from './resilience.js'
import { budgetReasons, checkTrends } from '../telemetry/budgets.js'

export type GateMode = 'delta' | 'absolute' | 'both'

/** An earlier results document to compare with, and where it was read from. */
export interface Baseline {
  document: ResultsDocument
  source: string
}

/** Metrics where a rise is the regression. */
const LOWER_IS_BETTER = new Set(['over_trigger_rate', 'schema_invalid_call_rate', 'tool_error_rate'])

export const groupKey = (g: Pick<GroupResult, 'case_id' | 'model' | 'prompt_name'>) => `${g.case_id} · ${g.model} · ${g.prompt_name}`

/**
 * The gate. `absolute`: every group reaches its pass floor. `delta`: against a baseline (an
 * earlier results document), no aggregate metric falls by more than `maxDrop` and no group
 * goes from passing to failing. `both`: both. Without a baseline, the floors decide, and the
 * result says so. The Layer 2 floors and the Layer 3 budgets gate in every mode; with a baseline,
 * so do the trend budgets (max_p95_increase, max_cost_increase), which are opt-in. Conformance is
 * gated separately.
 */
export function evaluateGate(doc: ResultsDocument, baseline: Baseline | null, requested: GateMode | null, maxDrop: number): GateResult {
  const mode: GateMode = requested ?? (baseline ? 'delta' : 'absolute')
  // A group short of its floor only because the budget skipped its runs was not measured, not
  // worse: the max_cost_usd reason says so once, instead of one floor or regression per group.
  const statusOf = new Map((doc.runs ?? []).map((r) => [r.index, r.status]))
  const onlySkipped = (g: GroupResult) =>
    g.run_indexes.some((i) => statusOf.get(i) === 'skipped') && g.run_indexes.every((i) => statusOf.get(i) === 'skipped' || statusOf.get(i) === 'passed')
  const belowFloor = doc.groups.filter((g) => !g.success && !onlySkipped(g))
  const reasons: string[] = []
  const useFloors = mode !== 'delta' || !baseline
  if (useFloors && belowFloor.length > 0) {
    // The groups themselves are listed once, by whoever renders the failures.
    reasons.push(doc.groups.every((g) => g.runs === 1) ? `${belowFloor.length} of ${count(doc.groups.length, 'eval')} did not pass` : `${belowFloor.length} of ${count(doc.groups.length, 'group')} below their pass floor`)
  }
  // Layer 2 floors are absolute by nature: an attack that succeeds is not excused by a baseline where it also did.
  reasons.push(...resilienceReasons(doc.summary.resilience))
  // So are budgets: a run over its cost cap costs the same whatever the baseline spent.
  reasons.push(...budgetReasons(doc.telemetry ?? null))
  if (!baseline) {
    return {
      mode,
      max_drop: maxDrop,
      baseline: null,
      note: 'no baseline: the pass floors decide',
      metrics: [],
      regressed: [],
      fixed: [],
      added: [],
      removed: [],
      reasons,
      trends: [],
      passed: reasons.length === 0
    }
  }
  const before = new Map(baseline.document.groups.map((g) => [groupKey(g), g]))
  const now = new Map(doc.groups.map((g) => [groupKey(g), g]))
  const regressed = [...now].filter(([k, g]) => before.get(k)?.success && !g.success && !onlySkipped(g)).map(([k]) => k)
  const fixed = [...now].filter(([k, g]) => before.has(k) && !before.get(k)!.success && g.success).map(([k]) => k)
  const added = [...now.keys()].filter((k) => !before.has(k))
  const removed = [...before.keys()].filter((k) => !now.has(k))

  const metrics = compareMetrics(doc, baseline.document, maxDrop)
  const trends = doc.telemetry && baseline.document.telemetry && doc.config?.budgets ? checkTrends(doc.telemetry, baseline.document.telemetry, doc.config.budgets) : []
  if (mode !== 'absolute') {
    for (const m of metrics.filter((x) => x.failed)) {
      reasons.push(`delta: ${m.name} ${m.lower_is_better ? 'rose' : 'fell'} from ${percent(m.baseline)} to ${percent(m.current)} (${signed(m.delta)}, more than the allowed ${points(maxDrop)})`)
    }
    if (regressed.length > 0) reasons.push(`delta: ${count(regressed.length, 'group')} went from passing to failing`)
  }
  reasons.push(...trends.filter((t) => !t.passed).map((t) => t.reason))
  return {
    mode,
    max_drop: maxDrop,
    baseline: { source: baseline.source, started_at: baseline.document.started_at },
    note: null,
    metrics,
    regressed,
    fixed,
    added,
    removed,
    reasons,
    trends,
    passed: reasons.length === 0
  }
}

function compareMetrics(doc: ResultsDocument, baseline: ResultsDocument, maxDrop: number): GateResult['metrics'] {
  const pairs: [string, number | null, number | null][] = [
    ['pass_rate', baseline.summary.total ? baseline.summary.pass_rate : null, doc.summary.total ? doc.summary.pass_rate : null],
    ['group_pass_rate', share(baseline.groups), share(doc.groups)],
    ['recovery_rate', baseline.summary.resilience?.recovery_rate ?? null, doc.summary.resilience?.recovery_rate ?? null],
    ['attack_resistance', baseline.summary.resilience?.attack_resistance ?? null, doc.summary.resilience?.attack_resistance ?? null]
  ]
  const now = doc.metrics?.overall
  const then = baseline.metrics?.overall
  if (now && then) {
    for (const key of Object.keys(now) as (keyof MetricSet)[]) if (key !== 'runs') pairs.push([key, then[key], now[key]])
  }
  return pairs
    .filter((p): p is [string, number, number] => p[1] !== null && p[2] !== null)
    .map(([name, before, after]) => {
      const lowerIsBetter = LOWER_IS_BETTER.has(name)
      const delta = round4(after - before)
      const worse = lowerIsBetter ? delta : -delta
      return { name, baseline: before, current: after, delta, lower_is_better: lowerIsBetter, failed: worse > maxDrop + 1e-9 }
    })
}

function share(groups: GroupResult[]): number | null {
  return groups.length ? round4(groups.filter((g) => g.success).length / groups.length) : null
}

const signed = (x: number) => `${x >= 0 ? '+' : ''}${Math.round(x * 1000) / 10} pt`
