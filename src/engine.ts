import { availableParallelism } from 'node:os'
import { runAgent, type RunError, type Transcript } from './agent/run-agent.js'
import { groupRuns } from './aggregate/groups.js'
import { computeMetrics } from './aggregate/metrics.js'
import { summarize } from './aggregate/summarize.js'
import type { ServerConfig, Suite } from './config/types.js'
import { emptyUsage, addUsage, type ChatClient, type TokenUsage } from './llm/chat.js'
import { validateArgs } from './scoring/args-schema.js'
import { checkGolden, type GoldenAssertions, type SemanticMatcher } from './scoring/golden.js'
import { ServerError, type McpSession, type SessionFactory } from './mcp/session.js'
import { expandMatrix, type RunSpec } from './plan/expand.js'
import {
  GEVAL_METRIC_NAME,
  RESULTS_VERSION,
  type ConversationEntry,
  type JudgeDetails,
  type ResultsConfig,
  type ResultsDocument,
  type RunResult
} from './results/types.js'
import { JudgeError, type Judge, type JudgeVerdict } from './scoring/geval.js'
import { checkRequiredTools } from './scoring/tool-assertions.js'
import { createPool } from './util/pool.js'
import { TOOL_NAME, TOOL_VERSION } from './version.js'

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
  /** Called as each run is finished (judged), in completion order. */
  onRunFinished?: (run: RunResult, finished: number, total: number) => void
}

const TOOL_OUTPUT_LIMIT = 2000

/**
 * Run the whole matrix through one bounded pool. A run holds a slot for its agent loop; its
 * judge call queues at the front of the pool as soon as the run ends, so judging overlaps the
 * remaining runs instead of waiting for a separate phase. A few servers (up to twice the number of
 * cores) are started ahead of their slot, so server start-up overlaps model latency instead of
 * adding to it. Every failure stays inside its run.
 */
export async function runEvaluation(suite: Suite, server: ServerConfig, settings: EngineSettings, deps: EngineDeps): Promise<ResultsDocument> {
  const startedAt = new Date()
  const started = performance.now()
  const specs = expandMatrix(suite, { filter: settings.filter, today: settings.today })
  const pool = createPool(settings.concurrency)
  // Starting many more servers at once than there are cores only makes them fight for the CPU.
  const startingAhead = createPool(Math.min(settings.concurrency, 2 * availableParallelism()))
  let finished = 0

  const results = await Promise.all(
    specs.map(async (spec) => {
      const releaseAhead = await startingAhead.acquire()
      let opened: OpenedSession
      let releaseSlot: () => void
      try {
        opened = await openForRun(settings, deps)
        releaseSlot = opened.session ? await pool.acquire() : () => undefined
      } finally {
        releaseAhead()
      }
      let agentPhase: AgentPhase
      try {
        agentPhase = await runInSlot(spec, opened, settings, deps)
      } finally {
        releaseSlot()
      }
      const { golden } = spec.case
      const wantsGolden = golden !== null && agentPhase.transcript.error === null
      const scored =
        agentPhase.judgeable || wantsGolden
          ? await pool.run(
              async () => ({
                verdict: agentPhase.judgeable ? await judgeRun(deps.judge, spec, agentPhase.transcript.final_output ?? '') : undefined,
                golden: wantsGolden ? await checkGolden(golden, agentPhase.transcript.tool_calls, deps.semantic.match) : null
              }),
              { urgent: true }
            )
          : { verdict: undefined, golden: null }
      const result = buildRunResult(spec, agentPhase, scored.verdict, scored.golden, settings.maxSteps)
      deps.onRunFinished?.(result, ++finished, specs.length)
      return result
    })
  )

  const duration = round1((performance.now() - started) / 1000)
  for (const r of results) r.total_duration_s = duration
  const overhead = emptyUsage()
  addUsage(overhead, deps.judge.stepGenerationUsage)
  addUsage(overhead, deps.semantic.usage)
  const groups = groupRuns(results, suite.pass_floors)
  const summary = summarize(results, groups, overhead)
  return {
    version: RESULTS_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    started_at: startedAt.toISOString(),
    duration_s: duration,
    passed: groups.every((g) => g.success),
    config: resultsConfig(suite, server, settings),
    behaviour: { status: 'ran', reason: null },
    conformance: null,
    summary,
    gate: null,
    metrics: computeMetrics(results, suite.cases),
    groups,
    runs: results,
    fatal_error: null
  }
}

interface AgentPhase {
  transcript: Transcript
  session: Pick<McpSession, 'era' | 'protocolVersion' | 'timings' | 'tools'> | null
  duration_s: number
  judgeable: boolean
}

type OpenedSession = { session: McpSession; error?: undefined } | { session?: undefined; error: RunError }

/** Start this run's own server (or remote session), within timeout_seconds. Never throws. */
async function openForRun(settings: EngineSettings, deps: EngineDeps): Promise<OpenedSession> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new Error(`the server did not start within timeout_seconds (${settings.timeoutSeconds}s)`)), settings.timeoutSeconds * 1000)
  try {
    return { session: await deps.sessions.open(controller.signal) }
  } catch (error) {
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

async function runInSlot(spec: RunSpec, opened: OpenedSession, settings: EngineSettings, deps: EngineDeps): Promise<AgentPhase> {
  if (!opened.session) {
    const transcript = emptyTranscript(spec)
    transcript.error = opened.error
    return { transcript, session: null, duration_s: 0, judgeable: false }
  }
  const { session } = opened
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new Error(`the run exceeded timeout_seconds (${settings.timeoutSeconds}s)`)), settings.timeoutSeconds * 1000)
  // eval-action's clock starts after the session is up and stops after it is closed.
  const agentStarted = performance.now()
  try {
    const transcript = await runAgent(
      { model: spec.model, system_prompt: spec.system_prompt, prompt: spec.case.prompt, max_steps: settings.maxSteps, attempt: spec.attempt },
      session,
      deps.llm,
      controller.signal
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
      judgeable: transcript.stop_reason === 'final_answer'
    }
  } finally {
    clearTimeout(timer)
    await session.close()
  }
}

async function judgeRun(judge: Judge, spec: RunSpec, finalOutput: string): Promise<JudgeVerdict | JudgeError> {
  try {
    return await judge.judge({ rubric: spec.case.rubric, threshold: spec.case.threshold, input: spec.case.prompt, actualOutput: finalOutput, attempt: spec.attempt })
  } catch (error) {
    return error instanceof JudgeError ? error : new JudgeError((error as Error).message, emptyUsage())
  }
}

function buildRunResult(spec: RunSpec, phase: AgentPhase, verdict: JudgeVerdict | JudgeError | undefined, golden: GoldenAssertions | null, maxSteps: number): RunResult {
  const { transcript } = phase
  const toolAssertions = checkRequiredTools(spec.case.required_tools, transcript.tool_calls)
  const judged = verdict && !(verdict instanceof JudgeError) ? verdict : undefined
  const judgeError = verdict instanceof JudgeError ? verdict : undefined
  const error = transcript.error ?? (judgeError ? { stage: 'judge' as const, message: judgeError.message } : null)
  const rubricPassed = judged?.success ?? false
  const success = rubricPassed && toolAssertions.passed && (golden?.passed ?? true)
  const schemas = new Map((phase.session?.tools ?? []).map((t) => [t.name, t.inputSchema]))
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
    actual_output: actualOutput(transcript, maxSteps),
    metrics: [
      {
        name: GEVAL_METRIC_NAME,
        score: judged ? judged.score : null,
        reason: judged ? judged.reason : notJudgedReason(transcript, judgeError, maxSteps),
        success: rubricPassed
      }
    ],
    tool_calls: transcript.tool_calls.map((c) => {
      const check = validateArgs(schemas.get(c.name), c.args)
      return {
        name: c.name,
        args: c.args,
        result: c.result,
        is_error: c.is_error,
        latency_ms: c.latency_ms,
        schema_valid: check ? check.valid : null,
        ...(check?.errors ? { schema_errors: check.errors } : {})
      }
    }),
    tool_assertions: toolAssertions,
    conversation: toConversation(transcript),
    duration_s: phase.duration_s,
    total_duration_s: 0,
    index: spec.index,
    attempt: spec.attempt,
    attempts: spec.case.runs,
    kind: spec.case.kind,
    tags: spec.case.tags,
    system_prompt: spec.system_prompt,
    status: error ? 'error' : success ? 'passed' : 'failed',
    threshold: spec.case.threshold,
    final_output: transcript.final_output,
    stop_reason: transcript.stop_reason,
    error,
    llm_calls: transcript.llm_calls,
    usage,
    judge: judgeDetails(spec, judged, judgeError),
    golden_assertions: golden,
    server: {
      era: phase.session?.era ?? null,
      protocol_version: phase.session?.protocolVersion ?? null,
      connect_ms: phase.session?.timings.connect_ms ?? null,
      list_ms: phase.session?.timings.list_ms ?? null,
      tools: phase.session?.tools.length ?? null
    }
  }
}

function judgeDetails(spec: RunSpec, verdict: JudgeVerdict | undefined, error: JudgeError | undefined): JudgeDetails | null {
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
      error: null
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
      error: error.message
    }
  }
  return null
}

/** eval-action's `actual_output`: the final answer, or its wording for what went wrong. */
function actualOutput(transcript: Transcript, maxSteps: number): string {
  if (transcript.error) return `[Agent error: ${transcript.error.message}]`
  if (transcript.stop_reason === 'max_steps') return `Model call limits exceeded: run limit (${maxSteps}/${maxSteps})`
  return transcript.final_output || 'No output generated'
}

function notJudgedReason(transcript: Transcript, judgeError: JudgeError | undefined, maxSteps: number): string {
  if (judgeError) return `Judge error: ${judgeError.message}`
  if (transcript.error) return `Not judged: the run failed (${transcript.error.stage}).`
  if (transcript.stop_reason === 'max_steps') return `Not judged: the model used all ${maxSteps} LLM calls without a final answer.`
  return 'Not judged.'
}

/** eval-action's conversation: no system message, no call ids, tool output cut at 2000 chars. */
function toConversation(transcript: Transcript): ConversationEntry[] {
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
      const content = message.content.length > TOOL_OUTPUT_LIMIT ? `${message.content.slice(0, TOOL_OUTPUT_LIMIT)}\n... (truncated)` : message.content
      entries.push({ role: 'tool', content, ...(record ? { tool_name: record.name } : {}) })
    }
  }
  return entries
}

function emptyTranscript(spec: RunSpec): Transcript {
  return {
    messages: [
      { role: 'system', content: spec.system_prompt },
      { role: 'user', content: spec.case.prompt }
    ],
    tool_calls: [],
    llm_calls: [],
    final_output: null,
    stop_reason: 'error',
    error: null
  }
}

export function resultsConfig(suite: Suite, server: ServerConfig, settings: Omit<EngineSettings, 'today'>): ResultsConfig {
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
    pass_floors: suite.pass_floors
  }
}

function round1(n: number): number {
  return Math.round(n * 10) / 10
}
