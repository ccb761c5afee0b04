import type { ResultsDocument } from '../results/types.js'
import { ellipsize, firstLine } from '../util/text.js'
import { escapeMarkdown } from './escape.js'
import { formatTimestamp } from './timestamp.js'
import { budgetReasons } from '../telemetry/budgets.js'
import { failedBudgets, toolTestsPassed } from '../aggregate/verdict.js'
import { toolTestCount } from './tool-tests.js'
import { count } from '../util/words.js'

/** How the evaluation words a skip because the server never answered (behaviour and tool tests alike). */
export const UNREACHABLE_PREFIX = 'the server could not be started or reached'

/**
 * Why the server could not be reached, when that is why nothing was evaluated: conformance found
 * it unreachable, or the behaviour runs and tool tests were skipped for it and nothing else ran.
 * Null otherwise. Plain text: the caller escapes it.
 */
export function unreachableReason(doc: ResultsDocument): string | null {
  if (doc.fatal_error !== null || doc.behaviour.status !== 'skipped') return null
  if (doc.tool_tests && doc.tool_tests.status === 'ran') return null
  if (doc.conformance && doc.conformance.era !== 'unreachable') return null
  const after = (reason: string | null | undefined) =>
    reason && reason.startsWith(UNREACHABLE_PREFIX) ? reason.slice(UNREACHABLE_PREFIX.length).replace(/^[:;,—\s-]+/, '') || null : null
  const said = after(doc.behaviour.reason) ?? after(doc.tool_tests?.reason)
  if (doc.conformance?.era !== 'unreachable' && said === null) return null
  const u = doc.conformance?.unreachable
  const fromProbe = doc.conformance?.error ?? (u ? [u.http_status !== null ? `HTTP ${u.http_status}` : '', u.cause ?? ''].filter(Boolean).join(' ') : '')
  return said ?? (fromProbe || 'no answer')
}

/**
 * The verdict in a few words, for a title ("# Eval Report — ✗ failed", the comment's heading):
 * what stopped the evaluation, if anything, else whether it passed. A shard gives none.
 */
export function verdictWords(doc: ResultsDocument): string {
  if (doc.fatal_error !== null) return doc.behaviour.reason === 'the configuration is invalid' ? '✗ invalid configuration' : '✗ could not run'
  if (doc.cancelled) return '⊘ cancelled'
  if (unreachableReason(doc) !== null) return '✗ server unreachable'
  if (doc.shard) return `◐ shard ${doc.shard.index} of ${doc.shard.count}, no verdict`
  return doc.passed ? '✓ passed' : '✗ failed'
}

/** The tool tests ran: they have a say in the headline. */
function toolTestsRan(doc: ResultsDocument): boolean {
  return doc.tool_tests !== null && doc.tool_tests.status === 'ran'
}

/**
 * The headline of every rendering (report, comment, job summary): it follows the verdict, in
 * this order — the configuration was invalid, the job was cancelled, the behaviour evals were
 * skipped, the evaluation failed, it passed. It never says "passed" about something that failed,
 * nor "All 0 evals passed" about something that evaluated nothing.
 */
export function verdictHeadline(doc: ResultsDocument): string {
  const { summary } = doc
  if (doc.fatal_error !== null) {
    return doc.behaviour.reason === 'the configuration is invalid' ? '**✗ Invalid configuration** — nothing was evaluated' : '**✗ The evaluation could not run** — nothing was evaluated'
  }
  const skipped = summary.skipped ?? 0
  const problems = [summary.failed ? `${summary.failed} failed` : '', summary.errored ? `${summary.errored} errored` : '', summary.cancelled ? `${summary.cancelled} cancelled` : '', skipped ? `${skipped} skipped (budget)` : '']
    .filter(Boolean)
    .join(', ')
  const tally = [`${summary.passed} passed`, problems].filter(Boolean).join(', ')
  const tests = doc.tool_tests
  if (doc.cancelled) {
    if (doc.behaviour.status === 'skipped' && tests && tests.status === 'ran') {
      const done = [`${tests.passed} passed`, tests.failed ? `${tests.failed} failed` : '', tests.errored ? `${tests.errored} errored` : '', tests.cancelled ? `${tests.cancelled} cancelled` : '']
      return `**⊘ Cancelled** — ${done.filter(Boolean).join(', ')} of ${count(tests.total, 'tool test')}; no verdict`
    }
    return `**⊘ Cancelled** — ${tally} of ${count(summary.total, 'run')}; no verdict`
  }
  const unreachable = unreachableReason(doc)
  if (doc.shard && unreachable === null) return `**◐ Shard ${doc.shard.index} of ${doc.shard.count}** — ${summary.passed}/${count(summary.total, 'run')} passed${problems ? ` (${problems})` : ''}; no verdict: the merge of the shards gives it`
  if (unreachable !== null) return `**✗ Server unreachable** — ${escapeMarkdown(ellipsize(firstLine(unreachable), 200))}; nothing was evaluated`
  if (tests && tests.status === 'ran' && (doc.behaviour.status === 'skipped' || summary.total === 0)) {
    // Tool tests only: they are the evaluation; say why the behaviour runs are not.
    const why = doc.behaviour.status === 'skipped' ? `behaviour runs skipped: ${escapeMarkdown(doc.behaviour.reason ?? 'skipped')}` : 'no behaviour run was planned'
    if (doc.passed) return `**✓ Passed** — ${toolTestCount(tests)}; ${why}`
    const but = toolTestsPassed(tests) ? `, but ${whyFailed(doc)}` : ''
    return `**✗ Failed** — ${toolTestCount(tests)}${but}; ${why}`
  }
  if (doc.behaviour.status === 'skipped') {
    const conformance = doc.conformance ? `conformance ${doc.conformance.passed ? 'passed' : 'failed'}` : 'nothing was evaluated'
    return `**${doc.passed ? '✓' : '✗'} ${conformance[0].toUpperCase()}${conformance.slice(1)}** — behaviour evals skipped`
  }
  if (summary.total === 0) return `**${doc.passed ? '✓' : '✗'} No runs** — no behaviour run was planned`
  const allPassed = summary.total > 0 && summary.passed === summary.total
  if (doc.passed) {
    // eval-action's headline when every run passed; else say the floors carried it.
    return allPassed ? `**All ${count(summary.total, 'eval')} passed**` : `**✓ Passed** — ${summary.passed}/${summary.total} runs passed (${problems}), within the pass floors`
  }
  if (allPassed) return `**✗ Failed** — all ${count(summary.total, 'run')} passed, but ${whyFailed(doc)}`
  return `**${summary.passed}/${summary.total} passed** — ${problems || whyFailed(doc)}`
}

/** Why a document whose runs all passed still failed: conformance, a budget, or the delta gate. */
function whyFailed(doc: ResultsDocument): string {
  const reasons: string[] = []
  const tests = doc.tool_tests
  if (tests && tests.status === 'ran' && !toolTestsPassed(tests)) reasons.push(`${tests.total - tests.passed} of ${count(tests.total, 'tool test')} did not pass`)
  if (doc.conformance && !doc.conformance.passed) reasons.push('protocol conformance failed')
  const budgets = failedBudgets(doc)
  if (budgets.length > 0) reasons.push(`${budgets.length === 1 ? `the budget ${budgets[0].budget}` : `${budgets.length} budgets`} ${budgets.length === 1 ? 'was' : 'were'} exceeded`)
  // The gate carries the budgets' reasons: it is named when it failed on something else too.
  const budgetWords = new Set([...budgetReasons(doc.telemetry ?? null), ...budgets.map((b) => b.reason)])
  if (doc.gate && !doc.gate.passed && (budgets.length === 0 || doc.gate.reasons.some((r) => !budgetWords.has(r)))) reasons.push(`the ${doc.gate.mode} gate failed`)
  if (doc.journal && doc.journal.missing > 0) reasons.push(`${count(doc.journal.missing, 'planned run')} ${doc.journal.missing === 1 ? 'is' : 'are'} missing`)
  return reasons.join(' and ') || 'the gate failed'
}

/**
 * The headline line as the report and the comment show it: verdict · extras · time. The comment
 * names the gate here (its gate section is collapsed); the report has a gate line of its own.
 */
export function headerLine(doc: ResultsDocument, options: { gate?: boolean } = {}): string {
  const parts = [verdictHeadline(doc)]
  if (doc.fatal_error === null) {
    if (doc.groups.some((g) => g.runs > 1)) parts.push(`${doc.summary.groups.passed}/${doc.summary.groups.total} groups at their pass floor`)
    const headline = parts[0]
    // The tool tests beside the runs; when they are the evaluation, the headline already counts them.
    if (doc.tool_tests && doc.behaviour.status === 'ran' && doc.summary.total > 0 && !doc.cancelled && !headline.includes('tool test')) {
      const t = doc.tool_tests
      parts.push(t.status === 'skipped' ? 'tool tests skipped' : toolTestsPassed(t) ? `tool tests ${t.passed}/${t.total} passed` : `tool tests **${t.passed}/${t.total} passed**`)
    }
    const toolTestsOnly = doc.behaviour.status === 'skipped' && toolTestsRan(doc) && !doc.cancelled
    if (doc.conformance && (doc.behaviour.status === 'ran' || (toolTestsOnly && !headline.includes('protocol conformance failed')))) {
      parts.push(`conformance ${doc.conformance.passed ? 'passed' : '**failed**'}`)
    }
    if (options.gate && doc.gate && !doc.cancelled) parts.push(!doc.gate.baseline ? 'no baseline: the pass floors decide' : doc.gate.mode === 'absolute' ? 'gate: absolute (the pass floors)' : `gate: ${doc.gate.mode} against the baseline`)
  }
  const secondsTaken = Math.trunc(doc.duration_s)
  if (secondsTaken > 0) parts.push(`${secondsTaken}s`)
  parts.push(formatTimestamp(doc.started_at))
  return `> ${parts.join(' · ')}`
}

/**
 * What a shard's report says under its headline: its share of the plan, where the free layers
 * ran, and that the verdict is the merge's. Empty for an unsharded (or merged) document.
 */
export function shardNotice(doc: ResultsDocument): string[] {
  const shard = doc.shard
  if (!shard) return []
  const free = shard.index === 1 ? 'conformance and the tool tests ran here' : 'conformance and the tool tests run in shard 1'
  return [
    `_Shard ${shard.index} of ${shard.count}: ${shard.planned} of ${count(shard.planned_total, 'planned run')} (${shard.groups} of ${count(shard.groups_total, 'group')}); ${free}. No gate here: the job that merges the shards' results gives the verdict of the whole suite._`,
    ''
  ]
}
