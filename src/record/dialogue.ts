import { scriptedTurns, turnCalls } from '../aggregate/turns.js'
import type { AgentPhase } from '../execute/agent-phase.js'
import type { RunSpec } from '../plan/expand.js'
import type { DialogueResult, TurnResult } from '../results/types.js'
import { hasTurnChecks } from '../scoring/evals-v1-turn.js'
import { verdictOf, type Scored } from '../scoring/score-run.js'
import { checkRequiredTools } from '../scoring/tool-assertions.js'
import { judgeDetails } from './judge.js'

/** A conversation's record, turn by turn: each turn's own assertions (on its own calls) and verdict. */
export function dialogueRecord(evalCase: RunSpec['case'], conversation: NonNullable<RunSpec['case']['conversation']>, phase: AgentPhase, scored: Scored): DialogueResult {
  const { transcript } = phase
  const scripted = scriptedTurns(evalCase)
  const turns = transcript.turns.map((turn, i): TurnResult => {
    const script = scripted[i]
    const score = scored.turns[i]
    const toolAssertions = script?.required_tools.length ? checkRequiredTools(script.required_tools, turnCalls(transcript, turn)) : null
    const verdict = verdictOf(score?.judged)
    const golden = score?.golden ?? null
    const passed =
      turn.stop_reason === 'final_answer' &&
      (toolAssertions?.passed ?? true) &&
      (script?.golden || hasTurnChecks(script?.evals_v1) ? golden?.passed === true : true) &&
      (script?.rubric ? verdict?.success === true : true)
    return {
      index: i + 1,
      user: turn.user,
      simulated: turn.simulated,
      final_output: turn.final_output,
      stop_reason: turn.stop_reason,
      first_call: turn.first_call,
      calls: turn.calls,
      llm_calls: turn.llm_calls,
      tool_assertions: toolAssertions,
      golden_assertions: golden,
      judge: script ? judgeDetails(script.threshold, score?.judged) : null,
      passed
    }
  })
  const ended = phase.dialogue?.ended ?? 'stopped'
  return {
    kind: conversation.kind,
    turns,
    ended,
    user_model: conversation.kind === 'simulated' ? conversation.user.model : null,
    user_usage: phase.dialogue?.user_usage ? { ...phase.dialogue.user_usage } : null,
    user_latency_ms: phase.dialogue?.user_latency_ms ?? null,
    turns_passed: ended !== 'stopped' && turns.every((t) => t.passed)
  }
}
