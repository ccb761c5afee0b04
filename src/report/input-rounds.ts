import type { InputExchange, InputRound, InputsVerdict, RunResult, ToolCallResult } from '../results/types.js'
import { isObject } from '../util/objects.js'
import { ellipsize } from '../util/text.js'
import { count } from '../util/words.js'
import { codeSpan, escapeMarkdown } from './escape.js'

/** How much of a request's message, or of a sampled answer, a round line quotes. */
const SUMMARY_CHARS = 160
const ANSWER_CHARS = 120

/** Server text on one Markdown line: whitespace folded, cut, every syntax character escaped. */
const inline = (text: string, max: number) => escapeMarkdown(ellipsize(text.replace(/\s+/g, ' ').trim(), max))

/**
 * What we answered, after who answered it: the accepted form's fields, the sampled text, the
 * roots listed, or our JSON-RPC error.
 */
function answerDetail(exchange: InputExchange): string {
  if (exchange.error) return ` (error ${exchange.error.code}: ${inline(exchange.error.message, ANSWER_CHARS)})`
  const response = exchange.response
  if (!isObject(response)) return ''
  if (response.action === 'accept' && isObject(response.content)) return ` {${Object.keys(response.content).map((k) => inline(k, 40)).join(', ')}}`
  if (isObject(response.content) && typeof response.content.text === 'string') return `: “${inline(response.content.text, ANSWER_CHARS)}”`
  if (Array.isArray(response.roots)) {
    const uris = response.roots.map((r) => (isObject(r) && typeof r.uri === 'string' ? r.uri : '?'))
    return uris.length === 0 ? ': none' : `: ${uris.map((u) => codeSpan(ellipsize(u, 80))).join(', ')}`
  }
  return ''
}

/** "`elicitation/create` “Please give your delivery address” → rule 1 (match 'address'): accept {street, city}", and a problem, marked. */
function exchangeText(exchange: InputExchange, id: string): string {
  // A roots/list asks nothing in words: its summary is ours, not the server's to quote.
  const asked = exchange.summary && exchange.method !== 'roots/list' ? ` “${inline(exchange.summary, SUMMARY_CHARS)}”` : ''
  const problem = exchange.problem ? ` — ⚠ ${inline(exchange.problem, 300)}` : ''
  return `${codeSpan(exchange.method)}${id}${asked} → ${inline(exchange.answered_by, 200)}${answerDetail(exchange)}${problem}`
}

/** "→ retry id 8, requestState echoed ✅": how the call went on after an input_required round. */
function retryText(round: InputRound): string {
  if (round.retry_id === null) return ' → no retry (the rounds ran out, or the call failed)'
  const id = ` → retry id ${inline(String(round.retry_id), 40)}`
  if (round.request_state !== null) return `${id}, requestState ${round.request_state_echoed ? 'echoed ✅' : 'not echoed byte for byte ❌'}`
  return round.request_state_echoed === false ? `${id}, with a requestState the server never sent ❌` : id
}

/**
 * One round as Markdown list lines at `indent`: "round 1: input_required (id 7) → … → retry id 8,
 * requestState echoed ✅", or "round 1: server request `elicitation/create` (id 0) → …"; a round of
 * several requests lists each below its line.
 */
export function roundLines(round: InputRound, indent = ''): string[] {
  const one = round.exchanges.length === 1
  if (round.via === 'server_request') {
    const ids = (e: InputExchange) => ` (id ${inline(e.key, 40)})`
    if (one) return [`${indent}- round ${round.round}: server request ${exchangeText(round.exchanges[0], ids(round.exchanges[0]))}`]
    return [`${indent}- round ${round.round}: ${count(round.exchanges.length, 'server request')}`, ...round.exchanges.map((e) => `${indent}  - ${exchangeText(e, ids(e))}`)]
  }
  const head = `${indent}- round ${round.round}: input_required (id ${round.request_id === null ? '?' : inline(String(round.request_id), 40)})`
  if (one) return [`${head} → ${exchangeText(round.exchanges[0], '')}${retryText(round)}`]
  const what = round.exchanges.length === 0 ? ', no inputRequests' : `, ${count(round.exchanges.length, 'request')}`
  return [`${head}${what}${retryText(round)}`, ...round.exchanges.map((e) => `${indent}  - ${codeSpan(e.key)}: ${exchangeText(e, '')}`)]
}

/** A call and its rounds, as a list item and its nested items: "`place_order` (call 2)" and one line per round. */
function callRoundsLines(call: ToolCallResult, label: string): string[] {
  const rounds = call.input_rounds ?? []
  return [`- ${codeSpan(call.name)} (${label})`, ...rounds.flatMap((r) => roundLines(r, '  '))]
}

const kinds = (list: string[]) => (list.length === 0 ? 'nothing' : list.join(', '))

/** "**Declared:** elicitation, sampling · **expected:** elicitation · **asked:** elicitation · 2 rounds · 1 elicitation no rule matched (declined)". */
function verdictLine(verdict: InputsVerdict): string {
  const parts = [
    `**Declared:** ${kinds(verdict.declared)}`,
    ...(verdict.expected.length > 0 ? [`**expected:** ${kinds(verdict.expected)}`] : []),
    `**asked:** ${kinds(verdict.asked)}`,
    count(verdict.rounds, 'round'),
    ...(verdict.unmatched > 0 ? [`${count(verdict.unmatched, 'elicitation')} no rule matched (declined)`] : [])
  ]
  return parts.join(' · ')
}

/**
 * The run's "Server input" section: the verdict against expect_input_requests (its failures
 * named), then, unless the turns already show them under their calls, each call that took
 * rounds with its rounds. Empty when the run has no verdict (nothing declared) and the server asked nothing.
 */
export function inputsSection(run: RunResult, withCalls: boolean): string[] {
  const asked = run.tool_calls.map((call, i) => ({ call, i })).filter(({ call }) => (call.input_rounds?.length ?? 0) > 0)
  const verdict = run.inputs
  if (!verdict && asked.length === 0) return []
  const mark = verdict ? (verdict.passed ? ' ✅' : ' ❌') : ''
  const out = [`##### Server input${mark}`, '']
  if (verdict) {
    // The kinds are the three InputKind names, never server text.
    out.push(verdictLine(verdict), '')
    if (verdict.reasons.length > 0) out.push(...verdict.reasons.map((r) => `- ❌ ${inline(r, 400)}`), '')
  } else out.push('_The client declared no capability: the case sets no `elicitation`, `sampling` or `roots`, nor server_config `roots`._', '')
  // What the server asked before (or between) the calls, as server-filesystem lists the roots when it starts.
  const outside = verdict?.outside_calls ?? []
  if (outside.length > 0) out.push('Outside any call (the server asked on its own):', '', ...outside.flatMap((r) => roundLines(r, '')), '')
  // A paragraph between the reasons and the calls keeps them two lists.
  if (withCalls && asked.length > 0) out.push('Rounds, call by call:', '', ...asked.flatMap(({ call, i }) => callRoundsLines(call, `call ${i + 1}`)), '')
  return out
}
