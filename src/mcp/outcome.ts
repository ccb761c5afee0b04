import { contentToText, mediaOf } from './content.js'
import type { CallOutcome, RawToolCall } from './types.js'

/**
 * What the model is shown for a raw answer: a JSON-RPC error as eval-action shows it (and the
 * error itself, `protocol_error`), a result as its text (and the raw result, `result`); the call's
 * input rounds with it.
 */
export function outcomeOf(call: RawToolCall): CallOutcome {
  const rounds = call.input?.rounds.length ? { input_rounds: call.input.rounds } : {}
  if (call.input?.failure) return { text: call.input.failure, isError: true, ...rounds }
  if (call.response.kind === 'error') {
    const { code, message, data } = call.response.error
    return { text: `MCP error ${code}: ${message}`, isError: true, protocol_error: { code, message, ...(data !== undefined ? { data } : {}) }, ...rounds }
  }
  const { result } = call.response
  const media = mediaOf(result.content)
  return { text: contentToText(result.content, result.structuredContent), isError: result.isError === true, result, ...rounds, ...(media.length ? { media } : {}) }
}
