import { runVerdict } from '../../run-verdict.js'
import { pageMark } from './marks.js'
import type { InputRound, JudgeDetails, MediaRecord, ResultCut, RunResult, TurnResult } from '../../../results/types.js'

/**
 * The run page's words, the same as the Markdown report's (src/report/run-verdict.ts,
 * dialogue.ts, model-view.ts, input-rounds.ts) but as plain text: the page inserts them as text.
 * Kept here, not imported, because those modules pull in the Markdown escaping the page has no use for.
 */

const whole = (n: number) => Math.round(n).toLocaleString('en-US')
const pct = (share: number) => `${Math.round(share * 100)}%`
const plural = (n: number, noun: string) => `${whole(n)} ${noun}${n === 1 ? '' : 's'}`

/** The verdict's mark and word, as eval-report.md's (run-verdict.ts), skipped marked » (pageMark). */
export function runVerdictWords(status: RunResult['status']): { mark: string; word: string } {
  const verdict = runVerdict({ status })
  return { ...verdict, mark: pageMark(verdict.mark) }
}

export { evidenceWords, vectorWords } from '../../resilience.js'
export { dialogueEndedWords as endedWords, stopWords } from '../../dialogue-words.js'

/** "judge 90% (threshold 70%)", or what the judge said instead of a score; null when not judged. */
export function judgeWords(judge: JudgeDetails | null): string | null {
  if (!judge) return null
  if (judge.score === null) return `judge: ${judge.error ?? 'no score'}`
  return `judge ${pct(judge.score)} (threshold ${pct(judge.threshold)})`
}

/**
 * Whether a turn has a verdict of its own (a judge, a check, or no answer); in a cancelled or
 * errored run a turn the cancel cut short, or never scored, has none (src/report/dialogue.ts).
 */
export function turnChecked(run: Pick<RunResult, 'status'>, turn: TurnResult): boolean {
  const interrupted = run.status === 'cancelled' || run.status === 'error'
  if (interrupted && !turn.passed) {
    if (turn.stop_reason === 'cancelled') return false
    if (turn.stop_reason === 'final_answer' && turn.judge === null && turn.golden_assertions === null && (turn.tool_assertions?.passed ?? true)) return false
  }
  return turn.judge !== null || (turn.tool_assertions?.checks.length ?? 0) > 0 || (turn.golden_assertions?.checks.length ?? 0) > 0 || !turn.passed
}

/**
 * What the model saw and the record keeps of a result, against what the server sent: "the server
 * sent 12,345 characters; the model saw 4,000; the record keeps 2,000". Null when both have all of it.
 */
export function cutWords(cut: ResultCut | undefined): string | null {
  if (!cut || (cut.shown_chars >= cut.total_chars && cut.kept_chars >= cut.total_chars)) return null
  const seen = cut.shown_chars < cut.total_chars ? `the model saw ${whole(cut.shown_chars)}` : 'the model saw all of them'
  const kept = cut.kept_chars < cut.total_chars ? `the record keeps ${whole(cut.kept_chars)}` : 'the record keeps all of them'
  return `the server sent ${whole(cut.total_chars)} characters (${byteSize(cut.total_bytes)}); ${seen}; ${kept}`
}

export function byteSize(bytes: number): string {
  if (!Number.isFinite(bytes)) return '—'
  if (bytes < 1024) return `${Math.round(bytes)} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
}

/** "image image/png, 12.3 KiB, sent to the model", or "…, shown to the model as text: <why>". The document keeps no bytes of it. */
export function mediaWords(media: MediaRecord): string {
  const what = `${media.type} ${media.mime_type}, ${byteSize(media.bytes)}`
  if (media.sent) return `${what}, sent to the model`
  const reason = media.reason?.replace(/\.\s*$/, '') ?? ''
  return `${what}, shown to the model as text${media.type === 'audio' || reason === '' ? '' : `: ${reason}`}`
}

/** A round's head: "round 1: input_required (request id 7) → retry id 8, requestState echoed ✓", or "round 1: server request". */
export function roundWords(round: InputRound): string {
  if (round.via === 'server_request') return `round ${round.round}: ${round.exchanges.length === 1 ? 'server request' : plural(round.exchanges.length, 'server request')}`
  const head = `round ${round.round}: input_required (request id ${round.request_id === null ? '?' : String(round.request_id)})`
  if (round.retry_id === null) return `${head} → no retry (the rounds ran out, or the call failed)`
  const retry = `${head} → retry id ${String(round.retry_id)}`
  if (round.request_state !== null) return `${retry}, requestState ${round.request_state_echoed ? 'echoed ✓' : 'not echoed byte for byte ✗'}`
  return round.request_state_echoed === false ? `${retry}, with a requestState the server never sent ✗` : retry
}

/** "1,234 tokens (1,000 prompt, 234 completion) · $0.0012". */
export function usageWords(usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; cost_usd?: number }): string {
  const cost = usage.cost_usd === undefined ? '' : ` · $${usage.cost_usd.toFixed(4)}`
  return `${plural(usage.total_tokens, 'token')} (${whole(usage.prompt_tokens)} prompt, ${whole(usage.completion_tokens)} completion)${cost}`
}

