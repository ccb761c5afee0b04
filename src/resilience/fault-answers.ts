import { DEFAULT_WAIT_MS } from '../config/resilience.js'
import type { FaultKind } from '../config/types.js'
import { contentToText } from '../mcp/content.js'
import type { McpTool, RawCallResponse } from '../mcp/session.js'
import { isObject } from '../util/objects.js'

/**
 * The answers a fault puts in place of (or on top of) the server's: pure builders, one per kind
 * that needs one, so faults.ts only decides when and how often the real server is called.
 */

/** Defaults when a fault sets none (the FaultSpec's nulls). */
export const FAULT_DEFAULTS = {
  timeout_ms: DEFAULT_WAIT_MS.timeout,
  latency_ms: DEFAULT_WAIT_MS.latency,
  oversized_bytes: 1_048_576,
  http_status: 503
} as const

/** The text a failure carries when the fault's `message` is null (error, is_error, auth_expired, http_status). */
export const DEFAULT_MESSAGES: Partial<Record<FaultKind, string>> = {
  error: 'Internal error: the upstream service failed',
  is_error: 'The upstream service is unavailable.',
  auth_expired: 'Authentication failed: the access token expired.'
}

/** JSON-RPC 2.0 InternalError: what a server answers when its handler fails. */
export const INTERNAL_ERROR = -32603
/**
 * What a host reports for a request that timed out. SDK 2.x raises it locally as
 * `SdkError(REQUEST_TIMEOUT, 'Request timed out')`, with no number; SDK 1.x, which most hosts
 * still run, answered `McpError(-32001, 'Request timed out')`. The wording is the same in both.
 */
export const REQUEST_TIMEOUT = { code: -32001, message: 'Request timed out' } as const
/**
 * A failure of the transport itself (an HTTP status, a 401): not a JSON-RPC error from the
 * server, so it takes the implementation-defined server-error range (-32000 to -32099), where
 * SDK 1.x reported a closed connection (-32000).
 */
export const TRANSPORT_FAILURE = -32000

export const errorResponse = (code: number, message: string): RawCallResponse => ({ kind: 'error', error: { code, message } })

export const isErrorResult = (message: string): RawCallResponse => ({ kind: 'result', result: { content: [{ type: 'text', text: message }], isError: true } })

/** A malformed result, and which of its parts are invalid (for the record). */
export interface MalformedAnswer {
  response: RawCallResponse
  /** The truncated JSON's length, in characters. */
  textLength: number
  /** How structuredContent breaks the outputSchema, or null when the tool declares none. */
  violation: string | null
}

/**
 * A result whose content is invalid, as from a server that died mid-serialization: its text is
 * the first part of a plausible JSON object, cut inside a string; and when the tool declares an
 * outputSchema, a structuredContent that breaks it (missing its required keys, else a property
 * of the wrong type, else absent: MCP says a tool with an outputSchema MUST return one).
 */
export function malformedAnswer(tool: McpTool | undefined, args: Record<string, unknown>): MalformedAnswer {
  const properties = propertiesOf(tool?.outputSchema)
  const sample = Object.keys(properties).length > 0 ? sampleOf(properties, args) : { tool: tool?.name ?? null, arguments: args, status: 'ok' }
  const json = JSON.stringify({ ...sample, summary: 'The full result follows in the next section of this response' })
  // Inside the summary string: no parser can take it, and it reads like a real truncation.
  const text = json.slice(0, json.lastIndexOf('"summary":"') + '"summary":"'.length + 24)
  const result: Record<string, unknown> = { content: [{ type: 'text', text }] }
  let violation: string | null = null
  if (tool?.outputSchema) {
    const broken = violate(tool.outputSchema, sample)
    violation = broken.violation
    if (broken.structured !== undefined) result.structuredContent = broken.structured
  }
  return { response: { kind: 'result', result }, textLength: text.length, violation }
}

function propertiesOf(schema: Record<string, unknown> | undefined): Record<string, Record<string, unknown>> {
  const properties = schema?.properties
  if (!isObject(properties)) return {}
  return Object.fromEntries(Object.entries(properties).filter((entry): entry is [string, Record<string, unknown>] => isObject(entry[1])))
}

/** A value of each declared property's type; an argument of the same name and type when the call has one. */
function sampleOf(properties: Record<string, Record<string, unknown>>, args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => {
      const sample = sampleValue(schema.type)
      const given = args[name]
      return [name, given !== undefined && typeof given === typeof sample ? given : sample]
    })
  )
}

function sampleValue(type: unknown): unknown {
  switch (type) {
    case 'number':
    case 'integer':
      return 0
    case 'boolean':
      return true
    case 'array':
      return []
    case 'object':
      return {}
    default:
      return 'unknown'
  }
}

/** A value of a type the property does not allow. */
function wrongValue(type: unknown): unknown {
  switch (type) {
    case 'string':
      return 0
    case 'number':
    case 'integer':
    case 'boolean':
    case 'array':
    case 'object':
      return 'n/a'
    default:
      return undefined
  }
}

function violate(schema: Record<string, unknown>, sample: Record<string, unknown>): { structured: Record<string, unknown> | undefined; violation: string } {
  const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : []
  if (required.length > 0) {
    const structured = Object.fromEntries(Object.entries(sample).filter(([key]) => !required.includes(key)))
    return { structured, violation: `structuredContent missing the required ${required.join(', ')}` }
  }
  for (const [name, property] of Object.entries(propertiesOf(schema))) {
    const wrong = wrongValue(property.type)
    if (wrong !== undefined) return { structured: { ...sample, [name]: wrong }, violation: `structuredContent with ${name} of the wrong type` }
  }
  return { structured: undefined, violation: 'no structuredContent although the tool declares an outputSchema' }
}

/** An oversized result: the real one with a filler block, and the sizes (for the record). */
export interface PaddedAnswer {
  response: RawCallResponse
  /** UTF-8 bytes of the text the model is shown, before and after. */
  before: number
  after: number
}

/**
 * The real result padded with one extra text block, so the text the model is shown (every text
 * block, joined as the session joins them) reaches `bytes`. A result carried only by its
 * structuredContent keeps that text as a block of its own, or the filler would replace it.
 * A JSON-RPC error, or a result already that large, is left as it is.
 */
export function paddedAnswer(response: RawCallResponse, bytes: number): PaddedAnswer {
  if (response.kind === 'error') {
    const size = byteLength(`MCP error ${response.error.code}: ${response.error.message}`)
    return { response, before: size, after: size }
  }
  const { result } = response
  const content = Array.isArray(result.content) ? (result.content as unknown[]) : []
  const shown = contentToText(content, result.structuredContent)
  const before = byteLength(shown)
  if (before >= bytes) return { response, before, after: before }
  const kept = contentToText(content) === '' && shown !== '' ? [...content, { type: 'text', text: shown }] : content
  // The session joins text blocks with a newline: one byte between the real text and the filler.
  const filler = 'x'.repeat(Math.max(0, bytes - before - (before > 0 ? 1 : 0)))
  const padded: Record<string, unknown> = { ...result, content: [...kept, { type: 'text', text: filler }] }
  return { response: { kind: 'result', result: padded }, before, after: byteLength(contentToText(padded.content, padded.structuredContent)) }
}

const byteLength = (text: string) => new TextEncoder().encode(text).length
