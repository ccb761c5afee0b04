import type { InputKind, Json } from '../config/types.js'
import type { InputExchange, InputRound } from '../results/types.js'
import { isObject, sortKeys } from '../util/objects.js'
import { ellipsize } from '../util/text.js'
import type { InputAnswer } from './types.js'
import type { TappedCall, TappedServerRequest, WindowFrames } from './frames.js'

/**
 * What a server asked the client during one call, read from the frames as they went over the
 * wire (src/mcp/wire-tap.ts): MRTR `input_required` rounds and legacy server→client requests
 * alike, as the InputRounds a run records. Pure: no I/O, never throws on what a server sent.
 */

/** The method of each input request, and the client capability it needs. */
export const INPUT_REQUEST_KINDS: Readonly<Record<string, InputKind>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots'
}

/** answered_by of a request for a capability the client did not declare (refused, -32601). */
export const NOT_DECLARED_REFUSED = 'not declared: refused'
/** answered_by of a legacy server request past max_input_rounds (refused, -32603). */
export const MAX_ROUNDS_REFUSED = 'max_input_rounds reached: refused'
/** answered_by of a url-mode elicitation: the client declares form mode only, and the SDK refuses it (-32602). */
export const URL_MODE_REFUSED = 'url mode not declared: refused'

/** One answer our handlers gave, in call order: what the SDK asked, and what we answered. */
export interface AnsweredInput {
  method: string
  params: Record<string, unknown>
  answer: InputAnswer
}

const SUMMARY_CHARS = 500
const VALUE_CHARS = 2000
const STATE_CHARS = 200
/** How deep and how wide a recorded params/response value goes. */
const MAX_DEPTH = 12
const MAX_ITEMS = 100
/** How much of one recorded value is kept in all: characters (strings and keys) and nodes; past it, '[…]'. */
const VALUE_BUDGET_CHARS = 20_000
const VALUE_BUDGET_NODES = 1_000
const ELIDED = '[…]'

/** The capability an input request's method needs; null for any other method. */
export function inputKindOf(method: string): InputKind | null {
  return Object.prototype.hasOwnProperty.call(INPUT_REQUEST_KINDS, method) ? INPUT_REQUEST_KINDS[method] : null
}

/**
 * The rounds of one call. MRTR: round n is the nth `input_required` answer, its exchanges the
 * `inputRequests`, the responses what the next leg (the retry) carried in `inputResponses`.
 * Legacy: the server's requests, a new round whenever one comes after we replied to every earlier
 * one (requests sent back to back, before our replies, are one round). `declared`: the
 * capabilities the client declared, to say why a request went unanswered.
 */
export function inputRoundsOf(frames: WindowFrames, answers: readonly AnsweredInput[], declared: readonly InputKind[]): InputRound[] {
  try {
    const log = new AnswerLog(answers)
    const rounds = [...mrtrRounds(frames.calls, log, declared), ...serverRequestRounds(frames.server_requests, log, declared)]
    return rounds.map((round, i) => ({ ...round, round: i + 1 }))
  } catch {
    // Only a bug of ours lands here: the call's answer matters more than its record.
    return []
  }
}

/** The result of a JSON-RPC response frame when it is an `input_required` one (MRTR), else undefined. */
export function inputRequiredResult(response: unknown): Record<string, unknown> | undefined {
  const result = isObject(response) ? response.result : undefined
  return isObject(result) && result.resultType === 'input_required' ? result : undefined
}

/**
 * The result of a response frame that asks for input without saying so: no resultType, but
 * `inputRequests` or `requestState` (§7: resultType is a MUST). The SDK client takes an absent
 * resultType as "complete" (or rejects the result, on prompts/get); the frame still asked.
 */
export function untypedInputRequired(response: unknown): Record<string, unknown> | undefined {
  const result = isObject(response) ? response.result : undefined
  return isObject(result) && result.resultType === undefined && ('inputRequests' in result || 'requestState' in result) ? result : undefined
}

function mrtrRounds(calls: readonly TappedCall[], log: AnswerLog, declared: readonly InputKind[]): InputRound[] {
  const rounds: InputRound[] = []
  calls.forEach((leg, i) => {
    // An untyped one is a round too, never answered: what the server asked stays on record, and the checks see it.
    const result = inputRequiredResult(leg.response) ?? untypedInputRequired(leg.response)
    if (!result) return
    const retry = calls[i + 1] as TappedCall | undefined
    const retryParams = retry && isObject(retry.request.params) ? retry.request.params : undefined
    const responses = retryParams && isObject(retryParams.inputResponses) ? retryParams.inputResponses : {}
    const requests = isObject(result.inputRequests) ? result.inputRequests : {}
    const asked = Object.entries(requests).map(([key, entry]) => ({
      key,
      method: isObject(entry) && typeof entry.method === 'string' ? entry.method : '(no method)',
      params: isObject(entry) && isObject(entry.params) ? entry.params : {}
    }))
    const answers = log.takeAll(asked)
    const exchanges = asked.map(({ key, method, params }, j): InputExchange => {
      const answered = answers[j]
      const response = retry && Object.prototype.hasOwnProperty.call(responses, key) ? responses[key] : undefined
      return {
        key,
        method,
        summary: summaryOf(method, params),
        params: bounded(params),
        response: response === undefined ? null : bounded(response),
        error: answered && 'error' in answered.answer ? { ...answered.answer.error } : null,
        answered_by: answered?.answer.answered_by ?? unanswered(method, params, declared),
        problem: answered?.answer.problem ?? null
      }
    })
    rounds.push({
      round: rounds.length + 1,
      via: 'input_required',
      request_id: idOf(leg.request.id),
      retry_id: retry ? idOf(retry.request.id) : null,
      request_state: typeof result.requestState === 'string' ? atMost(result.requestState, STATE_CHARS) : result.requestState === undefined ? null : atMost(jsonText(result.requestState), STATE_CHARS),
      request_state_echoed: retry ? jsonText(retryParams?.requestState) === jsonText(result.requestState) : null,
      exchanges
    })
  })
  return rounds
}

function serverRequestRounds(requests: readonly TappedServerRequest[], log: AnswerLog, declared: readonly InputKind[]): InputRound[] {
  const asked = requests.filter((r) => typeof r.request.method === 'string' && inputKindOf(r.request.method) !== null).sort((a, b) => a.seq - b.seq)
  const groups: TappedServerRequest[][] = []
  for (const request of asked) {
    const current = groups.at(-1)
    // Back to back: an earlier request of the round still waited for our reply when this one came.
    const backToBack = current?.some((earlier) => earlier.replySeq === undefined || earlier.replySeq > request.seq)
    if (current && backToBack) current.push(request)
    else groups.push([request])
  }
  return groups.map(
    (group, i): InputRound => ({
      round: i + 1,
      via: 'server_request',
      request_id: null,
      retry_id: null,
      request_state: null,
      request_state_echoed: null,
      exchanges: serverExchanges(group, log, declared)
    })
  )
}

function serverExchanges(group: readonly TappedServerRequest[], log: AnswerLog, declared: readonly InputKind[]): InputExchange[] {
  const asked = group.map((tapped) => ({ method: String(tapped.request.method), params: isObject(tapped.request.params) ? tapped.request.params : {} }))
  const answers = log.takeAll(asked)
  return group.map((tapped, i) => serverExchange(tapped, asked[i].method, asked[i].params, answers[i], declared))
}

function serverExchange(tapped: TappedServerRequest, method: string, params: Record<string, unknown>, answered: AnsweredInput | undefined, declared: readonly InputKind[]): InputExchange {
  const reply = tapped.reply
  const error = isObject(reply) && isObject(reply.error) ? reply.error : undefined
  const result = isObject(reply) && 'result' in reply ? reply.result : undefined
  return {
    key: String(tapped.request.id),
    method,
    summary: summaryOf(method, params),
    params: bounded(params),
    response: result === undefined ? null : bounded(result),
    error: error ? { code: typeof error.code === 'number' ? error.code : 0, message: atMost(String(error.message ?? ''), VALUE_CHARS) } : null,
    answered_by: answered?.answer.answered_by ?? repliedBy(method, params, declared, reply, error),
    problem: answered?.answer.problem ?? null
  }
}

/** Who answered a server request no handler of ours saw: the SDK refusing a method, or nobody. */
function repliedBy(method: string, params: Record<string, unknown>, declared: readonly InputKind[], reply: Record<string, unknown> | undefined, error: Record<string, unknown> | undefined): string {
  if (!reply) return 'not answered'
  const why = unanswered(method, params, declared)
  if (why !== 'not answered') return why
  return error ? `the client (error ${String(error.code)})` : 'the client'
}

/** Why a request got no answer of ours: the capability (or, for a url-mode elicitation, the mode) was not declared, or nothing answered it. */
function unanswered(method: string, params: Record<string, unknown>, declared: readonly InputKind[]): string {
  const kind = inputKindOf(method)
  if (kind === null) return 'not an input request: refused'
  if (!declared.includes(kind)) return NOT_DECLARED_REFUSED
  return isUrlElicitation(method, params) ? URL_MODE_REFUSED : 'not answered'
}

/** An elicitation in url mode: the client never declares it (form only). */
export function isUrlElicitation(method: string, params: unknown): boolean {
  return method === 'elicitation/create' && isObject(params) && params.mode === 'url'
}

/**
 * Our answers, each matched once: for the requests of one round, first by method and equal
 * params, then (for those left) the first unused answer of the same method.
 */
class AnswerLog {
  private readonly unused: { entry: AnsweredInput; key: string }[]
  constructor(answers: readonly AnsweredInput[]) {
    this.unused = answers.map((entry) => ({ entry, key: stableText(entry.params) }))
  }
  takeAll(asked: readonly { method: string; params: Record<string, unknown> }[]): (AnsweredInput | undefined)[] {
    const taken: (AnsweredInput | undefined)[] = asked.map(({ method, params }) => {
      const key = stableText(params)
      return this.take((u) => u.entry.method === method && u.key === key)
    })
    return taken.map((entry, i) => entry ?? this.take((u) => u.entry.method === asked[i].method))
  }
  private take(test: (u: { entry: AnsweredInput; key: string }) => boolean): AnsweredInput | undefined {
    const index = this.unused.findIndex(test)
    return index === -1 ? undefined : this.unused.splice(index, 1)[0].entry
  }
}

// ---- summaries and bounds --------------------------------------------------------------------

/** What a request asked, in a line: an elicitation's message, a sampling request's last message. */
function summaryOf(method: string, params: Record<string, unknown>): string {
  switch (method) {
    case 'elicitation/create':
      return atMost(typeof params.message === 'string' ? params.message : '(no message)', SUMMARY_CHARS)
    case 'sampling/createMessage': {
      const messages = Array.isArray(params.messages) ? params.messages : []
      const last = messages.at(-1) as unknown
      return atMost(isObject(last) ? contentText(last.content) : '(no messages)', SUMMARY_CHARS)
    }
    case 'roots/list':
      return 'list the roots'
    default:
      return atMost(method, SUMMARY_CHARS)
  }
}

/** A sampling message's content as text: text blocks as they are, anything else as a placeholder. */
export function contentText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content]
  return blocks
    .map((block) => {
      if (!isObject(block)) return '[content]'
      if (block.type === 'text' && typeof block.text === 'string') return block.text
      return `[${typeof block.type === 'string' ? block.type : 'content'}]`
    })
    .join('\n')
}

/**
 * A value as JSON the record can hold: strings cut to 2,000 characters, depth and width bounded,
 * and 20,000 characters (strings and keys) and 1,000 nodes in all; what is past the budget is '[…]'.
 */
function bounded(value: unknown): Json {
  return boundedWithin(value, 0, { chars: VALUE_BUDGET_CHARS, nodes: VALUE_BUDGET_NODES })
}

function boundedWithin(value: unknown, depth: number, budget: { chars: number; nodes: number }): Json {
  if (budget.nodes <= 0 || budget.chars <= 0) return ELIDED
  budget.nodes--
  if (typeof value === 'string') return spend(value, budget)
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value)
  if (typeof value === 'boolean' || value === null) return value
  if (depth >= MAX_DEPTH) return ELIDED
  const spent = () => budget.nodes <= 0 || budget.chars <= 0
  if (Array.isArray(value)) {
    const items: Json[] = []
    for (const item of value.slice(0, MAX_ITEMS)) {
      if (spent()) return [...items, ELIDED]
      items.push(boundedWithin(item, depth + 1, budget))
    }
    return value.length > MAX_ITEMS ? [...items, `[${value.length - MAX_ITEMS} more]`] : items
  }
  if (isObject(value)) {
    const entries = Object.entries(value)
    // Built from entries: a key such as `__proto__` is kept as a key, never set as the prototype.
    const out: [string, Json][] = []
    for (const [k, v] of entries.slice(0, MAX_ITEMS)) {
      if (spent()) return Object.fromEntries([...out, ['…', ELIDED]])
      out.push([spend(k, budget), boundedWithin(v, depth + 1, budget)])
    }
    if (entries.length > MAX_ITEMS) out.push(['…', `${entries.length - MAX_ITEMS} more keys`])
    return Object.fromEntries(out)
  }
  return String(value)
}

/** A string cut to 2,000 characters (and to what is left of the budget), its length spent. */
function spend(text: string, budget: { chars: number }): string {
  const kept = atMost(text, Math.max(2, Math.min(VALUE_CHARS, budget.chars)))
  budget.chars -= kept.length
  return kept
}

/** At most `max` characters, the ellipsis that marks a cut included (never splitting a surrogate pair). */
function atMost(text: string, max: number): string {
  return text.length > max ? ellipsize(text, max - 1) : text
}

function idOf(id: unknown): string | number | null {
  if (typeof id === 'string' || typeof id === 'number') return id
  return id === undefined || id === null ? null : String(id)
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined'
  } catch {
    return String(value)
  }
}

/** Equal values, equal text: keys sorted. */
function stableText(value: Record<string, unknown>): string {
  try {
    return JSON.stringify(sortKeys(value as Json))
  } catch {
    return ''
  }
}

// ---- redaction ---------------------------------------------------------------------------------

/** The same rounds with `redact` applied to every string a secret could be in (what was asked, answered and why). */
export function redactRounds(rounds: readonly InputRound[], redact: (text: string) => string): InputRound[] {
  const deep = (value: Json): Json => {
    if (typeof value === 'string') return redact(value)
    if (Array.isArray(value)) return value.map(deep)
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deep(v)]))
    return value
  }
  return rounds.map((round) => ({
    ...round,
    request_state: round.request_state === null ? null : redact(round.request_state),
    exchanges: round.exchanges.map((exchange) => ({
      ...exchange,
      summary: redact(exchange.summary),
      params: deep(exchange.params),
      response: exchange.response === null ? null : deep(exchange.response),
      error: exchange.error ? { code: exchange.error.code, message: redact(exchange.error.message) } : null,
      answered_by: redact(exchange.answered_by),
      problem: exchange.problem === null ? null : redact(exchange.problem)
    }))
  }))
}
