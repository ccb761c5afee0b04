import type { ModelChange, ModelTelemetry, ResultsDocument } from '../results/types.js'
import { count, seconds } from '../util/words.js'
import { codeSpan, escapeHtml } from './escape.js'
import { modelIdHtml } from './model-id.js'
import { cost, figureChange, sectionOf, shareCell, shareChange, spread, tokenCount } from './telemetry-figures.js'

// ——— The Models table ———

/** One model's row: the figures and the baseline's. */
export interface ModelRow {
  model: string
  selection: number | null
  args: number | null
  completion: number | null
  passRate: number | null
  /** Runs that started. */
  runs: number
  p95RunS: number | null
  tokensPerRun: number | null
  costPerRun: number | null
  change: ModelChange | undefined
  /** Not in the baseline, although there is one. */
  isNew: boolean
}

/** Mean agent tokens per started run; null when none started. */
function meanTokens(t: ModelTelemetry | undefined): number | null {
  return t && t.runs > 0 ? t.tokens_per_run.total / t.runs : null
}

/** The models in the configuration's order, then any other the document measured. */
function modelOrder(doc: ResultsDocument): string[] {
  return [...new Set([...(doc.config?.models ?? []), ...doc.summary.by_model.map((m) => m.model), ...(sectionOf(doc)?.models.map((m) => m.model) ?? [])])]
}

export function modelRows(doc: ResultsDocument): ModelRow[] {
  const section = sectionOf(doc)
  const measured = new Set([...doc.summary.by_model.map((m) => m.model), ...(section?.models.map((m) => m.model) ?? [])])
  const changes = doc.changes?.models ?? []
  return modelOrder(doc)
    .filter((model) => measured.has(model))
    .map((model) => {
      const metrics = doc.metrics?.by_model[model]
      const t = section?.models.find((m) => m.model === model && m.prompt_name === null)
      const change = changes.find((c) => c.model === model)
      const inBaseline = change !== undefined && Object.values(change).some((f) => typeof f === 'object' && f !== null && f.baseline !== null)
      return {
        model,
        selection: metrics?.tool_selection_accuracy ?? null,
        args: metrics?.argument_correctness ?? null,
        completion: metrics?.task_completion ?? null,
        passRate: doc.summary.by_model.find((m) => m.model === model)?.pass_rate ?? null,
        runs: t?.runs ?? 0,
        p95RunS: t?.run_s.p95 ?? null,
        tokensPerRun: meanTokens(t),
        costPerRun: t?.cost_usd.per_run ?? null,
        change,
        isNew: change !== undefined && !inBaseline
      }
    })
}

/** Models the baseline had and this evaluation did not run. */
function removedModels(doc: ResultsDocument, rows: ModelRow[]): string[] {
  const here = new Set(rows.map((r) => r.model))
  return (doc.changes?.models ?? []).filter((c) => !here.has(c.model)).map((c) => c.model)
}

/** A cost cell: "—" when no run started, "unknown" when runs started but the cost is not known. */
const costCell = (row: ModelRow) => (row.runs === 0 ? '—' : cost(row.costPerRun))

/** The headers, a `<br>` where they may break: eight columns of full words did not fit a page. */
const MODEL_HEADERS = ['Selection<br>accuracy', 'Argument<br>correctness', 'Task<br>completion', 'Pass rate', 'p95 run', 'Tokens<br>per run', 'Cost<br>per run']

/** Each figure and its change against the baseline (" (▲ +4 pt, better)", or nothing). */
function modelFigures(row: ModelRow): [figure: string, change: string][] {
  const c = row.change
  return [
    [shareCell(row.selection), shareChange(c?.tool_selection_accuracy)],
    [shareCell(row.args), shareChange(c?.argument_correctness)],
    [shareCell(row.completion), shareChange(c?.task_completion)],
    [shareCell(row.passRate), shareChange(c?.pass_rate)],
    [seconds(row.p95RunS), figureChange(c?.p95_run_s, 'lower', seconds)],
    [tokenCount(row.tokensPerRun), figureChange(c?.tokens_per_run, 'lower', tokenCount)],
    [costCell(row), figureChange(c?.cost_per_run_usd, 'lower', cost)]
  ]
}

/** A change on a line of its own below its figure needs no brackets: "▼ −10%, better". */
const unbracketed = (change: string) => change.trim().replace(/^\((.*)\)$/, '$1')

/** The figures on a line, each change beside its figure. */
const modelCells = (row: ModelRow) => modelFigures(row).map(([figure, change]) => `${figure}${change}`)

/** "4 runs per model" or "each model's runs (2–8)". */
function runsWords(rows: ModelRow[]): string {
  const runs = [...new Set(rows.map((r) => r.runs))]
  if (runs.length === 1) return rows.length === 1 ? count(runs[0], 'run') : `${count(runs[0], 'run')} per model`
  return `each model's runs (${Math.min(...runs)}–${Math.max(...runs)})`
}

function modelsLegend(doc: ResultsDocument, rows: ModelRow[]): string {
  const section = sectionOf(doc)
  const unknown = rows.some((r) => r.runs > 0 && r.costPerRun === null)
  const parts = [
    `p95 run: nearest-rank over ${runsWords(rows)}`,
    "tokens and cost: the agent's, mean per run (the judge's are counted apart)",
    unknown ? 'unknown: the provider reported no cost and `pricing:` has no entry' : '',
    doc.changes ? 'a second line: the change against the baseline, where it moved' : '',
    rows.some((r) => r.isNew) ? '*new*: not in the baseline' : ''
  ]
  return section ? `<sub>${parts.filter(Boolean).join(' · ')}</sub>` : ''
}

/**
 * The cross-model table: one row per model — selection accuracy, argument correctness, task
 * completion, pass rate, p95 run time, tokens and cost per run — each beside its change against
 * the baseline when there is one. Nothing when no model was run.
 */
export function modelsTable(doc: ResultsDocument): string[] {
  const rows = modelRows(doc)
  if (rows.length === 0) return []
  const header = `<tr><th>Model</th>${MODEL_HEADERS.map((h) => `<th align="right">${h}</th>`).join('')}</tr>`
  const body = rows.map(
    (row) =>
      `<tr><td>${modelIdHtml(row.model)}${row.isNew ? ' <em>new</em>' : ''}</td>${modelFigures(row)
        .map(([figure, change]) => `<td align="right">${figure}${change ? `<br>${unbracketed(change)}` : ''}</td>`)
        .join('')}</tr>`
  )
  const removed = removedModels(doc, rows)
  const out = ['<table>', header, ...body, '</table>', '', modelsLegend(doc, rows), '']
  if (removed.length) out.push(`_In the baseline, not run now: ${removed.map(codeSpan).join(', ')}._`, '')
  return out
}

/** A model's row in words: "selection 100% · arguments 92% (▲ +4 pt) · … · $0.0012 / run". */
function modelWords(row: ModelRow): string {
  const [selection, args, completion, passRate, p95, tokens, perRun] = modelCells(row)
  const costWords = row.runs > 0 && row.costPerRun === null ? 'cost unknown' : `${perRun} / run`
  return `selection ${selection} · arguments ${args} · completion ${completion} · pass rate ${passRate} · p95 run ${p95} · ${tokens} tokens / run · ${costWords}`
}

/** The Models table in a line per model, for a comment over GitHub's limit (and the comment's view of a single model). */
export function modelsBrief(doc: ResultsDocument): string[] {
  const rows = modelRows(doc)
  if (rows.length === 0) return []
  if (rows.length === 1) return [`**Model** ${codeSpan(rows[0].model)}: ${modelWords(rows[0])}`, '']
  return ['**Models**', '', ...rows.map((row) => `- ${codeSpan(row.model)}${row.isNew ? ' *new*' : ''}: ${modelWords(row)}`), '']
}

// ——— The comment ———

/** "p95 run 2.9s–3.9s · $0.0005–$0.0115 / run": the models' range, for a collapsed table's summary. */
function rangeWords(rows: ModelRow[]): string {
  const range = (values: (number | null)[], format: (n: number) => string) => {
    const known = values.filter((v): v is number => v !== null)
    return known.length === 0 ? null : spread(known, format)
  }
  const p95 = range(rows.map((r) => r.p95RunS), seconds)
  const perRun = range(rows.map((r) => (r.runs > 0 ? r.costPerRun : null)), cost)
  const unknown = rows.some((r) => r.runs > 0 && r.costPerRun === null)
  return [p95 ? `p95 run ${p95}` : '', perRun ? `${perRun} / run${unknown ? ' (some unknown)' : ''}` : unknown ? 'cost unknown' : ''].filter(Boolean).join(' · ')
}

/**
 * The comment's Models: one model in a line; several in the table — open when the evaluation
 * failed, one click away when it passed (a passing comment stays short).
 */
export function modelsDigest(doc: ResultsDocument): string[] {
  const section = sectionOf(doc)
  if (!section || doc.summary.by_model.length === 0 || !section.models.some((m) => m.runs > 0)) return []
  const rows = modelRows(doc)
  if (rows.length === 0) return []
  if (rows.length === 1 && removedModels(doc, rows).length === 0) return modelsBrief(doc)
  const table = modelsTable(doc)
  if (!doc.passed) return ['#### Models', '', ...table]
  return [`<details><summary>Models: ${rows.length} compared · ${escapeHtml(rangeWords(rows))}</summary>`, '', ...table, '</details>', '']
}
