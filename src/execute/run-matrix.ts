import { existsSync } from 'node:fs'
import { setImmediate as afterIo } from 'node:timers/promises'
import { prepareInputs } from '../agent/input-answers.js'
import { startTranscript, type RunError } from '../agent/run-agent.js'
import { visionOf } from '../agent/vision.js'
import { scriptedTurns } from '../aggregate/turns.js'
import { rootsWithRunDir } from '../config/run-dir.js'
import type { Suite } from '../config/types.js'
import { addUsage, emptyUsage } from '../llm/chat.js'
import { specKey, type RunSpec } from '../plan/expand.js'
import { buildRunResult, failedRun, skippedRun } from '../record/run-result.js'
import type { RunResult } from '../results/types.js'
import { NOTHING_SCORED, rubricsOf, scoreRun, scoringPlan, type Scored } from '../scoring/score-run.js'
import type { RunTrace } from '../telemetry/tracing.js'
import { createPool, type Pool } from '../util/pool.js'
import type { AgentPhase, RunView } from './agent-phase.js'
import { cancellationOf, runAbort } from './cancellation.js'
import { prepareLayers } from './compose-layers.js'
import type { EngineDeps, EngineSettings, ExecutedRuns } from './engine-types.js'
import { openForRun, runDirFor, type OpenedSession } from './open-run.js'
import type { RunDir } from '../mcp/run-dirs.js'
import { runInSlot } from './run-in-slot.js'
import { scheduleRuns, type AheadTicket } from './run-schedule.js'
import { RUN_LAYERS } from './run-layers.js'

/**
 * Run the whole matrix through one bounded pool. A run holds a slot for its agent loop; its
 * judge call queues at the front of the pool as soon as the run ends, so judging overlaps the
 * remaining runs instead of waiting for a separate phase. The next runs start their own servers
 * ahead of their slot, as many and as early as the machine's CPU and the slots' pace say
 * (run-schedule.ts, start-ahead.ts), so server start-up is spent while the slots wait for the
 * model. Every failure stays inside its run; after a cancel every unfinished run is recorded as
 * cancelled, with what it was waiting for.
 */
export async function executeRuns(specs: RunSpec[], suite: Suite, settings: EngineSettings, deps: EngineDeps): Promise<ExecutedRuns> {
  const startedAt = new Date()
  const started = performance.now()
  // The evaluation steps of every rubric these runs may be judged on, generated now, alongside the
  // first agent turns: not when the first run finishes, with every judge waiting in a pool slot.
  deps.judge.prepare(
    specs.filter((spec) => !deps.reuse?.has(specKey(spec))).flatMap((spec) => rubricsOf(spec.case)),
    deps.cancel,
    settings.concurrency
  )
  let slotGivenBack = () => undefined as void
  const pool = createPool(settings.concurrency, () => slotGivenBack())
  let finished = 0
  let notCancelled = 0
  // A finished run is handed on and not kept: its owner is the journal (deps.record), or whoever
  // collects them from onRunFinished; the engine holding every record to the end would be a second copy.
  const finish = (result: RunResult, reused = false): void => {
    if (!reused) deps.record?.(result)
    if (result.status !== 'cancelled') notCancelled++
    deps.onRunFinished?.(result, ++finished, specs.length)
  }

  const toRun: number[] = []
  specs.forEach((spec, i) => {
    const reused = deps.reuse?.get(specKey(spec))
    // A directory an earlier attempt kept is named only where it is still there (a re-run is another machine).
    if (reused) finish({ ...reused, index: spec.index, run_dir: reused.run_dir && existsSync(reused.run_dir) ? reused.run_dir : null }, true)
    else toRun.push(i)
  })
  // After a cancel or at the budget every run left ends at once, starting nothing: all begin.
  const unbounded = () => Boolean(deps.cancel?.aborted) || deps.budget?.reached() != null
  const schedule = scheduleRuns(toRun.length, { pool, unbounded }, async (n, ticket) => {
    const spec = specs[toRun[n]]
    // Every failure of a stage is that stage's record; one nothing caught is still this run's alone.
    const result = await executeRun(spec, suite, settings, deps, pool, ticket).catch((error: unknown) =>
      failedRun(spec, error, settings.maxSteps, prepareLayers(deps.layers ?? RUN_LAYERS, spec, { transport: deps.sessions.transport ?? 'stdio', trace: undefined }))
    )
    finish(result)
  })
  slotGivenBack = schedule.poke
  await schedule.done

  const duration = round1((performance.now() - started) / 1000)
  const overhead = emptyUsage()
  addUsage(overhead, deps.judge.stepGenerationUsage)
  addUsage(overhead, deps.semantic.usage)
  return { started_at: startedAt.toISOString(), duration_s: duration, planned: specs.length, finished: notCancelled, overhead }
}

/**
 * One run, from its server's start to its record: its layers composed, its agent loop in a slot,
 * its judge calls urgent. Begun by the schedule as its server may start; `ticket` says when the
 * server is up and when the run has its slot.
 */
async function executeRun(spec: RunSpec, suite: Suite, settings: EngineSettings, deps: EngineDeps, pool: Pool, ticket: AheadTicket): Promise<RunResult> {
  const layerList = deps.layers ?? RUN_LAYERS
  const transport = deps.sessions.transport ?? 'stdio'
  const view: RunView = {
    max_tool_result_chars: suite.max_tool_result_chars,
    vision: visionOf(spec.model, suite.vision),
    tool_error_patterns: suite.tool_error_patterns,
    disallowed_tools: suite.disallowed_tools?.[spec.model] ?? [],
    structured_content: suite.evals_v1 !== undefined || scriptedTurns(spec.case).some((turn) => turn.evals_v1 !== undefined)
  }
  const overBudget = deps.cancel?.aborted ? null : deps.budget?.reached()
  if (overBudget) return skippedRun(spec, overBudget, settings.maxSteps, prepareLayers(layerList, spec, { transport, trace: undefined }))
  // Starting the server is part of the run: its requests carry the run's span already. The run's
  // span, its LLM calls and its judge calls are traced here; its session, by the trace layer.
  const runTrace = deps.cancel?.aborted ? undefined : deps.tracing?.startRun({ case_id: spec.case.id, model: spec.model, prompt_name: spec.prompt_name, attempt: spec.attempt, index: spec.index })
  const layers = prepareLayers(layerList, spec, { transport, trace: runTrace })
  // The sampling answers of the model under test are LLM calls of this run, in the order they came.
  const transcript = startTranscript(layers.systemPrompt)
  const chat = runTrace ? runTrace.chat(deps.llm) : deps.llm
  // A server (or a case's roots) that keeps its state in ${RUN_DIR} gets an empty directory of
  // its own; one that cannot be made is this run's error, as a server that cannot start.
  let runDir: RunDir | null = null
  let runDirError: RunError | null = null
  try {
    runDir = await runDirFor(spec, settings)
  } catch (error) {
    runDirError = { stage: 'server', message: `could not make the run's \${RUN_DIR} under ${settings.runDirs?.base}: ${error instanceof Error ? error.message : String(error)}` }
  }
  const caseInputs = spec.case.inputs?.roots && runDir ? { ...spec.case.inputs, roots: rootsWithRunDir(spec.case.inputs.roots, runDir.path) } : spec.case.inputs
  const serverRoots = settings.serverRoots ? rootsWithRunDir(settings.serverRoots, runDir?.path ?? null) : null
  const inputs = prepareInputs(caseInputs, serverRoots, {
    llm: chat,
    model: spec.model,
    attempt: spec.attempt,
    onSamplingCall: (call) => void transcript.llm_calls.push(call)
  })
  // The run's one abort, for its server's start, its session and its agent loop.
  const run = runAbort(deps.cancel)
  try {
    let opened: OpenedSession
    let releaseSlot: () => void
    try {
      opened = runDirError ? { error: runDirError } : await openForRun(settings, deps, run, { ...layers.open, inputs: inputs.client, ...(runDir ? { runDir: runDir.path } : {}) })
      ticket.opened()
      releaseSlot = opened.session ? await pool.acquire() : () => undefined
      ticket.left(Boolean(opened.session))
    } finally {
      ticket.left(false)
    }
    // The spend may have reached the budget while this run waited for its slot.
    const overBudgetNow = opened.session && !deps.cancel?.aborted ? deps.budget?.reached() : null
    if (overBudgetNow) {
      releaseSlot()
      await opened.session!.close()
      await runDir?.dispose(false)
      runTrace?.end('skipped')
      // Its server started (and was sent the trace context) before the check: the trace is kept.
      return skippedRun(spec, overBudgetNow, settings.maxSteps, layers)
    }
    if (opened.session && !deps.cancel?.aborted) deps.onRunStarted?.(spec)
    let agentPhase: AgentPhase
    try {
      agentPhase = await runInSlot(spec, opened, settings, deps, { layers, transcript, chat, inputs, view, run, leaveSlot: releaseSlot })
    } catch (error) {
      await runDir?.dispose(false)
      throw error
    } finally {
      releaseSlot()
    }
    const scored = await judgeInPool(spec, agentPhase, suite, deps, pool, runTrace, view)
    // The slot this run gave back goes first: the next run's request (and the next server's
    // start) leave before this run's record is built, redacted and journaled.
    await afterIo()
    const built = buildRunResult(spec, agentPhase, scored, settings.maxSteps, deps.redact ?? ((t) => t), layers, view)
    // A failed run's directory is kept for a look at what the server left in it, when asked.
    const kept = (await runDir?.dispose(Boolean(settings.runDirs?.keepFailed) && (built.status === 'failed' || built.status === 'error'))) ?? false
    const result = kept && runDir ? { ...built, run_dir: runDir.path } : built
    runTrace?.end(result.status)
    return result
  } finally {
    run.dispose()
  }
}

/** A finished run's judge calls and golden checks, in an urgent pool slot; nothing when there is nothing to score. */
async function judgeInPool(spec: RunSpec, agentPhase: AgentPhase, suite: Suite, deps: EngineDeps, pool: Pool, runTrace: RunTrace | undefined, view: RunView): Promise<Scored> {
  const plan = scoringPlan(spec, agentPhase)
  if (!(plan.judge || plan.golden || plan.turns.some((t) => t.judge || t.golden || t.evals_v1))) return NOTHING_SCORED
  const { transcript: ran } = agentPhase
  // A cancel while the run waits for, or is in, its judge calls leaves it unjudged: cancelled.
  const interrupted = () => {
    ran.cancelled ??= { reason: cancellationOf(deps.cancel)!, waiting_for: `the judge (${suite.judge_model})` }
  }
  deps.cancel?.addEventListener('abort', interrupted, { once: true })
  // A cancel that came while the session was closing: the listener will not fire for it.
  if (deps.cancel?.aborted) interrupted()
  let scored: Scored
  try {
    scored = await pool.run(() => scoreRun(spec, ran, plan, deps, { run: runTrace, model: suite.judge_model }, view.max_tool_result_chars), { urgent: true })
  } finally {
    deps.cancel?.removeEventListener('abort', interrupted)
  }
  return ran.cancelled ? NOTHING_SCORED : scored
}

function round1(n: number): number {
  return Math.round(n * 10) / 10
}
