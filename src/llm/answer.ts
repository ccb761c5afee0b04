import type { TokenUsage } from '../results/primitives.js'
import { isObject } from '../util/objects.js'
import { ellipsize } from '../util/text.js'

/**
 * A provider's answer that is not a chat completion in any shape the OpenAI wire format allows
 * (a `content` that is a number or an object, a tool call without a name): the request's error,
 * so the run that asked records it and the others go on.
 */
export class UnreadableAnswerError extends Error {
  constructor(message: string) {
    super(`the model's answer is not an OpenAI chat completion: ${message}`)
    this.name = 'UnreadableAnswerError'
  }
}

/** A function call the model asked for. */
export interface ChatToolCall {
  id: string
  type: 'function'
  function: { name: string; arguments: string }
}

/** One token's logprob and its alternatives. */
export interface TokenLogprob {
  token: string
  logprob: number
  top_logprobs: { token: string; logprob: number }[]
}

/** What a completion says, read field by field: a ChatResponse (chat.ts) but for its timing and cache flag. */
export interface ReadAnswer {
  content: string | null
  tool_calls: ChatToolCall[]
  finish_reason: string | null
  usage: TokenUsage | null
  /** Per-token logprobs of the content, when the provider returned them. */
  logprobs: TokenLogprob[] | null
}

/**
 * A chat completion as the provider sent it, read into the shape the agent and the judge use.
 * `message.content` may be a string, null (absent), or a list of content parts: the `text` parts
 * are joined, a `refusal` part's text is kept, and other parts (an image, audio) are left out
 * with a note in the text that says so. A refusal without content (`message.refusal`) is the
 * answer. Tool calls of another type than `function` are left out; a function call's arguments
 * sent as an object are kept as their JSON. Anything else that cannot be read is an
 * UnreadableAnswerError naming the field and what it held; optional fields that are malformed
 * (finish_reason, usage, logprobs) read as absent.
 */
export function readCompletion(completion: unknown): ReadAnswer {
  if (!isObject(completion)) throw new UnreadableAnswerError(`the body is ${describe(completion)}, where a JSON object belongs`)
  const choices = completion.choices
  if (choices !== undefined && choices !== null && !Array.isArray(choices)) throw new UnreadableAnswerError(`choices is ${describe(choices)}, where a list belongs`)
  const choice: unknown = choices?.[0]
  if (choice === undefined || choice === null) throw new Error(`the model returned no choices${providerError(completion)}`)
  if (!isObject(choice)) throw new UnreadableAnswerError(`choices[0] is ${describe(choice)}, where an object belongs`)
  const message = choice.message
  if (!isObject(message)) throw new UnreadableAnswerError(`choices[0].message is ${describe(message)}, where an object belongs`)
  return {
    content: contentOf(message),
    tool_calls: toolCallsOf(message.tool_calls),
    finish_reason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    usage: usageOf(completion.usage),
    logprobs: logprobsOf(choice.logprobs)
  }
}

/** The message's text: a string as it is, content parts joined, a refusal when there is nothing else. */
function contentOf(message: Record<string, unknown>): string | null {
  const { content } = message
  const refusal = typeof message.refusal === 'string' && message.refusal !== '' ? message.refusal : null
  if (typeof content === 'string') return content
  if (content === null || content === undefined) return refusal
  if (!Array.isArray(content)) throw new UnreadableAnswerError(`choices[0].message.content is ${describe(content)}, where a string, null or a list of content parts belongs`)
  const texts: string[] = []
  const leftOut = new Map<string, number>()
  content.forEach((part, i) => {
    const where = `choices[0].message.content[${i}]`
    if (typeof part === 'string') return void texts.push(part)
    if (!isObject(part) || typeof part.type !== 'string') throw new UnreadableAnswerError(`${where} is ${describe(part)}, where a content part ({"type": "text", "text": …}) belongs`)
    if (part.type === 'text' || part.type === 'output_text') {
      if (typeof part.text !== 'string') throw new UnreadableAnswerError(`${where}.text is ${describe(part.text)}, where a string belongs`)
      texts.push(part.text)
    } else if (part.type === 'refusal') {
      if (typeof part.refusal !== 'string') throw new UnreadableAnswerError(`${where}.refusal is ${describe(part.refusal)}, where a string belongs`)
      texts.push(part.refusal)
    } else leftOut.set(part.type, (leftOut.get(part.type) ?? 0) + 1)
  })
  if (texts.length === 0 && refusal !== null) texts.push(refusal)
  const notes = [...leftOut].map(([type, n]) => `[${n} content part${n === 1 ? '' : 's'} of type '${ellipsize(type, 40)}' left out: only text is read]`)
  if (texts.length === 0 && notes.length === 0) return null
  return [texts.join(''), notes.join(' ')].filter((t) => t !== '').join('\n\n')
}

function toolCallsOf(value: unknown): ChatToolCall[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw new UnreadableAnswerError(`choices[0].message.tool_calls is ${describe(value)}, where a list belongs`)
  return value.flatMap((call, i): ChatToolCall[] => {
    const where = `choices[0].message.tool_calls[${i}]`
    if (!isObject(call)) throw new UnreadableAnswerError(`${where} is ${describe(call)}, where an object belongs`)
    // Some OpenAI-compatible servers leave out `type`: a call with a function is a function call.
    if (call.type !== undefined && call.type !== 'function') return []
    const fn = call.function
    if (!isObject(fn)) throw new UnreadableAnswerError(`${where}.function is ${describe(fn)}, where an object belongs`)
    if (typeof fn.name !== 'string') throw new UnreadableAnswerError(`${where}.function.name is ${describe(fn.name)}, where a string belongs`)
    const args = fn.arguments === undefined || fn.arguments === null ? '' : typeof fn.arguments === 'string' ? fn.arguments : isObject(fn.arguments) ? JSON.stringify(fn.arguments) : undefined
    if (args === undefined) throw new UnreadableAnswerError(`${where}.function.arguments is ${describe(fn.arguments)}, where a JSON string belongs`)
    // The id is sent back with the tool's result; a server that gave none gets one made up.
    const id = typeof call.id === 'string' && call.id !== '' ? call.id : `call_${i + 1}`
    return [{ id, type: 'function', function: { name: fn.name, arguments: args } }]
  })
}

function usageOf(value: unknown): TokenUsage | null {
  if (!isObject(value)) return null
  const count = (key: string) => (typeof value[key] === 'number' && Number.isFinite(value[key]) ? value[key] : 0)
  const cost = value.cost
  return {
    prompt_tokens: count('prompt_tokens'),
    completion_tokens: count('completion_tokens'),
    total_tokens: count('total_tokens'),
    ...(typeof cost === 'number' && Number.isFinite(cost) ? { cost_usd: cost } : {})
  }
}

/** Per-token logprobs; null when absent or not in the format (the judge then scores the integer). */
function logprobsOf(value: unknown): TokenLogprob[] | null {
  if (!isObject(value) || !Array.isArray(value.content)) return null
  const tokens: TokenLogprob[] = []
  for (const t of value.content) {
    if (!isObject(t) || typeof t.token !== 'string' || typeof t.logprob !== 'number') return null
    const top = Array.isArray(t.top_logprobs) ? t.top_logprobs : []
    if (!top.every((a) => isObject(a) && typeof a.token === 'string' && typeof a.logprob === 'number')) return null
    tokens.push({ token: t.token, logprob: t.logprob, top_logprobs: (top as { token: string; logprob: number }[]).map((a) => ({ token: a.token, logprob: a.logprob })) })
  }
  return tokens
}

/**
 * Why a recorded answer (the response cache's) is not one a ChatResponse can be: the first field
 * of the wrong shape, or null when it is whole.
 */
export function storedAnswerProblem(value: unknown): string | null {
  if (!isObject(value)) return `it is ${describe(value)}, not a recorded answer`
  if (!('content' in value) || (value.content !== null && typeof value.content !== 'string')) return `content is ${describe(value.content)}, where a string or null belongs`
  if (!Array.isArray(value.tool_calls)) return `tool_calls is ${describe(value.tool_calls)}, where a list belongs`
  for (const [i, call] of value.tool_calls.entries()) {
    const fn = isObject(call) ? call.function : undefined
    if (!isObject(call) || typeof call.id !== 'string' || call.type !== 'function' || !isObject(fn) || typeof fn.name !== 'string' || typeof fn.arguments !== 'string') {
      return `tool_calls[${i}] is not a function call ({"id", "type": "function", "function": {"name", "arguments"}})`
    }
  }
  if (value.finish_reason !== undefined && value.finish_reason !== null && typeof value.finish_reason !== 'string') return `finish_reason is ${describe(value.finish_reason)}`
  if (value.usage !== undefined && value.usage !== null) {
    if (!isObject(value.usage)) return `usage is ${describe(value.usage)}`
    for (const key of ['prompt_tokens', 'completion_tokens', 'total_tokens']) if (typeof value.usage[key] !== 'number') return `usage.${key} is ${describe(value.usage[key])}, where a number belongs`
    if (value.usage.cost_usd !== undefined && typeof value.usage.cost_usd !== 'number') return `usage.cost_usd is ${describe(value.usage.cost_usd)}, where a number belongs`
  }
  if (value.logprobs !== undefined && value.logprobs !== null && logprobsOf({ content: value.logprobs }) === null) return 'logprobs is not a list of token logprobs'
  return null
}

/** OpenRouter reports some upstream failures as a 200 with an `error` member. */
function providerError(completion: Record<string, unknown>): string {
  const error = completion.error
  return isObject(error) && typeof error.message === 'string' && error.message ? `: ${ellipsize(error.message, 500)}` : ''
}

/** What a value is, for a message: "a number (5)", "an object ({"a":1})", "missing". */
function describe(value: unknown): string {
  if (value === undefined) return 'missing'
  if (value === null) return 'null'
  const json = ellipsize(JSON.stringify(value) ?? String(value), 80)
  if (Array.isArray(value)) return `a list (${json})`
  if (typeof value === 'object') return `an object (${json})`
  if (typeof value === 'string') return `a string (${json})`
  return `a ${typeof value} (${json})`
}
