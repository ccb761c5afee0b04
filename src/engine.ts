import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { agentSteps, isMediaMessage, reachedServer, runTurn, startTranscript, type RunError, type ToolCallRecord, type Transcript } from './agent/run-agent.js'
import { boundForModel, boundForRecord, cutText, type BoundText } from './agent/bound.js'
import { appViewOf } from './agent/exposure.js'
import { visionOf, type VisionVerdict } from './agent/vision.js'
import { mentionsRunDir, rootsWithRunDir, runDirSubdirs } from './config/run-dir.js'
import { makeRunDir, type RunDir } from './execute/run-dirs.js'
import { modelViewOf } from './execute/model-view.js'
import { errorPatternOf } from './scoring/tool-errors.js'
import { dialogueUpTo, runConversation, type DialogueRun } from './agent/conversation.js'
import { prepareInputs, type RunInputs } from './agent/input-answers.js'
import { redactRounds } from './mcp/input-rounds.js'
import { assembleDocument } from './aggregate/document.js'
import { scriptedTurns, turnCalls } from './aggregate/turns.js'
import { cancellationOf } from './execute/cancellation.js'
import { serverTemplate } from './config/server-config.js'
import type { GoldenExpectations, ServerConfig, Suite } from './config/types.js'
import { emptyUsage, addUsage, type ChatClient, type TokenUsage } from './llm/chat.js'
import { validateArgs } from './scoring/args-schema.js'
import { checkGolden, type GoldenAssertions, type SemanticMatcher } from './scoring/golden.js'
import { ServerError, type McpSession, type OpenOptions, type SessionFactory } from './mcp/session.js'
import { layer2Passed, layer2Verdicts, prepareLayer2, wrapForRun, type RunLayer2 } from './execute/layer2.js'
import { expandMatrix, specKey, type RunSpec } from './plan/expand.js'
import {
  GEVAL_METRIC_NAME,
  type Cancellation,
  type ConversationEntry,
  type DialogueResult,
  type InputRound,
  type InputsVerdict,
  type JudgeDetails,
  type MetricResult,
  type ResultsConfig,
  type ObservedCalls,
  type ResultsDocument,
  type RunResult,
  type RunSkip,
  type ToolCallResult,
  type TurnResult
} from './results/types.js'
import { watchSession } from './conformance/observe-session.js'
import { JudgeError, type Judge, type JudgeVerdict } from './scoring/geval.js'
import { checkRequiredTools } from './scoring/tool-assertions.js'
import { createPool } from './util/pool.js'
import { shardOf, type Shard } from './plan/shard.js'
import type { ServerReuse } from './config/options.js'
import type { RunTrace, Tracing } from './telemetry/tracing.js'
import { wholeNumber } from './util/words.js'

export interface EngineSettings {
  filter?: string
  maxSteps: number
  concurrency: number
  timeoutSeconds: number
  baseUrl: string
  /** The date `{today}` stands for (YYYY-MM-DD). */
  today: string
  /** `roots` under server_config: the client's roots for every case that sets none of its own. Absent: none. */
  serverRoots?: string[] | null
  /**
   * `${RUN_DIR}`: where each run's directory is made, whether the server config uses it (a case's
   * roots may too), and whether a failed run's directory is kept. Absent: no run directories.
   */
  runDirs?: { base: string; serverUses: boolean; keepFailed: boolean; cwd?: string }
  /** One shard of the plan (planOf takes its groups' runs only, at their plan index); absent or null: the whole plan. */
  shard?: Shard | null
  /** `run` (absent): a fresh server process per run; `worker`: one stdio server process per pool slot, reused by its runs. */
  serverReuse?: ServerReuse
}

export interface EngineDeps {
  llm: ChatClient
  judge: Judge
  /** For `arg_match: semantic`; its tokens count as judge tokens. */
  semantic: { match: SemanticMatcher; usage: TokenUsage }
  sessions: SessionFactory
  /**
   * Called as each run starts, once it has its server and a pool slot (a run that never starts —
   * its server failed, a cancel came first, an earlier attempt's run is reused — is not).
   */
  onRunStarted?: (spec: RunSpec) => void
  /** Called as each run is finished (judged), in completion order. */
  onRunFinished?: (run: RunResult, finished: number, total: number) => void
  /** Called first with each run the moment it is finished, reused runs excepted (the journal appends it). */
  record?: (run: RunResult) => void
  /** Aborted with a CancelledError when the job is cancelled: no run starts after it, in-flight ones stop. */
  cancel?: AbortSignal
  /** Runs finished by an earlier, interrupted attempt, by `runKey`; they are taken as they are. */
  reuse?: ReadonlyMap<string, RunResult>
  /** Secrets out of a text, applied before anything is cut short (a cut secret is no longer found whole). */
  redact?: (text: string) => string
  /**
   * max_cost_usd, enforced while running: why no new run may start (the spend reached the
   * budget), or null. Asked before a run's server starts and again when it gets its slot.
   */
  budget?: { reached(): string | null }
  /**
   * A W3C trace per run (src/telemetry/tracing.ts): its id in the record, `traceparent` in every
   * MCP request, spans for the run, its LLM calls, tool calls and judge call. Absent: no traces.
   */
  tracing?: Tracing
}

/** What the behaviour layer produced, before it is assembled into a document. */
export interface ExecutedRuns {
  started_at: string
  duration_s: number
  planned: number
  runs: RunResult[]
  /** Judge work not owned by one run: evaluation steps and semantic matches. */
  overhead: TokenUsage
}

const TOOL_OUTPUT_LIMIT = 2000
/** How much of a server's stderr a run record keeps. */
const STDERR_TAIL_CHARS = 4096

/** The runs of a suite, assembled into a results document (conformance and the gate come later). */
export async function runEvaluation(suite: Suite, server: ServerConfig, settings: EngineSettings, deps: EngineDeps): Promise<ResultsDocument> {
  const executed = await executeRuns(planOf(suite, settings), suite, { serverRoots: server.roots ?? null, ...settings }, deps)
  return assembleDocument({
    started_at: executed.started_at,
    duration_s: executed.duration_s,
    config: resultsConfig(suite, server, settings),
    cases: suite.cases,
    behaviour: { status: 'ran', reason: null },
    conformance: null,
    tool_tests: null,
    runs: executed.runs,
    overhead: executed.overhead,
    cache: null,
    cancelled: cancelledSummary(deps.cancel, executed),
    journal: null
  })
}

/** The runs of a suite (or of its shard), at their plan index: expanded once, by whoever starts the runs. */
export function planOf(suite: Suite, settings: Pick<EngineSettings, 'filter' | 'today' | 'shard'>): RunSpec[] {
  return shardOf(expandMatrix(suite, { filter: settings.filter, today: settings.today }), settings.shard ?? null)
}

/** The document's `cancelled` section, when the cancel signal fired. */
export function cancelledSummary(cancel: AbortSignal | undefined, executed: Pick<ExecutedRuns, 'planned' | 'runs'>): Cancellation | null {
  const reason = cancellationOf(cancel)
  if (!reason) return null
  return { signal: reason.signalName, at: reason.at, planned: executed.planned, finished: executed.runs.filter((r) => r.status !== 'cancelled').length }
}

/**
 * Run the whole matrix through one bounded pool. A run holds a slot for its agent loop; its
 * judge call queues at the front of the pool as soon as the run ends, so judging overlaps the
 * remaining runs instead of waiting for a separate phase. A few servers (up to twice the number of
 * cores) are started ahead of their slot, so server start-up overlaps model latency instead of
 * adding to it. Every failure stays inside its run; after a cancel every unfinished run is
 * recorded as cancelled, with what it was waiting for.
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
  const pool = createPool(settings.concurrency)
  // Starting many more servers at once than there are cores only makes them fight for the CPU.
  const startingAhead = createPool(Math.min(settings.concurrency, 2 * availableParallelism()))
  let finished = 0
  const finish = (result: RunResult, reused = false) => {
    if (!reused) deps.record?.(result)
    deps.onRunFinished?.(result, ++finished, specs.length)
    return result
  }

  const results = await Promise.all(
    specs.map(async (spec) => {
      const reused = deps.reuse?.get(specKey(spec))
      // A directory an earlier attempt kept is named only where it is still there (a re-run is another machine).
      if (reused) return finish({ ...reused, index: spec.index, run_dir: reused.run_dir && existsSync(reused.run_dir) ? reused.run_dir : null }, true)
      const releaseAhead = await startingAhead.acquire()
      const layer2 = prepareLayer2(spec, deps.sessions.transport ?? 'stdio')
      const view: RunView = { max_tool_result_chars: suite.max_tool_result_chars, vision: visionOf(spec.model, suite.vision), tool_error_patterns: suite.tool_error_patterns }
      const overBudget = deps.cancel?.aborted ? null : deps.budget?.reached()
      if (overBudget) {
        releaseAhead()
        return finish(skippedRun(spec, overBudget, settings.maxSteps, layer2))
      }
      // Starting the server is part of the run: its requests carry the run's span already.
      const runTrace = deps.cancel?.aborted ? undefined : deps.tracing?.startRun({ case_id: spec.case.id, model: spec.model, prompt_name: spec.prompt_name, attempt: spec.attempt, index: spec.index })
      // The sampling answers of the model under test are LLM calls of this run, in the order they came.
      const transcript = startTranscript(layer2.systemPrompt)
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
      let opened: OpenedSession
      let releaseSlot: () => void
      try {
        opened = runDirError ? { error: runDirError } : await openForRun(settings, deps, { ...layer2.open, inputs: inputs.client, ...(runDir ? { runDir: runDir.path } : {}) }, runTrace)
        releaseSlot = opened.session ? await pool.acquire() : () => undefined
      } finally {
        releaseAhead()
      }
      // The spend may have reached the budget while this run waited for its slot.
      const overBudgetNow = opened.session && !deps.cancel?.aborted ? deps.budget?.reached() : null
      if (overBudgetNow) {
        releaseSlot()
        await opened.session!.close()
        await runDir?.dispose(false)
        runTrace?.end('skipped')
        // Its server started (and was sent the trace context) before the check: the trace is kept.
        return finish(skippedRun(spec, overBudgetNow, settings.maxSteps, layer2, runTrace?.traceId ?? null))
      }
      if (opened.session && !deps.cancel?.aborted) deps.onRunStarted?.(spec)
      let agentPhase: AgentPhase
      try {
        agentPhase = await runInSlot(spec, opened, settings, deps, { layer2, runTrace, transcript, chat, inputs, view })
      } catch (error) {
        await runDir?.dispose(false)
        throw error
      } finally {
        releaseSlot()
      }
      const plan = scoringPlan(spec, agentPhase)
      let scored: Scored = NOTHING_SCORED
      if (plan.judge || plan.golden || plan.turns.some((t) => t.judge || t.golden)) {
        const { transcript: ran } = agentPhase
        // A cancel while the run waits for, or is in, its judge calls leaves it unjudged: cancelled.
        const interrupted = () => {
          ran.cancelled ??= { reason: cancellationOf(deps.cancel)!, waiting_for: `the judge (${suite.judge_model})` }
        }
        deps.cancel?.addEventListener('abort', interrupted, { once: true })
        // A cancel that came while the session was closing: the listener will not fire for it.
        if (deps.cancel?.aborted) interrupted()
        try {
          scored = await pool.run(() => scoreRun(spec, ran, plan, deps, { run: runTrace, model: suite.judge_model }, view.max_tool_result_chars), { urgent: true })
        } finally {
          deps.cancel?.removeEventListener('abort', interrupted)
        }
        if (ran.cancelled) scored = NOTHING_SCORED
      }
      const built = buildRunResult(spec, agentPhase, scored, settings.maxSteps, deps.redact ?? ((t) => t), layer2, runTrace?.traceId ?? null, view)
      // A failed run's directory is kept for a look at what the server left in it, when asked.
      const kept = (await runDir?.dispose(Boolean(settings.runDirs?.keepFailed) && (built.status === 'failed' || built.status === 'error'))) ?? false
      const result = kept && runDir ? { ...built, run_dir: runDir.path } : built
      runTrace?.end(result.status)
      return finish(result)
    })
  )

  const duration = round1((performance.now() - started) / 1000)
  const overhead = emptyUsage()
  addUsage(overhead, deps.judge.stepGenerationUsage)
  addUsage(overhead, deps.semantic.usage)
  return { started_at: startedAt.toISOString(), duration_s: duration, planned: specs.length, runs: results, overhead }
}

interface AgentPhase {
  transcript: Transcript
  session: Pick<McpSession, 'era' | 'protocolVersion' | 'timings' | 'tools' | 'resources'> | null
  duration_s: number
  /** The run's rubric can be judged: the answer (a conversation's last answer, the dialogue done) is there. */
  judgeable: boolean
  /** Conformance checked on the tool results this run saw, and the session's own findings. */
  observed: ObservedCalls
  /** Set when the run never started: the spend had reached max_cost_usd. */
  skipped?: RunSkip
  /** A conversation's outcome; null for a single-turn case (or a run that never started). */
  dialogue: DialogueRun | null
  /** How the run answered the server's questions; null when it never started. */
  inputs: RunInputs | null
  /** What the server asked outside any tool call (server-filesystem lists the roots as it starts). */
  outsideRounds?: InputRound[]
}

/** What one run carries from before its server starts to its agent loop. */
interface RunContext {
  layer2: RunLayer2
  runTrace: RunTrace | undefined
  /** Started before the server, so a sampling call is recorded wherever it comes. */
  transcript: Transcript
  /** The model under test's client (traced when the run is). */
  chat: ChatClient
  inputs: RunInputs
  view: RunView
}

/** What the model under test is shown, for one run: the result limit, whether it takes images, and what counts as a tool error. */
interface RunView {
  max_tool_result_chars: number
  vision: VisionVerdict
  tool_error_patterns: string[]
}

/** This run's `${RUN_DIR}`, when its server config or its case's roots use one; null otherwise. */
async function runDirFor(spec: RunSpec, settings: EngineSettings): Promise<RunDir | null> {
  const runDirs = settings.runDirs
  if (!runDirs) return null
  const caseUses = (spec.case.inputs?.roots ?? []).some(mentionsRunDir)
  if (!runDirs.serverUses && !caseUses) return null
  const roots = spec.case.inputs?.roots ?? settings.serverRoots ?? []
  return makeRunDir(runDirs.base, `${String(spec.index).padStart(3, '0')}-${spec.case.id}`, (dir) => runDirSubdirs(dir, runDirs.cwd, roots))
}

type OpenedSession =
  | { session: McpSession; error?: undefined; cancelled?: undefined }
  | { session?: undefined; error: RunError; cancelled?: undefined }
  | { session?: undefined; error?: undefined; cancelled: NonNullable<Transcript['cancelled']> }

/** This run's signal: its own time limit, or the job's cancellation, whichever comes first. */
function runSignal(controller: AbortController, cancel: AbortSignal | undefined): AbortSignal {
  return cancel ? AbortSignal.any([controller.signal, cancel]) : controller.signal
}

/** Start this run's own server (or remote session), within timeout_seconds; its requests carry the run's trace context. Never throws. */
async function openForRun(settings: EngineSettings, deps: EngineDeps, layer2Open: OpenOptions, runTrace: RunTrace | undefined): Promise<OpenedSession> {
  const openOptions: OpenOptions = runTrace ? { ...layer2Open, traceMeta: () => runTrace.meta() } : layer2Open
  const waiting = (waiting_for: string) => ({ cancelled: { reason: cancellationOf(deps.cancel)!, waiting_for } })
  if (deps.cancel?.aborted) return waiting('a free slot')
  const controller = new AbortController()
  const signal = runSignal(controller, deps.cancel)
  const timer = setTimeout(() => controller.abort(new Error(`the server did not start within timeout_seconds (${settings.timeoutSeconds}s)`)), settings.timeoutSeconds * 1000)
  try {
    return { session: await deps.sessions.open(signal, openOptions) }
  } catch (error) {
    if (cancellationOf(deps.cancel)) return waiting('the server to start')
    if (controller.signal.aborted) return { error: { stage: 'timeout', message: (controller.signal.reason as Error).message } }
    return {
      error: {
        stage: 'server',
        message: error instanceof Error ? error.message : String(error),
        ...(error instanceof ServerError && error.stderrTail ? { stderr_tail: error.stderrTail } : {})
      }
    }
  } finally {
    clearTimeout(timer)
  }
}

async function runInSlot(spec: RunSpec, opened: OpenedSession, settings: EngineSettings, deps: EngineDeps, context: RunContext): Promise<AgentPhase> {
  const { layer2, runTrace, transcript, chat } = context
  const notRun = (fill: (t: Transcript) => void): AgentPhase => {
    const empty = emptyTranscript(spec, layer2.systemPrompt)
    fill(empty)
    return { transcript: empty, session: null, duration_s: 0, judgeable: false, observed: { calls: 0, findings: [] }, dialogue: null, inputs: null }
  }
  if (opened.cancelled) return notRun((t) => ((t.stop_reason = 'cancelled'), (t.cancelled = opened.cancelled)))
  if (!opened.session) return notRun((t) => (t.error = opened.error))
  const { session } = opened
  // A cancel that came while this run waited for a slot: it never starts.
  if (deps.cancel?.aborted) {
    await session.close()
    return notRun((t) => ((t.stop_reason = 'cancelled'), (t.cancelled = { reason: cancellationOf(deps.cancel)!, waiting_for: 'a free slot' })))
  }
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new Error(`the run exceeded timeout_seconds (${settings.timeoutSeconds}s)`)), settings.timeoutSeconds * 1000)
  // eval-action's clock starts after the session is up and stops after it is closed.
  const agentStarted = performance.now()
  const watched = watchSession(session)
  try {
    // The trace outermost: a tool call's span covers what the agent waited for, faults and attacks included.
    const agentSession = runTrace ? runTrace.session(wrapForRun(watched, spec.case, layer2)) : wrapForRun(watched, spec.case, layer2)
    const signal = runSignal(controller, deps.cancel)
    const task = { model: spec.model, max_steps: settings.maxSteps, attempt: spec.attempt, max_tool_result_chars: context.view.max_tool_result_chars, vision: context.view.vision.vision }
    // One session for the whole conversation: every turn talks to the same server.
    const dialogue = spec.case.conversation
      ? await runConversation(spec.case.conversation, transcript, task, { session: agentSession, llm: chat, userLlm: chat, signal })
      : null
    if (!dialogue) await runTurn(transcript, { user: spec.case.prompt, simulated: false }, task, agentSession, chat, signal)
    await session.close()
    // A hung server says nothing by itself; what it last wrote to stderr often explains why.
    if (transcript.error?.stage === 'timeout' && !transcript.error.stderr_tail && session.stderrTail()) {
      transcript.error.stderr_tail = session.stderrTail()
    }
    const observed = watched.observed()
    const outsideRounds = session.sessionRounds()
    return {
      transcript,
      session,
      duration_s: round1((performance.now() - agentStarted) / 1000),
      judgeable: transcript.stop_reason === 'final_answer' && (!dialogue || (dialogue.ended !== 'stopped' && spec.case.rubric !== '')),
      // What the server asked outside any call (the roots at start) counts as one more call that asked.
      observed: { calls: observed.calls, findings: [...observed.findings, ...watched.sessionFindings()], asked: (observed.asked ?? 0) + (outsideRounds.length > 0 ? 1 : 0) },
      dialogue,
      inputs: context.inputs,
      outsideRounds
    }
  } finally {
    clearTimeout(timer)
    await session.close()
  }
}

/** A run that never started because the spend reached max_cost_usd: recorded, never a verdict. */
function skippedRun(spec: RunSpec, why: string, maxSteps: number, layer2: RunLayer2, traceId: string | null = null): RunResult {
  const transcript = emptyTranscript(spec, layer2.systemPrompt)
  transcript.stop_reason = 'skipped'
  const phase: AgentPhase = {
    transcript,
    session: null,
    duration_s: 0,
    judgeable: false,
    observed: { calls: 0, findings: [] },
    skipped: { reason: 'budget', detail: `${why} before this run started` },
    dialogue: null,
    inputs: null
  }
  return buildRunResult(spec, phase, NOTHING_SCORED, maxSteps, (t) => t, layer2, traceId, null)
}

/** A judge's verdict (or the JudgeError in its place) and how long the judge took. */
interface Judged {
  verdict: JudgeVerdict | JudgeError
  latency_ms: number
}

/** What the judge and the golden checks said of a run: its own rubric and golden keys, and each turn's. */
interface Scored {
  /** The case's rubric; for a conversation, the overall rubric on the whole dialogue. */
  judged?: Judged
  /** The case's golden keys, over every call of the run. */
  golden: GoldenAssertions | null
  /** Per turn of the transcript, in order (a conversation's scripted turns). */
  turns: TurnScore[]
}

/** What the judge and the golden checks said of one turn. */
interface TurnScore {
  judged?: Judged
  golden: GoldenAssertions | null
}

const NOTHING_SCORED: Scored = { golden: null, turns: [] }

/**
 * The rubrics a run of this case can be judged on, as scoreRun finds them: each scripted turn's,
 * and the case's own (a conversation's overall rubric, which it may leave empty).
 */
function rubricsOf(evalCase: RunSpec['case']): string[] {
  return [...scriptedTurns(evalCase).map((turn) => turn.rubric), evalCase.rubric].filter((rubric): rubric is string => Boolean(rubric))
}

/** What a finished run is scored on: its rubric, its golden keys, and per turn the same. */
interface ScoringPlan {
  judge: boolean
  golden: GoldenExpectations | null
  turns: { judge: boolean; golden: GoldenExpectations | null }[]
}

/**
 * What to ask of the judge and the golden checks. A run that errored or was cancelled gets no
 * golden verdict; a turn is scored only when it reached its final answer.
 */
function scoringPlan(spec: RunSpec, phase: AgentPhase): ScoringPlan {
  const { transcript } = phase
  const healthy = transcript.error === null && transcript.cancelled === null
  const scripted = scriptedTurns(spec.case)
  return {
    judge: phase.judgeable,
    golden: healthy ? spec.case.golden : null,
    turns: transcript.turns.map((turn, i) => {
      const finished = healthy && turn.stop_reason === 'final_answer'
      return { judge: finished && Boolean(scripted[i]?.rubric), golden: finished ? (scripted[i]?.golden ?? null) : null }
    })
  }
}

/**
 * Judge and check a finished run, in its urgent pool slot: each turn with a rubric (the judge
 * sees the dialogue up to it) and golden keys (on that turn's calls), then the run's rubric and
 * its golden keys over every call. No new question to the judge model after a cancel.
 */
async function scoreRun(
  spec: RunSpec,
  transcript: Transcript,
  plan: ScoringPlan,
  deps: EngineDeps,
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
    turns.push(score)
  }
  if (deps.cancel?.aborted) return NOTHING_SCORED
  const input = conversational ? dialogueUpTo(transcript.turns, transcript.turns.length, limit) : spec.case.prompt
  const judged = plan.judge
    ? await judgeRun(deps.judge, { rubric: spec.case.rubric, threshold: spec.case.threshold, input, actualOutput: answer(transcript.final_output), attempt: spec.attempt }, deps.cancel, traced)
    : undefined
  if (deps.cancel?.aborted) return NOTHING_SCORED
  return { judged, golden: plan.golden ? await checkGolden(plan.golden, transcript.tool_calls, deps.semantic.match) : null, turns }
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

function buildRunResult(
  spec: RunSpec,
  phase: AgentPhase,
  scored: Scored,
  maxSteps: number,
  redact: (text: string) => string,
  layer2: RunLayer2,
  traceId: string | null,
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
  const toolCalls = transcript.tool_calls.map((c) => toolCallResult(c, phase, redact, view))
  const verdicts = layer2Verdicts(spec.case, layer2, {
    tool_calls: toolCalls,
    final_output: transcript.final_output,
    stop_reason: transcript.stop_reason,
    llm_calls: agentSteps(transcript.llm_calls).length,
    finished: transcript.error === null && !cancelled && phase.session !== null,
    cancelled: cancelled !== null || skipped !== null
  }, redact)
  const inputs = phase.inputs && phase.session ? redactVerdict(phase.inputs.verdict(transcript.tool_calls, phase.outsideRounds), redact) : null
  const golden = scored.golden
  const success =
    !cancelled && rubricPassed && toolsPassed && (golden?.passed ?? true) && layer2Passed(verdicts) && (dialogue?.turns_passed ?? true) && inputs?.passed !== false
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
    system_prompt: layer2.systemPrompt,
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
    observed: {
      calls: phase.observed.calls,
      findings: phase.observed.findings.map((f) => ({ ...f, message: redact(f.message), evidence: { request: redact(f.evidence.request), response: redact(f.evidence.response) } })),
      ...(phase.observed.asked !== undefined ? { asked: phase.observed.asked } : {})
    },
    ...verdicts,
    trace_id: traceId,
    skipped,
    dialogue,
    inputs,
    model_view: view && phase.session ? runModelView(spec, phase, scored, view) : null,
    run_dir: null
  }
}

/** What the model was shown of the server in this run (and what the judge was given). */
function runModelView(spec: RunSpec, phase: AgentPhase, scored: Scored, view: RunView): RunResult['model_view'] {
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
    conversation: spec.case.conversation !== null
  })
}

const verdictOf = (judged: Judged | undefined): JudgeVerdict | undefined => (judged && !(judged.verdict instanceof JudgeError) ? judged.verdict : undefined)
const judgeErrorOf = (judged: Judged | undefined): JudgeError | undefined => (judged?.verdict instanceof JudgeError ? judged.verdict : undefined)

/** metrics[0] of a run with its own rubric (a conversation's overall one): its verdict. */
function runMetric(judged: JudgeVerdict | undefined, phase: AgentPhase, judgeError: JudgeError | undefined, maxSteps: number): MetricResult {
  const { skipped, transcript } = phase
  return {
    name: GEVAL_METRIC_NAME,
    score: judged ? judged.score : null,
    reason: judged ? judged.reason : skipped ? `Not run: ${skipped.detail}.` : notJudgedReason(transcript, judgeError, maxSteps, phase.dialogue !== null),
    success: judged?.success ?? false
  }
}

/**
 * metrics[0] of a conversation without an overall rubric: its lowest-scoring judged turn, its
 * reason prefixed "Turn N: ". A failing judged turn comes first (should thresholds differ); then
 * a scripted turn with a rubric that was never judged (it ran out of steps, the dialogue stopped
 * before it, its judge failed), which fails it: "Turn N: not judged: …". A run that was cancelled,
 * errored or skipped says so, as any run; with no rubric on any turn it passes, unjudged.
 */
function turnsMetric(spec: RunSpec, phase: AgentPhase, scored: Scored, dialogue: DialogueResult, judgeError: JudgeError | undefined, maxSteps: number): MetricResult {
  const { transcript } = phase
  const judgedTurns = scored.turns.flatMap((score, i) => {
    const verdict = verdictOf(score.judged)
    return verdict ? [{ index: i + 1, verdict }] : []
  })
  // Failing turns first, then the lowest score; the earlier turn on a tie (the sort is stable).
  const lowest = [...judgedTurns].sort((a, b) => Number(a.verdict.success) - Number(b.verdict.success) || a.verdict.score - b.verdict.score)[0]
  const turnVerdict = (t: NonNullable<typeof lowest>): MetricResult => ({ name: GEVAL_METRIC_NAME, score: t.verdict.score, reason: `Turn ${t.index}: ${t.verdict.reason}`, success: t.verdict.success })
  if (lowest && !lowest.verdict.success) return turnVerdict(lowest)
  const metric = runMetric(undefined, phase, judgeError, maxSteps)
  if (phase.skipped || transcript.cancelled || transcript.error) return metric
  const unjudged = scriptedTurns(spec.case).findIndex((t, i) => t.rubric && !verdictOf(scored.turns[i]?.judged))
  if (unjudged >= 0) return { ...metric, reason: `Turn ${unjudged + 1}: ${unjudgedTurnReason(transcript, unjudged, scored, maxSteps)}`, success: false }
  if (lowest) return turnVerdict(lowest)
  if (dialogue.turns.length === 0) return metric
  return { ...metric, reason: 'Not judged: the case sets no rubric.', success: true }
}

/** Why scripted turn `index` (0-based) of a run that neither errored nor was cancelled has no verdict, after "Turn N: ". */
function unjudgedTurnReason(transcript: Transcript, index: number, scored: Scored, maxSteps: number): string {
  const judgeError = judgeErrorOf(scored.turns[index]?.judged)
  if (judgeError) return `Judge error: ${judgeError.message}`
  const ranOut = `the model used all ${maxSteps} LLM calls without a final answer`
  const turn = transcript.turns[index]
  if (turn) return turn.stop_reason === 'max_steps' ? `not judged: ${ranOut}.` : 'not judged.'
  const last = transcript.turns.at(-1)
  return last ? `not judged: the dialogue stopped before it (turn ${transcript.turns.length}: ${last.stop_reason === 'max_steps' ? ranOut : 'no final answer'}).` : 'not judged: the dialogue never started.'
}

/** A conversation's record, turn by turn: each turn's own assertions (on its own calls) and verdict. */
function dialogueRecord(evalCase: RunSpec['case'], conversation: NonNullable<RunSpec['case']['conversation']>, phase: AgentPhase, scored: Scored): DialogueResult {
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
      (script?.golden ? golden?.passed === true : true) &&
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

/** The inputs verdict with secrets out of its reasons (they may quote the content sent) and out of the rounds outside the calls. */
function redactVerdict(verdict: InputsVerdict | null, redact: (text: string) => string): InputsVerdict | null {
  return verdict && { ...verdict, reasons: verdict.reasons.map(redact), outside_calls: redactRounds(verdict.outside_calls, redact) }
}

/** A tool call as the document holds it: its arguments checked against the tool's inputSchema, and what Layer 2 did to it. */
function toolCallResult(c: ToolCallRecord, phase: AgentPhase, redact: (text: string) => string, view: RunView | null): ToolCallResult {
  const check = validateArgs(phase.session?.tools.find((t) => t.name === c.name)?.inputSchema, c.args)
  const limit = view?.max_tool_result_chars ?? 0
  const kept = c.annotations?.fault?.kind === 'oversized' ? withoutPadding(c.result) : boundForRecord(c.result, limit)
  const shown = c.shown_chars
  const cut = shown < c.result.length || kept.shown < c.result.length
  // A failure the server reported in plain text counts as a tool error when the user says how it reads.
  // Not on a result an attack rewrote: that text is ours, not the server's.
  const errorPattern = !c.is_error && reachedServer(c) && c.annotations?.injected?.attack !== 'tool_output' && view ? errorPatternOf(c.result, view.tool_error_patterns) : undefined
  return {
    name: c.name,
    args: c.args,
    result: kept.text,
    is_error: c.is_error,
    latency_ms: c.latency_ms,
    schema_valid: check ? check.valid : null,
    ...(check?.errors ? { schema_errors: check.errors } : {}),
    ...c.annotations,
    ...(c.input_rounds ? { input_rounds: redactRounds(c.input_rounds, redact) } : {}),
    ...(cut ? { cut: { total_chars: c.result.length, total_bytes: Buffer.byteLength(c.result, 'utf8'), shown_chars: shown, kept_chars: kept.shown } } : {}),
    ...(c.media?.length ? { media: c.media } : {}),
    ...(errorPattern !== undefined ? { error_pattern: errorPattern } : {})
  }
}

/** What the record keeps of an oversized fault's result: the model got all of it, the document need not (a MiB per call, in every copy). */
const OVERSIZED_KEPT_CHARS = 4096
function withoutPadding(result: string): BoundText {
  return cutText(result, OVERSIZED_KEPT_CHARS, (left) => `\n… [${wholeNumber(left)} more characters of the oversized fault's padding, not kept here]`)
}

/** The judge's details for the record: its verdict, or the JudgeError in its place; null when it was not asked. */
function judgeDetails(threshold: number, judged: Judged | undefined): JudgeDetails | null {
  const verdict = verdictOf(judged)
  if (verdict) {
    return {
      model: verdict.model,
      score: verdict.score,
      raw_score: verdict.raw_score,
      reason: verdict.reason,
      threshold: verdict.threshold,
      scoring_mode: verdict.scoring_mode,
      scoring_note: verdict.scoring_note,
      evaluation_steps: verdict.evaluation_steps,
      usage: verdict.usage,
      error: null,
      latency_ms: judged!.latency_ms
    }
  }
  const error = judgeErrorOf(judged)
  if (error) {
    return {
      model: '',
      score: null,
      raw_score: null,
      reason: '',
      threshold,
      scoring_mode: null,
      scoring_note: '',
      evaluation_steps: [],
      usage: error.usage,
      error: error.message,
      latency_ms: judged!.latency_ms
    }
  }
  return null
}

/** eval-action's `actual_output`: the final answer, or its wording for what went wrong. */
function actualOutput(transcript: Transcript, maxSteps: number): string {
  if (transcript.cancelled) return `[Cancelled by ${transcript.cancelled.reason.signalName} while waiting for ${transcript.cancelled.waiting_for}]`
  if (transcript.error) return `[Agent error: ${transcript.error.message}]`
  if (transcript.stop_reason === 'max_steps') return `Model call limits exceeded: run limit (${maxSteps}/${maxSteps})`
  return transcript.final_output || 'No output generated'
}

function notJudgedReason(transcript: Transcript, judgeError: JudgeError | undefined, maxSteps: number, conversational: boolean): string {
  if (transcript.cancelled) return `Not judged: cancelled by ${transcript.cancelled.reason.signalName} while waiting for ${transcript.cancelled.waiting_for}.`
  if (judgeError) return `Judge error: ${judgeError.message}`
  if (transcript.error) return `Not judged: the run failed (${transcript.error.stage}).`
  // A conversation names the turn that ran out of steps.
  const turn = conversational ? ` in turn ${transcript.turns.length}` : ''
  if (transcript.stop_reason === 'max_steps') return `Not judged: the model used all ${maxSteps} LLM calls${turn} without a final answer.`
  return 'Not judged.'
}

/**
 * eval-action's conversation: no system message, no call ids, tool output cut at 2000 chars. A
 * conversation's entries also say which turn they belong to, and mark the simulated user's messages.
 */
function toConversation(transcript: Transcript, redact: (text: string) => string, conversational: boolean): ConversationEntry[] {
  const entries: ConversationEntry[] = []
  let assistantCalls = 0
  let toolResults = 0
  let turn = 0
  const push = (entry: ConversationEntry) => {
    const current = transcript.turns[turn - 1]
    entries.push(conversational && current ? { ...entry, turn, ...(current.simulated && entry.role === 'user' ? { simulated: true as const } : {}) } : entry)
  }
  for (const [index, message] of transcript.messages.entries()) {
    if (transcript.turns[turn]?.first_message === index) turn++
    // The images the model was sent after a step's tool results are no user turn: the tool calls record them.
    if (isMediaMessage(message)) continue
    if (message.role === 'user') push({ role: 'user', content: message.content as string })
    else if (message.role === 'assistant') {
      const entry: ConversationEntry = { role: 'assistant', content: message.content ?? '' }
      if (message.tool_calls?.length) {
        entry.tool_calls = message.tool_calls.map((call) => {
          const record = transcript.tool_calls[assistantCalls++]
          return { name: record?.name ?? call.function.name, args: record?.args ?? {} }
        })
      }
      push(entry)
    } else if (message.role === 'tool') {
      const record = transcript.tool_calls[toolResults++]
      const text = redact(message.content)
      const content = text.length > TOOL_OUTPUT_LIMIT ? `${text.slice(0, TOOL_OUTPUT_LIMIT)}\n... (truncated)` : text
      push({ role: 'tool', content, ...(record ? { tool_name: record.name } : {}) })
    }
  }
  return entries
}

/** The transcript of a run that never reached its agent loop: the system prompt and the (first) user message. */
function emptyTranscript(spec: RunSpec, systemPrompt: string): Transcript {
  const transcript = startTranscript(systemPrompt)
  transcript.messages.push({ role: 'user', content: spec.case.prompt })
  transcript.stop_reason = 'error'
  return transcript
}

/** The configuration as the document shows it: the server as written, its placeholders unexpanded. */
export function resultsConfig(suite: Suite, configured: ServerConfig, settings: Omit<EngineSettings, 'today'>): ResultsConfig {
  const server = serverTemplate(configured)
  return {
    eval_cases: suite.source,
    server: server.kind === 'stdio' ? { kind: 'stdio', command: server.command, args: server.args } : { kind: 'http', url: server.url },
    models: suite.models,
    judge_model: suite.judge_model,
    system_prompts: suite.system_prompts.map((p) => p.name),
    filter: settings.filter || null,
    max_steps: settings.maxSteps,
    concurrency: settings.concurrency,
    server_reuse: settings.serverReuse ?? 'run',
    timeout_seconds: settings.timeoutSeconds,
    base_url: settings.baseUrl,
    pass_floors: suite.pass_floors,
    resilience_floors: suite.resilience_floors,
    budgets: suite.budgets,
    pricing: suite.pricing
  }
}

function round1(n: number): number {
  return Math.round(n * 10) / 10
}
