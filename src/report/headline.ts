import type { ResultsDocument } from '../results/types.js'
import { formatTimestamp } from './timestamp.js'
import { count } from '../util/words.js'

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
  const problems = [summary.failed ? `${summary.failed} failed` : '', summary.errored ? `${summary.errored} errored` : '', summary.cancelled ? `${summary.cancelled} cancelled` : '']
    .filter(Boolean)
    .join(', ')
  const tally = [`${summary.passed} passed`, problems].filter(Boolean).join(', ')
  if (doc.cancelled) return `**⊘ Cancelled** — ${tally} of ${count(summary.total, 'run')}; no verdict`
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

/** Why a document whose runs all passed still failed: conformance, or the delta gate. */
function whyFailed(doc: ResultsDocument): string {
  const reasons: string[] = []
  if (doc.conformance && !doc.conformance.passed) reasons.push('protocol conformance failed')
  if (doc.gate && !doc.gate.passed) reasons.push(`the ${doc.gate.mode} gate failed`)
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
    if (doc.conformance && doc.behaviour.status === 'ran') parts.push(`conformance ${doc.conformance.passed ? 'passed' : '**failed**'}`)
    if (options.gate && doc.gate && !doc.cancelled) parts.push(!doc.gate.baseline ? 'no baseline: the pass floors decide' : doc.gate.mode === 'absolute' ? 'gate: absolute (the pass floors)' : `gate: ${doc.gate.mode} against the baseline`)
  }
  const secondsTaken = Math.trunc(doc.duration_s)
  if (secondsTaken > 0) parts.push(`${secondsTaken}s`)
  parts.push(formatTimestamp(doc.started_at))
  return `> ${parts.join(' · ')}`
}
