import type { SimulatedUser } from '../config/types.js'
import { boundForModel } from './bound.js'
import { addUsage, emptyUsage, type ChatClient, type ChatMessage, type ChatResponse, type TokenUsage } from '../llm/chat.js'

/** The answer with which the user model says its goal is reached: this token alone (see isGoalReached). */
export const GOAL_REACHED = 'GOAL_REACHED'

/** One exchange of the dialogue so far: what the user wrote, what the assistant finally answered. */
export interface DialogueExchange {
  user: string
  answer: string
}

/** What the user model does next: write a message, or end the conversation with its goal reached. */
export type UserMove = { kind: 'message'; text: string } | { kind: 'goal_reached' }

/** The LLM that plays a case's user, and what it has spent so far. */
export interface SimulatedUserPlayer {
  readonly model: string
  /** Every token it used, summed over its calls (counted with the judge's). */
  readonly usage: TokenUsage
  /** How long its calls took, summed (ms), failed ones included. */
  readonly latency_ms: number
  /**
   * Its next move, given the dialogue so far (empty: it writes the opening message). Throws what
   * the chat client throws, and an Error when its answer is unusable (empty, or GOAL_REACHED
   * before it has said anything).
   */
  next(dialogue: DialogueExchange[], signal: AbortSignal): Promise<UserMove>
}

/** The user model's instructions: who it plays, what it wants, and how it says it is done. */
function userModelInstructions(user: Pick<SimulatedUser, 'goal' | 'persona'>): string {
  return [
    'You play a user talking to an AI assistant, to test the assistant.',
    `Your goal: ${user.goal}`,
    ...(user.persona ? [`Your persona: ${user.persona}`] : []),
    'Write only your next message to the assistant, in the user’s own words: no explanations, no quotes, no role labels.',
    `When your goal has been reached, answer exactly ${GOAL_REACHED} and nothing else.`
  ].join('\n')
}

/** What the opening request asks for, as the user model's first (and only) prompt when nothing was said yet. */
const OPENING = 'The conversation starts now. Write your first message to the assistant.'

/**
 * The request messages for the user model: its instructions, then the dialogue so far with the
 * roles flipped (the user's messages are the model's own, the assistant's answers come to it as
 * user messages, each cut to `maxAnswerChars` with the max_tool_result_chars marker; 0: whole).
 */
export function userModelMessages(user: Pick<SimulatedUser, 'goal' | 'persona'>, dialogue: DialogueExchange[], maxAnswerChars = 0): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: userModelInstructions(user) },
    { role: 'user', content: OPENING }
  ]
  for (const exchange of dialogue) {
    messages.push({ role: 'assistant', content: exchange.user }, { role: 'user', content: boundForModel(exchange.answer, maxAnswerChars).text })
  }
  return messages
}

/**
 * Whether an answer is the GOAL_REACHED token alone: around it only spaces, quotes, Markdown
 * emphasis (`**`, `_`, backticks) and a closing full stop or exclamation mark may stand
 * ("GOAL_REACHED.", "**GOAL_REACHED**", "\"GOAL_REACHED\""). Anything else ("GOAL_REACHED, thanks!")
 * is a message.
 */
function isGoalReached(text: string): boolean {
  return text.replace(/^[\s*_`"'“”‘’]+/u, '').replace(/[\s*_`"'“”‘’.!]+$/u, '') === GOAL_REACHED
}

/** The user model's answer as a move; an Error in words for an unusable one. */
export function readUserMove(content: string | null, opening: boolean): UserMove | Error {
  const text = (content ?? '').trim()
  if (isGoalReached(text)) return opening ? new Error(`it answered ${GOAL_REACHED} before writing its first message`) : { kind: 'goal_reached' }
  if (text === '') return new Error('it wrote an empty message')
  return { kind: 'message', text }
}

/**
 * The user model of a case: `user.model` at temperature 0, its calls kept apart per repeat
 * (`attempt`), shown each answer cut to `maxAnswerChars` (the run's max_tool_result_chars; 0: whole).
 */
export function createSimulatedUser(user: SimulatedUser, llm: ChatClient, attempt: number, maxAnswerChars = 0): SimulatedUserPlayer {
  const usage = emptyUsage()
  let latency = 0
  return {
    model: user.model,
    usage,
    get latency_ms() {
      return latency
    },
    async next(dialogue, signal) {
      const started = performance.now()
      let response: ChatResponse
      try {
        response = await llm.complete({ model: user.model, messages: userModelMessages(user, dialogue, maxAnswerChars), temperature: 0, attempt }, signal)
      } finally {
        latency += Math.round(performance.now() - started)
      }
      addUsage(usage, response.usage)
      const move = readUserMove(response.content, dialogue.length === 0)
      if (move instanceof Error) throw move
      return move
    }
  }
}
