import type { Json } from '../config/types.js'
import type { ConversationEntry, MetricSet, MetricsReport, ResultsDocument, RunResult, ToolCallResult } from '../results/types.js'
import { dialogueSection } from './dialogue.js'
import { inputsSection } from './input-rounds.js'
import { renderMatrix } from './matrix.js'
import { METRIC_LABELS } from './metric-labels.js'
import { modelViewLines, toolCallNoteHtml } from './model-view.js'
import { formatTimestamp } from './timestamp.js'
import { count, seconds } from '../util/words.js'
import { blockquote, codeBlock, codeHtml, codeSpan, escapeHtml, escapeMarkdown, truncateText } from './escape.js'
import { formatPercent } from './numbers.js'
import { pyStr } from '../scoring/python-values.js'
import { usageLine } from './usage.js'

const OUTPUT_LIMIT = 2000
const ANSWER_LIMIT = 4000

/** A shields.io static badge; `parts` are label/message/colour, already URL-safe (never untrusted). */
const shield = (parts: string[], alt: string) =>
  `<img src="https://img.shields.io/badge/${parts.join('-')}?style=flat-square" height="14" alt="${alt}">`
const PASS_BADGE = shield(['%E2%9C%93', '2da44e'], 'passed')
const FAIL_BADGE = shield(['%E2%9C%97', 'd1242f'], 'failed')
const ERROR_BADGE = shield(['error', '6e7781'], 'error')
const NOT_JUDGED_BADGE = shield(['N%2FA', 'grey'], 'not judged')
const CANCELLED_BADGE = shield(['cancelled', '6e7781'], 'cancelled')
const SKIPPED_BADGE = shield(['skipped', '6e7781'], 'skipped: budget')

/**
 * One row per run, eval-action's columns; runs that did not pass first, the passing ones
 * collapsed below them (with repeats there can be hundreds).
 */
export function summaryTable(runs: RunResult[]): string[] {
  const withTools = runs.some((r) => r.tool_assertions.checks.length > 0)
  const headers = ['Score', 'Case', 'Provider', 'Model', 'Prompt', ...(withTools ? ['Tools'] : []), 'Time', 'Details']
  const table = (list: RunResult[]) => {
    const rows = ['<table>', `<tr>${headers.map((h) => `<th align="center">${h}</th>`).join('')}</tr>`]
    for (const run of list) {
      const [provider, model] = splitModel(run.model)
      const cells = [
        scoreBadge(run),
        codeHtml(run.case_id),
        escapeHtml(provider),
        codeHtml(model),
        escapeHtml(run.prompt_name),
        ...(withTools ? [toolsCell(run)] : []),
        run.status === 'cancelled' || run.status === 'skipped' ? '—' : seconds(run.duration_s),
        `<a href="#user-content-${anchor(run)}">View</a>`
      ]
      rows.push(`<tr>${cells.map((c) => `<td align="center">${c}</td>`).join('')}</tr>`)
    }
    rows.push('</table>')
    return rows
  }
  const notPassing = runs.filter((r) => r.status !== 'passed')
  const passing = runs.filter((r) => r.status === 'passed')
  if (notPassing.length === 0) return table(passing)
  if (passing.length === 0) return table(notPassing)
  return [...table(notPassing), '', `<details><summary>${count(passing.length, 'passing run')}</summary>`, '', ...table(passing), '', '</details>']
}

/** Metrics overall and per model; a metric no run applies to shows as —. */
function metricsTable(metrics: MetricsReport, models: string[]): string[] {
  const columns: [string, MetricSet][] = [['Overall', metrics.overall], ...models.filter((m) => metrics.by_model[m]).map((m): [string, MetricSet] => [m, metrics.by_model[m]])]
  const shown = METRIC_LABELS.filter(([key]) => columns.some(([, set]) => set[key] !== null))
  if (shown.length === 0) return []
  const cell = (v: number | null) => (v === null ? '—' : `${formatPercent(v)}%`)
  return [
    '<table>',
    `<tr><th>Metric</th>${columns.map(([name]) => `<th align="center">${name === 'Overall' ? name : codeHtml(name)}</th>`).join('')}</tr>`,
    ...shown.map(([key, label]) => `<tr><td>${label}</td>${columns.map(([, set]) => `<td align="center">${cell(set[key])}</td>`).join('')}</tr>`),
    '</table>',
    ''
  ]
}

/** The judge score, coloured against this case's own threshold (not a fixed 70 %). */
function scoreBadge(run: RunResult): string {
  const score = run.metrics[0]?.score ?? null
  if (run.status === 'cancelled') return CANCELLED_BADGE
  if (run.status === 'skipped') return SKIPPED_BADGE
  if (run.status === 'error' && score === null) return ERROR_BADGE
  if (score === null) return NOT_JUDGED_BADGE
  const pct = formatPercent(score)
  const passing = score >= run.threshold
  const color = passing ? '2da44e' : score >= run.threshold - 0.1 ? 'd29922' : 'd1242f'
  const verdict = passing ? 'passing' : 'failing'
  return shield([`${pct}%25`, verdict, color], `${pct}% ${verdict} (threshold ${formatPercent(run.threshold)}%)`)
}

function toolsCell(run: RunResult): string {
  const { checks } = run.tool_assertions
  if (checks.length === 0) return '—'
  const passed = checks.filter((c) => c.passed).length
  return `${run.tool_assertions.passed ? PASS_BADGE : FAIL_BADGE} ${passed}/${checks.length}`
}

function runDetails(run: RunResult): string[] {
  const dialogue = run.dialogue ?? null
  const score = run.metrics[0]?.score ?? null
  const pct = run.status === 'skipped' ? 'skipped: budget' : score === null ? 'N/A' : `${formatPercent(score)}%`
  const statusBadge = run.status === 'cancelled' ? CANCELLED_BADGE : run.status === 'skipped' ? SKIPPED_BADGE : run.status === 'error' ? ERROR_BADGE : run.success ? PASS_BADGE : FAIL_BADGE
  const out = [
    '<details>',
    `<summary id="${anchor(run)}">${statusBadge} ${codeHtml(run.case_id)} · ${codeHtml(run.model)} · ${escapeHtml(run.prompt_name)}${run.attempts > 1 ? ` · run ${run.attempt}/${run.attempts}` : ''} — ${pct}</summary>`,
    '',
    ...traceLine(run),
    // A conversation's turns show every user message; a simulated user's case prompt is its goal.
    ...(!dialogue ? ['##### Query', '', blockquote(run.input), ''] : dialogue.kind === 'simulated' ? ['##### Goal (simulated user)', '', blockquote(run.input), ''] : [])
  ]
  if (run.status === 'skipped') {
    out.push('##### Skipped: budget', '', `Never started: ${escapeMarkdown((run.skipped?.detail ?? 'the spend reached max_cost_usd').replace(/\.$/, ''))}.`, '', '</details>')
    return out
  }
  if (run.cancelled) out.push(`##### Cancelled`, '', `By ${run.cancelled.signal} at ${formatTimestamp(run.cancelled.at)}, while waiting for ${escapeMarkdown(run.cancelled.waiting_for)}.`, '')
  if (run.error) {
    out.push(`##### Error (${run.error.stage})`, '', blockquote(run.error.message), '')
    if (run.error.stderr_tail) out.push('Server stderr (last lines):', '', codeBlock(truncateText(run.error.stderr_tail, OUTPUT_LIMIT)), '')
  }
  const judge = run.judge
  const thresholdNote = `threshold ${formatPercent(run.threshold)}%${judge?.scoring_mode ? `, ${judge.scoring_mode} scoring` : ''}`
  if (dialogue) {
    // Each turn shows its answer and its judge; the overall rubric, when the case has one, judged the whole dialogue.
    out.push(...dialogueSection(run))
    if (judge) out.push(`##### Judge (whole dialogue) — ${pct} (${thresholdNote})`, '', blockquote(run.metrics[0]?.reason || 'No judge comment'), '')
  } else {
    out.push('##### Final answer', '')
    if (run.final_output !== null && run.final_output !== '') out.push(blockquote(truncateText(run.final_output, ANSWER_LIMIT)), '')
    else out.push(`_${run.stop_reason === 'max_steps' ? 'No final answer: the model used every LLM call it was allowed.' : 'No final answer.'}_`, '')
    out.push(`##### Judge — ${pct} (${thresholdNote})`, '', blockquote(run.metrics[0]?.reason || 'No judge comment'), '')
  }

  const whole = dialogue ? ' (whole dialogue)' : ''
  if (run.tool_assertions.checks.length > 0) {
    out.push(`##### Tool Assertions${whole} ${run.tool_assertions.passed ? PASS_BADGE : FAIL_BADGE}`, '')
    for (const check of run.tool_assertions.checks) {
      const expected = check.expected_args
        ? ` (expected ${Object.entries(check.expected_args)
            .map(([k, v]) => `${codeSpan(k)}: ${formatMatcher(v)}`)
            .join(', ')})`
        : ''
      out.push(`- ${check.passed ? PASS_BADGE : FAIL_BADGE} ${codeSpan(check.tool)} — ${check.reason}${expected}`)
      for (const actual of check.actual_args ?? []) {
        const got = Object.entries(actual).map(([k, v]) => `${codeSpan(k)}=${codeSpan(pyStr(v))}`)
        out.push(`  - Got: ${got.length ? got.join(', ') : '(none of the expected arguments)'}`)
      }
    }
    out.push('')
  }
  if (run.golden_assertions && run.golden_assertions.checks.length > 0) {
    out.push(`##### Golden checks${whole} ${run.golden_assertions.passed ? PASS_BADGE : FAIL_BADGE}`, '')
    for (const check of run.golden_assertions.checks) out.push(`- ${check.passed ? PASS_BADGE : FAIL_BADGE} ${codeSpan(check.check)} — ${escapeMarkdown(check.reason)}`)
    out.push('')
  }
  // A conversation shows each call's rounds under its turn.
  out.push(...inputsSection(run, !dialogue))
  const invalid = run.tool_calls.filter((c) => c.schema_valid === false)
  if (invalid.length > 0) {
    out.push(`##### Arguments outside the tool's inputSchema (${invalid.length})`, '')
    for (const call of invalid) out.push(`- ${codeSpan(call.name)} ${codeSpan(JSON.stringify(call.args))}: ${escapeMarkdown(call.schema_errors ?? '')}`)
    out.push('')
  }
  out.push(...modelViewLines(run))
  if (run.conversation.length > 0) out.push(...conversation(run.conversation, run.tool_calls))
  out.push('</details>')
  return out
}

/** "Trace `4bf92f3577b34da6a3ce929d0e0e4736`": the run's W3C trace id, whole, to look it up in the tracing backend. */
function traceLine(run: RunResult): string[] {
  if (!run.trace_id) return []
  return [`Trace ${codeSpan(run.trace_id)}`, '']
}

/** The conversation, each tool call with its input and output; `calls` are the run's, in the order the entries hold them (for what the model was shown of each). */
function conversation(entries: ConversationEntry[], calls: ToolCallResult[]): string[] {
  const out = ['<details><summary>Conversation</summary>', '']
  const paired = new Set<number>()
  let callIndex = 0
  entries.forEach((entry, i) => {
    if (entry.role === 'user') out.push(`**User**${entry.turn === undefined ? '' : ` · turn ${entry.turn}`}${entry.simulated ? ' · simulated' : ''}`, '', blockquote(entry.content), '')
    else if (entry.role === 'assistant') {
      if (entry.content) out.push('**Assistant**', '', blockquote(truncateText(entry.content, ANSWER_LIMIT)), '')
      for (const call of entry.tool_calls ?? []) {
        // Each call shows the next unpaired tool message as its output, as eval-action does.
        const resultIndex = entries.findIndex((e, j) => j > i && e.role === 'tool' && !paired.has(j))
        const result = calls[callIndex++]
        const note = result && result.name === call.name ? toolCallNoteHtml(result) : ''
        out.push(`<details><summary>Tool Call ${codeHtml(call.name)}${note}</summary>`, '', '**Input**', '', codeBlock(JSON.stringify(call.args, null, 2), 'json'), '')
        if (resultIndex >= 0) {
          paired.add(resultIndex)
          const output = entries[resultIndex].content
          out.push('**Output**', '', codeBlock(prettyOutput(output), isJson(output) ? 'json' : ''), '')
        }
        out.push('</details>', '')
      }
    } else if (!paired.has(i)) {
      out.push(`**${escapeHtml(entry.tool_name ?? 'tool')}** result:`, '', codeBlock(prettyOutput(entry.content)), '')
    }
  })
  out.push('</details>', '')
  return out
}

function prettyOutput(text: string): string {
  const cut = truncateText(text, OUTPUT_LIMIT + 20)
  if (!isJson(text)) return cut
  return truncateText(JSON.stringify(JSON.parse(text), null, 2), OUTPUT_LIMIT + 200)
}

function isJson(text: string): boolean {
  const t = text.trim()
  if (!(t.startsWith('{') || t.startsWith('['))) return false
  try {
    JSON.parse(t)
    return true
  } catch {
    return false
  }
}

function formatMatcher(value: Json): string {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const v = value
    if ('contains' in v) return `contains ${codeSpan(String(v.contains))}`
    if ('pattern' in v) return `matches ${codeSpan(String(v.pattern))}`
  }
  return codeSpan(pyStr(value))
}

/** eval-action's anchor: "{case}-{model}-{prompt}", `/` and spaces to `-`, lower-cased, and the repeat when there are several; made safe for an attribute. */
export function anchor(run: Pick<RunResult, 'case_id' | 'model' | 'prompt_name'> & Partial<Pick<RunResult, 'attempt' | 'attempts'>>): string {
  const repeat = run.attempts && run.attempts > 1 ? `-${run.attempt}` : ''
  return `${run.case_id}-${run.model}-${run.prompt_name}${repeat}`
    .replace(/[/ ]/g, '-')
    .toLowerCase()
    .replace(/[^a-z0-9_.-]/g, '-')
}

function splitModel(model: string): [string, string] {
  const slash = model.indexOf('/')
  return slash < 0 ? ['', model] : [model.slice(0, slash), model.slice(slash + 1)]
}

/** The behaviour runs: the cases × models matrix (when there is more than one column or a repeat), one row per run, the usage, the metrics, every run in detail. */
export function renderRuns(doc: ResultsDocument): string[] {
  const out: string[] = []
  const columns = new Set(doc.groups.map((g) => `${g.model} ${g.prompt_name}`)).size
  if (columns > 1 || doc.groups.some((g) => g.runs > 1)) out.push(...renderMatrix(doc.groups, doc.gate, doc.runs))
  out.push(...summaryTable(doc.runs), '')
  out.push(usageLine(doc), '')
  if (doc.metrics) out.push(...metricsTable(doc.metrics, doc.config?.models ?? []))
  out.push('### Details', '')
  for (const run of doc.runs) out.push(...runDetails(run), '')
  return out
}
