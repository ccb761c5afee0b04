import type { CheckResult, CheckSeverity } from '../types.js'
import { isObject } from '../../util/objects.js'
import { trimEvidence } from '../../util/text.js'
import type { Exchange } from '../wire.js'

/** A check's fixed facts: its id, what its failure weighs, and the rule it enforces. */
export interface CheckSpec {
  id: string
  severity: CheckSeverity
  spec: string
}

export function passed(check: CheckSpec, message: string, exchange?: Exchange): CheckResult {
  return { ...check, status: 'pass', message, ...(exchange ? { evidence: evidenceOf(exchange) } : {}) }
}

/**
 * A failing check: `fail` when it is an error, `warn` when it only warns. Its `methods` are the
 * exchange's (an expected-failures entry `check-id:method` matches on them), or `methods` when
 * the finding spans several exchanges.
 */
export function failed(check: CheckSpec, message: string, exchange?: Exchange, methods?: string[]): CheckResult {
  const shown = methods ?? (exchange?.method ? [exchange.method] : [])
  return {
    ...check,
    status: check.severity === 'error' ? 'fail' : 'warn',
    message,
    ...(exchange ? { evidence: evidenceOf(exchange) } : {}),
    ...(shown.length ? { methods: [...new Set(shown)] } : {})
  }
}

export function skipped(check: CheckSpec, message: string): CheckResult {
  return { ...check, status: 'skip', message }
}

function evidenceOf(exchange: Exchange): { request: string; response: string } {
  const { response } = exchange
  const parts: string[] = []
  if (response.status !== undefined) parts.push(`HTTP ${response.status}`)
  if (response.headers?.['mcp-session-id']) parts.push(`Mcp-Session-Id: ${response.headers['mcp-session-id']}`)
  if (response.frame) parts.push(trimEvidence(response.frame))
  else if (response.body) parts.push(trimEvidence(response.body))
  if (response.timedOut) parts.push('(no answer before the timeout)')
  if (response.failure) parts.push(`(${response.failure})`)
  return { request: trimEvidence(exchange.request), response: parts.join(' ') || '(nothing)' }
}

/** "error -32601 (Method not found)", "a result", "no answer" — for messages. */
export function describeResponse(exchange: Exchange): string {
  const { response } = exchange
  // "HTTP 200 with a result", not "HTTP 200 a result".
  const http = response.status !== undefined ? `HTTP ${response.status} with ` : ''
  if (response.frame?.error) return `${http}error ${response.frame.error.code} (${response.frame.error.message})`
  if (response.frame?.result) return `${http}a result${response.frame.result.isError === true ? ' (isError: true)' : ''}`
  if (response.timedOut) return 'no answer before the timeout'
  if (response.failure) return response.failure
  return `${http}no JSON-RPC response`
}

export const errorCode = (exchange: Exchange | undefined): number | undefined => exchange?.response.frame?.error?.code

/**
 * The id of an earlier request, when this exchange's answer carries one (ids are sent in order,
 * from 1, on each connection): the server answered that request again, or late, and this
 * request's own answer was never read.
 */
export function earlierAnswer(exchange: Exchange | undefined): number | undefined {
  const sent = exchange?.request.id
  const got = exchange?.response.frame?.id
  return typeof sent === 'number' && typeof got === 'number' && Number.isInteger(got) && got >= 1 && got < sent ? got : undefined
}

/** Every exchange anywhere in `value` (the probe data is a tree of them), each once. */
export function exchangesIn(value: unknown, found: Set<Exchange>): Set<Exchange> {
  if (Array.isArray(value)) for (const item of value) exchangesIn(item, found)
  else if (isObject(value)) {
    if (typeof value.method === 'string' && isObject(value.request) && isObject(value.response)) found.add(value as unknown as Exchange)
    else for (const child of Object.values(value)) exchangesIn(child, found)
  }
  return found
}

export const resultOf = (exchange: Exchange | undefined): Record<string, unknown> | undefined => exchange?.response.frame?.result

export { isObject } from '../../util/objects.js'
