import type { Json } from '../config/types.js'
import type { ChatClient, ChatMessage } from '../llm/chat.js'
import type { FaultRecord, InjectionRecord, LlmCallResult } from '../results/types.js'
import { ServerError, type CallOutcome, type McpSession } from '../mcp/session.js'
import { CancelledError } from '../execute/cancellation.js'
import { exposeServer, type ExposedTarget } from './exposure.js'

/** One tool call the model requested, with what came back. `name` is what required_tools matches. */
export interface ToolCallRecord {
  name: string
  args: Record<string, Json>
  result: string
  is_error: boolean
  latency_ms: number
  /** Layer 2: the fault injected into this call. */
  fault?: FaultRecord
  /** Layer 2: the attack this call's output (or this decoy) carried. */
  injected?: InjectionRecord
  /** Layer 3: this call's span (the parent id of the traceparent the server was sent), when the run is traced. */
  span_id?: string
}


/** How a tool call the agent never sent to the server starts its result (the oracles skip such calls). */
export const NOT_SENT = { invalidArguments: 'Error: the arguments are not a JSON object', unknownTool: 'Error: there is no tool named' } as const

/** Whether a recorded call reached the server (or a Layer 2 fault in its place), rather than being refused by the agent loop. */
export function reachedServer(call: { is_error: boolean; result: string }): boolean {
  return !(call.is_error && (call.result.startsWith(NOT_SENT.invalidArguments) || call.result.startsWith(NOT_SENT.unknownTool)))
}

export type RunErrorStage = 'server' | 'llm' | 'timeout' | 'judge'

export interface RunError {
  stage: RunErrorStage
  message: string
  stderr_tail?: string
}

export interface Transcript {
  /** Every message, system prompt included, as sent to and received from the model. */
  messages: ChatMessage[]
  tool_calls: ToolCallRecord[]
  llm_calls: LlmCallResult[]
  final_output: string | null
  stop_reason: StopReason
  error: RunError | null
  /** Set when the evaluation was cancelled mid-run: the signal, and what the run was waiting for. */
  cancelled: { reason: CancelledError; waiting_for: string } | null
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
}

/**
 * The tool-calling loop: ask the model, run every tool call it requests in order, feed the
 * results back, until it answers without tools or `max_steps` LLM calls are spent. Never
 * throws: a failure ends the loop and is recorded in the transcript with what was done so far.
 */
export async function runAgent(task: AgentTask, session: McpSession, llm: ChatClient, signal: AbortSignal): Promise<Transcript> {
  const transcript: Transcript = {
    messages: [
      { role: 'system', content: task.system_prompt },
      { role: 'user', content: task.prompt }
    ],
    tool_calls: [],
    llm_calls: [],
    final_output: null,
    stop_reason: 'max_steps',
    error: null,
    cancelled: null
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
      const { functions, targets } = exposeServer(session)
      const response = await llm.complete({ model: task.model, messages: transcript.messages, tools: functions, temperature: 0, attempt: task.attempt }, signal)
      transcript.llm_calls.push({ latency_ms: response.latency_ms, finish_reason: response.finish_reason, usage: response.usage, ...(response.cached ? { cached: true } : {}) })
      transcript.messages.push({
        role: 'assistant',
        content: response.content,
        ...(response.tool_calls.length > 0 ? { tool_calls: response.tool_calls } : {})
      })
      if (response.tool_calls.length === 0) {
        transcript.final_output = response.content ?? ''
        transcript.stop_reason = 'final_answer'
        return transcript
      }
      stage = 'server'
      for (const call of response.tool_calls) {
        waitingFor = `the tool '${targets.get(call.function.name)?.name ?? call.function.name}'`
        const record = await executeCall(call.function.name, call.function.arguments, targets.get(call.function.name), session, signal, transcript)
        transcript.messages.push({ role: 'tool', tool_call_id: call.id, content: record.result })
      }
    }
    return transcript
  } catch (error) {
    if (signal.reason instanceof CancelledError) {
      transcript.stop_reason = 'cancelled'
      transcript.cancelled = { reason: signal.reason, waiting_for: waitingFor }
      return transcript
    }
    transcript.stop_reason = 'error'
    transcript.error = signal.aborted
      ? { stage: 'timeout', message: abortReason(signal) }
      : {
          stage: error instanceof ServerError ? 'server' : stage,
          message: error instanceof Error ? error.message : String(error),
          ...(error instanceof ServerError && error.stderrTail ? { stderr_tail: error.stderrTail } : {})
        }
    return transcript
  }
}

async function executeCall(
  functionName: string,
  rawArguments: string,
  target: ExposedTarget | undefined,
  session: McpSession,
  signal: AbortSignal,
  transcript: Transcript
): Promise<ToolCallRecord> {
  const record: ToolCallRecord = { name: target?.name ?? functionName, args: {}, result: '', is_error: true, latency_ms: 0 }
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
  const started = performance.now()
  let outcome: CallOutcome
  try {
    outcome = await invoke(target, parsed.args, session, signal)
  } catch (error) {
    record.latency_ms = Math.round(performance.now() - started)
    record.result = `Error: ${error instanceof Error ? error.message : String(error)}`
    throw error
  }
  record.latency_ms = Math.round(performance.now() - started)
  record.result = outcome.text
  record.is_error = outcome.isError
  if (outcome.fault) record.fault = outcome.fault
  if (outcome.injected) record.injected = outcome.injected
  if (outcome.span_id) record.span_id = outcome.span_id
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
  try {
    const value = JSON.parse(raw) as Json
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: 'not an object' }
    return { ok: true, args: value }
  } catch (error) {
    return { ok: false, error: (error as Error).message }
  }
}

function abortReason(signal: AbortSignal): string {
  const reason = signal.reason as unknown
  return reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'the run was aborted'
}
