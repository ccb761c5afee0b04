import type { DialogueResult, JudgeDetails, RunResult, ToolCallResult, TurnResult } from '../results/types.js'
import { turnCalls } from '../aggregate/turns.js'
import { trimEvidence } from '../util/text.js'
import { count, wholeNumber } from '../util/words.js'
import { blockquote, codeSpan, escapeMarkdown, truncateText } from './escape.js'
import { roundLines } from './input-rounds.js'
import { callRender } from './app-findings.js'
import { appPointer } from './apps.js'
import { toolCallNote } from './model-view.js'
import { formatPercent } from './numbers.js'

import { dialogueEndedWords, NO_USER_MESSAGE_BRIEFLY, stopWords } from './dialogue-words.js'

export { stopWords } from './dialogue-words.js'

const ANSWER_LIMIT = 4000
const ARGS_CHARS = 200

/** How the dialogue ended, `stop_when` as code: dialogueEndedWords for Markdown. */
export const endedWords = (dialogue: DialogueResult): string => dialogueEndedWords(dialogue, (name) => `\`${name}\``)

/** How the dialogue ended, for a log line: `script_done`, `max_turns`…, or where and why it stopped ("stopped in turn 2: max_steps"). */
export function endedBriefly(dialogue: DialogueResult): string {
  if (dialogue.ended !== 'stopped') return dialogue.ended
  const last = dialogue.turns.at(-1)
  if (!last) return dialogue.kind === 'simulated' ? `stopped before the first turn: ${NO_USER_MESSAGE_BRIEFLY}` : 'stopped before the first turn'
  return last.stop_reason === 'final_answer' ? `stopped after turn ${last.index}: ${NO_USER_MESSAGE_BRIEFLY}` : `stopped in turn ${last.index}: ${last.stop_reason}`
}

/** "judge 90% (threshold 70%)", or what the judge said instead of a score; null when the turn was not judged. */
export function turnJudgeWords(judge: JudgeDetails | null): string | null {
  if (!judge) return null
  if (judge.score === null) return `judge: ${judge.error ?? 'no score'}`
  return `judge ${formatPercent(judge.score)}% (threshold ${formatPercent(judge.threshold)}%)`
}

/** A cancelled or errored run: its unfinished turns, and the turns it never scored, have no verdict. */
const interrupted = (run: Pick<RunResult, 'status'>): boolean => run.status === 'cancelled' || run.status === 'error'

/**
 * Whether a turn has a verdict of its own: a judge, a check, or no answer. A simulated user's
 * turn without a rubric has none; nor has, in a cancelled or errored run, a turn the cancel cut
 * short or one that answered but was never scored (no judge, no golden check, no failed check).
 */
export function turnChecked(run: Pick<RunResult, 'status'>, turn: TurnResult): boolean {
  if (interrupted(run) && !turn.passed) {
    if (turn.stop_reason === 'cancelled') return false
    if (turn.stop_reason === 'final_answer' && turn.judge === null && turn.golden_assertions === null && (turn.tool_assertions?.passed ?? true)) return false
  }
  return turn.judge !== null || (turn.tool_assertions?.checks.length ?? 0) > 0 || (turn.golden_assertions?.checks.length ?? 0) > 0 || !turn.passed
}

/** The Dialogue heading's mark: ❌ when a turn failed (or, in a finished run, the dialogue did not pass), ✅ when a turn was checked; none when nothing was. */
function dialogueMark(run: RunResult, dialogue: DialogueResult): string {
  const checked = dialogue.turns.filter((t) => turnChecked(run, t))
  if (checked.some((t) => !t.passed) || (!interrupted(run) && !dialogue.turns_passed)) return ' ❌'
  return checked.length > 0 && !interrupted(run) ? ' ✅' : ''
}

function toolCallLine(run: RunResult, call: ToolCallResult): string[] {
  const args = codeSpan(trimEvidence(call.args, ARGS_CHARS))
  const render = callRender(run, call)
  return [`- Tool call ${codeSpan(call.name)} ${args}${call.is_error ? ' → error' : ''}${toolCallNote(call)}`, ...(render ? [`  - ${appPointer(render)}`] : []), ...(call.input_rounds ?? []).flatMap((r) => roundLines(r, '  '))]
}

/** One turn: its verdict line, the user message and the answer quoted, then the judge's reason, failed checks and tool calls. */
function turnLines(run: RunResult, turn: TurnResult): string[] {
  const checks = [...(turn.tool_assertions?.checks ?? []), ...(turn.golden_assertions?.checks ?? [])]
  const judged = turnJudgeWords(turn.judge)
  const checked = turnChecked(run, turn)
  const head = [
    `**Turn ${turn.index}**${checked ? (turn.passed ? ' ✅' : ' ❌') : ''}`,
    ...(turn.simulated ? ['simulated'] : []),
    ...(judged ? [escapeMarkdown(judged)] : []),
    ...(checks.length > 0 ? [`checks ${checks.filter((c) => c.passed).length}/${checks.length}`] : []),
    count(turn.calls, 'tool call')
  ].join(' · ')
  const out = [head, '', `> **User**${turn.simulated ? ' (simulated)' : ''}`, '>', blockquote(turn.user)]
  if (turn.final_output !== null && turn.final_output !== '') out.push('>', '> **Assistant**', '>', blockquote(truncateText(turn.final_output, ANSWER_LIMIT)), '')
  // An empty answer is still the turn's answer: it did not stop for want of one.
  else out.push('', turn.stop_reason === 'final_answer' ? '_The answer was empty._' : `_No final answer: ${stopWords(turn.stop_reason)}._`, '')
  const items: string[] = []
  if (turn.judge?.reason) items.push(`- Judge: ${escapeMarkdown(turn.judge.reason.replace(/\s+/g, ' ').trim())}`)
  for (const check of turn.tool_assertions?.checks.filter((c) => !c.passed) ?? []) items.push(`- ❌ ${codeSpan(check.tool)} — ${escapeMarkdown(check.reason)}${check.expected_args ? ` (expected ${codeSpan(JSON.stringify(check.expected_args))})` : ''}`)
  for (const check of turn.golden_assertions?.checks.filter((c) => !c.passed) ?? []) items.push(`- ❌ ${codeSpan(check.check)} — ${escapeMarkdown(check.reason)}`)
  for (const call of turnCalls(run, turn)) items.push(...toolCallLine(run, call))
  if (items.length > 0) out.push(...items, '')
  return out
}

/**
 * A multi-turn run's "Dialogue" section: how many turns, scripted or simulated, how it ended, the
 * simulated user's model and tokens, then every turn. Empty for a single-turn run.
 */
export function dialogueSection(run: RunResult): string[] {
  const dialogue = run.dialogue
  if (!dialogue) return []
  const n = dialogue.turns.length
  const kind = dialogue.kind === 'simulated' ? `${count(n, 'turn')} with a simulated user` : `${count(n, 'scripted turn')}`
  const mark = dialogueMark(run, dialogue)
  const out = [`##### Dialogue${mark} — ${kind}; ${endedWords(dialogue)}`, '']
  if (dialogue.kind === 'simulated') {
    const tokens = dialogue.user_usage ? ` · ${wholeNumber(dialogue.user_usage.total_tokens)} tokens` : ''
    out.push(`_The user was played by ${codeSpan(dialogue.user_model ?? 'an unknown model')}${tokens} (counted with the judge's)._`, '')
  }
  for (const turn of dialogue.turns) out.push(...turnLines(run, turn))
  return out
}
