import { availableParallelism } from 'node:os'
import { runAgent, type RunError, type Transcript } from './agent/run-agent.js'
import { assembleDocument } from './aggregate/document.js'
import { cancellationOf } from './execute/cancellation.js'
import { serverTemplate } from './config/server-config.js'
import type { ServerConfig, Suite } from './config/types.js'
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
  type JudgeDetails,
  type ResultsConfig,
  type ObservedCalls,
  type ResultsDocument,
  type RunResult,
  type RunSkip,
  type ToolCallResult
} from './results/types.js'
import { watchSession } from './conformance/observe-session.js'
import { JudgeError, type Judge, type JudgeVerdict } from './scoring/geval.js'
import { checkRequiredTools } from './scoring/tool-assertions.js'
import { createPool } from './util/pool.js'
import type { RunTrace, Tracing } from './telemetry/tracing.js'

export interface EngineSettings {
  filter?: string
  maxSteps: number
  concurrency: number
  timeoutSeconds: number
  baseUrl: string
  /** The date `{today}` stands for (YYYY-MM-DD). */
  today: string
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
  const executed = await executeRuns(suite, settings, deps)
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
export async function executeRuns(suite: Suite, settings: EngineSettings, deps: EngineDeps): Promise<ExecutedRuns> {
  const startedAt = new Date()
  const started = performance.now()
  const specs = expandMatrix(suite, { filter: settings.filter, today: settings.today })
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
      if (reused) return finish({ ...reused, index: spec.index }, true)
      const releaseAhead = await startingAhead.acquire()
      const layer2 = prepareLayer2(spec, deps.sessions.transport ?? 'stdio')
      const overBudget = deps.cancel?.aborted ? null : deps.budget?.reached()
      if (overBudget) {
        releaseAhead()
        return finish(skippedRun(spec, overBudget, settings.maxSteps, layer2))
      }
      // Starting the server is part of the run: its requests carry the run's span already.
      const runTrace = deps.cancel?.aborted ? undefined : deps.tracing?.startRun({ case_id: spec.case.id, model: spec.model, prompt_name: spec.prompt_name, attempt: spec.attempt, index: spec.index })
      let opened: OpenedSession
      let releaseSlot: () => void
      try {
        opened = await openForRun(settings, deps, layer2.open, runTrace)
        releaseSlot = opened.session ? await pool.acquire() : () => undefined
      } finally {
        releaseAhead()
      }
      // The spend may have reached the budget while this run waited for its slot.
      const overBudgetNow = opened.session && !deps.cancel?.aborted ? deps.budget?.reached() : null
      if (overBudgetNow) {
        releaseSlot()
        await opened.session!.close()
        runTrace?.end('skipped')
        // Its server started (and was sent the trace context) before the check: the trace is kept.
        return finish(skippedRun(spec, overBudgetNow, settings.maxSteps, layer2, runTrace?.traceId ?? null))
      }
      if (opened.session && !deps.cancel?.aborted) deps.onRunStarted?.(spec)
      let agentPhase: AgentPhase
      try {
        agentPhase = await runInSlot(spec, opened, settings, deps, layer2, runTrace)
      } finally {
        releaseSlot()
      }
      const { golden } = spec.case
      const { transcript } = agentPhase
      const wantsGolden = golden !== null && transcript.error === null && transcript.cancelled === null
      let scored: { verdict?: JudgeVerdict | JudgeError; judge_ms?: number; golden: GoldenAssertions | null } = { golden: null }
      if (agentPhase.judgeable || wantsGolden) {
        // A cancel while the run waits for, or is in, its judge call leaves it unjudged: cancelled.
        const interrupted = () => {
          transcript.cancelled ??= { reason: cancellationOf(deps.cancel)!, waiting_for: `the judge (${suite.judge_model})` }
        }
        deps.cancel?.addEventListener('abort', interrupted, { once: true })
        // A cancel that came while the session was closing: the listener will not fire for it.
        if (deps.cancel?.aborted) interrupted()
        try {
          scored = await pool.run(
            async () => {
              if (deps.cancel?.aborted) return { golden: null }
              const judged = agentPhase.judgeable ? await judgeRun(deps.judge, spec, transcript.final_output ?? '', deps.cancel, { run: runTrace, model: suite.judge_model }) : undefined
              // No new question to the judge model after a cancel.
              if (deps.cancel?.aborted) return { golden: null }
              return { verdict: judged?.verdict, judge_ms: judged?.latency_ms, golden: wantsGolden ? await checkGolden(golden, transcript.tool_calls, deps.semantic.match) : null }
            },
            { urgent: true }
          )
        } finally {
          deps.cancel?.removeEventListener('abort', interrupted)
        }
        if (transcript.cancelled) scored = { golden: null }
      }
      const result = buildRunResult(spec, agentPhase, scored.verdict, scored.golden, settings.maxSteps, deps.redact ?? ((t) => t), layer2, {
        trace_id: runTrace?.traceId ?? null,
        judge_latency_ms: scored.judge_ms ?? null
      })
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
  session: Pick<McpSession, 'era' | 'protocolVersion' | 'timings' | 'tools'> | null
  duration_s: number
  judgeable: boolean
  /** Conformance checked on the tool results this run saw. */
  observed: ObservedCalls
  /** Set when the run never started: the spend had reached max_cost_usd. */
  skipped?: RunSkip
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

async function runInSlot(spec: RunSpec, opened: OpenedSession, settings: EngineSettings, deps: EngineDeps, layer2: RunLayer2, runTrace: RunTrace | undefined): Promise<AgentPhase> {
  const notRun = (fill: (t: Transcript) => void): AgentPhase => {
    const transcript = emptyTranscript(spec, layer2.systemPrompt)
    fill(transcript)
    return { transcript, session: null, duration_s: 0, judgeable: false, observed: { calls: 0, findings: [] } }
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
    const transcript = await runAgent(
      { model: spec.model, system_prompt: layer2.systemPrompt, prompt: spec.case.prompt, max_steps: settings.maxSteps, attempt: spec.attempt },
      // The trace outermost: a tool call's span covers what the agent waited for, faults and attacks included.
      runTrace ? runTrace.session(wrapForRun(watched, spec.case, layer2)) : wrapForRun(watched, spec.case, layer2),
      runTrace ? runTrace.chat(deps.llm) : deps.llm,
      runSignal(controller, deps.cancel)
    )
    await session.close()
    // A hung server says nothing by itself; what it last wrote to stderr often explains why.
    if (transcript.error?.stage === 'timeout' && !transcript.error.stderr_tail && session.stderrTail()) {
      transcript.error.stderr_tail = session.stderrTail()
    }
    return {
      transcript,
      session,
      duration_s: round1((performance.now() - agentStarted) / 1000),
      judgeable: transcript.stop_reason === 'final_answer',
      observed: watched.observed()
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
  const phase: AgentPhase = { transcript, session: null, duration_s: 0, judgeable: false, observed: { calls: 0, findings: [] }, skipped: { reason: 'budget', detail: `${why} before this run started` } }
  return buildRunResult(spec, phase, undefined, null, maxSteps, (t) => t, layer2, { trace_id: traceId, judge_latency_ms: null })
}

/** The judge's verdict (or the JudgeError in its place) and how long the judge took, in the run's trace when there is one. */
async function judgeRun(
  judge: Judge,
  spec: RunSpec,
  finalOutput: string,
  cancel: AbortSignal | undefined,
  traced: { run: RunTrace | undefined; model: string }
): Promise<{ verdict: JudgeVerdict | JudgeError; latency_ms: number }> {
  const ask = async (): Promise<JudgeVerdict | JudgeError> => {
    try {
      return await judge.judge({ rubric: spec.case.rubric, threshold: spec.case.threshold, input: spec.case.prompt, actualOutput: finalOutput, attempt: spec.attempt }, cancel)
    } catch (error) {
      return error instanceof JudgeError ? error : new JudgeError((error as Error).message, emptyUsage())
    }
  }
  const started = performance.now()
  const verdict = traced.run ? await traced.run.judge(traced.model, ask) : await ask()
  return { verdict, latency_ms: Math.round(performance.now() - started) }
}

/** What a run's record holds of its trace and its judge's timing. */
interface RunTelemetry {
  trace_id: string | null
  judge_latency_ms: number | null
}

function buildRunResult(
  spec: RunSpec,
  phase: AgentPhase,
  verdict: JudgeVerdict | JudgeError | undefined,
  golden: GoldenAssertions | null,
  maxSteps: number,
  redact: (text: string) => string,
  layer2: RunLayer2,
  telemetry: RunTelemetry = { trace_id: null, judge_latency_ms: null }
): RunResult {
  const { transcript } = phase
  if (transcript.error?.stderr_tail) transcript.error.stderr_tail = redact(transcript.error.stderr_tail).slice(-STDERR_TAIL_CHARS)
  const toolAssertions = checkRequiredTools(spec.case.required_tools, transcript.tool_calls)
  const judged = verdict && !(verdict instanceof JudgeError) ? verdict : undefined
  const judgeError = verdict instanceof JudgeError ? verdict : undefined
  const error = transcript.error ?? (judgeError ? { stage: 'judge' as const, message: judgeError.message } : null)
  const rubricPassed = judged?.success ?? false
  const cancelled = transcript.cancelled
  const skipped = phase.skipped ?? null
  const toolCalls = transcript.tool_calls.map((c) => toolCallResult(c, phase))
  const verdicts = layer2Verdicts(spec.case, layer2, {
    tool_calls: toolCalls,
    final_output: transcript.final_output,
    stop_reason: transcript.stop_reason,
    llm_calls: transcript.llm_calls.length,
    finished: transcript.error === null && !cancelled && phase.session !== null,
    cancelled: cancelled !== null || skipped !== null
  }, redact)
  const success = !cancelled && rubricPassed && toolAssertions.passed && (golden?.passed ?? true) && layer2Passed(verdicts)
  const usage = emptyUsage()
  for (const call of transcript.llm_calls) addUsage(usage, call.usage)

  return {
    case_id: spec.case.id,
    model: spec.model,
    prompt_name: spec.prompt_name,
    success,
    rubric_passed: rubricPassed,
    tools_passed: toolAssertions.passed,
    input: spec.case.prompt,
    actual_output: skipped ? `[Skipped: ${skipped.detail}]` : actualOutput(transcript, maxSteps),
    metrics: [
      {
        name: GEVAL_METRIC_NAME,
        score: judged ? judged.score : null,
        reason: judged ? judged.reason : skipped ? `Not run: ${skipped.detail}.` : notJudgedReason(transcript, judgeError, maxSteps),
        success: rubricPassed
      }
    ],
    tool_calls: toolCalls,
    tool_assertions: toolAssertions,
    conversation: toConversation(transcript, redact),
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
    judge: judgeDetails(spec, judged, judgeError, telemetry.judge_latency_ms),
    golden_assertions: golden,
    server: {
      era: phase.session?.era ?? null,
      protocol_version: phase.session?.protocolVersion ?? null,
      connect_ms: phase.session?.timings.connect_ms ?? null,
      list_ms: phase.session?.timings.list_ms ?? null,
      tools: phase.session?.tools.length ?? null
    },
    observed: { calls: phase.observed.calls, findings: phase.observed.findings.map((f) => ({ ...f, message: redact(f.message), evidence: { request: redact(f.evidence.request), response: redact(f.evidence.response) } })) },
    ...verdicts,
    trace_id: telemetry.trace_id,
    skipped
  }
}

/** A tool call as the document holds it: its arguments checked against the tool's inputSchema, and what Layer 2 did to it. */
function toolCallResult(c: Transcript['tool_calls'][number], phase: AgentPhase): ToolCallResult {
  const check = validateArgs(phase.session?.tools.find((t) => t.name === c.name)?.inputSchema, c.args)
  return {
    name: c.name,
    args: c.args,
    result: c.fault?.kind === 'oversized' ? withoutPadding(c.result) : c.result,
    is_error: c.is_error,
    latency_ms: c.latency_ms,
    schema_valid: check ? check.valid : null,
    ...(check?.errors ? { schema_errors: check.errors } : {}),
    ...(c.fault ? { fault: c.fault } : {}),
    ...(c.injected ? { injected: c.injected } : {}),
    ...(c.span_id ? { span_id: c.span_id } : {})
  }
}

/** What the record keeps of an oversized fault's result: the model got all of it, the document need not (a MiB per call, in every copy). */
const OVERSIZED_KEPT_CHARS = 4096
function withoutPadding(result: string): string {
  if (result.length <= OVERSIZED_KEPT_CHARS) return result
  return `${result.slice(0, OVERSIZED_KEPT_CHARS)}\n… [${(result.length - OVERSIZED_KEPT_CHARS).toLocaleString('en-US')} more characters of the oversized fault's padding, sent to the model, not kept here]`
}

function judgeDetails(spec: RunSpec, verdict: JudgeVerdict | undefined, error: JudgeError | undefined, latencyMs: number | null): JudgeDetails | null {
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
      latency_ms: latencyMs
    }
  }
  if (error) {
    return {
      model: '',
      score: null,
      raw_score: null,
      reason: '',
      threshold: spec.case.threshold,
      scoring_mode: null,
      scoring_note: '',
      evaluation_steps: [],
      usage: error.usage,
      error: error.message,
      latency_ms: latencyMs
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

function notJudgedReason(transcript: Transcript, judgeError: JudgeError | undefined, maxSteps: number): string {
  if (transcript.cancelled) return `Not judged: cancelled by ${transcript.cancelled.reason.signalName} while waiting for ${transcript.cancelled.waiting_for}.`
  if (judgeError) return `Judge error: ${judgeError.message}`
  if (transcript.error) return `Not judged: the run failed (${transcript.error.stage}).`
  if (transcript.stop_reason === 'max_steps') return `Not judged: the model used all ${maxSteps} LLM calls without a final answer.`
  return 'Not judged.'
}

/** eval-action's conversation: no system message, no call ids, tool output cut at 2000 chars. */
function toConversation(transcript: Transcript, redact: (text: string) => string): ConversationEntry[] {
  const entries: ConversationEntry[] = []
  let assistantCalls = 0
  let toolResults = 0
  for (const message of transcript.messages) {
    if (message.role === 'user') entries.push({ role: 'user', content: message.content })
    else if (message.role === 'assistant') {
      const entry: ConversationEntry = { role: 'assistant', content: message.content ?? '' }
      if (message.tool_calls?.length) {
        entry.tool_calls = message.tool_calls.map((call) => {
          const record = transcript.tool_calls[assistantCalls++]
          return { name: record?.name ?? call.function.name, args: record?.args ?? {} }
        })
      }
      entries.push(entry)
    } else if (message.role === 'tool') {
      const record = transcript.tool_calls[toolResults++]
      const text = redact(message.content)
      const content = text.length > TOOL_OUTPUT_LIMIT ? `${text.slice(0, TOOL_OUTPUT_LIMIT)}\n... (truncated)` : text
      entries.push({ role: 'tool', content, ...(record ? { tool_name: record.name } : {}) })
    }
  }
  return entries
}

function emptyTranscript(spec: RunSpec, systemPrompt: string): Transcript {
  return {
    messages: [
      { role: 'system', content: systemPrompt },
      { role: 'user', content: spec.case.prompt }
    ],
    tool_calls: [],
    llm_calls: [],
    final_output: null,
    stop_reason: 'error',
    error: null,
    cancelled: null
  }
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
