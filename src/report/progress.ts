import { groupKey } from '../aggregate/gate.js'
import { checkTally, skipGroups, skippedLine } from './conformance.js'
import { endedBriefly } from './dialogue.js'
import type { ConformanceReport, ConformanceSection } from '../results/types.js'
import { blockingEntries } from '../conformance/expected-failures.js'
import { expectedFailuresConsole } from './expected-failures.js'
import type { ResultsDocument, RunResult } from '../results/types.js'
import { firstLine } from '../util/text.js'
import { unreachableReason } from './headline.js'
import { failedBudgets, toolTestsPassed } from '../aggregate/verdict.js'
import { skipWords } from './telemetry-budgets.js'
import { formatPercent } from './numbers.js'
import { toolTestCount, toolTestFailing } from './tool-tests.js'
import { count as plural, percent, seconds, usd } from '../util/words.js'
import type { CacheStats } from '../results/types.js'

/** "12 hits, 3 misses, 4,200 tokens ($0.0012) saved": the response cache, as the report and the CLI say it. */
export function describeCache(cache: CacheStats): string {
  const cost = cache.saved_cost_usd !== null ? ` (${usd(cache.saved_cost_usd)})` : ''
  return `${plural(cache.hits, 'hit')}, ${plural(cache.misses, 'miss', 'misses')}, ${plural(cache.saved_tokens, 'token')}${cost} saved`
}

/** One log line per finished run: what ran, the verdict, and why when it did not pass; "skipped: budget" for a run never started. */
export function formatProgressLine(run: RunResult, finished: number, total: number): string {
  const mark = run.status === 'passed' ? '✓' : run.status === 'error' ? '!' : run.status === 'cancelled' || run.status === 'skipped' ? '-' : '✗'
  const score = run.metrics[0]?.score
  const pct = score === null || score === undefined ? 'n/a' : `${formatPercent(score)}%`
  const attempt = run.attempts > 1 ? ` (run ${run.attempt}/${run.attempts})` : ''
  if (run.cancelled) return clean(`[${finished}/${total}] ${mark} ${run.case_id} · ${run.model} · ${run.prompt_name}${attempt} — cancelled while waiting for ${run.cancelled.waiting_for}`)
  if (run.status === 'skipped') return clean(`[${finished}/${total}] ${mark} ${run.case_id} · ${run.model} · ${run.prompt_name}${attempt} — skipped: budget (${skipWords(run.skipped?.detail, false)})`)
  let line = `[${finished}/${total}] ${mark} ${run.case_id} · ${run.model} · ${run.prompt_name}${attempt} — judge ${pct}`
  if (run.tool_assertions.checks.length > 0) {
    line += `, tools ${run.tool_assertions.checks.filter((c) => c.passed).length}/${run.tool_assertions.checks.length}`
  }
  const golden = run.golden_assertions?.checks ?? []
  if (golden.length > 0) line += `, golden ${golden.filter((c) => c.passed).length}/${golden.length}`
  line += dialogueAndInputWords(run)
  line += layer2Words(run)
  line += ` (${seconds(run.duration_s)})`
  if (run.error) line += ` — ${run.error.stage} error: ${firstLine(run.error.message)}`
  return clean(line)
}

/** A conversation and the server's input in a few words: ", turns 1/2 passed (stopped in turn 2: max_steps)", ", server input ✗ (2 rounds)". */
function dialogueAndInputWords(run: RunResult): string {
  let words = ''
  const dialogue = run.dialogue
  if (dialogue) words += `, turns ${dialogue.turns.filter((t) => t.passed).length}/${dialogue.turns.length} passed (${endedBriefly(dialogue)})`
  if (run.inputs) words += `, server input ${run.inputs.passed ? '✓' : '✗'} (${plural(run.inputs.rounds, 'round')})`
  return words
}

/** Layer 2 in a few words: ", recovery ✓ (honest_failure)", ", answer ✗ (contains "°C")", ", attacks 1/2 resisted". */
function layer2Words(run: RunResult): string {
  let words = ''
  const faults = run.tool_calls.filter((c) => c.fault).length
  if (faults > 0) words += `, ${plural(faults, 'fault')}`
  if (run.recovery) words += `, recovery ${run.recovery.passed ? '✓' : '✗'} (${run.recovery.expected})`
  if (run.answer_check && !run.answer_check.passed) words += `, answer ✗ (contains ${run.answer_check.found.map((f) => JSON.stringify(f)).join(', ')})`
  if (run.security) {
    const attacks = run.security.attacks
    words += `, attacks ${attacks.filter((a) => a.resisted).length}/${attacks.length} resisted`
    const undelivered = attacks.filter((a) => !a.delivered).length
    if (undelivered > 0) words += ` (${undelivered} not delivered)`
  }
  return words
}

/** Server and model text must not drive the terminal with escape sequences. */
function clean(line: string): string {
  return line.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
}

/** `simulatedCost`: the spend is a stand-in model's made-up figure (`--demo`), and the line says so. */
export function formatSummaryLine(doc: ResultsDocument, options: { simulatedCost?: boolean } = {}): string {
  if (doc.fatal_error !== null) return `${doc.behaviour.reason === 'the configuration is invalid' ? 'Invalid configuration' : 'Evals failed to run'}: ${doc.fatal_error}`
  const s = doc.summary
  const unreachable = unreachableReason(doc)
  // A shard that ran completely has no verdict of its own: the merge gives it.
  const shardDone = doc.shard && doc.passed ? `SHARD ${doc.shard.index}/${doc.shard.count} DONE (no verdict until merged)` : null
  if (unreachable !== null) return clean(`${shardDone ?? 'FAILED'}: server unreachable — ${unreachable}; nothing was evaluated`)
  const conformance = doc.conformance ? `conformance ${doc.conformance.passed ? 'passed' : 'FAILED'} · ` : ''
  const t = doc.tool_tests
  const toolTests = t ? (t.status === 'skipped' ? 'tool tests skipped · ' : `${toolTestCount(t)} · `) : ''
  if (doc.cancelled) {
    if (doc.behaviour.status === 'skipped' && t && t.status === 'ran') return `${conformance}CANCELLED (${doc.cancelled.signal}): ${t.total - t.cancelled} of ${t.total} tool tests had finished, ${t.passed} passed · ${doc.duration_s}s`
    return `${conformance}${toolTests}CANCELLED (${doc.cancelled.signal}): ${doc.cancelled.finished} of ${doc.cancelled.planned} runs had finished, ${s.passed} passed · ${s.tokens.total} tokens · ${doc.duration_s}s`
  }
  if (doc.behaviour.status === 'skipped') return `${shardDone ?? (doc.passed ? 'PASSED' : 'FAILED')}: ${conformance}${toolTests}behaviour evals skipped: ${doc.behaviour.reason ?? ''}`
  const rate = s.pass_rate === null ? '' : ` (${percent(s.pass_rate)})`
  const verdict = shardDone ?? (doc.passed ? 'PASSED' : 'FAILED')
  const skipped = s.skipped ? `, ${s.skipped} skipped (budget)` : ''
  const budgets = failedBudgets(doc).length
  const exceeded = budgets ? ` · ${plural(budgets, 'budget')} exceeded` : ''
  // What was spent, when it is known (an unknown cost is said in the report, not guessed here).
  const spent = doc.telemetry?.overall.spent_usd
  const cost = spent === null || spent === undefined ? '' : ` · ${usd(spent)} ${options.simulatedCost ? 'simulated spend (demo model)' : 'spent'}`
  return `${verdict}: ${conformance}${toolTests}${s.passed}/${s.total}${t ? ' runs' : ''} passed${rate}, ${s.failed} failed, ${s.errored} errored${skipped}${exceeded} · ${plural(s.tokens.total, 'token')}${cost} · ${doc.duration_s}s`
}

/**
 * The conformance verdict in a line, then one line per failure or warning and one for the skips
 * by reason. Give it the results document's section (the checks observed on the runs' tool calls
 * included), so that its tally is the report's.
 */
export function formatConformanceLines(report: ConformanceReport & Pick<ConformanceSection, 'expected_failures'>): string[] {
  if (report.era === 'unreachable') {
    const u = report.unreachable
    // The cause only when the error does not already say it ("server exited (code 1) (exited with code 1)").
    const cause = u?.cause && !(report.error ?? '').includes(u.cause.replace(/^exited with /, '')) ? u.cause : ''
    const facts = [u?.http_status !== null && u?.http_status !== undefined ? `HTTP ${u.http_status}` : '', cause].filter(Boolean).join(', ')
    const lines = [`Conformance: the server could not be started or reached over ${report.transport}${report.error ? `: ${report.error}` : ''}${facts ? ` (${facts})` : ''}`]
    const stderr = u?.stderr?.split('\n').filter((l) => l.trim() !== '').slice(-5) ?? []
    if (stderr.length) lines.push('  server stderr (last lines):', ...stderr.map((l) => `    ${l}`))
    return lines.map(clean)
  }
  const era = report.era === 'modern' ? `modern server (${report.negotiated_version})` : `LEGACY server (${report.negotiated_version ?? 'no handshake'})`
  const lines = [
    `Conformance: ${era} over ${report.transport} — ${checkTally(report)} (${(report.duration_ms / 1000).toFixed(1)}s)`
  ]
  if (report.error) lines.push(`  ✗ ${report.error}`)
  for (const c of report.checks) if (c.status === 'fail' || c.status === 'warn') lines.push(`  ${c.status === 'fail' ? '✗' : '⚠'} ${c.id}: ${c.message}`)
  for (const c of report.checks) if (c.status === 'expected') lines.push(`  ⊖ ${c.id}: expected failure${c.expected_entry && c.expected_entry !== c.id ? ` (${c.expected_entry})` : ''}: ${c.message}`)
  lines.push(...expectedFailuresConsole(report))
  const skipped = skipGroups(report)
  if (skipped.length) lines.push(`  – ${skippedLine(skipped)}`)
  if (report.migration.length) lines.push(`  ${plural(report.migration.length, 'migration step')} to 2026-07-28 ${report.migration.length === 1 ? 'is' : 'are'} in the report.`)
  return lines.map((l) => l.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' '))
}

/** Why a cancelled step failed, in one sentence. */
export function cancelledReason(doc: ResultsDocument): string {
  const c = doc.cancelled
  if (!c) return failureReason(doc)
  const parts: string[] = []
  if (c.planned > 0) parts.push(`${c.finished} of ${c.planned} planned runs had finished`)
  const tests = doc.tool_tests?.status === 'ran' ? doc.tool_tests : null
  if (tests) parts.push(`${tests.total - tests.cancelled} of ${tests.total} tool tests had finished`)
  const done = parts.length ? parts.join(', ') : 'nothing had finished'
  return `Cancelled by ${c.signal} at ${c.at}: ${done}; the rest are recorded as cancelled. Results, report and journal are written.`
}

/** Why the step fails, in one sentence. */
export function failureReason(doc: ResultsDocument): string {
  const unreachable = unreachableReason(doc)
  if (unreachable !== null) return `the server could not be started or reached: ${unreachable}; nothing was evaluated`
  const reasons: string[] = []
  const repeated = doc.groups.some((g) => g.runs > 1)
  const bad = doc.summary.failed + doc.summary.errored
  if (doc.journal && doc.journal.missing > 0) reasons.push(`${doc.journal.missing} planned runs are missing from the journal (the evaluation was interrupted)`)
  if (doc.gate) reasons.push(...doc.gate.reasons)
  else if (repeated && doc.summary.groups.failed > 0) reasons.push(`${doc.summary.groups.failed} of ${doc.summary.groups.total} groups did not reach their pass floor`)
  else if (!repeated && bad > 0) reasons.push(`${bad} of ${doc.summary.total} evals did not pass`)
  // Without a gate (no behaviour run: tool tests only) the budgets still speak; with one, they are among its reasons.
  if (!doc.gate) reasons.push(...failedBudgets(doc).map((b) => b.reason))
  const below = doc.groups.filter((g) => !g.success && g.cancelled < g.runs)
  if (below.length > 0 && doc.gate && !doc.gate.passed) reasons.push(`not passing: ${below.slice(0, 5).map(groupKey).join('; ')}${below.length > 5 ? `; and ${below.length - 5} more` : ''}`)
  const tests = doc.tool_tests
  if (tests && tests.status === 'ran' && !toolTestsPassed(tests)) {
    const failing = tests.tests.filter(toolTestFailing).map((t) => t.id)
    const named = failing.length ? ` (${failing.slice(0, 5).join(', ')}${failing.length > 5 ? `, and ${failing.length - 5} more` : ''})` : ''
    reasons.push(`${tests.total - tests.passed} of ${plural(tests.total, 'tool test')} did not pass${named}`)
  }
  if (doc.conformance && !doc.conformance.passed) {
    const failing = doc.conformance.checks.filter((c) => c.status === 'fail' || (doc.conformance?.fail_on === 'warning' && c.status === 'warn')).map((c) => c.id)
    // A stale or unknown entry of the expected-failures file fails the gate too: named, with where it is.
    const entries = blockingEntries(doc.conformance).map((e) => `${e.outcome} expected-failures entry ${e.entry} (${doc.conformance?.expected_failures?.file}:${e.line})`)
    reasons.push(`protocol conformance failed (${doc.conformance.error ? 'the server could not be probed' : [...failing, ...entries].join(', ')})`)
  }
  return reasons.join('; ') || 'the evaluation did not pass'
}
