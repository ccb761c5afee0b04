import { isObject } from './common.js'

/**
 * What the MRTR probe says back to a server that asks for input (§7): canned answers to its
 * input requests, sample arguments for a call no tool test covers, and how an answer is read
 * (input_required or not), whatever its resultType says.
 */

/** The capabilities the probe's calls declare, so a server may ask for any of the three. */
export const DECLARED_CAPABILITIES = { elicitation: { form: {} }, sampling: {}, roots: {} } as const

export const SAMPLE_TEXT = 'mcp-server-evals'

/**
 * Whether a result asks for input: `resultType: "input_required"`, or no resultType at all but
 * `inputRequests` or `requestState` (an InputRequiredResult that forgot its type; a client that
 * takes an absent resultType as "complete" misreads it).
 */
export function asksForInput(result: Record<string, unknown> | undefined): boolean {
  if (!result) return false
  if (result.resultType === 'input_required') return true
  return result.resultType === undefined && ('inputRequests' in result || 'requestState' in result)
}

/** The inputRequests of an input_required result, as a map of objects (anything else left out). */
export function inputRequestsOf(result: Record<string, unknown> | undefined): Record<string, Record<string, unknown>> {
  const requests = result?.inputRequests
  if (!isObject(requests)) return {}
  return Object.fromEntries(Object.entries(requests).filter((entry): entry is [string, Record<string, unknown>] => isObject(entry[1])))
}

/** A canned answer to each input request: elicitation accepted with content for its schema, a short sampled text, no roots. */
export function cannedResponses(result: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(inputRequestsOf(result)).map(([key, request]) => [key, cannedResponse(request)]))
}

export function cannedResponse(request: Record<string, unknown>): unknown {
  const params = isObject(request.params) ? request.params : {}
  switch (request.method) {
    case 'elicitation/create':
      // Form mode only is declared: a url-mode request is declined, never opened.
      if (params.mode === 'url') return { action: 'decline' }
      return { action: 'accept', content: elicitedContent(params.requestedSchema) }
    case 'sampling/createMessage':
      return { role: 'assistant', content: { type: 'text', text: `${SAMPLE_TEXT} sample answer` }, model: SAMPLE_TEXT, stopReason: 'endTurn' }
    case 'roots/list':
      return { roots: [] }
    default:
      return {}
  }
}

/** Content for a form elicitation's flat requestedSchema: every property given a value of its type. */
export function elicitedContent(schema: unknown): Record<string, unknown> {
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {}
  const content: Record<string, unknown> = {}
  for (const [name, property] of Object.entries(properties)) {
    const value = sampleValue(property, schema, 0)
    if (value !== undefined) content[name] = value
  }
  return content
}

/** Arguments for a tool's inputSchema: its required properties only, each a plain value of its type. */
export function sampleArguments(schema: unknown): Record<string, unknown> {
  const value = sampleValue(schema, schema, 0)
  return isObject(value) ? value : {}
}

const MAX_DEPTH = 6

function sampleValue(schema: unknown, root: unknown, depth: number): unknown {
  const node = resolved(root, schema)
  if (!isObject(node) || depth > MAX_DEPTH) return undefined
  if ('const' in node) return node.const
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0]
  if ('default' in node) return node.default
  const options = node.oneOf ?? node.anyOf
  if (Array.isArray(options) && options.length > 0) {
    const first = resolved(root, options[0])
    if (isObject(first) && typeof first.const !== 'undefined') return first.const
    return sampleValue(first, root, depth + 1)
  }
  const type = Array.isArray(node.type) ? node.type.find((t) => t !== 'null') : node.type
  switch (type) {
    case 'string':
      return sampleString(node)
    case 'integer':
    case 'number':
      return typeof node.minimum === 'number' ? node.minimum : typeof node.exclusiveMinimum === 'number' ? node.exclusiveMinimum + 1 : 1
    case 'boolean':
      return true
    case 'array': {
      const item = isObject(node.items) ? sampleValue(node.items, root, depth + 1) : undefined
      return typeof node.minItems === 'number' && node.minItems > 0 && item !== undefined ? [item] : []
    }
    case 'object':
    case undefined: {
      if (type === undefined && !isObject(node.properties)) return undefined
      const properties = isObject(node.properties) ? node.properties : {}
      const required = Array.isArray(node.required) ? node.required.filter((r): r is string => typeof r === 'string') : []
      const value: Record<string, unknown> = {}
      for (const name of required) {
        const sample = sampleValue(properties[name], root, depth + 1)
        value[name] = sample === undefined ? SAMPLE_TEXT : sample
      }
      return value
    }
    default:
      return undefined
  }
}

function sampleString(node: Record<string, unknown>): string {
  switch (node.format) {
    case 'email':
      return 'evals@example.com'
    case 'uri':
    case 'url':
      return 'https://example.com/'
    case 'date':
      return '2026-01-01'
    case 'date-time':
      return '2026-01-01T00:00:00Z'
    default:
      return typeof node.minLength === 'number' && node.minLength > SAMPLE_TEXT.length ? SAMPLE_TEXT.padEnd(node.minLength, 'x') : SAMPLE_TEXT
  }
}

/** A local `{"$ref": "#/…"}` resolved within its root; other schemas as they are. */
function resolved(root: unknown, schema: unknown): unknown {
  if (!isObject(schema) || typeof schema.$ref !== 'string' || !schema.$ref.startsWith('#/')) return schema
  let node: unknown = root
  for (const key of schema.$ref.slice(2).split('/')) node = isObject(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined
  return isObject(node) ? { ...node, ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$ref')) } : undefined
}

/** The same string with one character changed (in the middle, where a signature or payload covers it). */
export function tampered(state: string): string {
  if (state.length === 0) return 'x'
  const at = Math.floor(state.length / 2)
  const replacement = state[at] === 'A' ? 'B' : 'A'
  return `${state.slice(0, at)}${replacement}${state.slice(at + 1)}`
}
