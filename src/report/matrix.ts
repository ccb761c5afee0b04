import type { GateResult, GroupResult, RunResult } from '../results/types.js'
import { groupKey } from '../aggregate/gate.js'
import { codeHtml, escapeHtml } from './escape.js'
import { modelIdHtml } from './model-id.js'

/**
 * The symbol of a group: ✓ every run passed, ◐ some failed but it reached its floor, ✗ below its
 * floor, ⚠ every run errored, ⊘ cancelled, ⏭ runs never started (skipped: budget). `skipped`:
 * how many of its runs the spend left unstarted.
 */
export function groupSymbol(group: GroupResult, skipped = 0): string {
  // The group's `cancelled` counts its skipped runs too: neither reached a verdict.
  if (skipped > 0 && group.passed + Math.max(group.cancelled, skipped) === group.runs && !group.success) return '⏭'
  if (group.cancelled > 0 && group.passed + group.cancelled === group.runs && !group.success) return '⊘'
  if (!group.success) return group.errored === group.runs ? '⚠' : '✗'
  return group.passed === group.runs ? '✓' : '◐'
}

interface Column {
  model: string
  prompt: string
}

/** The most model columns a matrix table holds beside its Case column: more would not fit a page. */
const COLUMNS_PER_TABLE = 4

/**
 * The columns in tables that fit a page: one table per system prompt (when each has several models) when together they are too
 * many, and each of those cut into tables of at most `COLUMNS_PER_TABLE`.
 */
function pageWide(columns: Column[]): Column[][] {
  if (columns.length <= COLUMNS_PER_TABLE) return [columns]
  const chunks = (list: Column[]) => Array.from({ length: Math.ceil(list.length / COLUMNS_PER_TABLE) }, (_, i) => list.slice(i * COLUMNS_PER_TABLE, (i + 1) * COLUMNS_PER_TABLE))
  const prompts = [...new Set(columns.map((c) => c.prompt))]
  const perPrompt = prompts.map((prompt) => columns.filter((c) => c.prompt === prompt))
  // By prompt only when each has several models: one model under five prompts is two tables, not five of one column.
  return perPrompt.every((mine) => mine.length > 1) ? perPrompt.flatMap(chunks) : chunks(columns)
}

/**
 * Cases × models (× system prompts when there are several): each cell is a group's `k/N` with
 * its symbol, ▼ when it regressed against the baseline and ▲ when it was fixed. `runs` tells the
 * groups whose runs never started (skipped: budget). Too many columns for a page are split into
 * several tables, each with the cases (`pageWide`).
 */
export function renderMatrix(groups: GroupResult[], gate: GateResult | null, runs: RunResult[] = []): string[] {
  if (groups.length === 0) return []
  const skippedRuns = new Set(runs.filter((r) => r.status === 'skipped').map((r) => r.index))
  const symbol = (g: GroupResult) => groupSymbol(g, g.run_indexes.filter((i) => skippedRuns.has(i)).length)
  const prompts = [...new Set(groups.map((g) => g.prompt_name))]
  const columns: Column[] = [...new Map(groups.map((g) => [JSON.stringify([g.model, g.prompt_name]), { model: g.model, prompt: g.prompt_name }])).values()]
  const cases = [...new Set(groups.map((g) => g.case_id))]
  const byKey = new Map(groups.map((g) => [JSON.stringify([g.case_id, g.model, g.prompt_name]), g]))
  const regressed = new Set(gate?.regressed ?? [])
  const fixed = new Set(gate?.fixed ?? [])
  const cell = (caseId: string, c: Column) => {
    const g = byKey.get(JSON.stringify([caseId, c.model, c.prompt]))
    if (!g) return '<td align="center">—</td>'
    const mark = regressed.has(groupKey(g)) ? ' ▼' : fixed.has(groupKey(g)) ? ' ▲' : ''
    return `<td align="center">${symbol(g)} ${g.passed}/${g.runs}${mark}</td>`
  }
  const tables = pageWide(columns).flatMap((part) => [
    '<table>',
    `<tr><th>Case</th>${part.map((c) => `<th align="center">${modelIdHtml(c.model)}${prompts.length > 1 ? `<br>${escapeHtml(c.prompt)}` : ''}</th>`).join('')}</tr>`,
    ...cases.map((caseId) => `<tr><td>${codeHtml(caseId)}</td>${part.map((c) => cell(caseId, c)).join('')}</tr>`),
    '</table>',
    ''
  ])
  const shown = new Set(groups.map(symbol))
  const legend = `✓ every run passed · ◐ reached its pass floor · ✗ below it${shown.has('⚠') ? ' · ⚠ errored' : ''}${shown.has('⊘') ? ' · ⊘ cancelled' : ''}${shown.has('⏭') ? ' · ⏭ skipped: budget (never started)' : ''}${gate?.regressed.length ? ' · ▼ regressed' : ''}${gate?.fixed.length ? ' · ▲ fixed' : ''}`
  return [...tables, `<sub>${legend}</sub>`, '']
}
