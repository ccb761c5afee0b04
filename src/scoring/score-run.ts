import { dialogueUpTo } from '../agent/conversation.js'
import { boundForModel } from '../agent/bound.js'
import type { Transcript } from '../agent/run-agent.js'
import { scriptedTurns, turnCalls } from '../aggregate/turns.js'
import type { GoldenExpectations } from '../config/types.js'
import type { AgentPhase } from '../execute/agent-phase.js'
import { emptyUsage } from '../llm/chat.js'
import type { RunSpec } from '../plan/expand.js'
import type { RunTrace } from '../telemetry/tracing.js'
import { JudgeError, type Judge, type JudgeVerdict } from './geval.js'
import type { WidgetScreens } from './evals-v1-turn.js'
import { checkGolden, type GoldenAssertions, type GoldenCheck, type SemanticMatcher } from './golden.js'

/** A judge's verdict (or the JudgeError in its place) and how long the judge took. */
export interface Judged {
  verdict: JudgeVerdict | JudgeError
  latency_ms: number
}

/** What the judge and the golden checks said of a run: its own rubric and golden keys, and each turn's. */
export interface Scored {
  /** The case's rubric; for a conversation, the overall rubric on the whole dialogue. */
  judged?: Judged
  /** The case's golden keys, over every call of the run. */
  golden: GoldenAssertions | null
  /** Per turn of the transcript, in order (a conversation's scripted turns). */
  turns: TurnScore[]
}

/** What the judge and the golden checks said of one turn. */
export interface TurnScore {
  judged?: Judged
  golden: GoldenAssertions | null
}

export const NOTHING_SCORED: Scored = { golden: null, turns: [] }

/**
 * The rubrics a run of this case can be judged on, as scoreRun finds them: each scripted turn's,
 * and the case's own (a conversation's overall rubric, which it may leave empty).
 */
export function rubricsOf(evalCase: RunSpec['case']): string[] {
  return [...scriptedTurns(evalCase).map((turn) => turn.rubric), evalCase.rubric].filter((rubric): rubric is string => Boolean(rubric))
}

/** What a finished run is scored on: its rubric, its golden keys, and per turn the same. */
export interface ScoringPlan {
  judge: boolean
  golden: GoldenExpectations | null
  /** `evals_v1`: an evals/v1 turn's checks, made as the turn ended (TurnRecord.evals_v1), merged into its golden checks. */
  turns: { judge: boolean; golden: GoldenExpectations | null; evals_v1: GoldenCheck[] | null }[]
}

/**
 * What to ask of the judge and the golden checks. A run that errored or was cancelled gets no
 * golden verdict; a turn is scored only when it reached its final answer (an evals/v1 turn's
 * expectations, checked as it ended, count on the same terms).
 */
export function scoringPlan(spec: RunSpec, phase: AgentPhase): ScoringPlan {
  const { transcript } = phase
  const healthy = transcript.error === null && transcript.cancelled === null
  const scripted = scriptedTurns(spec.case)
  return {
    judge: phase.judgeable,
    golden: healthy ? spec.case.golden : null,
    turns: transcript.turns.map((turn, i) => {
      const finished = healthy && turn.stop_reason === 'final_answer'
      return { judge: finished && Boolean(scripted[i]?.rubric), golden: finished ? (scripted[i]?.golden ?? null) : null, evals_v1: finished ? (turn.evals_v1 ?? null) : null }
    })
  }
}

/** What scoring a run calls on: the judge, the semantic matcher (`arg_match: semantic`), the job's cancellation. */
export interface ScoringDeps {
  judge: Judge
  semantic: { match: SemanticMatcher }
  cancel?: AbortSignal
  /** MCP Apps: the rendered views' screenshots, for a case whose judge is shown one (`judge_screenshot`). */
  appScreens?: Pick<WidgetScreens, 'screenshotOf'>
}

/**
 * Judge and check a finished run, in its urgent pool slot: each turn with a rubric (the judge
 * sees the dialogue up to it) and golden keys (on that turn's calls), then the run's rubric and
 * its golden keys over every call. No new question to the judge model after a cancel.
 */
export async function scoreRun(
  spec: RunSpec,
  transcript: Transcript,
  plan: ScoringPlan,
  deps: ScoringDeps,
  traced: { run: RunTrace | undefined; model: string },
  limit: number
): Promise<Scored> {
  // The judge is a model too: it gets each answer bounded as the model under test gets a tool result.
  const answer = (text: string | null) => boundForModel(text ?? '', limit).text
  const conversational = spec.case.conversation !== null
  const scripted = scriptedTurns(spec.case)
  const turns: TurnScore[] = []
  for (const [i, turn] of transcript.turns.entries()) {
    if (deps.cancel?.aborted) return NOTHING_SCORED
    const wanted = plan.turns[i]
    const script = scripted[i]
    const score: TurnScore = { golden: null }
    if (wanted.judge && script?.rubric) {
      const request = { rubric: script.rubric, threshold: script.threshold, input: dialogueUpTo(transcript.turns, i + 1, limit), actualOutput: answer(turn.final_output), attempt: spec.attempt }
      score.judged = await judgeRun(deps.judge, request, deps.cancel, traced)
      if (deps.cancel?.aborted) return NOTHING_SCORED
    }
    if (wanted.golden) score.golden = await checkGolden(wanted.golden, turnCalls(transcript, turn), deps.semantic.match)
    if (wanted.evals_v1) score.golden = withChecks(score.golden, wanted.evals_v1)
    turns.push(score)
  }
  if (deps.cancel?.aborted) return NOTHING_SCORED
  const input = conversational ? dialogueUpTo(transcript.turns, transcript.turns.length, limit) : spec.case.prompt
  const request = { rubric: spec.case.rubric, threshold: spec.case.threshold, input, actualOutput: answer(transcript.final_output), attempt: spec.attempt }
  const shown = spec.case.judge_screenshot ? lastScreenshot(transcript, deps.appScreens) : null
  const judged = !plan.judge
    ? undefined
    : shown?.error
      ? { verdict: new JudgeError(shown.error, emptyUsage()), latency_ms: 0 }
      : await judgeRun(deps.judge, { ...request, ...(shown?.image ? { image: shown.image } : {}) }, deps.cancel, traced)
  if (deps.cancel?.aborted) return NOTHING_SCORED
  return { judged, golden: plan.golden ? await checkGolden(plan.golden, transcript.tool_calls, deps.semantic.match) : null, turns }
}

/**
 * The screenshot a `judge_screenshot` case's judge is shown: the last view the run rendered that
 * took one, as a PNG data URL; or why there is none (the judge is then not asked: never a pass).
 */
function lastScreenshot(transcript: Transcript, screens: Pick<WidgetScreens, 'screenshotOf'> | undefined): { image?: string; error?: string } {
  const ids = transcript.tool_calls.flatMap((call) => (call.annotations?.app_render ? [call.annotations.app_render] : []))
  for (const id of ids.reverse()) {
    const png = screens?.screenshotOf(id)
    if (png) return { image: `data:image/png;base64,${png.toString('base64')}` }
  }
  const why = ids.length === 0 ? 'the run rendered no MCP Apps view' : 'no view the run rendered has a screenshot (its renders say why)'
  return { error: `judge.screenshot: ${why}, so the judge was not shown one and was not asked` }
}

/** Golden checks with more checks after them (an evals/v1 turn's expectations), passed when every one did. */
function withChecks(golden: GoldenAssertions | null, more: GoldenCheck[]): GoldenAssertions {
  const checks = [...(golden?.checks ?? []), ...more]
  return { passed: checks.every((c) => c.passed), checks }
}

/** The judge's verdict (or the JudgeError in its place) and how long the judge took, in the run's trace when there is one. */
async function judgeRun(
  judge: Judge,
  request: Parameters<Judge['judge']>[0],
  cancel: AbortSignal | undefined,
  traced: { run: RunTrace | undefined; model: string }
): Promise<Judged> {
  const ask = async (): Promise<JudgeVerdict | JudgeError> => {
    try {
      return await judge.judge(request, cancel)
    } catch (error) {
      return error instanceof JudgeError ? error : new JudgeError((error as Error).message, emptyUsage())
    }
  }
  const started = performance.now()
  const verdict = traced.run ? await traced.run.judge(traced.model, ask) : await ask()
  return { verdict, latency_ms: Math.round(performance.now() - started) }
}

export const verdictOf = (judged: Judged | undefined): JudgeVerdict | undefined => (judged && !(judged.verdict instanceof JudgeError) ? judged.verdict : undefined)
export const judgeErrorOf = (judged: Judged | undefined): JudgeError | undefined => (judged?.verdict instanceof JudgeError ? judged.verdict : undefined)
