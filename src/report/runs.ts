import type { Json } from '../config/types.js'
import type { ConversationEntry, MetricSet, MetricsReport, ResultsDocument, RunResult, ToolCallResult } from '../results/types.js'
import { callRender } from './app-findings.js'
import { appPointer } from './apps.js'
import { dialogueSection } from './dialogue.js'
import { inputsSection } from './input-rounds.js'
import { renderMatrix } from './matrix.js'
import { METRIC_LABELS } from './metric-labels.js'
import { modelViewLines, toolCallNote, toolCallNoteHtml } from './model-view.js'
import { formatTimestamp } from './timestamp.js'
import { judgeScore, verdictText } from './run-verdict.js'
import { anchor, summaryTable } from './runs-table.js'
import { count } from '../util/words.js'
import { blockquote, codeBlock, codeHtml, codeSpan, escapeHtml, escapeMarkdown, truncateText } from './escape.js'
import { formatPercent } from './numbers.js'
import { pyStr } from '../scoring/python-values.js'
import { usageLine } from './usage.js'

// The run anchors, for the transcripts' file names.
export { anchor } from './runs-table.js'

const OUTPUT_LIMIT = 2000
const ANSWER_LIMIT = 4000

/** A check's mark: the tick or the cross, as text (a badge image per check made a passing report 200 images). */
const mark = (passed: boolean) => (passed ? '✓' : '✗')
/** A section's verdict after its heading: "— ✓ passed", "— ✗ failed". */
const holds = (passed: boolean) => `— ${passed ? '✓ passed' : '✗ failed'}`

/** Metrics overall and per model; a metric no run applies to shows as —. */
function metricsTable(metrics: MetricsReport, models: string[]): string[] {
  const columns: [string, MetricSet][] = [['Overall', metrics.overall], ...models.filter((m) => metrics.by_model[m]).map((m): [string, MetricSet] => [m, metrics.by_model[m]])]
  const shown = METRIC_LABELS.filter(([key]) => columns.some(([, set]) => set[key] !== null))
  if (shown.length === 0) return []
  const cell = (v: number | null) => (v === null ? '—' : `${formatPercent(v)}%`)
  return [
    '<table>',
    `<tr><th>Metric</th>${columns.map(([name]) => `<th align="center">${name === 'Overall' ? name : `${codeHtml(name)}`}</th>`).join('')}</tr>`,
    ...shown.map(([key, label]) => `<tr><td>${label}</td>${columns.map(([, set]) => `<td align="center">${cell(set[key])}</td>`).join('')}</tr>`),
    '</table>',
    ''
  ]
}

function runDetails(run: RunResult): string[] {
  const dialogue = run.dialogue ?? null
  const score = run.metrics[0]?.score ?? null
  const pct = score === null ? 'N/A' : `${formatPercent(score)}%`
  const judged = run.status === 'skipped' || run.status === 'cancelled' ? '' : ` — ${score === null ? 'not judged' : `judge ${judgeScore(run)}`}`
  const out = [
    '<details>',
    `<summary id="${anchor(run)}">${verdictText(run)} · ${codeHtml(run.case_id)} · ${codeHtml(run.model)} · ${escapeHtml(run.prompt_name)}${run.attempts > 1 ? ` · run ${run.attempt}/${run.attempts}` : ''}${judged}</summary>`,
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
    out.push(`##### Tool Assertions${whole} ${holds(run.tool_assertions.passed)}`, '')
    for (const check of run.tool_assertions.checks) {
      const expected = check.expected_args
        ? ` (expected ${Object.entries(check.expected_args)
            .map(([k, v]) => `${codeSpan(k)}: ${formatMatcher(v)}`)
            .join(', ')})`
        : ''
      out.push(`- ${mark(check.passed)} ${codeSpan(check.tool)} — ${check.reason}${expected}`)
      for (const actual of check.actual_args ?? []) {
        const got = Object.entries(actual).map(([k, v]) => `${codeSpan(k)}=${codeSpan(pyStr(v))}`)
        out.push(`  - Got: ${got.length ? got.join(', ') : '(none of the expected arguments)'}`)
      }
    }
    out.push('')
  }
  if (run.golden_assertions && run.golden_assertions.checks.length > 0) {
    out.push(`##### Golden checks${whole} ${holds(run.golden_assertions.passed)}`, '')
    for (const check of run.golden_assertions.checks) out.push(`- ${mark(check.passed)} ${codeSpan(check.check)} — ${escapeMarkdown(check.reason)}`)
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
  if (run.conversation.length > 0) out.push(...conversation(run, run.status !== 'passed'))
  out.push('</details>')
  return out
}

/** "Trace `4bf92f3577b34da6a3ce929d0e0e4736`": the run's W3C trace id, whole, to look it up in the tracing backend. */
function traceLine(run: RunResult): string[] {
  if (!run.trace_id) return []
  return [`Trace ${codeSpan(run.trace_id)}`, '']
}

/**
 * The run's conversation, each tool call with its input and output (the run's tool_calls are in the
 * order the entries hold them: what the model was shown of each, and the view each opened). A heading, not a fold of its own:
 * the run's details are folded already. A run that did not pass folds each call (`foldCalls`), to
 * read the conversation's outline first; a passing run, already folded inside its case, does not.
 */
function conversation(run: RunResult, foldCalls: boolean): string[] {
  const entries: ConversationEntry[] = run.conversation
  const calls: ToolCallResult[] = run.tool_calls
  const out = ['##### Conversation', '']
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
        const noted = result && result.name === call.name ? result : null
        if (foldCalls) out.push(`<details><summary>Tool Call ${codeHtml(call.name)}${noted ? toolCallNoteHtml(noted) : ''}</summary>`, '')
        else out.push(`**Tool Call** ${codeSpan(call.name)}${noted ? toolCallNote(noted) : ''}`, '')
        // The view the call opened, rendered in the browser: its verdict, a link to it in the MCP Apps section.
        const render = noted ? callRender(run, noted) : null
        if (render) out.push(appPointer(render), '')
        out.push('**Input**', '', codeBlock(JSON.stringify(call.args, null, 2), 'json'), '')
        if (resultIndex >= 0) {
          paired.add(resultIndex)
          const output = entries[resultIndex].content
          out.push('**Output**', '', codeBlock(prettyOutput(output), isJson(output) ? 'json' : ''), '')
        }
        if (foldCalls) out.push('</details>', '')
      }
    } else if (!paired.has(i)) {
      out.push(`**${escapeMarkdown(entry.tool_name ?? 'tool')}** result:`, '', codeBlock(prettyOutput(entry.content)), '')
    }
  })
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

/**
 * The passing runs of each case in one fold, "✓ `weather-paris` — 4 runs passed", each run's own
 * details inside it: a passing report is a line per case until someone opens one. A case whose
 * other runs did not pass says so: those are listed above, each on its own. A case of one run is that run's block.
 */
function passingByCase(runs: RunResult[]): string[] {
  const passing = runs.filter((r) => r.status === 'passed')
  const cases = [...new Set(passing.map((r) => r.case_id))]
  return cases.flatMap((caseId) => {
    const mine = passing.filter((r) => r.case_id === caseId)
    const others = runs.filter((r) => r.case_id === caseId && r.status !== 'passed').length
    // A case of one run needs no fold around it: the run's own summary says the same.
    if (mine.length === 1 && others === 0) return [...runDetails(mine[0]), '']
    const rest = others > 0 ? ` (${others} more did not pass: above)` : ''
    return [`<details><summary>✓ ${codeHtml(caseId)} — ${count(mine.length, 'run')} passed${rest}</summary>`, '', ...mine.flatMap((run) => [...runDetails(run), '']), '</details>', '']
  })
}

/**
 * The behaviour runs: the cases × models matrix (when there is more than one column or a repeat),
 * the runs that did not pass as rows (every run, when there is no matrix), the usage, the metrics,
 * then every run in detail — those that did not pass first, each open to a click; the passing ones
 * folded by case.
 */
export function renderRuns(doc: ResultsDocument): string[] {
  const out: string[] = []
  const columns = new Set(doc.groups.map((g) => `${g.model} ${g.prompt_name}`)).size
  const matrixShown = columns > 1 || doc.groups.some((g) => g.runs > 1)
  if (matrixShown) out.push(...renderMatrix(doc.groups, doc.gate, doc.runs))
  out.push(...summaryTable(doc.runs, matrixShown))
  out.push(usageLine(doc), '')
  if (doc.metrics) out.push(...metricsTable(doc.metrics, doc.config?.models ?? []))
  out.push('### Details', '')
  for (const run of doc.runs.filter((r) => r.status !== 'passed')) out.push(...runDetails(run), '')
  out.push(...passingByCase(doc.runs))
  return out
}
