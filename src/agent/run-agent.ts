import type { Json } from '../config/types.js'
import type { ChatClient, ChatContentPart, ChatMessage } from '../llm/chat.js'
import type { CallAnnotations, InputRound, LlmCallResult, MediaRecord } from '../results/types.js'
import type { RunError, RunErrorStage } from '../results/primitives.js'
import type { GoldenCheck } from '../results/scoring.js'
import { ServerError, type CallOutcome, type McpSession } from '../mcp/session.js'
import { CancelledError } from '../execute/cancellation.js'
import { boundForModel } from './bound.js'
import { exposeServer, type ExposedTarget } from './exposure.js'
import { imagesMessage, markSentImages, mediaRecordOf, type SentImage } from './media.js'
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../util/read-limits.js'

/** One tool call the model requested, with what came back. `name` is what required_tools matches. */
export interface ToolCallRecord {
  name: string
  args: Record<string, Json>
  /** The result's full text, as the model was shown it before any cut (a sent image's placeholder says so). */
  result: string
  /** How many characters of `result` the model saw before the max_tool_result_chars marker; `result.length` when it saw all. */
  shown_chars: number
  is_error: boolean
  latency_ms: number
  /** The result's image and audio blocks, in order, and whether each was sent to the model as an image; absent when it had none. */
  media?: MediaRecord[]
  /** What the run layers noted on this call (a fault, an attack, its span), as the session's wrappers set it. */
  annotations?: CallAnnotations
  /** What the server asked the client during this call (unredacted; the record redacts it). */
  input_rounds?: InputRound[]
  /** The raw tools/call result as the server sent it (CallOutcome.result), for the evals/v1 turn checks; the record keeps its structuredContent only. */
  raw_result?: Record<string, unknown>
  /** The JSON-RPC error the server answered with instead of a result. */
  protocol_error?: { code: number; message: string; data?: unknown }
}

/** How a tool call the agent never sent to the server starts its result (the oracles skip such calls). */
export const NOT_SENT = { invalidArguments: 'Error: the arguments are not a JSON object', unknownTool: 'Error: there is no tool named' } as const

/** Whether a recorded call reached the server (or a Layer 2 fault in its place), rather than being refused by the agent loop. */
export function reachedServer(call: { is_error: boolean; result: string }): boolean {
  return !(call.is_error && (call.result.startsWith(NOT_SENT.invalidArguments) || call.result.startsWith(NOT_SENT.unknownTool)))
}

export type { RunError } from '../results/primitives.js'

export interface Transcript {
  /** Every message, system prompt included, as sent to and received from the model. */
  messages: ChatMessage[]
  tool_calls: ToolCallRecord[]
  /** Every LLM call of the model under test: agent steps, and its answers to a server's sampling requests (`purpose: 'sampling'`). */
  llm_calls: LlmCallResult[]
  /** The last turn's final answer, or null when it gave none. */
  final_output: string | null
  /** How the last turn ended. */
  stop_reason: StopReason
  error: RunError | null
  /** Set when the evaluation was cancelled mid-run: the signal, and what the run was waiting for. */
  cancelled: { reason: CancelledError; waiting_for: string } | null
  /** Each user turn's boundaries, in order: one for a single-turn case, one per user message of a conversation. */
  turns: TurnRecord[]
}

/** Where one user turn sits in its transcript, and how it ended. */
export interface TurnRecord {
  user: string
  /** Written by the simulated user. */
  simulated: boolean
  /** Index into `messages` of this turn's user message. */
  first_message: number
  /** This turn's tool calls are `tool_calls[first_call .. first_call + calls)`. */
  first_call: number
  calls: number
  /** Agent steps of this turn (sampling calls are not steps); max_steps bounds them. */
  llm_calls: number
  final_output: string | null
  stop_reason: Exclude<StopReason, 'skipped'>
  /** A scripted evals/v1 turn's expectations, checked once it reached its final answer, with the session live (golden checks `tools`, `result`, `widget`); absent otherwise. */
  evals_v1?: GoldenCheck[]
}

/** `skipped`: the run never started (the spend had reached max_cost_usd). */
export type StopReason = 'final_answer' | 'max_steps' | 'error' | 'cancelled' | 'skipped'

export interface AgentTask {
  model: string
  system_prompt: string
  prompt: string
  max_steps: number
  /** The repeat this run is, 1-based. */
  attempt: number
  /** How many characters of a tool result (resource, prompt) the model is shown before a marker; 0: all. */
  max_tool_result_chars: number
  /** Whether the model is sent the image blocks of tool results as images (src/agent/vision.ts decides). */
  vision: boolean
  /** Tools not offered to this model (evals/v1 `disallowedTools`): a call to one is answered as a tool that does not exist. Absent: none. */
  disallowed_tools?: readonly string[]
  /** Keep each call's raw result and JSON-RPC error on its record (`raw_result`, `protocol_error`), for the evals/v1 turn checks; absent: not kept (an eval_cases run holds no copy of every answer). */
  keep_raw_results?: boolean
}

/** What every turn of one run shares: the model under test, its step limit per turn, the repeat, what it is shown of tool results. */
export type TurnTask = Pick<AgentTask, 'model' | 'max_steps' | 'attempt' | 'max_tool_result_chars' | 'vision' | 'disallowed_tools' | 'keep_raw_results'>

/** A user message of content parts: the images a step's tool results returned, not a user turn. */
export function isMediaMessage(message: ChatMessage): message is { role: 'user'; content: ChatContentPart[] } {
  return message.role === 'user' && Array.isArray(message.content)
}

/**
 * The tool-calling loop: ask the model, run every tool call it requests in order, feed the
 * results back, until it answers without tools or `max_steps` LLM calls are spent. Never
 * throws: a failure ends the loop and is recorded in the transcript with what was done so far.
 */
export async function runAgent(task: AgentTask, session: McpSession, llm: ChatClient, signal: AbortSignal): Promise<Transcript> {
  const transcript = startTranscript(task.system_prompt)
  await runTurn(transcript, { user: task.prompt, simulated: false }, task, session, llm, signal)
  return transcript
}

/** The agent's own steps among a run's LLM calls: its answers to a server's sampling requests left out. */
export function agentSteps<T extends Pick<LlmCallResult, 'purpose'>>(calls: readonly T[]): T[] {
  return calls.filter((call) => call.purpose !== 'sampling')
}

/** A transcript holding only the system prompt, before the first user message. */
export function startTranscript(systemPrompt: string): Transcript {
  return {
    messages: [{ role: 'system', content: systemPrompt }],
    tool_calls: [],
    llm_calls: [],
    final_output: null,
    stop_reason: 'max_steps',
    error: null,
    cancelled: null,
    turns: []
  }
}

/**
 * One user turn on a running transcript: the user message is appended, then the tool-calling
 * loop runs to a final answer or `max_steps` agent steps (counted for this turn only). The
 * transcript's final_output, stop_reason, error and cancelled then say how this turn ended.
 * Never throws.
 */
export async function runTurn(
  transcript: Transcript,
  user: { user: string; simulated: boolean },
  task: TurnTask,
  session: McpSession,
  llm: ChatClient,
  signal: AbortSignal
): Promise<TurnRecord> {
  const turn: TurnRecord = {
    ...user,
    first_message: transcript.messages.push({ role: 'user', content: user.user }) - 1,
    first_call: transcript.tool_calls.length,
    calls: 0,
    llm_calls: 0,
    final_output: null,
    stop_reason: 'max_steps'
  }
  transcript.turns.push(turn)
  const end = (stop: TurnRecord['stop_reason'], finalOutput: string | null = null): TurnRecord => {
    turn.calls = transcript.tool_calls.length - turn.first_call
    turn.stop_reason = transcript.stop_reason = stop
    turn.final_output = transcript.final_output = finalOutput
    return turn
  }
  let stage: RunErrorStage = 'llm'
  // What the run waits for right now, for the record of a cancelled run.
  let waitingFor = `the model (${task.model})`
  try {
    for (let step = 0; step < task.max_steps; step++) {
      stage = 'llm'
      waitingFor = `the model (${task.model})`
      // Listed again before every call, as a host that follows list_changed would: a tool whose
      // description changes mid-run (a rug pull) is seen changed.
      const { functions, targets } = exposeServer(session, task.disallowed_tools)
      const response = await llm.complete({ model: task.model, messages: transcript.messages, tools: functions, temperature: 0, attempt: task.attempt }, signal)
      turn.llm_calls++
      transcript.llm_calls.push({ latency_ms: response.latency_ms, finish_reason: response.finish_reason, usage: response.usage, ...(response.cached ? { cached: true } : {}) })
      transcript.messages.push({
        role: 'assistant',
        content: response.content,
        ...(response.tool_calls.length > 0 ? { tool_calls: response.tool_calls } : {})
      })
      if (response.tool_calls.length === 0) return end('final_answer', response.content ?? '')
      stage = 'server'
      // The step's images follow all of its tool messages (each tool message must follow the
      // assistant message directly): even when a call fails, those already recorded as sent are.
      const images: SentImage[] = []
      try {
        for (const call of response.tool_calls) {
          waitingFor = `the tool '${targets.get(call.function.name)?.name ?? call.function.name}'`
          const record = await executeCall(call.function.name, call.function.arguments, targets.get(call.function.name), session, signal, transcript, task, images)
          const shown = boundForModel(record.result, task.max_tool_result_chars)
          record.shown_chars = shown.shown
          transcript.messages.push({ role: 'tool', tool_call_id: call.id, content: shown.text })
        }
      } finally {
        const message = imagesMessage(images)
        if (message) transcript.messages.push(message)
      }
    }
    return end('max_steps')
  } catch (error) {
    if (signal.reason instanceof CancelledError) {
      transcript.cancelled = { reason: signal.reason, waiting_for: waitingFor }
      return end('cancelled')
    }
    transcript.error = signal.aborted
      ? { stage: 'timeout', message: abortReason(signal) }
      : {
          stage: error instanceof ServerError ? 'server' : stage,
          message: error instanceof Error ? error.message : String(error),
          ...(error instanceof ServerError && error.stderrTail ? { stderr_tail: error.stderrTail } : {})
        }
    return end('error')
  }
}

/**
 * One tool call, recorded as it starts (so a call that throws is on the transcript). The images
 * of its result the model is sent are added to `images`.
 */
async function executeCall(
  functionName: string,
  rawArguments: string,
  target: ExposedTarget | undefined,
  session: McpSession,
  signal: AbortSignal,
  transcript: Transcript,
  task: TurnTask,
  images: SentImage[]
): Promise<ToolCallRecord> {
  const record: ToolCallRecord = { name: target?.name ?? functionName, args: {}, result: '', shown_chars: 0, is_error: true, latency_ms: 0 }
  transcript.tool_calls.push(record)
  const parsed = parseArguments(rawArguments)
  if (!parsed.ok) {
    record.result = `${NOT_SENT.invalidArguments} (${parsed.error}). Call the tool again with valid JSON arguments.`
    return record
  }
  record.args = parsed.args
  if (!target) {
    record.result = `${NOT_SENT.unknownTool} '${functionName}'.`
    return record
  }
  // A layer's work on the session after the last call (an app's render) is not this call's latency.
  await session.idle?.()
  const started = performance.now()
  let outcome: CallOutcome
  try {
    outcome = await invoke(target, parsed.args, session, signal)
  } catch (error) {
    record.latency_ms = Math.round(performance.now() - started)
    record.result = `Error: ${error instanceof Error ? error.message : String(error)}`
    record.shown_chars = record.result.length
    throw error
  }
  record.latency_ms = Math.round(performance.now() - started)
  // Images already sent in this run count toward its image budget (every later request carries them again).
  let sentBytes = transcript.tool_calls.reduce((sum, call) => sum + (call.media ?? []).reduce((k, m) => k + (m.sent ? m.bytes : 0), 0), 0)
  const media = (outcome.media ?? []).map((block) => {
    const record = mediaRecordOf(block, task, sentBytes)
    if (record.sent) sentBytes += record.bytes
    return { media: block, record }
  })
  record.result = markSentImages(outcome.text, media.map((m) => ({ media: m.media, sent: m.record.sent })))
  record.is_error = outcome.isError
  if (media.length) record.media = media.map((m) => m.record)
  for (const m of media) if (m.record.sent) images.push({ tool: record.name, media: m.media })
  if (task.keep_raw_results && outcome.result) record.raw_result = outcome.result
  if (task.keep_raw_results && outcome.protocol_error) record.protocol_error = outcome.protocol_error
  if (outcome.annotations) record.annotations = outcome.annotations
  if (outcome.input_rounds?.length) record.input_rounds = outcome.input_rounds
  return record
}

function invoke(target: ExposedTarget, args: Record<string, Json>, session: McpSession, signal: AbortSignal): Promise<CallOutcome> {
  switch (target.kind) {
    case 'tool':
      return session.callTool(target.name, args, signal)
    case 'resource':
      return session.readResource(target.uri, signal)
    case 'prompt':
      return session.getPrompt(target.name, Object.fromEntries(Object.entries(args).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])), signal)
  }
}

function parseArguments(raw: string): { ok: true; args: Record<string, Json> } | { ok: false; error: string } {
  if (raw.trim() === '') return { ok: true, args: {} }
  // Nothing nested deeper than a server may send enters a record (the walkers that redact, cut and write recurse).
  if (nestedDeeperThan(raw)) return { ok: false, error: `nested deeper than ${MAX_JSON_DEPTH} levels` }
  try {
    const value = JSON.parse(raw) as Json
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: 'not an object' }
    return { ok: true, args: value }
  } catch (error) {
    return { ok: false, error: (error as Error).message }
  }
}

/** Why a signal was aborted, in words (a time limit's message). */
export function abortReason(signal: AbortSignal): string {
  const reason = signal.reason as unknown
  return reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'the run was aborted'
}
