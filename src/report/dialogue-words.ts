import type { DialogueResult, TurnResult } from '../results/types.js'
import { count } from '../util/words.js'

/**
 * How a turn and a dialogue ended, in words: plain text, shared by eval-report.md, JUnit and the
 * HTML report's page (which bundles this and nothing of the Markdown escaping).
 */

/** Why a turn ended without a final answer, in words. */
export function stopWords(reason: TurnResult['stop_reason']): string {
  if (reason === 'max_steps') return 'max_steps: the model used every LLM call it was allowed'
  if (reason === 'error') return 'an error'
  if (reason === 'cancelled') return 'cancelled'
  return 'a final answer'
}

/** Why a dialogue whose turns all answered stopped anyway, briefly (the log line) and in full (with the likely causes). */
export const NO_USER_MESSAGE_BRIEFLY = 'the simulated user did not write the next message'
const NO_USER_MESSAGE = `${NO_USER_MESSAGE_BRIEFLY} (its error, a time limit or a cancel)`

/** How the dialogue ended, in words (`code` marks a key's name: backticks in Markdown, nothing in plain text): "every scripted turn ran", "max_turns reached (4 user messages) before …", "stopped after turn 2: the simulated user did not write …". */
export function dialogueEndedWords(dialogue: DialogueResult, code: (name: string) => string = (name) => name): string {
  const last = dialogue.turns.at(-1)
  switch (dialogue.ended) {
    case 'script_done':
      return 'every scripted turn ran'
    case 'goal_reached':
      return 'the simulated user said its goal was reached'
    case 'stop_when':
      return `the answer matched ${code('stop_when')}`
    case 'max_turns':
      return `max_turns reached (${count(dialogue.turns.length, 'user message')}) before the simulated user said its goal was reached`
    case 'stopped':
      if (!last) return dialogue.kind === 'simulated' ? `stopped before the first turn: ${NO_USER_MESSAGE}` : 'stopped before the first turn'
      // Every turn answered, yet the dialogue stopped: the simulated user could not go on.
      if (last.stop_reason === 'final_answer') return `stopped after turn ${last.index}: ${NO_USER_MESSAGE}`
      return `stopped: turn ${last.index} ended without a final answer (${stopWords(last.stop_reason)})`
  }
}

