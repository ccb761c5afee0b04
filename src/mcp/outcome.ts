import { contentToText, mediaOf } from './content.js'
import type { CallOutcome, RawToolCall } from './types.js'

/** What the model is shown for a raw answer: a JSON-RPC error as eval-action shows it, a result as its text; the call's input rounds with it. */
export function outcomeOf(call: RawToolCall): CallOutcome {
  const rounds = call.input?.rounds.length ? { input_rounds: call.input.rounds } : {}
  if (call.input?.failure) return { text: call.input.failure, isError: true, ...rounds }
  if (call.response.kind === 'error') return { text: `MCP error ${call.response.error.code}: ${call.response.error.message}`, isError: true, ...rounds }
  const { result } = call.response
  const media = mediaOf(result.content)
  return { text: contentToText(result.content, result.structuredContent), isError: result.isError === true, ...rounds, ...(media.length ? { media } : {}) }
}
