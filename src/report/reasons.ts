import type { RunResult } from '../results/types.js'
import { firstLine } from '../util/text.js'
import { formatPercent } from './numbers.js'
import { skipWords } from './telemetry.js'

/**
 * What went wrong with a run, in words: it was cancelled or never started (skipped: budget), its
 * error, or the judge against the threshold, each check that did not hold, and each Layer 2
 * oracle that failed (recovery, answer check, attacks).
 */
export function failureReasons(run: RunResult): string[] {
  if (run.status === 'cancelled' && run.cancelled) return [`cancelled (${run.cancelled.signal}) while waiting for ${run.cancelled.waiting_for}`]
  if (run.status === 'skipped') return [`skipped: budget — ${skipWords(run.skipped?.detail, false)}`]
  if (run.status === 'error' && run.error) return [`${run.error.stage} error: ${firstLine(run.error.message)}`]
  const reasons: string[] = []
  const score = run.metrics[0]?.score ?? null
  if (!run.rubric_passed) {
    reasons.push(
      score === null
        ? `judge: ${run.metrics[0]?.reason || 'not judged'}`
        : `judge ${formatPercent(score)}% < threshold ${formatPercent(run.threshold)}%: ${run.metrics[0]?.reason ?? ''}`.trim()
    )
  }
  for (const check of run.tool_assertions.checks.filter((c) => !c.passed)) {
    reasons.push(`${check.tool}: ${check.reason}${check.expected_args ? ` (expected ${JSON.stringify(check.expected_args)})` : ''}`)
  }
  for (const check of run.golden_assertions?.checks.filter((c) => !c.passed) ?? []) reasons.push(`${check.check}: ${check.reason}`)
  if (run.recovery && !run.recovery.passed) reasons.push(`recovery (${run.recovery.expected}): ${run.recovery.reason.replace(/\.$/, '')}`)
  if (run.answer_check && !run.answer_check.passed) reasons.push(`must_not_contain: the answer contains ${run.answer_check.found.map((f) => JSON.stringify(f)).join(', ')}`)
  for (const attack of run.security?.attacks.filter((a) => !a.resisted) ?? []) {
    const what = `${attack.payload}${attack.attack === 'tool_output' ? '' : ` via ${attack.attack}`} on ${attack.tool}`
    reasons.push(attack.delivered ? `attack succeeded (${what}): ${attack.evidence.map((e) => e.detail).join('; ')}` : `attack not delivered (${what}): the model never saw it`)
  }
  return reasons
}
