import type { ProbeData } from '../probe-data.js'
import { someOf } from '../../util/words.js'
import type { CheckResult } from '../types.js'
import type { Exchange } from '../wire.js'
import { describeResponse, earlierAnswer, exchangesIn, failed, isObject, passed, resultOf, type CheckSpec } from './common.js'

/** One request, one response: what a server that answers twice breaks, and what it hides by it. */

export const ONE_RESPONSE: CheckSpec = {
  id: 'jsonrpc-one-response',
  severity: 'error',
  spec: 'JSON-RPC 2.0 §5 the server replies to a request with one Response carrying that request\u2019s id (MCP: a response MUST include the same id as the request it corresponds to)'
}

/** Over every exchange, except the DNS-rebinding ones (their 403 body may carry any id). */
export function checkOneResponse(probe: ProbeData): CheckResult {
  const late = [...exchangesIn({ ...probe, dnsRebinding: undefined }, new Set())].filter((e) => earlierAnswer(e) !== undefined)
  const repeated = probe.repeatedAnswers ?? []
  if (late.length === 0 && repeated.length === 0) return passed(ONE_RESPONSE, 'every answer carried the id of the request it answered, once')
  const shown = [
    ...repeated.map((r) => `${r.method || 'a request'} (id ${JSON.stringify(r.id)}) was answered again`),
    ...late.map((e) => `${e.method} (id ${JSON.stringify(e.request.id)}) got an answer with id ${earlierAnswer(e)}`)
  ]
  const harm = late.length > 0 ? 'so a client reads answers meant for other requests' : 'which a client may take for the answer to its next request'
  return failed(ONE_RESPONSE, `${someOf(shown, 4, '; ')}: the server answered an earlier request again (or late), ${harm}`, late[0])
}

/** The first page of the tool list and every later one. */
function toolPages(probe: ProbeData): Exchange[] {
  const pages = probe.listPages?.['tools/list'] ?? [probe.toolsList[0]]
  return pages.filter((p): p is Exchange => p !== undefined)
}

/** Whether the handshake (discover, or a legacy initialize) advertises tools. */
function advertisesTools(probe: ProbeData): boolean {
  const capabilities = resultOf(probe.era === 'legacy' ? probe.initialize : probe.discover)?.capabilities
  return isObject(capabilities) && capabilities.tools !== undefined
}

/**
 * Why the tool list could not be read, or undefined when it was read or the server plainly has
 * none (tools not advertised, and tools/list answered with an error of its own). A server can
 * force a skip of every check on its tools (the poisoning scan, the names) by making its list
 * unreadable while its sessions still list tools to the model: such a skip is a finding.
 */
export function toolListProblem(probe: ProbeData): string | undefined {
  const pages = toolPages(probe)
  const late = pages.find((p) => earlierAnswer(p) !== undefined)
  if (late) return `tools/list (id ${JSON.stringify(late.request.id)}) got the answer to request ${earlierAnswer(late)}, which the server answered twice`
  const first = pages[0]
  if (!first) return 'tools/list was not sent'
  if (Array.isArray(resultOf(first)?.tools)) return undefined
  const ownError = first.response.frame?.error !== undefined && first.response.frame.id === first.request.id
  if (ownError && !advertisesTools(probe)) return undefined
  return `tools/list got ${describeResponse(first)}${Array.isArray(resultOf(first)?.tools) || !resultOf(first) ? '' : ' without a tools array'}`
}

/** A check on the tools that could not run because the tool list could not be read: a failure, whatever its severity. */
export function unreadableToolList(check: CheckSpec, problem: string): CheckResult {
  return failed({ ...check, severity: 'error' }, `the tool list could not be read (${problem}): the tools a model is shown were not checked`)
}
