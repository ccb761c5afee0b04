import type { Json } from '../config/types.js'
import type { McpSession } from '../mcp/session.js'
import { resourceContents } from '../mcp/resource-contents.js'
import type { EvalsV1Call, TurnCheckSession } from '../scoring/evals-v1-turn.js'
import { reachedServer, type Transcript } from './run-agent.js'

/**
 * What the evals/v1 turn checks (src/scoring/evals-v1-turn.ts) read of a running conversation:
 * its calls so far, each with its turn and raw answer, and the live session (outputSchemas as
 * listed, resource reads for nested `resource` assertions).
 */

/** Every call of the transcript so far, in order, each with its turn (0-based) and what came back. */
export function evalsV1Calls(transcript: Pick<Transcript, 'tool_calls' | 'turns'>): EvalsV1Call[] {
  const turnOf = (index: number) => transcript.turns.findIndex((t) => index >= t.first_call && index < t.first_call + t.calls)
  return transcript.tool_calls.map((call, index) => ({
    name: call.name,
    args: call.args,
    turn: turnOf(index),
    ...(call.raw_result ? { raw: call.raw_result } : {}),
    ...(call.protocol_error ? { protocol_error: call.protocol_error } : {}),
    ...(reachedServer(call) ? {} : { not_sent: call.result }),
    ...(call.annotations?.app_render ? { app_render: call.annotations.app_render } : {})
  }))
}

/** The live session as the checks use it: a read that fails throws with the server's text, as in a check (resourceContents). */
export function turnCheckSession(session: Pick<McpSession, 'tools' | 'readResource'>, signal: AbortSignal): TurnCheckSession {
  return {
    outputSchemaOf: (tool) => session.tools.find((t) => t.name === tool)?.outputSchema as Json | undefined,
    readResource: (uri) => resourceContents(session, uri, signal)
  }
}
