import type { Conversation } from '../config/types.js'
import type { ChatClient, TokenUsage } from '../llm/chat.js'
import type { McpSession } from '../mcp/session.js'
import type { DialogueResult } from '../results/types.js'
import { CancelledError } from '../execute/cancellation.js'
import { checkEvalsV1Turn, hasTurnChecks, type WidgetScreens } from '../scoring/evals-v1-turn.js'
import { compileMatcherPattern } from '../scoring/tool-assertions.js'
import { boundForModel } from './bound.js'
import { evalsV1Calls, turnCheckSession } from './evals-v1-calls.js'
import { abortReason, runTurn, type Transcript, type TurnRecord, type TurnTask } from './run-agent.js'
import { createSimulatedUser, type DialogueExchange, type SimulatedUserPlayer, type UserMove } from './simulated-user.js'

/** What a conversation needs besides its transcript: the one session of the whole dialogue, and who answers. */
export interface ConversationDeps {
  session: McpSession
  /** The model under test's chat client. */
  llm: ChatClient
  /** The chat client the simulated user's model is asked through (the run's traced one: each of its calls is a `chat {model}` span). */
  userLlm: ChatClient
  signal: AbortSignal
  /** MCP Apps: the rendered views' screenshots and the vision judge, for an evals/v1 turn's widget screenshot; absent: none. */
  screens?: Omit<WidgetScreens, 'signal'>
}

/** How a dialogue went, beyond its transcript (whose `turns` hold each user turn). */
export interface DialogueRun {
  kind: DialogueResult['kind']
  ended: DialogueResult['ended']
  /** The simulated user's model, what it spent and how long its calls took (ms); null for scripted turns. */
  user_model: string | null
  user_usage: TokenUsage | null
  user_latency_ms: number | null
}

/**
 * Run a multi-turn case on one transcript and one session: each user message is appended and
 * the agent loop runs to a final answer (max_steps per turn). A turn that ends without one
 * (max_steps, an error, a cancel) ends the dialogue (`stopped`). Scripted turns run in order; a
 * scripted turn with evals/v1 expectations that reached its final answer has them checked right
 * then, on every call so far and through the live session (`TurnRecord.evals_v1`);
 * a simulated user writes each message until it says GOAL_REACHED, `stop_when` matches the
 * latest answer (case-insensitive, Python spellings allowed, as required_tools patterns), or
 * `max_turns` user messages were written. A failure of the simulated user (its LLM call failed,
 * or its answer was unusable) is the run's error, stage `llm` (a time limit's: `timeout`; a
 * cancel: the run is cancelled, waiting for it), and the dialogue `stopped`. Never throws.
 */
export async function runConversation(conversation: Conversation, transcript: Transcript, task: TurnTask, deps: ConversationDeps): Promise<DialogueRun> {
  const turn = (user: string, simulated: boolean) => runTurn(transcript, { user, simulated }, task, deps.session, deps.llm, deps.signal)
  if (conversation.kind === 'turns') {
    for (const [index, scripted] of conversation.turns.entries()) {
      const done = await turn(scripted.user, false)
      if (done.stop_reason !== 'final_answer') return scriptedRun('stopped')
      // An evals/v1 turn's expectations, on every call so far, while the session is live (a nested resource read).
      if (hasTurnChecks(scripted.evals_v1)) {
        // The turn's views are rendered before they are judged.
        if (scripted.evals_v1.widget_screenshot) await deps.session.idle?.()
        const screens = deps.screens ? { ...deps.screens, signal: deps.signal } : undefined
        done.evals_v1 = await checkEvalsV1Turn(scripted.evals_v1, evalsV1Calls(transcript), index, turnCheckSession(deps.session, deps.signal), screens)
      }
    }
    return scriptedRun('script_done')
  }
  const { user } = conversation
  const player = createSimulatedUser(user, deps.userLlm, task.attempt, task.max_tool_result_chars)
  const done = (ended: DialogueResult['ended']): DialogueRun => ({ kind: 'simulated', ended, user_model: user.model, user_usage: player.usage, user_latency_ms: player.latency_ms })
  const stopWhen = user.stop_when === null ? null : compileMatcherPattern(user.stop_when)
  const dialogue: DialogueExchange[] = []
  for (;;) {
    const move = await askUser(player, dialogue, transcript, deps.signal)
    if (!move) return done('stopped')
    if (move.kind === 'goal_reached') return done('goal_reached')
    const answered = await turn(move.text, true)
    if (answered.stop_reason !== 'final_answer') return done('stopped')
    const answer = answered.final_output ?? ''
    dialogue.push({ user: move.text, answer })
    if (stopWhen?.test(answer)) return done('stop_when')
    if (transcript.turns.length >= user.max_turns) return done('max_turns')
  }
}

const scriptedRun = (ended: DialogueResult['ended']): DialogueRun => ({ kind: 'turns', ended, user_model: null, user_usage: null, user_latency_ms: null })

/** The simulated user's next move; null when it failed, the failure recorded on the transcript as the run's error or cancel. */
async function askUser(player: SimulatedUserPlayer, dialogue: DialogueExchange[], transcript: Transcript, signal: AbortSignal): Promise<UserMove | null> {
  const who = `the simulated user (${player.model})`
  try {
    return await player.next(dialogue, signal)
  } catch (error) {
    if (signal.reason instanceof CancelledError) {
      transcript.stop_reason = 'cancelled'
      transcript.cancelled = { reason: signal.reason, waiting_for: who }
    } else {
      transcript.stop_reason = 'error'
      transcript.error = signal.aborted
        ? { stage: 'timeout', message: abortReason(signal) }
        : { stage: 'llm', message: `${who} failed: ${error instanceof Error ? error.message : String(error)}` }
    }
    return null
  }
}

/**
 * The judge's input for one turn: the dialogue up to it, as text — every earlier exchange
 * (the user's message and the assistant's final answer, cut to `limit` characters with the
 * max_tool_result_chars marker; 0: whole), then this turn's user message. The turn's own answer
 * is the judge's actual output.
 */
export function dialogueUpTo(turns: readonly Pick<TurnRecord, 'user' | 'final_output'>[], upTo: number, limit = 0): string {
  const parts: string[] = []
  turns.slice(0, upTo).forEach((turn, i) => {
    parts.push(`User: ${turn.user}`)
    if (i < upTo - 1) parts.push(`Assistant: ${boundForModel(turn.final_output ?? '', limit).text}`)
  })
  return parts.join('\n\n')
}
