import type { Json } from '../util/json.js'
import type { McpSession } from './types.js'

/**
 * A resource's `{contents}` as the server sent them, for the evals/v1 `resource` assertions of a
 * check and of a turn alike; a refusal (a JSON-RPC error) or a failed read throws with what the
 * server said. An outcome without its raw result (a wrapper that replaced it) reads as one text
 * block of what the model would have been shown.
 */
export async function resourceContents(session: Pick<McpSession, 'readResource'>, uri: string, signal: AbortSignal): Promise<Json> {
  const outcome = await session.readResource(uri, signal)
  if (outcome.protocol_error) throw new Error(`JSON-RPC error ${outcome.protocol_error.code}: ${outcome.protocol_error.message}`)
  if (outcome.isError) throw new Error(outcome.text || `reading ${uri} failed`)
  return (outcome.result ?? { contents: [{ uri, text: outcome.text }] }) as Json
}
