import { boundForRecord, recordBudget } from '../agent/bound.js'
import type { Json } from '../config/types.js'
import { reachedServer, type ToolCallRecord } from '../agent/run-agent.js'
import type { AgentPhase, RunView } from '../execute/agent-phase.js'
import type { CallShaping } from '../execute/run-layer.js'
import { redactRounds } from '../mcp/input-rounds.js'
import type { ToolCallResult } from '../results/types.js'
import { validateArgs } from '../scoring/args-schema.js'
import { errorPatternOf } from '../scoring/tool-errors.js'

/** A tool call as the document holds it: its arguments checked against the tool's inputSchema, and what the run layers did to it (their annotations, and how they say it is kept). */
export function toolCallResult(c: ToolCallRecord, phase: AgentPhase, redact: (text: string) => string, view: RunView | null, shaping: CallShaping): ToolCallResult {
  const check = validateArgs(phase.session?.tools.find((t) => t.name === c.name)?.inputSchema, c.args)
  const limit = view?.max_tool_result_chars ?? 0
  const kept = shaping.kept ?? boundForRecord(c.result, limit)
  const shown = c.shown_chars
  const cut = shown < c.result.length || kept.shown < c.result.length
  // A failure the server reported in plain text counts as a tool error when the user says how it reads.
  // Not on a result a layer wrote (an attack's): that text is ours, not the server's.
  const errorPattern = !c.is_error && reachedServer(c) && !shaping.ownText && view ? errorPatternOf(c.result, view.tool_error_patterns) : undefined
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
    ...(errorPattern !== undefined ? { error_pattern: errorPattern } : {}),
    ...(view?.structured_content ? structuredOf(c, limit) : {})
  }
}

/** A call's structuredContent for the record, when it has one whose JSON text fits what the record keeps of a result. */
function structuredOf(c: ToolCallRecord, limit: number): Pick<ToolCallResult, 'structured_content'> {
  const structured = c.raw_result?.structuredContent as Json | undefined
  if (structured === undefined) return {}
  return JSON.stringify(structured).length <= recordBudget(limit) ? { structured_content: structured } : {}
}
