import { appViewOf } from '../agent/exposure.js'
import type { AgentPhase, RunView } from '../execute/agent-phase.js'
import { modelViewOf } from './model-view.js'
import type { RunSpec } from '../plan/expand.js'
import type { RunResult } from '../results/types.js'
import type { Scored } from '../scoring/score-run.js'

/** What the model was shown of the server in this run (and what the judge was given). */
export function runModelView(spec: RunSpec, phase: AgentPhase, scored: Scored, view: RunView): RunResult['model_view'] {
  const { transcript } = phase
  const limit = view.max_tool_result_chars
  const over = (text: string | null) => limit > 0 && (text ?? '').length > limit
  // The answers the judge was given: each judged turn's and every earlier one (in its input); the
  // run's own rubric, every turn's.
  const judged = transcript.turns.flatMap((_, i) => (scored.turns[i]?.judged ? [i] : []))
  const lastGiven = scored.judged ? transcript.turns.length - 1 : Math.max(-1, ...judged)
  const judgeCuts = transcript.turns.slice(0, lastGiven + 1).filter((turn) => over(turn.final_output)).length
  return modelViewOf({
    model: spec.model,
    max_tool_result_chars: limit,
    vision: view.vision,
    calls: transcript.tool_calls,
    app: appViewOf(phase.session!),
    judge_cuts: judgeCuts,
    conversation: spec.case.conversation !== null,
    disallowed: phase.session!.tools.filter((tool) => view.disallowed_tools.includes(tool.name)).map((tool) => tool.name)
  })
}
