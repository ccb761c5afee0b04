import type { Changes, GateResult, ResilienceChange, RunSnapshot } from '../results/types.js'
import { pyStr } from '../scoring/python-values.js'
import { blockquote, codeSpan, escapeHtml, escapeMarkdown, truncateText } from './escape.js'
import { metricLabel } from './metric-labels.js'
import { formatPercent } from './numbers.js'
import { formatTimestamp } from './timestamp.js'
import { count, percent, points, pointsDelta, relativeDelta, seconds, usd } from '../util/words.js'

const LIST_MAX = 20
/** A baseline file is not ours to trust: only these statuses are shown as they are. */
const STATUSES = new Set(['passed', 'failed', 'error', 'cancelled', 'skipped'])

/**
 * "What changed since the baseline": every aggregate metric with its baseline, now and Δ; the
 * groups that were fixed, are new or went away (the regressed ones are named once, under the
 * failures); new and resolved conformance findings; the tool surface (renames included); the
 * Layer 2 cells that moved; cost and run time.
 */
export function renderWhatChanged(gate: GateResult, changes: Changes, heading = '####'): string[] {
  // The gate holds which baseline this is; the changes are only ever computed with one.
  const baseline = gate.baseline ? `Baseline: ${codeSpan(gate.baseline.source)} (${formatTimestamp(gate.baseline.started_at)}).` : 'Baseline: unknown.'
  const out = [`${heading} What changed since the baseline`, '', baseline, '']
  if (gate.metrics.length > 0) {
    // The deltas gate only under delta and both; under absolute they are information.
    const gating = gate.mode !== 'absolute'
    out.push('<table>', `<tr><th>Metric</th><th align="right">Baseline</th><th align="right">Now</th><th align="right">Δ</th>${gating ? '<th></th>' : ''}</tr>`)
    for (const m of gate.metrics) {
      const verdict = gating ? `<td>${m.failed ? `✗ worse by more than ${points(gate.max_drop)}` : ''}</td>` : ''
      const label = `${metricLabel(m.name)}${m.lower_is_better ? ' (lower is better)' : ''}`
      out.push(`<tr><td>${label}</td><td align="right">${percent(m.baseline)}</td><td align="right">${percent(m.current)}</td><td align="right">${pointsDelta(m.delta, m.lower_is_better ? 'lower' : 'higher')}</td>${verdict}</tr>`)
    }
    out.push('</table>', '')
  }
  const groups = [
    gate.regressed.length ? `**${gate.regressed.length} regressed** (marked ▼ below)` : '0 regressed',
    `${gate.fixed.length} fixed`,
    `${gate.added.length} new`,
    `${gate.removed.length} removed`
  ]
  out.push(`**Groups:** ${groups.join(' · ')}`, '')
  const named = (label: string, items: string[]) =>
    items.length ? [`- ${label}: ${items.slice(0, LIST_MAX).map((i) => codeSpan(i)).join(', ')}${items.length > LIST_MAX ? `, and ${items.length - LIST_MAX} more` : ''}`] : []
  const lists = [...named('Fixed', gate.fixed), ...named('New', gate.added), ...named('Removed', gate.removed)]
  if (lists.length) out.push(...lists, '')

  if (changes.conformance) {
    const { new: fresh, resolved } = changes.conformance
    const parts = [fresh.length ? `**${count(fresh.length, 'new finding')}** (marked *new*)` : 'no new findings', resolved.length ? `${count(resolved.length, 'finding')} resolved (${resolved.map((f) => codeSpan(f.id)).join(', ')})` : '']
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
  const figures: string[] = []
  const { cost_usd: cost, median_run_s: median } = changes
  if (cost.baseline !== null && cost.current !== null) figures.push(`**Cost:** ${usd(cost.baseline)} → ${usd(cost.current)} (${relativeDelta(cost.baseline, cost.current, 'lower', usd)})`)
  if (median.baseline !== null && median.current !== null) figures.push(`**Median run:** ${seconds(median.baseline)} → ${seconds(median.current)} (${relativeDelta(median.baseline, median.current, 'lower', seconds)})`)
  if (figures.length) out.push(figures.join(' · '), '')
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

/** For each regressed group: the baseline's passing run beside the run that now fails. */
export function renderRegressions(changes: Changes, limit = 10): string[] {
  if (changes.regressions.length === 0) return []
  const out: string[] = []
  for (const r of changes.regressions.slice(0, limit)) {
    out.push(`<details><summary>▼ ${escapeHtml(r.group)}: the baseline's run and this one</summary>`, '')
    out.push(...side('Baseline', r.baseline), ...side('Now', r.current))
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
