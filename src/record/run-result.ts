import { agentSteps, type Transcript } from '../agent/run-agent.js'
import { notRunPhase, type AgentPhase, type RunView } from '../execute/agent-phase.js'
import type { LayeredRun } from '../execute/compose-layers.js'
import { addUsage, emptyUsage } from '../llm/chat.js'
import { redactRounds } from '../mcp/input-rounds.js'
import type { RunSpec } from '../plan/expand.js'
import type { InputsVerdict, RunResult } from '../results/types.js'
import { runMetric, turnsMetric } from '../scoring/run-metric.js'
import { judgeErrorOf, NOTHING_SCORED, verdictOf, type Scored } from '../scoring/score-run.js'
import { checkRequiredTools } from '../scoring/tool-assertions.js'
import { toConversation } from './conversation.js'
import { dialogueRecord } from './dialogue.js'
import { judgeDetails } from './judge.js'
import { runModelView } from './run-model-view.js'
import { toolCallResult } from './tool-call.js'

/** How much of a server's stderr a run record keeps. */
const STDERR_TAIL_CHARS = 4096

/** The record's fields the default run layers (src/execute/run-layers.ts) own. */
type LayerFields = Pick<RunResult, 'observed' | 'recovery' | 'answer_check' | 'security' | 'trace_id'>

/** A run's record: its scores, its calls as the document holds them, and its layers' fields. */
export function buildRunResult(
  spec: RunSpec,
  phase: AgentPhase,
  scored: Scored,
  maxSteps: number,
  redact: (text: string) => string,
  layers: LayeredRun,
  view: RunView | null
): RunResult {
  const { transcript } = phase
  if (transcript.error?.stderr_tail) transcript.error.stderr_tail = redact(transcript.error.stderr_tail).slice(-STDERR_TAIL_CHARS)
  const toolAssertions = checkRequiredTools(spec.case.required_tools, transcript.tool_calls)
  const dialogue = spec.case.conversation ? dialogueRecord(spec.case, spec.case.conversation, phase, scored) : null
  const judged = verdictOf(scored.judged)
  // The first judge that failed, turn by turn, then the run's own.
  const judgeError = [...scored.turns.map((t) => t.judged), scored.judged].map(judgeErrorOf).find((e) => e !== undefined)
  const error = transcript.error ?? (judgeError ? { stage: 'judge' as const, message: judgeError.message } : null)
  const metric = dialogue && spec.case.rubric === '' ? turnsMetric(spec, phase, scored, dialogue, judgeError, maxSteps) : runMetric(judged, phase, judgeError, maxSteps)
  const rubricPassed = metric.success
  const toolsPassed = toolAssertions.passed && (dialogue?.turns.every((t) => t.tool_assertions?.passed ?? true) ?? true)
  const cancelled = transcript.cancelled
  const skipped = phase.skipped ?? null
  const toolCalls = transcript.tool_calls.map((c) => toolCallResult(c, phase, redact, view, layers.shapeCall(c)))
  const layered = layers.record({
    tool_calls: toolCalls,
    final_output: transcript.final_output,
    stop_reason: transcript.stop_reason,
    llm_calls: agentSteps(transcript.llm_calls).length,
    finished: transcript.error === null && !cancelled && phase.session !== null,
    cancelled: cancelled !== null || skipped !== null,
    redact
  })
  const inputs = phase.inputs && phase.session ? redactVerdict(phase.inputs.verdict(transcript.tool_calls, phase.outsideRounds), redact) : null
  const golden = scored.golden
  const success =
    !cancelled && rubricPassed && toolsPassed && (golden?.passed ?? true) && layered.passed && (dialogue?.turns_passed ?? true) && inputs?.passed !== false
  const usage = emptyUsage()
  for (const call of transcript.llm_calls) addUsage(usage, call.usage)

  return {
    case_id: spec.case.id,
    model: spec.model,
    prompt_name: spec.prompt_name,
    success,
    rubric_passed: rubricPassed,
    tools_passed: toolsPassed,
    input: spec.case.prompt,
    actual_output: skipped ? `[Skipped: ${skipped.detail}]` : actualOutput(transcript, maxSteps),
    metrics: [metric],
    tool_calls: toolCalls,
    tool_assertions: toolAssertions,
    conversation: toConversation(transcript, redact, dialogue !== null),
    duration_s: phase.duration_s,
    total_duration_s: 0,
    index: spec.index,
    attempt: spec.attempt,
    attempts: spec.case.runs,
    kind: spec.case.kind,
    tags: spec.case.tags,
    system_prompt: layers.systemPrompt,
    status: cancelled ? 'cancelled' : skipped ? 'skipped' : error ? 'error' : success ? 'passed' : 'failed',
    threshold: spec.case.threshold,
    final_output: transcript.final_output,
    stop_reason: transcript.stop_reason,
    error,
    cancelled: cancelled ? { at: cancelled.reason.at, signal: cancelled.reason.signalName, waiting_for: cancelled.waiting_for } : null,
    llm_calls: transcript.llm_calls,
    usage,
    judge: judgeDetails(spec.case.threshold, scored.judged),
    golden_assertions: golden,
    server: {
      era: phase.session?.era ?? null,
      protocol_version: phase.session?.protocolVersion ?? null,
      connect_ms: phase.session?.timings.connect_ms ?? null,
      list_ms: phase.session?.timings.list_ms ?? null,
      tools: phase.session?.tools.length ?? null
    },
    // The run layers' fields (observed, recovery, answer_check, security, trace_id), in registry order.
    ...(layered.fields as LayerFields),
    skipped,
    dialogue,
    inputs,
    model_view: view && phase.session ? runModelView(spec, phase, scored, view) : null,
    run_dir: null
  }
}

/** A run that never started because the spend reached max_cost_usd: recorded, never a verdict. */
export function skippedRun(spec: RunSpec, why: string, maxSteps: number, layers: LayeredRun): RunResult {
  const phase: AgentPhase = {
    ...notRunPhase(spec, layers.systemPrompt, (t) => (t.stop_reason = 'skipped')),
    skipped: { reason: 'budget', detail: `${why} before this run started` }
  }
  return buildRunResult(spec, phase, NOTHING_SCORED, maxSteps, (t) => t, layers, null)
}

/**
 * A run whose record could not be built because something failed that no stage caught (a bug, or
 * a value no reader expected): that run's error, so the others keep their results.
 */
export function failedRun(spec: RunSpec, error: unknown, maxSteps: number, layers: LayeredRun): RunResult {
  const message = `internal error: ${error instanceof Error ? error.message : String(error)}`
  const phase = notRunPhase(spec, layers.systemPrompt, (t) => (t.error = { stage: 'llm', message }))
  return buildRunResult(spec, phase, NOTHING_SCORED, maxSteps, (t) => t, layers, null)
}

/** The inputs verdict with secrets out of its reasons (they may quote the content sent) and out of the rounds outside the calls. */
function redactVerdict(verdict: InputsVerdict | null, redact: (text: string) => string): InputsVerdict | null {
  return verdict && { ...verdict, reasons: verdict.reasons.map(redact), outside_calls: redactRounds(verdict.outside_calls, redact) }
}

/** eval-action's `actual_output`: the final answer, or its wording for what went wrong. */
function actualOutput(transcript: Transcript, maxSteps: number): string {
  if (transcript.cancelled) return `[Cancelled by ${transcript.cancelled.reason.signalName} while waiting for ${transcript.cancelled.waiting_for}]`
  if (transcript.error) return `[Agent error: ${transcript.error.message}]`
  if (transcript.stop_reason === 'max_steps') return `Model call limits exceeded: run limit (${maxSteps}/${maxSteps})`
  return transcript.final_output || 'No output generated'
}
