import type { BoundText } from '../agent/bound.js'
import type { ToolCallRecord } from '../agent/run-agent.js'
import type { Json } from '../config/types.js'
import type { McpSession, OpenOptions, RawToolCall } from '../mcp/session.js'
import type { RunSpec } from '../plan/expand.js'
import type { RunResult, ToolCallResult } from '../results/types.js'
import type { RunTrace } from '../telemetry/tracing.js'

/**
 * A run layer: one object that wraps a run's session (same McpSession in and out) and records
 * what it did in the run's record. Observed conformance, faults, attacks and tracing are each
 * one (src/execute/run-layers.ts lists them in order); the run lifecycle composes them in one
 * place (src/execute/compose-layers.ts). A new layer is one more object in that list, plus its
 * fields in the results schema.
 */
export interface RunLayer {
  /** Says which layer it is (tests, messages). */
  name: string
  /** This layer's part of one run: its state from the run's spec and transport, before the server starts. */
  prepare(spec: RunSpec, context: LayerContext): LayerRun
}

/** What a layer is given to prepare one run. */
export interface LayerContext {
  transport: 'stdio' | 'http'
  /** The run's trace; absent when the run is not traced (or was skipped before its trace started). */
  trace: RunTrace | undefined
}

/** One layer's part of one run. Every hook is optional but `record`. */
export interface LayerRun {
  /** What it adds to the session's OpenOptions (an HTTP fetch wrapper, the trace context). */
  open?: OpenOptions
  /** The system prompt as sent, from the prompt the layers before it made (an attack adds a confidential marker). */
  systemPrompt?(prompt: string): string
  /**
   * The session the layers outside this one see. `inner.observe` checks a real answer this
   * wrapper got beneath the session it was given (callToolRaw) and showed the model in place of
   * that session's own callTool, so the layers inside it see it too.
   */
  wrap?(session: McpSession, inner: InnerLayers): McpSession
  /** Takes such a real answer from a layer outside this one (observed conformance checks it). */
  observe?(call: RawToolCall): void
  /** How this layer's calls are kept in the record, from their annotations; nothing for calls it did not touch. */
  shapeCall?(call: ToolCallRecord): CallShaping
  /** Its fields in the run's record (in the order the document keeps them), and whether the run passed its part. */
  record(run: FinishedRun): LayerVerdict
}

/** What the layers inside a wrapper offer it. */
export interface InnerLayers {
  observe(call: RawToolCall): void
}

/** How one call is kept in the record, when a layer changed it. */
export interface CallShaping {
  /** The result as the record keeps it, instead of the usual bound. */
  kept?: BoundText
  /** The result text is the layer's, not the server's: `tool_error_patterns` do not read it. */
  ownText?: boolean
}

export interface LayerVerdict {
  fields: Partial<RunResult>
  passed: boolean
}

/** What a finished run did, as its layers' records see it. */
export interface FinishedRun {
  tool_calls: ToolCallResult[]
  final_output: string | null
  stop_reason: string
  /** The agent's own LLM calls (steps). */
  llm_calls: number
  /** It ran to its end: no error, no cancel, a session. */
  finished: boolean
  /** It was cancelled or skipped. */
  cancelled: boolean
  /** Secrets out of a text. */
  redact: (text: string) => string
}

/** What the oracles judge: the run with secrets out of the arguments and the answer. */
export type OracleRun = Omit<FinishedRun, 'redact'>

/**
 * Secrets out first: evidence quotes a window of an argument or the answer, and a secret cut
 * at the window's edge could no longer be found whole by the redaction of the document.
 */
export function secretsOut(run: FinishedRun): OracleRun {
  const { redact, ...rest } = run
  return {
    ...rest,
    tool_calls: run.tool_calls.map((c) => ({ ...c, args: redactStrings(c.args, redact) })),
    final_output: run.final_output === null ? null : redact(run.final_output)
  }
}

/** Every string in a JSON value, redacted. */
function redactStrings<T extends Json>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T
  if (Array.isArray(value)) return value.map((v) => redactStrings(v, redact)) as T
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v, redact)])) as T
  return value
}
