import type { JudgeDetails } from '../results/types.js'
import { judgeErrorOf, verdictOf, type Judged } from '../scoring/score-run.js'

/** The judge's details for the record: its verdict, or the JudgeError in its place; null when it was not asked. */
export function judgeDetails(threshold: number, judged: Judged | undefined): JudgeDetails | null {
  const verdict = verdictOf(judged)
  if (verdict) {
    return {
      model: verdict.model,
      score: verdict.score,
      raw_score: verdict.raw_score,
      reason: verdict.reason,
      threshold: verdict.threshold,
      scoring_mode: verdict.scoring_mode,
      scoring_note: verdict.scoring_note,
      evaluation_steps: verdict.evaluation_steps,
      usage: verdict.usage,
      error: null,
      latency_ms: judged!.latency_ms
    }
  }
  const error = judgeErrorOf(judged)
  if (error) {
    return {
      model: '',
      score: null,
      raw_score: null,
      reason: '',
      threshold,
      scoring_mode: null,
      scoring_note: '',
      evaluation_steps: [],
      usage: error.usage,
      error: error.message,
      latency_ms: judged!.latency_ms
    }
  }
  return null
}
