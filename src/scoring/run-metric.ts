import type { Transcript } from '../agent/run-agent.js'
import { scriptedTurns } from '../aggregate/turns.js'
import type { AgentPhase } from '../execute/agent-phase.js'
import type { RunSpec } from '../plan/expand.js'
import { GEVAL_METRIC_NAME, type DialogueResult, type MetricResult } from '../results/types.js'
import type { JudgeError, JudgeVerdict } from './geval.js'
import { judgeErrorOf, verdictOf, type Scored } from './score-run.js'

/** metrics[0] of a run with its own rubric (a conversation's overall one): its verdict. */
export function runMetric(judged: JudgeVerdict | undefined, phase: AgentPhase, judgeError: JudgeError | undefined, maxSteps: number): MetricResult {
  const { skipped, transcript } = phase
  return {
    name: GEVAL_METRIC_NAME,
    score: judged ? judged.score : null,
    reason: judged ? judged.reason : skipped ? `Not run: ${skipped.detail}.` : notJudgedReason(transcript, judgeError, maxSteps, phase.dialogue !== null),
    success: judged?.success ?? false
  }
}

/**
 * metrics[0] of a conversation without an overall rubric: its lowest-scoring judged turn, its
 * reason prefixed "Turn N: ". A failing judged turn comes first (should thresholds differ); then
 * a scripted turn with a rubric that was never judged (it ran out of steps, the dialogue stopped
 * before it, its judge failed), which fails it: "Turn N: not judged: …". A run that was cancelled,
 * errored or skipped says so, as any run; with no rubric on any turn it passes, unjudged.
 */
export function turnsMetric(spec: RunSpec, phase: AgentPhase, scored: Scored, dialogue: DialogueResult, judgeError: JudgeError | undefined, maxSteps: number): MetricResult {
  const { transcript } = phase
  const judgedTurns = scored.turns.flatMap((score, i) => {
    const verdict = verdictOf(score.judged)
    return verdict ? [{ index: i + 1, verdict }] : []
  })
  // Failing turns first, then the lowest score; the earlier turn on a tie (the sort is stable).
  const lowest = [...judgedTurns].sort((a, b) => Number(a.verdict.success) - Number(b.verdict.success) || a.verdict.score - b.verdict.score)[0]
  const turnVerdict = (t: NonNullable<typeof lowest>): MetricResult => ({ name: GEVAL_METRIC_NAME, score: t.verdict.score, reason: `Turn ${t.index}: ${t.verdict.reason}`, success: t.verdict.success })
  if (lowest && !lowest.verdict.success) return turnVerdict(lowest)
  const metric = runMetric(undefined, phase, judgeError, maxSteps)
  if (phase.skipped || transcript.cancelled || transcript.error) return metric
  const unjudged = scriptedTurns(spec.case).findIndex((t, i) => t.rubric && !verdictOf(scored.turns[i]?.judged))
  if (unjudged >= 0) return { ...metric, reason: `Turn ${unjudged + 1}: ${unjudgedTurnReason(transcript, unjudged, scored, maxSteps)}`, success: false }
  if (lowest) return turnVerdict(lowest)
  if (dialogue.turns.length === 0) return metric
  return { ...metric, reason: 'Not judged: the case sets no rubric.', success: true }
}

/** Why scripted turn `index` (0-based) of a run that neither errored nor was cancelled has no verdict, after "Turn N: ". */
function unjudgedTurnReason(transcript: Transcript, index: number, scored: Scored, maxSteps: number): string {
  const judgeError = judgeErrorOf(scored.turns[index]?.judged)
  if (judgeError) return `Judge error: ${judgeError.message}`
  const ranOut = `the model used all ${maxSteps} LLM calls without a final answer`
  const turn = transcript.turns[index]
  if (turn) return turn.stop_reason === 'max_steps' ? `not judged: ${ranOut}.` : 'not judged.'
  const last = transcript.turns.at(-1)
  return last ? `not judged: the dialogue stopped before it (turn ${transcript.turns.length}: ${last.stop_reason === 'max_steps' ? ranOut : 'no final answer'}).` : 'not judged: the dialogue never started.'
}

/** Why a run has no verdict of its own. */
function notJudgedReason(transcript: Transcript, judgeError: JudgeError | undefined, maxSteps: number, conversational: boolean): string {
  if (transcript.cancelled) return `Not judged: cancelled by ${transcript.cancelled.reason.signalName} while waiting for ${transcript.cancelled.waiting_for}.`
  if (judgeError) return `Judge error: ${judgeError.message}`
  if (transcript.error) return `Not judged: the run failed (${transcript.error.stage}).`
  // A conversation names the turn that ran out of steps.
  const turn = conversational ? ` in turn ${transcript.turns.length}` : ''
  if (transcript.stop_reason === 'max_steps') return `Not judged: the model used all ${maxSteps} LLM calls${turn} without a final answer.`
  return 'Not judged.'
}
