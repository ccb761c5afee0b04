import type { RunResult } from '../results/types.js'
import { firstLine } from '../util/text.js'
import { formatPercent } from './numbers.js'

/** What went wrong with a run, in words: its error, or the judge against the threshold and each check that did not hold. */
export function failureReasons(run: RunResult): string[] {
  if (run.status === 'cancelled' && run.cancelled) return [`cancelled (${run.cancelled.signal}) while waiting for ${run.cancelled.waiting_for}`]
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
  return reasons
}
