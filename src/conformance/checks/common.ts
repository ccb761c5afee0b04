import type { CheckResult, CheckSeverity } from '../types.js'
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

/** A failing check: `fail` when it is an error, `warn` when it only warns. */
export function failed(check: CheckSpec, message: string, exchange?: Exchange): CheckResult {
  return { ...check, status: check.severity === 'error' ? 'fail' : 'warn', message, ...(exchange ? { evidence: evidenceOf(exchange) } : {}) }
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

export const resultOf = (exchange: Exchange | undefined): Record<string, unknown> | undefined => exchange?.response.frame?.result

export { isObject } from '../../util/objects.js'
