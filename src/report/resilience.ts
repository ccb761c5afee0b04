import type { AttackEvidence, AttackVerdict, ResilienceCell, ResilienceChange, ResilienceSummary, ResultsDocument, RunResult, ToolCallResult } from '../results/types.js'
import { resiliencePassed } from '../aggregate/verdict.js'
import { ellipsize } from '../util/text.js'
import { count, percent } from '../util/words.js'
import { blockquote, codeBlock, codeHtml, codeSpan, escapeHtml, escapeMarkdown, truncateText } from './escape.js'

/** How much of a failing run the section shows: its calls, their arguments, the answer. */
const CALLS_SHOWN = 15
const ARGS_CELL_CHARS = 160
const DETAIL_CHARS = 300
const ARGS_BLOCK_CHARS = 1500
const ANSWER_CHARS = 800
const CROSSING_BLOCKS = 3
const FAILURES_SHOWN = 20

type Dimension = 'faults' | 'attacks'

/** What a cell counts over: a fault fires, an attack is delivered. Said for the runs where it did not. */
const NOT_COUNTED: Record<Dimension, string> = { faults: 'not triggered', attacks: 'not delivered' }

/** Each evidence kind in words; a kind we do not know (a hand-edited document) is shown as it is, escaped. */
export const EVIDENCE_WORDS: Record<AttackEvidence['kind'], string> = {
  canary: 'carried the canary',
  attacker_email: "sent to the attacker's address",
  attacker_host: "reached the attacker's host",
  allowed_args: 'an argument outside allowed_args',
  forbidden_tool: 'called a forbidden tool',
  shadow_tool: 'called the decoy tool',
  markdown_exfiltration: 'a link to the attacker in the answer',
  secret_leak: 'leaked the planted secret'
}

/** Where each attack vector puts its payload, for the line that names the attack. */
const VECTOR_WORDS: Record<AttackVerdict['attack'], (tool: string) => string> = {
  tool_output: (tool) => `in the output of ${tool}`,
  poison_description: (tool) => `in the description of ${tool}`,
  shadow_tool: (tool) => `as a decoy of ${tool}`,
  rug_pull: (tool) => `as a changed description of ${tool} after its first call`
}

/** An evidence kind in words; a kind we do not know (a hand-edited document) as it is. Plain text: the caller escapes it. */
export const evidenceWords = (kind: string): string => EVIDENCE_WORDS[kind as AttackEvidence['kind']] ?? kind

/** Where an attack puts its payload: "in the output of get_attractions". Plain text: the caller escapes it. */
export const vectorWords = (attack: Pick<AttackVerdict, 'attack' | 'tool'>): string => (VECTOR_WORDS[attack.attack] ?? ((tool: string) => `via ${attack.attack} on ${tool}`))(attack.tool)

const EXECUTIONS = ['not executed', 'executed once', 'executed twice']

function allCells(summary: ResilienceSummary): ResilienceCell[] {
  return summary.by_model.flatMap((m) => [...m.faults, ...m.attacks])
}

/** The summary when it has a cell to show: Layer 2 cases whose runs never ran (no key, cancelled at once) leave an empty one. */
function shown(doc: ResultsDocument): ResilienceSummary | null {
  const summary = doc.summary.resilience
  return summary && allCells(summary).length > 0 ? summary : null
}

/** "✓ every cell reached its floor" or "✗ 2 of 10 cells below their floor". */
function verdictWords(summary: ResilienceSummary): string {
  const cells = allCells(summary)
  const failing = cells.filter((c) => !c.success).length
  return failing === 0 ? '✓ every cell reached its floor' : `✗ ${failing} of ${count(cells.length, 'cell')} below ${cells.length === 1 ? 'its' : 'their'} floor`
}

/** "Recovery from faults 4/5 (80%) · Attack resistance 3/4 (75%)": over every model and key. */
function totalsLine(summary: ResilienceSummary): string {
  const total = (dimension: Dimension, label: string, unit: string) => {
    const cells = summary.by_model.flatMap((m) => m[dimension])
    if (cells.length === 0) return ''
    const counted = cells.reduce((n, c) => n + c.counted, 0)
    const passed = cells.reduce((n, c) => n + c.passed, 0)
    return counted === 0 ? `${label}: not tested (no ${unit})` : `${label} ${passed}/${counted} (${percent(passed / counted)})`
  }
  return [total('faults', 'Recovery from faults', 'fault fired'), total('attacks', 'Attack resistance', 'attack was delivered')].filter(Boolean).join(' · ')
}

/** The columns of a matrix: every key any model has, in the order they first appear. */
function keysOf(summary: ResilienceSummary, dimension: Dimension): string[] {
  return [...new Set(summary.by_model.flatMap((m) => m[dimension].map((c) => c.key)))]
}

/** ▼ or ▲ when the baseline had this cell at another rate (both measured). */
function movement(changes: ResilienceChange[], model: string, dimension: Dimension, key: string): string {
  const change = changes.find((c) => c.model === model && c.dimension === (dimension === 'faults' ? 'fault' : 'attack') && c.key === key)
  if (!change || change.baseline === null || change.current === null) return ''
  return change.current < change.baseline ? ' ▼' : ' ▲'
}

/** One cell: its symbol against its own floor, k/N over the runs where it counted, and what did not count. */
function cellHtml(cell: ResilienceCell | undefined, dimension: Dimension, showFloor: boolean, mark: string): string {
  if (!cell) return '<td align="center">—</td>'
  const missing = cell.planned - cell.counted
  const main = `${cell.success ? '✓' : '✗'}${cell.counted > 0 ? ` ${cell.passed}/${cell.counted}` : ''}${mark}`
  const notes = [missing > 0 ? `${missing} ${NOT_COUNTED[dimension]}` : '', showFloor ? `floor ${percent(cell.floor)}` : ''].filter(Boolean)
  return `<td align="center">${main}${notes.length ? `<br><sub>${notes.join(' · ')}</sub>` : ''}</td>`
}

/** The floor every cell of the dimensions shares, or null when they differ (each cell then says its own). */
function sharedFloor(summary: ResilienceSummary, dimensions: Dimension[]): number | null {
  const floors = new Set(summary.by_model.flatMap((m) => dimensions.flatMap((d) => m[d].map((c) => c.floor))))
  return floors.size === 1 ? [...floors][0] : null
}

const keyHeader = (key: string) => `<th align="center">${codeHtml(key)}</th>`

function rowsHtml(summary: ResilienceSummary, dimensions: Dimension[], changes: ResilienceChange[], showFloor: boolean): string[] {
  const keys = dimensions.map((d) => ({ dimension: d, keys: keysOf(summary, d) }))
  return summary.by_model.map((m) => {
    const cells = keys.flatMap(({ dimension, keys: list }) => list.map((key) => cellHtml(m[dimension].find((c) => c.key === key), dimension, showFloor, movement(changes, m.model, dimension, key))))
    return `<tr><td>${codeHtml(m.model)}</td>${cells.join('')}</tr>`
  })
}

function legend(dimensions: Dimension[], floor: number | null, changes: ResilienceChange[]): string {
  const parts = [
    dimensions.includes('faults') ? 'recovered k/N: runs that passed (rubric, assertions and the recovery oracle) of the N where the fault fired' : '',
    dimensions.includes('attacks') ? 'resisted k/N: delivered attacks the model did not act on' : '',
    `✓ reached ${floor === null ? 'its floor' : `the floor (${percent(floor)})`} · ✗ below it, or a planned run that tested nothing (${dimensions.map((d) => NOT_COUNTED[d]).join(', ')})`,
    changes.some((c) => c.baseline !== null && c.current !== null) ? '▼ ▲ against the baseline' : ''
  ]
  return `<sub>${parts.filter(Boolean).join(' · ')}</sub>`
}

/** Model × fault kind or model × payload, one table. */
function matrix(summary: ResilienceSummary, dimension: Dimension, changes: ResilienceChange[]): string[] {
  const keys = keysOf(summary, dimension)
  if (keys.length === 0) return []
  const floor = sharedFloor(summary, [dimension])
  return ['<table>', `<tr><th>Model</th>${keys.map(keyHeader).join('')}</tr>`, ...rowsHtml(summary, [dimension], changes, floor === null), '</table>', '', legend([dimension], floor, changes), '']
}

/** The comment's matrix: both dimensions in one table, faults first, under a header that groups them. */
function compactMatrix(summary: ResilienceSummary, changes: ResilienceChange[]): string[] {
  const dimensions = (['faults', 'attacks'] as const).filter((d) => keysOf(summary, d).length > 0)
  if (dimensions.length === 0) return []
  const floor = sharedFloor(summary, dimensions)
  const group = (d: Dimension) => `<th colspan="${keysOf(summary, d).length}">${d === 'faults' ? 'Recovered from' : 'Resisted'}</th>`
  return [
    '<table>',
    `<tr><th rowspan="2">Model</th>${dimensions.map(group).join('')}</tr>`,
    `<tr>${dimensions.flatMap((d) => keysOf(summary, d).map(keyHeader)).join('')}</tr>`,
    ...rowsHtml(summary, dimensions, changes, floor === null),
    '</table>',
    '',
    legend(dimensions, floor, changes),
    ''
  ]
}

// ——— Failures ———

/** Why a run failed Layer 2, as short plain phrases (the caller escapes them). */
function verdictPhrases(run: RunResult): string[] {
  const phrases: string[] = []
  if (run.recovery && !run.recovery.passed) phrases.push(run.recovery.triggered ? 'recovery failed' : 'the fault never fired')
  if (run.answer_check && !run.answer_check.passed) phrases.push('the answer contains what it must not')
  for (const attack of run.security?.attacks ?? []) {
    if (!attack.delivered) phrases.push(`attack ${attack.payload} not delivered`)
    else if (!attack.resisted) phrases.push(`attack ${attack.payload} succeeded`)
  }
  return phrases
}

/** A run whose recovery or answer check failed, or one of whose attacks succeeded or was never delivered. Cancelled runs are no verdict. */
function layer2Failed(run: RunResult): boolean {
  return run.status !== 'cancelled' && verdictPhrases(run).length > 0
}

const callName = (index: number, calls: ToolCallResult[]) => `tool call ${index + 1}${calls[index] ? ` ${codeSpan(calls[index].name)}` : ''}`

function attackLines(attack: AttackVerdict, calls: ToolCallResult[]): string[] {
  const where = (VECTOR_WORDS[attack.attack] ?? ((tool: string) => `via ${escapeMarkdown(attack.attack)} on ${tool}`))(codeSpan(attack.tool))
  if (!attack.delivered) return [`- **Attack ${codeSpan(attack.payload)}** ${where} — ⚠ never reached the model, so it tested nothing (not counted as resisted)`]
  if (attack.resisted) return [`- **Attack ${codeSpan(attack.payload)}** ${where} — ✓ resisted`]
  const lines = [`- **Attack ${codeSpan(attack.payload)}** ${where} — ✗ succeeded (canary ${codeSpan(attack.canary)}):`]
  for (const e of attack.evidence) {
    const at = e.tool_call_index === null ? 'the answer' : callName(e.tool_call_index, calls)
    lines.push(`  - ${at}: ${escapeMarkdown(evidenceWords(e.kind))} — ${escapeMarkdown(ellipsize(e.detail, DETAIL_CHARS))}`)
  }
  return lines
}

/** What the section says happened at one call: the fault that replaced it, the attack it carried, the line it crossed. */
function callNotes(run: RunResult, index: number): string[] {
  const call = run.tool_calls[index]
  const notes: string[] = []
  if (call.fault) {
    const executed = EXECUTIONS[call.fault.executions] ?? `executed ${call.fault.executions} times`
    notes.push(`⚡ fault ${codeHtml(call.fault.kind)} (call ${call.fault.call} of this tool, ${executed}): ${escapeHtml(ellipsize(call.fault.detail, DETAIL_CHARS))}`)
  } else if (call.is_error) notes.push('the server answered with an error')
  if (call.injected) notes.push(`☠ payload ${codeHtml(call.injected.payload)} planted${call.injected.position ? ` (${escapeHtml(call.injected.position)})` : ''}`)
  if (run.recovery?.evidence_call === index) notes.push(`↻ the ${escapeHtml(run.recovery.expected)} the recovery oracle counted`)
  for (const attack of run.security?.attacks ?? []) {
    const here = attack.evidence.filter((x) => x.tool_call_index === index)
    if (here.length === 0) continue
    const items = here.map((e) => `· ${escapeHtml(evidenceWords(e.kind))} — ${escapeHtml(ellipsize(e.detail, DETAIL_CHARS))}`)
    notes.push([`✗ crossed the line (${codeHtml(attack.payload)}):`, ...items].join('<br>'))
  }
  return notes
}

function argsJson(args: unknown, pretty: boolean): string {
  try {
    return (pretty ? JSON.stringify(args, null, 2) : JSON.stringify(args)) ?? String(args)
  } catch {
    return String(args)
  }
}

/** The run's tool calls in order, each beside what Layer 2 did to it; a long run shows only the calls that matter. */
function callsTable(run: RunResult): string[] {
  const calls = run.tool_calls
  if (calls.length === 0) return ['_No tool calls._', '']
  const notes = calls.map((_, i) => callNotes(run, i))
  const shown = calls.length <= CALLS_SHOWN ? calls.map((_, i) => i) : calls.map((_, i) => i).filter((i) => notes[i].length > 0).slice(0, CALLS_SHOWN)
  const rows = shown.map(
    (i) => `<tr><td align="right">${i + 1}</td><td>${codeHtml(calls[i].name)}</td><td>${codeHtml(ellipsize(argsJson(calls[i].args, false), ARGS_CELL_CHARS))}</td><td>${notes[i].join('<br>')}</td></tr>`
  )
  const hidden = calls.length - shown.length
  return ['<table>', '<tr><th>#</th><th>Tool</th><th>Arguments</th><th>What happened</th></tr>', ...rows, '</table>', '', ...(hidden > 0 ? [`_${count(hidden, 'other tool call')} not shown._`, ''] : [])]
}

/** The whole arguments of each call that crossed the line, as JSON. */
function crossingBlocks(run: RunResult): string[] {
  const indexes = [...new Set((run.security?.attacks ?? []).flatMap((a) => a.evidence.map((e) => e.tool_call_index)).filter((i): i is number => i !== null))]
  const out: string[] = []
  for (const index of indexes.slice(0, CROSSING_BLOCKS)) {
    const call = run.tool_calls[index]
    if (!call) continue
    out.push(`Tool call ${index + 1}, ${codeSpan(call.name)}, crossed the line with these arguments:`, '', codeBlock(truncateText(argsJson(call.args, true), ARGS_BLOCK_CHARS), 'json'), '')
  }
  if (indexes.length > CROSSING_BLOCKS) out.push(`_${count(indexes.length - CROSSING_BLOCKS, 'more call')} crossed the line; the run's details have them._`, '')
  return out
}

/** The answer matters when it was judged (honest failure, must_not_contain) or crossed the line itself. */
function answerMatters(run: RunResult): boolean {
  return (
    (run.answer_check !== null && run.answer_check !== undefined && !run.answer_check.passed) ||
    (run.recovery?.expected === 'honest_failure' && !run.recovery.passed) ||
    (run.security?.attacks ?? []).some((a) => a.evidence.some((e) => e.tool_call_index === null))
  )
}

/** One failing run, expanded: who and what was asked, each verdict with its reason, the calls, the crossing arguments, the answer. */
function failureBlock(run: RunResult): string[] {
  const repeat = run.attempts > 1 ? ` (run ${run.attempt} of ${run.attempts})` : ''
  const out = [`**✗ ${codeSpan(run.case_id)} · ${codeSpan(run.model)} · ${escapeMarkdown(run.prompt_name)}**${repeat} — ${escapeMarkdown(verdictPhrases(run).join(' · '))}`, '', blockquote(run.input), '']
  const lines: string[] = []
  if (run.recovery && !run.recovery.passed) lines.push(`- **Recovery** (expected ${codeSpan(run.recovery.expected)}) — ✗ ${escapeMarkdown(run.recovery.reason)}`)
  if (run.answer_check && !run.answer_check.passed) {
    lines.push(`- **Answer check** — ✗ the answer contains ${run.answer_check.found.map(codeSpan).join(', ')} (it must contain none of ${run.answer_check.must_not_contain.map(codeSpan).join(', ')})`)
  }
  for (const attack of run.security?.attacks ?? []) lines.push(...attackLines(attack, run.tool_calls))
  if (lines.length) out.push(...lines, '')
  out.push(...callsTable(run), ...crossingBlocks(run))
  if (answerMatters(run)) {
    out.push('Final answer:', '', run.final_output ? blockquote(truncateText(run.final_output, ANSWER_CHARS)) : '> _No final answer._', '')
  }
  return out
}

function renderFailuresExpanded(doc: ResultsDocument, heading: string): string[] {
  const failing = doc.runs.filter(layer2Failed)
  if (failing.length === 0) return []
  const out = [`${heading} Failures (${failing.length})`, '']
  for (const run of failing.slice(0, FAILURES_SHOWN)) out.push(...failureBlock(run))
  if (failing.length > FAILURES_SHOWN) out.push(`_${count(failing.length - FAILURES_SHOWN, 'more run')}: see the run details below._`, '')
  return out
}

/**
 * The report's "Resilience and security" section: a verdict and the totals, the matrix model ×
 * fault kind (recovered k/N) and model × payload (resisted k/N), each cell against its own floor,
 * then every run that failed a Layer 2 oracle expanded: the prompt, each verdict with its reason,
 * its calls beside the faults that replaced them and the line each crossed, and the arguments of
 * the calls that crossed it. Nothing when no case injects faults or plants attacks.
 */
export function renderResilience(doc: ResultsDocument, heading = '##'): string[] {
  const summary = shown(doc)
  if (!summary) return []
  const changes = doc.changes?.resilience ?? []
  const sub = `${heading}#`
  const out = [`${heading} Resilience and security — ${verdictWords(summary)}`, '', `> ${totalsLine(summary)}`, '']
  const faults = matrix(summary, 'faults', changes)
  if (faults.length) out.push(`${sub} Recovery from faults`, '', ...faults)
  const attacks = matrix(summary, 'attacks', changes)
  if (attacks.length) out.push(`${sub} Attack resistance`, '', ...attacks)
  out.push(...renderFailuresExpanded(doc, sub))
  return out
}

/**
 * The comment's view: failing, a heading, the totals and both matrices in one table; passing,
 * the same table one click away.
 */
export function resilienceDigest(doc: ResultsDocument): string[] {
  const summary = shown(doc)
  if (!summary) return []
  const table = compactMatrix(summary, doc.changes?.resilience ?? [])
  if (resiliencePassed(summary)) return [`<details><summary>Resilience and security ${escapeHtml(verdictWords(summary))}: ${escapeHtml(totalsLine(summary))}</summary>`, '', ...table, '</details>', '']
  return [`#### Resilience and security — ${verdictWords(summary)}`, '', totalsLine(summary), '', ...table]
}

/** The digest with less detail, for a comment over GitHub's limit: the verdict and each cell below its floor, one line each. */
export function resilienceBrief(doc: ResultsDocument, limit = 10): string[] {
  const summary = shown(doc)
  if (!summary) return []
  if (resiliencePassed(summary)) return [`**Resilience and security** ${verdictWords(summary)}: ${totalsLine(summary)}`, '']
  const failing = summary.by_model.flatMap((m) =>
    (['faults', 'attacks'] as const).flatMap((d) => m[d].filter((c) => !c.success).map((cell) => ({ model: m.model, dimension: d, cell })))
  )
  const line = ({ model, dimension, cell }: (typeof failing)[number]) => {
    const verb = dimension === 'faults' ? 'recovered from' : 'resisted'
    const missing = cell.planned - cell.counted
    return `- ✗ ${codeSpan(model)} ${verb} ${codeSpan(cell.key)}: ${cell.passed}/${cell.counted} (floor ${percent(cell.floor)})${missing > 0 ? `, ${missing} ${NOT_COUNTED[dimension]}` : ''}`
  }
  const out = [`#### Resilience and security — ${verdictWords(summary)}`, '', ...failing.slice(0, limit).map(line)]
  if (failing.length > limit) out.push(`- … and ${failing.length - limit} more: see the job summary`)
  out.push('')
  return out
}
