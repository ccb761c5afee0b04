import type { BudgetCheck, Distribution, FigureChange, ModelChange, ModelTelemetry, ResultsDocument, RunResult, TelemetrySection, ToolTelemetry } from '../results/types.js'
import { ellipsize } from '../util/text.js'
import { count, milliseconds, percent, pointsDelta, relativeDelta, seconds, usd, wholeNumber } from '../util/words.js'
import { codeBlock, codeSpan, escapeHtml, escapeMarkdown } from './escape.js'
import { renderBarChart, type Bar } from './mermaid.js'

/** How many budget lines and skipped runs the comment names before "and N more". */
const BUDGETS_SHOWN = 10
const SKIPPED_NAMED = 5
const REASON_CHARS = 300

// ——— Figures as a table cell shows them ———

/** "512 B", "3.4 KiB", "1.2 MiB"; "—" when not measured. */
export function byteSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '—'
  if (bytes < 1024) return `${Math.round(bytes)} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
}

/** "1,234" tokens, rounded; "—" when not measured. */
function tokenCount(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? '—' : wholeNumber(n)
}

/** A cost (words.ts's `usd`); "unknown" (never $0) when the provider did not report it and `pricing:` has no entry. */
export function cost(usdValue: number | null | undefined): string {
  return usdValue === null || usdValue === undefined || !Number.isFinite(usdValue) ? 'unknown' : usd(usdValue)
}

/** " (▲ +4 pt)" for a share that moved against the baseline; nothing when unchanged or not measured on one side. */
function shareChange(change: FigureChange | undefined): string {
  if (!change || change.baseline === null || change.current === null) return ''
  const words = pointsDelta(change.current - change.baseline)
  return words === '±0 pt' ? '' : ` (${words})`
}

/** " (▲ +12%)" for a measured figure that moved against the baseline; nothing when unchanged or not measured on one side. */
function figureChange(change: FigureChange | undefined): string {
  if (!change || change.baseline === null || change.current === null) return ''
  const words = relativeDelta(change.baseline, change.current)
  return words === '±0%' ? '' : ` (${words})`
}

const shareCell = (value: number | null | undefined) => (value === null || value === undefined ? '—' : percent(value))

// ——— Which telemetry there is ———

/** The document's telemetry, or null (a fatal document; one older than Layer 3 that was not upgraded). */
function sectionOf(doc: ResultsDocument): TelemetrySection | null {
  return doc.telemetry ?? null
}

/** Every budget checked: the absolute ones, then the trends against the baseline. */
export function budgetChecks(doc: ResultsDocument): { absolute: BudgetCheck[]; trends: BudgetCheck[] } {
  return { absolute: sectionOf(doc)?.budgets ?? [], trends: doc.gate?.trends ?? [] }
}

/** The budgets that failed, absolute and trends. */
export function failedBudgets(doc: ResultsDocument): BudgetCheck[] {
  const { absolute, trends } = budgetChecks(doc)
  return [...absolute, ...trends].filter((c) => !c.passed)
}

/** The runs that never started because the spend reached max_cost_usd. */
export function skippedRuns(doc: ResultsDocument): RunResult[] {
  return doc.runs.filter((r) => r.status === 'skipped')
}

/** Every budget held and no run was skipped (nothing to say against Layer 3). */
export function telemetryPassed(doc: ResultsDocument): boolean {
  return failedBudgets(doc).length === 0 && skippedRuns(doc).length === 0
}

/** "✓ every budget held (5)", "✗ 2 of 5 budgets exceeded · 3 runs skipped", or null when no budget is set and nothing was skipped. */
function verdictWords(doc: ResultsDocument): string | null {
  const { absolute, trends } = budgetChecks(doc)
  const all = [...absolute, ...trends]
  const failed = all.filter((c) => !c.passed).length
  const skipped = skippedRuns(doc).length
  const parts = [failed > 0 ? `${failed} of ${count(all.length, 'budget')} exceeded` : '', skipped > 0 ? `${count(skipped, 'run')} skipped` : ''].filter(Boolean)
  if (parts.length > 0) return `✗ ${parts.join(' · ')}`
  return all.length > 0 ? `✓ every budget held (${all.length})` : null
}

// ——— The Models table ———

/** One model's row: the figures and the baseline's. */
interface ModelRow {
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

function modelRows(doc: ResultsDocument): ModelRow[] {
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

const MODEL_HEADERS = ['Selection accuracy', 'Argument correctness', 'Task completion', 'Pass rate', 'p95 run', 'Tokens / run', 'Cost / run']

function modelCells(row: ModelRow): string[] {
  const c = row.change
  return [
    `${shareCell(row.selection)}${shareChange(c?.tool_selection_accuracy)}`,
    `${shareCell(row.args)}${shareChange(c?.argument_correctness)}`,
    `${shareCell(row.completion)}${shareChange(c?.task_completion)}`,
    `${shareCell(row.passRate)}${shareChange(c?.pass_rate)}`,
    `${seconds(row.p95RunS)}${figureChange(c?.p95_run_s)}`,
    `${tokenCount(row.tokensPerRun)}${figureChange(c?.tokens_per_run)}`,
    `${costCell(row)}${figureChange(c?.cost_per_run_usd)}`
  ]
}

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
    doc.changes ? '(…): against the baseline, where it moved' : '',
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
  const body = rows.map((row) => `<tr><td><code>${escapeHtml(row.model)}</code>${row.isNew ? ' <em>new</em>' : ''}</td>${modelCells(row).map((c) => `<td align="right">${c}</td>`).join('')}</tr>`)
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

/** The cost per run of each model whose cost is known, as a chart beside the Models table. */
function costChart(doc: ResultsDocument): string[] {
  const bars: Bar[] = modelRows(doc)
    .filter((r) => r.runs > 0 && r.costPerRun !== null)
    .map((r) => ({ label: r.model, value: r.costPerRun as number }))
  return chartLines(renderBarChart({ title: 'Cost per run (USD)', unit: 'USD per run', bars }), 'models')
}

/** A chart and, when it left bars out, a line saying so. */
function chartLines(chart: ReturnType<typeof renderBarChart>, what: string): string[] {
  if (chart.lines.length === 0) return []
  const note = chart.omitted > 0 ? [`_The chart shows the ${chart.shown} highest of ${chart.shown + chart.omitted} ${what}; the table has them all._`, ''] : []
  return [...chart.lines, '', ...note]
}

// ——— Per model in detail, and per model × prompt ———

const p50p95 = (d: Distribution, format: (n: number | null) => string) => (d.samples === 0 ? '—' : `${format(d.p50)} / ${format(d.p95)}`)

/** Runs, run and turn time, tool calls, tokens in and out, the agent's cost and the judge's, per model (or model × prompt). */
function modelDetailTable(list: ModelTelemetry[], withPrompt: boolean): string[] {
  if (list.length === 0) return []
  const headers = ['Model', ...(withPrompt ? ['Prompt'] : []), 'Runs', 'Run p50 / p95', 'LLM call p50 / p95', 'Tool calls / run', 'Input tokens p50 / p95', 'Output tokens p50 / p95', 'Agent cost p95 / run', 'Agent cost', 'Judge tokens', 'Judge cost']
  const rows = list.map((m) => {
    const started = m.runs > 0
    const cells = [
      String(m.runs),
      p50p95(m.run_s, seconds),
      p50p95(m.turn_ms, milliseconds),
      m.tool_calls_per_run === null ? '—' : String(Math.round(m.tool_calls_per_run * 10) / 10),
      p50p95(m.input_tokens, tokenCount),
      p50p95(m.output_tokens, tokenCount),
      started ? cost(m.cost_usd.p95_per_run) : '—',
      started ? cost(m.cost_usd.total) : '—',
      tokenCount(m.judge.tokens.total),
      m.judge.tokens.total === 0 ? '—' : cost(m.judge.cost_usd)
    ]
    const names = [`<td><code>${escapeHtml(m.model)}</code></td>`, ...(withPrompt ? [`<td>${escapeHtml(m.prompt_name ?? '')}</td>`] : [])]
    return `<tr>${names.join('')}${cells.map((c) => `<td align="right">${c}</td>`).join('')}</tr>`
  })
  return ['<table>', `<tr>${headers.map((h, i) => `<th${i < (withPrompt ? 2 : 1) ? '' : ' align="right"'}>${h}</th>`).join('')}</tr>`, ...rows, '</table>', '']
}

// ——— Tools ———

/** With fewer than 20 samples the nearest-rank p95 is the largest one. */
const P95_SAMPLES = 20

function toolsTable(doc: ResultsDocument, tools: ToolTelemetry[]): string[] {
  const faults = tools.some((t) => t.faulted > 0)
  const changes = doc.changes?.tool_latency ?? []
  const headers = ['Tool', 'Calls', 'Errors', ...(faults ? ['Faulted'] : []), 'p50', 'p95', 'max', 'Result p50', 'Result p95']
  const rows = tools.map((t) => {
    const change = changes.find((c) => c.name === t.name)?.p95_ms
    const cells = [
      t.calls.toLocaleString('en-US'),
      t.errors.toLocaleString('en-US'),
      ...(faults ? [t.faulted.toLocaleString('en-US')] : []),
      milliseconds(t.latency_ms.p50),
      `${milliseconds(t.latency_ms.p95)}${figureChange(change)}`,
      milliseconds(t.latency_ms.max),
      byteSize(t.result_bytes.p50),
      byteSize(t.result_bytes.p95)
    ]
    return `<tr><td><code>${escapeHtml(t.name)}</code></td>${cells.map((c) => `<td align="right">${c}</td>`).join('')}</tr>`
  })
  const samples = tools.map((t) => t.latency_ms.samples).filter((n) => n > 0)
  const range = samples.length === 0 ? 'no samples' : Math.min(...samples) === Math.max(...samples) ? count(samples[0], 'sample') : `${Math.min(...samples)}–${Math.max(...samples)} samples`
  const legend = [
    `latency and result size: nearest-rank percentiles over each tool's calls that reached the server, behaviour runs and tool tests (${range})`,
    samples.some((n) => n < P95_SAMPLES) ? `under ${P95_SAMPLES} samples the p95 is the slowest call` : '',
    faults ? 'faulted: calls a Layer 2 fault replaced or delayed, counted apart and measured nowhere' : '',
    changes.length ? '(…): p95 against the baseline, where it moved' : ''
  ]
  return ['<table>', `<tr>${headers.map((h, i) => `<th${i === 0 ? '' : ' align="right"'}>${h}</th>`).join('')}</tr>`, ...rows, '</table>', '', `<sub>${legend.filter(Boolean).join(' · ')}</sub>`, '']
}

/** The p95 latency of each tool, as a chart beside its table. */
function latencyChart(tools: ToolTelemetry[]): string[] {
  const bars = tools.filter((t) => t.latency_ms.p95 !== null).map((t) => ({ label: t.name, value: t.latency_ms.p95 as number }))
  return chartLines(renderBarChart({ title: 'p95 latency per tool (ms)', unit: 'ms', bars }), 'tools')
}

// ——— Time, tokens and cost ———

/** Share of a whole, as "27%"; nothing when the whole is zero. */
const shareOf = (part: number, whole: number) => (whole > 0 ? ` (${percent(part / whole)})` : '')

function timeLines(doc: ResultsDocument, section: TelemetrySection): string[] {
  const o = section.overall
  const started = section.models.reduce((n, m) => n + m.runs, 0)
  const concurrency = doc.config?.concurrency ?? 1
  // A simulated user is an LLM too: its time is the model's share, not the harness's.
  const model = doc.runs.some((r) => r.dialogue?.user_latency_ms) ? 'the models (the simulated user included)' : 'the model'
  return [
    `- **Wall clock:** ${seconds(o.wall_s)} for the whole evaluation`,
    `- **Agent loop:** ${seconds(o.runs_s)} summed over ${count(started, 'run')} — ${model} ${seconds(o.llm_s)}${shareOf(o.llm_s, o.runs_s)}, the tools ${seconds(o.tool_s)}${shareOf(o.tool_s, o.runs_s)}, the harness (the rest) ${seconds(o.harness_s)}${shareOf(o.harness_s, o.runs_s)}`,
    `- **Server start-up:** ${seconds(o.server_start_s)} summed (spawn or connect, handshake, listing) · **Judge:** ${seconds(o.judge_s)} summed`,
    '',
    `_Sums over runs overlap when runs are concurrent${concurrency > 1 ? ` (concurrency ${concurrency})` : ''}: they can exceed the wall clock._`,
    ''
  ]
}

function tokensTable(section: TelemetrySection): string[] {
  const { tokens, cost_usd: costs } = section.overall
  const row = (label: string, t: { input: number; output: number; total: number }, usdValue: number | null) =>
    `<tr><td>${label}</td><td align="right">${tokenCount(t.input)}</td><td align="right">${tokenCount(t.output)}</td><td align="right">${tokenCount(t.total)}</td><td align="right">${t.total === 0 && usdValue === null ? '—' : cost(usdValue)}</td></tr>`
  const total = { input: tokens.agent.input + tokens.judge.input, output: tokens.agent.output + tokens.judge.output, total: tokens.total }
  return [
    '<table>',
    '<tr><th></th><th align="right">Input tokens</th><th align="right">Output tokens</th><th align="right">Total</th><th align="right">Cost</th></tr>',
    row('Agent', tokens.agent, costs.agent),
    row('Judge', tokens.judge, costs.judge),
    row('<b>Total</b>', total, costs.total),
    '</table>',
    ''
  ]
}

/** Spent against nominal (replayed answers cost nothing now), the cache, and where costs came from. */
function spendLines(section: TelemetrySection): string[] {
  const o = section.overall
  const lines: string[] = []
  const cache = o.cache
  if (cache && cache.hits > 0) {
    const saved = cache.saved_cost_usd === null ? '' : ` (${cost(cache.saved_cost_usd)})`
    lines.push(`- **Spent:** ${cost(o.spent_usd)} of ${cost(o.cost_usd.total)} nominal — ${count(cache.hits, 'replayed answer')} from the cache saved ${count(cache.saved_tokens, 'token')}${saved}`)
  } else lines.push(`- **Spent:** ${cost(o.spent_usd)}${cache ? ' (no answer was replayed from the cache)' : ''}`)
  const s = section.cost_sources
  const calls = s.provider + s.pricing + s.unknown
  if (calls > 0) lines.push(`- **Where the costs come from:** of ${count(calls, 'LLM call')}, ${s.provider} reported by the provider, ${s.pricing} from \`pricing:\`, ${s.unknown} unknown`)
  return [...lines, '']
}

/** Unknown costs said plainly: which models, and the YAML that fixes it. */
function unknownCostHint(section: TelemetrySection): string[] {
  const models = section.cost_sources.unknown_models
  if (section.cost_sources.unknown === 0 && models.length === 0) return []
  const named = models.length ? models.map(codeSpan).join(', ') : 'some models'
  const yaml = ['pricing:', ...(models.length ? models : ['provider/model']).map((m) => `  ${JSON.stringify(m)}: { input_per_mtok: <USD>, output_per_mtok: <USD> }`)].join('\n')
  return [
    `> **Cost unknown** for ${named}: the provider reported no cost and \`pricing:\` has no entry, so every total that includes ${models.length === 1 ? 'it' : 'them'} is unknown (not $0). Add the prices (USD per million tokens) to the YAML:`,
    '',
    codeBlock(yaml, 'yaml'),
    ''
  ]
}

// ——— Budgets and skipped runs ———

const mark = (check: BudgetCheck) => (check.passed ? '✅' : '❌')

/** "- ❌ `tools.max_p95_ms` · `search` — tool 'search': p95 latency 1,240 ms is over …". */
function budgetLine(check: BudgetCheck): string {
  const subject = check.subject === null ? '' : ` · ${codeSpan(check.subject)}`
  return `- ${mark(check)} ${codeSpan(check.budget)}${subject} — ${escapeMarkdown(ellipsize(check.reason, REASON_CHARS))}`
}

/**
 * Why runs never started, from one run's record ("the spend reached max_cost_usd ($0.50 of $0.50)
 * before this run started"), said of several when `several`; no final period.
 */
export function skipWords(detail: string | null | undefined, several: boolean): string {
  const words = (detail ?? 'the spend reached max_cost_usd before this run started').replace(/\.$/, '')
  return several ? words.replace(/ before this run started$/, ' before they started') : words
}

/** "3 runs were skipped (budget): the spend reached max_cost_usd ($0.50 of $0.50) before they started — `case · model · prompt`, …". */
export function skippedLine(doc: ResultsDocument): string[] {
  const skipped = skippedRuns(doc)
  if (skipped.length === 0) return []
  const detail = skipWords(skipped[0].skipped?.detail, skipped.length > 1)
  const named = skipped.slice(0, SKIPPED_NAMED).map((r) => codeSpan(`${r.case_id} · ${r.model} · ${r.prompt_name}${r.attempts > 1 ? ` · run ${r.attempt}` : ''}`))
  const more = skipped.length > SKIPPED_NAMED ? `, and ${skipped.length - SKIPPED_NAMED} more` : ''
  const verb = skipped.length === 1 ? 'run was' : 'runs were'
  return [`> **${skipped.length} ${verb} skipped (budget)** and never started: ${escapeMarkdown(ellipsize(detail, REASON_CHARS))}. Not run: ${named.join(', ')}${more}.`, '']
}

/** Every budget checked with its verdict and its reason, the trends apart; or how to set one. */
function budgetsSection(doc: ResultsDocument, heading: string): string[] {
  const { absolute, trends } = budgetChecks(doc)
  if (absolute.length === 0 && trends.length === 0) {
    return [`${heading} Budgets`, '', '_No budget is set. `budgets:` in the YAML (or the `max_*` inputs) turns latency, tokens and cost into gates._', '', ...skippedLine(doc)]
  }
  const failed = [...absolute, ...trends].filter((c) => !c.passed).length
  const out = [`${heading} Budgets — ${failed === 0 ? '✓ every one held' : `✗ ${failed} exceeded`}`, '', ...skippedLine(doc)]
  if (absolute.length) out.push(...absolute.map(budgetLine), '')
  if (trends.length) out.push('Against the baseline:', '', ...trends.map(budgetLine), '')
  return out
}

/** "1.5s" or "1.5s–3.9s": the lowest and highest of some figures, once when they read the same. */
function spread(values: number[], format: (n: number) => string): string {
  const [low, high] = [format(Math.min(...values)), format(Math.max(...values))]
  return low === high ? low : `${low}–${high}`
}

/** "> 4 runs · p95 run 1.5s · slowest p95 tool `search` 1,240 ms · 1,200 tokens · $0.0123": the section at a glance. */
function glanceLine(section: TelemetrySection): string {
  const runs = section.models.reduce((n, m) => n + m.runs, 0)
  const p95 = section.models.map((m) => m.run_s.p95).filter((v): v is number => v !== null)
  const slowest = [...section.tools].filter((t) => t.latency_ms.p95 !== null).sort((a, b) => (b.latency_ms.p95 ?? 0) - (a.latency_ms.p95 ?? 0))[0]
  const parts = [
    runs > 0 ? count(runs, 'run') : '',
    p95.length ? `p95 run ${spread(p95, seconds)}` : '',
    slowest ? `slowest tool ${codeSpan(slowest.name)} p95 ${milliseconds(slowest.latency_ms.p95)}` : '',
    ...(section.overall.tokens.total > 0 ? [`${tokenCount(section.overall.tokens.total)} tokens`, section.overall.cost_usd.total === null ? 'cost unknown' : cost(section.overall.cost_usd.total)] : [])
  ]
  return `> ${parts.filter(Boolean).join(' · ')}`
}

/** Whether there is anything to show: a run that started, a tool call measured, a budget checked, a run skipped. */
function hasTelemetry(doc: ResultsDocument, section: TelemetrySection): boolean {
  return section.models.some((m) => m.runs > 0) || section.tools.length > 0 || [...section.budgets, ...(doc.gate?.trends ?? [])].length > 0 || skippedRuns(doc).length > 0
}

/**
 * The report's "Layer 3 — latency, tokens and cost" section: the budgets' verdict and the figures
 * at a glance; the Models table with a chart of cost per run; each model (and model × system
 * prompt) in detail; each tool's calls, errors and latency and result size percentiles with a
 * chart of p95 latency; where the time went; tokens and cost, agent and judge, spent against
 * nominal; unknown costs and how to price them; every budget with its verdict, and the runs the
 * spend left unstarted. Nothing in a document without telemetry.
 */
export function renderTelemetry(doc: ResultsDocument, heading = '##'): string[] {
  const section = sectionOf(doc)
  if (!section || !hasTelemetry(doc, section)) return []
  const sub = `${heading}#`
  const verdict = verdictWords(doc)
  const out = [`${heading} Layer 3 — latency, tokens and cost${verdict ? ` — ${verdict}` : ''}`, '', glanceLine(section), '']
  const started = section.models.some((m) => m.runs > 0) || skippedRuns(doc).length > 0
  if (started && doc.summary.by_model.length > 0) out.push(`${sub} Models`, '', ...modelsTable(doc), ...costChart(doc))
  const perModel = section.models.filter((m) => m.runs > 0)
  if (perModel.length) out.push(`${sub} Per model`, '', ...modelDetailTable(perModel, false))
  const prompts = new Set(section.model_prompts.map((m) => m.prompt_name))
  if (prompts.size > 1) out.push(`${sub} Per model and system prompt`, '', ...modelDetailTable(section.model_prompts.filter((m) => m.runs > 0), true))
  if (section.tools.length) out.push(`${sub} Tools`, '', ...toolsTable(doc, section.tools), ...latencyChart(section.tools))
  if (section.models.some((m) => m.runs > 0)) out.push(`${sub} Where the time went`, '', ...timeLines(doc, section))
  if (section.overall.tokens.total > 0) out.push(`${sub} Tokens and cost`, '', ...tokensTable(section), ...spendLines(section), ...unknownCostHint(section))
  out.push(...budgetsSection(doc, sub))
  return out
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

/** The budgets that failed and the runs the spend left unstarted; nothing when every budget held. */
export function budgetsDigest(doc: ResultsDocument, limit = BUDGETS_SHOWN): string[] {
  if (telemetryPassed(doc)) return []
  const failed = failedBudgets(doc)
  const out = [`#### Budgets — ${verdictWords(doc) ?? '✗'}`, '', ...skippedLine(doc)]
  if (failed.length) {
    out.push(...failed.slice(0, limit).map(budgetLine))
    if (failed.length > limit) out.push(`- … and ${failed.length - limit} more: see the job summary`)
    out.push('')
  }
  const section = sectionOf(doc)
  if (section && failed.some((c) => c.actual === null && c.budget.includes('cost'))) out.push(...unknownCostHint(section))
  return out
}

/** The budgets digest with less detail: the verdict, and each failed budget in a line without its reason. */
export function budgetsBrief(doc: ResultsDocument, limit = BUDGETS_SHOWN): string[] {
  if (telemetryPassed(doc)) return []
  const failed = failedBudgets(doc)
  const skipped = skippedRuns(doc).length
  const lines = failed.slice(0, limit).map((c) => `- ❌ ${codeSpan(c.budget)}${c.subject === null ? '' : ` · ${codeSpan(c.subject)}`}`)
  if (failed.length > limit) lines.push(`- … and ${failed.length - limit} more`)
  return [`**Budgets** ${verdictWords(doc) ?? '✗'}${skipped ? ` (the spend reached max_cost_usd; ${count(skipped, 'run')} never started)` : ''}`, '', ...lines, ...(lines.length ? [''] : [])]
}
