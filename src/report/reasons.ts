import type { RunResult, TurnResult } from '../results/types.js'
import type { ToolAssertions } from '../results/types.js'
import { firstLine } from '../util/text.js'
import { stopWords } from './dialogue.js'
import { formatPercent } from './numbers.js'
import { skipWords } from './telemetry-budgets.js'
import { runAppReasons } from './app-findings.js'

/**
 * What went wrong with a run, in words: it was cancelled or never started (skipped: budget), its
 * error, or each turn that failed (a multi-turn run), the judge against the threshold, each check
 * that did not hold, what the server was expected to ask and did not (or was answered with content
 * its schema refused), each Layer 2 oracle that failed (recovery, answer check, attacks), and each app render that failed.
 */
export function failureReasons(run: RunResult): string[] {
  if (run.status === 'cancelled' && run.cancelled) return [`cancelled (${run.cancelled.signal}) while waiting for ${run.cancelled.waiting_for}`]
  if (run.status === 'skipped') return [`skipped: budget — ${skipWords(run.skipped?.detail, false)}`]
  if (run.status === 'error' && run.error) return [`${run.error.stage} error: ${firstLine(run.error.message)}`]
  const turns = run.dialogue?.turns.filter((t) => !t.passed).flatMap(turnReasons) ?? []
  const reasons: string[] = [...turns]
  const score = run.metrics[0]?.score ?? null
  // Without an overall rubric a conversation's judge verdict is its lowest turn's, already named.
  const judgeSaid = !!run.dialogue && run.judge === null && turns.length > 0
  const judgeWhat = run.dialogue ? 'whole dialogue: judge' : 'judge'
  if (!run.rubric_passed && !judgeSaid) {
    reasons.push(
      score === null
        ? `${judgeWhat}: ${run.metrics[0]?.reason || 'not judged'}`
        : `${judgeWhat} ${formatPercent(score)}% < threshold ${formatPercent(run.threshold)}%: ${run.metrics[0]?.reason ?? ''}`.trim()
    )
  }
  for (const check of run.tool_assertions.checks.filter((c) => !c.passed)) reasons.push(toolCheckReason(check))
  for (const check of run.golden_assertions?.checks.filter((c) => !c.passed) ?? []) reasons.push(`${check.check}: ${check.reason}`)
  if (run.status === 'failed' && run.dialogue?.kind === 'simulated' && run.dialogue.ended === 'max_turns') reasons.push(`the simulated user never said its goal was reached (max_turns: ${run.dialogue.turns.length})`)
  if (run.inputs && !run.inputs.passed) reasons.push(...(run.inputs.reasons.length > 0 ? run.inputs.reasons : ['the server input did not pass']).map((r) => `server input: ${r}`))
  if (run.recovery && !run.recovery.passed) reasons.push(`recovery (${run.recovery.expected}): ${run.recovery.reason.replace(/\.$/, '')}`)
  if (run.answer_check && !run.answer_check.passed) reasons.push(`must_not_contain: the answer contains ${run.answer_check.found.map((f) => JSON.stringify(f)).join(', ')}`)
  for (const attack of run.security?.attacks.filter((a) => !a.resisted) ?? []) {
    const what = `${attack.payload}${attack.attack === 'tool_output' ? '' : ` via ${attack.attack}`} on ${attack.tool}`
    reasons.push(attack.delivered ? `attack succeeded (${what}): ${attack.evidence.map((e) => e.detail).join('; ')}` : `attack not delivered (${what}): the model never saw it`)
  }
  // MCP Apps: each view that failed after one of the run's calls.
  reasons.push(...runAppReasons(run))
  return reasons
}

/** Why one turn of a multi-turn run did not pass: no final answer, its judge, its checks. */
function turnReasons(turn: TurnResult): string[] {
  const where = `turn ${turn.index}${turn.simulated ? ' (simulated)' : ''}`
  const reasons: string[] = []
  if (turn.stop_reason !== 'final_answer') reasons.push(`${where}: no final answer (${stopWords(turn.stop_reason)})`)
  const judge = turn.judge
  if (judge && judge.score === null) reasons.push(`${where}: judge: ${judge.error ?? (judge.reason || 'no score')}`)
  else if (judge && judge.score !== null && judge.score < judge.threshold) reasons.push(`${where}: judge ${formatPercent(judge.score)}% < threshold ${formatPercent(judge.threshold)}%: ${judge.reason}`.trim())
  for (const check of turn.tool_assertions?.checks.filter((c) => !c.passed) ?? []) reasons.push(`${where}: ${toolCheckReason(check)}`)
  for (const check of turn.golden_assertions?.checks.filter((c) => !c.passed) ?? []) reasons.push(`${where}: ${check.check}: ${check.reason}`)
  return reasons.length > 0 ? reasons : [`${where}: did not pass`]
}

/** A required_tools check that did not hold, in words: "book_flight: not called (expected {"flight_id":"any"})". */
function toolCheckReason(check: ToolAssertions['checks'][number]): string {
  return `${check.tool}: ${check.reason}${check.expected_args ? ` (expected ${JSON.stringify(check.expected_args)})` : ''}`
}
