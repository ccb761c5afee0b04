import type { Json } from '../config/types.js'
import type { RawToolCall } from '../mcp/session.js'
import type { StepResponse } from '../results/types.js'
import { isObject } from '../util/objects.js'

/** How much of a text content block a step record keeps (the checks saw all of it). */
const KEPT_TEXT_CHARS = 4000

/** The raw answer in the shape the document holds. */
export function stepResponse(call: RawToolCall): StepResponse {
  if (call.response.kind === 'error') {
    const { code, message, data } = call.response.error
    return { kind: 'error', code, message, data: (data ?? null) as Json }
  }
  const { result } = call.response
  return {
    kind: 'result',
    is_error: result.isError === true,
    content: (Array.isArray(result.content) ? result.content : []) as Json[],
    structured_content: (result.structuredContent ?? null) as Json
  }
}

/** What the document keeps of an answer: long text cut, binary data replaced by its size. */
export function keptResponse(response: StepResponse): StepResponse {
  if (response.kind === 'error') return response
  if (response.kind === 'value') {
    const { value } = response
    if (!isObject(value) || !Array.isArray(value.contents)) return response
    return { kind: 'value', value: { ...value, contents: value.contents.map(keptBlock) } }
  }
  return { ...response, content: response.content.map(keptBlock) }
}

/** A content block (or a resource's contents entry) with its long text cut and its base64 replaced by its size. */
function keptBlock(block: Json): Json {
  if (block === null || typeof block !== 'object' || Array.isArray(block)) return block
  const kept: Record<string, Json> = { ...block }
  if (typeof kept.text === 'string' && kept.text.length > KEPT_TEXT_CHARS) kept.text = `${kept.text.slice(0, KEPT_TEXT_CHARS)}… (${kept.text.length} characters)`
  for (const key of ['data', 'blob']) if (typeof kept[key] === 'string') kept[key] = `(${(kept[key] as string).length} characters of base64)`
  return kept
}
