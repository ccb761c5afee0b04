import type { GateResult, GroupResult, RunResult } from '../../../results/types.js'
import { SKIPPED_MARK } from './marks.js'
import type { Tone } from './common.js'

/**
 * The cases × models matrix as data: rows (a case, or a case under one system prompt when the
 * document has several), columns (the models), and each cell's group worded as the Markdown's
 * matrix words it (groupSymbol in src/report/matrix.ts: the same marks, the same order of rules).
 */

export interface MatrixRow {
  case_id: string
  /** The system prompt of the row; shown only when the document has several. */
  prompt: string
}

export interface MatrixCell {
  group: GroupResult
  mark: string
  /** "passed", "reached its floor", "below its floor", "errored", "cancelled", "skipped: budget". */
  word: string
  tone: Tone
  /** Some runs passed and some did not. */
  flaky: boolean
  /** ▼ it passed in the baseline and fails now; ▲ the other way. */
  change: 'regressed' | 'fixed' | null
}

export interface Matrix {
  rows: MatrixRow[]
  models: string[]
  severalPrompts: boolean
  cell: (row: MatrixRow, model: string) => MatrixCell | null
}

const key = (caseId: string, model: string, prompt: string) => JSON.stringify([caseId, model, prompt])
/** The gate's name of a group (groupKey in src/aggregate/gate.ts). */
const groupKey = (g: GroupResult) => `${g.case_id} · ${g.model} · ${g.prompt_name}`

function describe(group: GroupResult, skipped: number): Pick<MatrixCell, 'mark' | 'word' | 'tone'> {
  // The group's `cancelled` counts its skipped runs too: neither reached a verdict.
  if (skipped > 0 && group.passed + Math.max(group.cancelled, skipped) === group.runs && !group.success) return { mark: SKIPPED_MARK, word: 'skipped: budget', tone: 'skip' }
  if (group.cancelled > 0 && group.passed + group.cancelled === group.runs && !group.success) return { mark: '⊘', word: 'cancelled', tone: 'skip' }
  if (!group.success) return group.errored === group.runs ? { mark: '⚠', word: 'errored', tone: 'fail' } : { mark: '✗', word: 'below its floor', tone: 'fail' }
  return group.passed === group.runs ? { mark: '✓', word: 'passed', tone: 'pass' } : { mark: '◐', word: 'reached its floor', tone: 'pass' }
}

export function buildMatrix(groups: readonly GroupResult[], gate: GateResult | null, runs: readonly RunResult[]): Matrix {
  const skippedRuns = new Set(runs.filter((r) => r.status === 'skipped').map((r) => r.index))
  const severalPrompts = new Set(groups.map((g) => g.prompt_name)).size > 1
  const rows = [...new Map(groups.map((g) => [JSON.stringify([g.case_id, g.prompt_name]), { case_id: g.case_id, prompt: g.prompt_name }])).values()]
  // A case's rows together, in the order the cases first appear.
  const caseOrder = [...new Set(groups.map((g) => g.case_id))]
  rows.sort((a, b) => caseOrder.indexOf(a.case_id) - caseOrder.indexOf(b.case_id))
  const models = [...new Set(groups.map((g) => g.model))]
  const regressed = new Set(gate?.regressed ?? [])
  const fixed = new Set(gate?.fixed ?? [])
  const cells = new Map<string, MatrixCell>()
  for (const group of groups) {
    const skipped = group.run_indexes.filter((i) => skippedRuns.has(i)).length
    cells.set(key(group.case_id, group.model, group.prompt_name), {
      group,
      ...describe(group, skipped),
      flaky: group.passed > 0 && group.passed < group.runs,
      change: regressed.has(groupKey(group)) ? 'regressed' : fixed.has(groupKey(group)) ? 'fixed' : null
    })
  }
  return { rows, models, severalPrompts, cell: (row, model) => cells.get(key(row.case_id, model, row.prompt)) ?? null }
}

/** What the cell shows after its mark: "2/3 flaky ▼ regressed". */
export function cellText(cell: MatrixCell): string {
  const change = cell.change === 'regressed' ? ' ▼ regressed' : cell.change === 'fixed' ? ' ▲ fixed' : ''
  return `${cell.group.passed}/${cell.group.runs}${cell.flaky ? ' flaky' : ''}${change}`
}

/**
 * The cell's name for a screen reader: where it is, what it shows (the visible words in the name,
 * for speech input), and the rest in words: "weather-paris × openai/gpt-4o: 2/3 flaky (2 of 3
 * passed, reached its floor)".
 */
export function cellName(row: MatrixRow, model: string, cell: MatrixCell, severalPrompts: boolean): string {
  const where = `${row.case_id}${severalPrompts ? ` (prompt ${row.prompt})` : ''} × ${model}`
  const parts = [`${cell.group.passed} of ${cell.group.runs} passed`]
  if (cell.word !== 'passed') parts.push(cell.word)
  if (cell.change) parts.push(cell.change === 'regressed' ? 'regressed since the baseline' : 'fixed since the baseline')
  return `${where}: ${cellText(cell)} (${parts.join(', ')})`
}
