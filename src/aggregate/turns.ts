import type { ConversationTurn, EvalCase } from '../config/types.js'

/** The scripted turns of a case: its `turns`, or none (a single-turn case, or a simulated user). */
export function scriptedTurns(evalCase: Pick<EvalCase, 'conversation'> | undefined): ConversationTurn[] {
  return evalCase?.conversation?.kind === 'turns' ? evalCase.conversation.turns : []
}

/** One turn's tool calls: its slice `tool_calls[first_call .. first_call + calls)` of the run (or transcript). */
export function turnCalls<T>(run: { tool_calls: readonly T[] }, turn: { first_call: number; calls: number }): T[] {
  return run.tool_calls.slice(turn.first_call, turn.first_call + turn.calls)
}
