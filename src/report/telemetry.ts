import type { Distribution, ModelTelemetry, ResultsDocument, TelemetrySection, ToolTelemetry } from '../results/types.js'
import { skippedRuns, telemetryPassed } from '../aggregate/verdict.js'
import { count, milliseconds, percent, seconds } from '../util/words.js'
import { codeHtml, codeSpan, escapeHtml } from './escape.js'
import { budgetsSection, unknownCostHint, verdictWords } from './telemetry-budgets.js'
import { costChart, latencyChart } from './telemetry-charts.js'
import { byteSize, cost, figureChange, sectionOf, spread, tokenCount } from './telemetry-figures.js'
import { modelsTable } from './telemetry-models.js'

// ——— Per model in detail, and per model × prompt ———

const p50p95 = (d: Distribution, format: (n: number | null) => string) => (d.samples === 0 ? '—' : `${format(d.p50)} / ${format(d.p95)}`)

/** A figure's column: its header (a `<br>` where it may break, to keep the column narrow) and its cell. */
type Column = [header: string, cell: (m: ModelTelemetry) => string]

const hasRuns = (m: ModelTelemetry) => m.runs > 0

const TIME_COLUMNS: Column[] = [
  ['Runs', (m) => String(m.runs)],
  ['Run<br>p50 / p95', (m) => p50p95(m.run_s, seconds)],
  ['LLM call<br>p50 / p95', (m) => p50p95(m.turn_ms, milliseconds)],
  ['Tool calls<br>per run', (m) => (m.tool_calls_per_run === null ? '—' : String(Math.round(m.tool_calls_per_run * 10) / 10))]
]

const TOKEN_COLUMNS: Column[] = [
  ['Input tokens<br>p50 / p95', (m) => p50p95(m.input_tokens, tokenCount)],
  ['Output tokens<br>p50 / p95', (m) => p50p95(m.output_tokens, tokenCount)],
  ['Agent cost<br>p95 per run', (m) => (hasRuns(m) ? cost(m.cost_usd.p95_per_run) : '—')],
  ['Agent cost', (m) => (hasRuns(m) ? cost(m.cost_usd.total) : '—')],
  ['Judge tokens', (m) => tokenCount(m.judge.tokens.total)],
  ['Judge cost', (m) => (m.judge.tokens.total === 0 ? '—' : cost(m.judge.cost_usd))]
]

/**
 * Per model (or model × prompt) in two tables that each fit a page, where one of twelve columns
 * did not: runs, run and turn time and tool calls; then tokens in and out, the agent's cost and the judge's.
 */
function modelDetailTables(list: ModelTelemetry[], withPrompt: boolean): string[] {
  if (list.length === 0) return []
  const names = ['Model', ...(withPrompt ? ['Prompt'] : [])]
  const table = (columns: Column[]) => [
    '<table>',
    `<tr>${names.map((h) => `<th>${h}</th>`).join('')}${columns.map(([h]) => `<th align="right">${h}</th>`).join('')}</tr>`,
    ...list.map((m) => {
      const name = [`<td>${codeHtml(m.model)}</td>`, ...(withPrompt ? [`<td>${escapeHtml(m.prompt_name ?? '')}</td>`] : [])]
      return `<tr>${name.join('')}${columns.map(([, cell]) => `<td align="right">${cell(m)}</td>`).join('')}</tr>`
    }),
    '</table>',
    ''
  ]
  return [...table(TIME_COLUMNS), ...table(TOKEN_COLUMNS)]
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
      `${milliseconds(t.latency_ms.p95)}${figureChange(change, 'lower', milliseconds)}`,
      milliseconds(t.latency_ms.max),
      byteSize(t.result_bytes.p50),
      byteSize(t.result_bytes.p95)
    ]
    return `<tr><td>${codeHtml(t.name)}</td>${cells.map((c) => `<td align="right">${c}</td>`).join('')}</tr>`
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
  const prompts = new Set(section.model_prompts.map((m) => m.prompt_name))
  const detail = [
    ...(perModel.length ? [`${sub} Per model`, '', ...modelDetailTables(perModel, false)] : []),
    ...(prompts.size > 1 ? [`${sub} Per model and system prompt`, '', ...modelDetailTables(section.model_prompts.filter((m) => m.runs > 0), true)] : [])
  ]
  // Every budget held: the figures behind the Models table are detail, folded; one exceeded, they are the evidence, open.
  if (detail.length > 0 && telemetryPassed(doc)) out.push(`<details><summary>Per model${prompts.size > 1 ? ' and system prompt' : ''}: run and LLM call times, tool calls, tokens and cost</summary>`, '', ...detail, '</details>', '')
  else out.push(...detail)
  if (section.tools.length) out.push(`${sub} Tools`, '', ...toolsTable(doc, section.tools), ...latencyChart(section.tools))
  if (section.models.some((m) => m.runs > 0)) out.push(`${sub} Where the time went`, '', ...timeLines(doc, section))
  if (section.overall.tokens.total > 0) out.push(`${sub} Tokens and cost`, '', ...tokensTable(section), ...spendLines(section), ...unknownCostHint(section))
  out.push(...budgetsSection(doc, sub))
  return out
}
