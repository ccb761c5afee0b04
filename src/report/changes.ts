import type { BudgetChange, Changes, GateResult, ResilienceChange, RunResult, RunSnapshot, ToolTestChanges } from '../results/types.js'
import { groupKey } from '../aggregate/gate.js'
import { pyStr } from '../scoring/python-values.js'
import { blockquote, codeSpan, escapeHtml, escapeMarkdown, truncateText } from './escape.js'
import { metricLabel } from './metric-labels.js'
import { formatPercent } from './numbers.js'
import { formatTimestamp } from './timestamp.js'
import { failureReasons } from './reasons.js'
import { count, percent, points, pointsChange, pointsDelta, relativeChange, seconds, usd, someOf } from '../util/words.js'

const LIST_MAX = 20
/** A baseline file is not ours to trust: only these statuses are shown as they are. */
const STATUSES = new Set(['passed', 'failed', 'error', 'cancelled', 'skipped'])

/**
 * "What changed since the baseline": the aggregate metrics that moved, with baseline, now and Δ
 * (the worse first; those that did not move in one line); the groups that were fixed, are new or
 * went away (the regressed ones are named once, under the failures); the tool tests that
 * regressed, are new and failing, or were fixed; new and resolved conformance findings; the tool
 * surface (renames included); the Layer 2 cells that moved; the budgets that fail now and did
 * not; cost and run time.
 */
export function renderWhatChanged(gate: GateResult, changes: Changes, heading = '####'): string[] {
  // The gate holds which baseline this is; the changes are only ever computed with one.
  const baseline = gate.baseline ? `Baseline: ${codeSpan(gate.baseline.source)} (${formatTimestamp(gate.baseline.started_at)}).` : 'Baseline: unknown.'
  const out = [`${heading} What changed since the baseline`, '', baseline, '']
  // The metrics that moved in a table, the worse first; those that did not, in one line after it.
  const better = (m: GateResult['metrics'][number]) => (m.lower_is_better ? 'lower' : 'higher')
  const label = (m: GateResult['metrics'][number]) => `${metricLabel(m.name)}${m.lower_is_better ? ' (lower is better)' : ''}`
  const moved = gate.metrics.map((m) => ({ m, delta: pointsChange(m.baseline, m.current, better(m)) }))
  // A metric the gate failed is in the table even when its drop is under the display precision (max_drop: 0).
  const shown = moved.filter((x) => x.delta.moved || x.m.failed)
  const changed = [...shown.filter((x) => x.delta.worse !== false), ...shown.filter((x) => x.delta.worse === false)]
  if (changed.length > 0) {
    // The deltas gate only under delta and both; under absolute they are information.
    const gating = gate.mode !== 'absolute'
    out.push('<table>', `<tr><th>Metric</th><th align="right">Baseline</th><th align="right">Now</th><th align="right">Δ</th>${gating ? '<th></th>' : ''}</tr>`)
    for (const { m, delta } of changed) {
      const verdict = gating ? `<td>${m.failed ? `✗ worse by more than ${points(gate.max_drop)}` : ''}</td>` : ''
      out.push(`<tr><td>${label(m)}</td><td align="right">${percent(m.baseline)}</td><td align="right">${percent(m.current)}</td><td align="right">${delta.text}</td>${verdict}</tr>`)
    }
    out.push('</table>', '')
  }
  const unchanged = moved.filter((x) => !shown.includes(x)).map(({ m }) => `${metricLabel(m.name)} ${percent(m.current)}`)
  if (unchanged.length > 0) out.push(`${count(unchanged.length, 'metric')} unchanged: ${unchanged.join(' · ')}`, '')
  const groups = [
    gate.regressed.length ? `**${gate.regressed.length} regressed** (marked ▼)` : '0 regressed',
    `${gate.fixed.length} fixed`,
    `${gate.added.length} new`,
    `${gate.removed.length} removed`
  ]
  out.push(`**Groups:** ${groups.join(' · ')}`, '')
  const named = (label: string, items: string[]) =>
    items.length ? [`- ${label}: ${items.slice(0, LIST_MAX).map((i) => codeSpan(i)).join(', ')}${items.length > LIST_MAX ? `, and ${items.length - LIST_MAX} more` : ''}`] : []
  const lists = [...named('Fixed', gate.fixed), ...named('New', gate.added), ...named('Removed', gate.removed)]
  if (lists.length) out.push(...lists, '')

  if (changes.tool_tests) out.push(...toolTestChangeLines(changes.tool_tests))
  if (changes.conformance) {
    const { new: fresh, resolved } = changes.conformance
    const named = someOf(fresh.map((f) => `${codeSpan(f.id)} (${f.status === 'fail' ? 'error' : 'warning'})`), LIST_MAX)
    const parts = [fresh.length ? `**${count(fresh.length, 'new finding')}**: ${named}` : 'no new findings', resolved.length ? `${count(resolved.length, 'finding')} resolved (${resolved.map((f) => codeSpan(f.id)).join(', ')})` : '']
    out.push(`**Conformance:** ${parts.filter(Boolean).join(' · ')}`, '')
  }
  if (changes.tools) {
    const { added, removed, changed } = changes.tools
    // A baseline from before renames were detected has none.
    const renamed = changes.tools.renamed ?? []
    const parts = [
      ...added.map((t) => `+ ${codeSpan(t)}`),
      ...removed.map((t) => `− ${codeSpan(t)}`),
      ...renamed.map((t) => `${codeSpan(t.from)} → ${codeSpan(t.to)} (renamed)`),
      ...changed.map((t) => `${codeSpan(t.name)} (${t.what.map((w) => escapeMarkdown(w)).join(', ')} changed)`)
    ]
    if (parts.length) out.push(`**Tools:** ${parts.slice(0, LIST_MAX).join(', ')}${parts.length > LIST_MAX ? ', …' : ''}`, '')
  }
  if (changes.resilience) out.push(...resilienceChangeLines(changes.resilience))
  if (changes.budgets && changes.budgets.length > 0) out.push(...budgetChangeLines(changes.budgets))
  const figures: string[] = []
  const { cost_usd: cost, median_run_s: median } = changes
  // A figure that did not move at its display precision is said once: "1.5s, unchanged".
  const figure = (name: string, before: number, after: number, shown: (n: number) => string) => {
    const delta = relativeChange(before, after, 'lower', shown)
    return `**${name}:** ${delta.moved ? `${shown(before)} → ${shown(after)} (${delta.text})` : `${shown(after)}, unchanged`}`
  }
  if (cost.baseline !== null && cost.current !== null) figures.push(figure('Cost', cost.baseline, cost.current, usd))
  if (median.baseline !== null && median.current !== null) figures.push(figure('Median run', median.baseline, median.current, seconds))
  if (figures.length) out.push(figures.join(' · '), '')
  return out
}

/** "**Tool tests:** **1 regressed**: `weather-json` · 1 new and failing: `intro-page` · 1 fixed: `search`". */
function toolTestChangeLines(t: ToolTestChanges): string[] {
  const ids = (list: string[]) => someOf(list.map((id) => codeSpan(id)), LIST_MAX)
  const regressed = t.regressed.map((x) => x.id)
  const fresh = t.new_failing.map((x) => x.id)
  if (regressed.length + fresh.length + t.fixed.length === 0) return ['**Tool tests:** no test changed its verdict', '']
  const parts = [
    regressed.length ? `**${regressed.length} regressed** (passed in the baseline): ${ids(regressed)}` : '0 regressed',
    ...(fresh.length ? [`${fresh.length} new and not passing: ${ids(fresh)}`] : []),
    ...(t.fixed.length ? [`${t.fixed.length} fixed: ${ids(t.fixed)}`] : [])
  ]
  return [`**Tool tests:** ${parts.join(' · ')}`, '']
}

/** "**Budgets:** 2 fail now that did not in the baseline", a line for each. */
function budgetChangeLines(list: BudgetChange[]): string[] {
  const line = (b: BudgetChange) => `- ${codeSpan(b.budget)}${b.subject ? ` · ${codeSpan(b.subject)}` : ''} (${b.baseline === 'passed' ? 'held in the baseline' : 'not checked in the baseline'}) — ${escapeMarkdown(b.reason)}`
  const out = [`**Budgets:** **${count(list.length, 'budget')} ${list.length === 1 ? 'fails' : 'fail'} now** that did not in the baseline`, '', ...list.slice(0, LIST_MAX).map(line)]
  if (list.length > LIST_MAX) out.push(`- … and ${list.length - LIST_MAX} more (\`changes.budgets\` in the results document)`)
  out.push('')
  return out
}

/** "recovered from `timeout`: 100% → 50% (▼ −50 pt)", one line per Layer 2 cell that moved. */
function resilienceChangeLines(list: ResilienceChange[]): string[] {
  if (list.length === 0) return ['**Resilience and security:** no cell changed', '']
  const rate = (r: number | null) => (r === null ? '—' : percent(r))
  const line = (c: ResilienceChange) => {
    const what = c.dimension === 'fault' ? 'recovered from' : 'resisted'
    const delta = c.baseline !== null && c.current !== null ? ` (${pointsDelta(c.current - c.baseline)})` : c.baseline === null ? ' (new)' : ' (no longer tested)'
    return `- ${codeSpan(c.model)} ${what} ${codeSpan(c.key)}: ${rate(c.baseline)} → ${rate(c.current)}${delta}`
  }
  const out = [`**Resilience and security:** ${count(list.length, 'cell')} changed`, '', ...list.slice(0, LIST_MAX).map(line)]
  if (list.length > LIST_MAX) out.push(`- … and ${list.length - LIST_MAX} more (\`changes.resilience\` in the results document)`)
  out.push('')
  return out
}

/**
 * For each regressed group: the baseline's passing run beside the run that now fails, and why it
 * fails (from this document's runs: the same run the snapshot took).
 */
export function renderRegressions(changes: Changes, runs: readonly RunResult[] = [], limit = 10): string[] {
  if (changes.regressions.length === 0) return []
  const out: string[] = []
  for (const r of changes.regressions.slice(0, limit)) {
    const failing = runs.find((run) => groupKey(run) === r.group && run.status !== 'passed')
    const why = failing ? failureReasons(failing) : []
    out.push(`<details><summary>▼ ${escapeHtml(r.group)}: the baseline's run and this one</summary>`, '')
    out.push(...side('Baseline', r.baseline), ...side('Now', r.current))
    if (why.length) out.push(`**Why it fails now:** ${escapeMarkdown(truncateText(why.join('; '), 600))}`, '')
    out.push('</details>', '')
  }
  if (changes.regressions.length > limit) out.push(`_${count(changes.regressions.length - limit, 'more regressed group')}: their runs are in the results document (\`changes.regressions\`)._`, '')
  return out
}

function side(label: string, run: RunSnapshot | null): string[] {
  if (!run) return [`**${label}:** _no run recorded._`, '']
  const score = typeof run.score === 'number' ? `${formatPercent(run.score)}%` : 'not judged'
  const status = STATUSES.has(run.status) ? run.status : 'unknown'
  const calls = run.tool_calls.map((c) => `${codeSpan(c.name)}${escapeMarkdown(`(${Object.entries(c.args).map(([k, v]) => `${k}=${pyStr(v)}`).join(', ')})`)}`)
  const out = [`**${label}** — ${status}, judge ${score}; tool calls: ${calls.length ? calls.join(' → ') : 'none'}`, '']
  out.push(run.final_output ? blockquote(truncateText(run.final_output, 1500)) : '> _No final answer._', '')
  return out
}
