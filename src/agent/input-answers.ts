import { ProtocolErrorCode } from '@modelcontextprotocol/client'
import { DEFAULT_MAX_INPUT_ROUNDS, INPUT_KINDS, type ElicitationRule, type InputKind, type InputSpec } from '../config/types.js'
import type { ChatClient, ChatMessage } from '../llm/chat.js'
import { contentText, inputKindOf, NOT_DECLARED_REFUSED } from '../mcp/input-rounds.js'
import type { ClientInputs, InputAnswer } from '../mcp/session.js'
import type { InputRound, InputsVerdict, LlmCallResult } from '../results/types.js'
import { compileMatcherPattern } from '../scoring/tool-assertions.js'
import type { MatcherPattern } from '../util/matcher-pattern.js'
import { compileSchema } from '../util/json-schema.js'
import { isObject } from '../util/objects.js'

/**
 * How a run answers what the server asks (issue 13): the capabilities its client declares, the
 * answers (scripted elicitation rules, sampling by the model under test or a fixed text, the
 * roots), and the verdict on what was asked against expect_input_requests. The answering is pure
 * where it can be (functions of the rules and the request's params); only sampling `agent` calls
 * out, to the run's chat client.
 */

/** What one run needs: the client side for the session, and the verdict once the run is over. */
export interface RunInputs {
  client: ClientInputs
  /**
   * The run's InputsVerdict over its calls' rounds (every call, in order) and `outside`, what the
   * server asked outside any call (McpSession.sessionRounds); null when the case sets no input
   * key and server_config no roots.
   */
  verdict(calls: { name?: string; input_rounds?: InputRound[] }[], outside?: InputRound[]): InputsVerdict | null
}

/** What sampling `agent` needs: the run's chat client and model, and where its LLM calls are recorded. */
export interface InputDeps {
  llm: ChatClient
  model: string
  attempt: number
  onSamplingCall(call: LlmCallResult): void
}

/** The phrase an elicitation no rule matched is recorded with (InputExchange.answered_by). */
export const NO_RULE_MATCHED = 'no rule matched: declined'

/**
 * The run's inputs: `spec` is the case's (null when it sets no input key), `serverRoots` the
 * server_config's roots (the case's roots win). The client declares exactly what can be answered.
 */
export function prepareInputs(spec: InputSpec | null, serverRoots: string[] | null, deps: InputDeps): RunInputs {
  const roots = spec?.roots ?? serverRoots
  const rootsSource = spec?.roots ? "the case's roots" : "the server_config's roots"
  const elicitation = spec?.elicitation ?? null
  const sampling = spec?.sampling ?? null
  const declared = INPUT_KINDS.filter((kind) => (kind === 'elicitation' ? elicitation !== null : kind === 'sampling' ? sampling !== null : roots !== null))
  const maxRounds = spec?.max_input_rounds ?? DEFAULT_MAX_INPUT_ROUNDS
  const elicit = elicitationAnswerer(elicitation ?? [])
  // Roots from server_config alone: the verdict is still the run's, with nothing expected.
  const verdictSpec: InputSpec | null = spec ?? (roots ? { elicitation: null, sampling: null, roots, expect_input_requests: [], max_input_rounds: maxRounds } : null)

  const answerOne = async (method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<InputAnswer> => {
    const kind = inputKindOf(method)
    if (kind === null || !declared.includes(kind)) return refused(method)
    if (kind === 'elicitation') return elicit(params)
    if (kind === 'roots') return answerRoots(roots ?? [], rootsSource)
    if (sampling === 'agent') return answerByModel(params, deps, signal)
    return answerWithText(sampling ? sampling.text : '')
  }

  return {
    client: {
      capabilities: Object.fromEntries(declared.map((kind) => [kind, {}])),
      maxRounds,
      async answer(method, params, signal) {
        try {
          return await answerOne(method, params, signal)
        } catch (error) {
          // Never throws: a bug of ours answers an internal error rather than breaking the call.
          const message = error instanceof Error ? error.message : String(error)
          return { error: { code: ProtocolErrorCode.InternalError, message }, answered_by: 'the client (failed)', problem: `answering ${method} failed: ${message}` }
        }
      }
    },
    verdict: (calls, outside = []) => (verdictSpec ? inputsVerdict(verdictSpec, declared, calls, outside) : null)
  }
}

// ---- elicitation -------------------------------------------------------------------------------

/**
 * The answer to one elicitation: the first rule whose `match` (a case-insensitive regular
 * expression, Python spellings such as `(?i)` and `(?P<name>…)` allowed, as the config loader
 * checks them) is found in the request's message; none → decline. An accept's content is checked
 * against the request's requestedSchema first: content that fails it, or a schema that cannot be
 * checked, is not sent: the answer is `cancel` and the problem says why.
 */
export function answerElicitation(rules: readonly ElicitationRule[], params: Record<string, unknown>): InputAnswer {
  return elicitationAnswerer(rules)(params)
}

/** answerElicitation over these rules, each pattern compiled once. */
function elicitationAnswerer(rules: readonly ElicitationRule[]): (params: Record<string, unknown>) => InputAnswer {
  const patterns = rules.map((rule) => matcherOf(rule.match))
  return (params) => {
    const message = typeof params.message === 'string' ? params.message : ''
    const index = patterns.findIndex((pattern) => pattern?.test(message) === true)
    if (index === -1) return { result: { action: 'decline' }, answered_by: NO_RULE_MATCHED, problem: null }
    const rule = rules[index]
    const named = `rule ${index + 1} (match '${rule.match}')`
    if (rule.action !== 'accept') return { result: { action: rule.action }, answered_by: `${named}: ${rule.action}`, problem: null }
    const content = rule.content ?? {}
    const notSent = (problem: string): InputAnswer => ({ result: { action: 'cancel' }, answered_by: `${named}: accept, sent as cancel`, problem })
    const unchecked = uncheckableSchema(params.requestedSchema)
    if (unchecked) return notSent(`the requested schema could not be checked: ${unchecked}; the content of ${named} was not sent`)
    const mismatch = schemaMismatch(params.requestedSchema, content)
    if (mismatch) return notSent(`the content of ${named} does not match the requested schema: ${mismatch}`)
    return { result: { action: 'accept', content }, answered_by: `${named}: accept`, problem: null }
  }
}

/** The rule's pattern as the config loader reads it; null when it does not compile (the loader refuses one, so it only slips through in tests): it matches nothing. */
function matcherOf(pattern: string): MatcherPattern | null {
  try {
    return compileMatcherPattern(pattern)
  } catch {
    return null
  }
}

/** Why a requested schema cannot be used to check content (it does not compile, or names a dialect we do not support); null when it can, or there is none. */
export function uncheckableSchema(schema: unknown): string | null {
  if (!isObject(schema)) return null
  const compiled = compileSchema(schema)
  return 'problem' in compiled ? compiled.problem : null
}

/** Why `content` fails the requested schema, in a phrase; null when it passes (or there is no usable schema to hold it to: see uncheckableSchema). */
export function schemaMismatch(schema: unknown, content: Record<string, unknown>): string | null {
  if (!isObject(schema)) return null
  const compiled = compileSchema(schema)
  if (!('validate' in compiled)) return null
  let valid: boolean
  try {
    valid = compiled.validate(content) as boolean
  } catch {
    return null
  }
  if (valid) return null
  const errors = compiled.validate.errors ?? []
  if (!errors.length) return 'it is invalid'
  return errors
    .slice(0, 3)
    .map((e) => `${e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'the content'} ${e.message ?? 'is invalid'}`)
    .join(', ')
}

// ---- sampling ----------------------------------------------------------------------------------

/** The chat messages for a sampling request: its systemPrompt as a system message, its messages as user/assistant text. */
export function samplingMessages(params: Record<string, unknown>): ChatMessage[] {
  const messages: ChatMessage[] = []
  if (typeof params.systemPrompt === 'string' && params.systemPrompt !== '') messages.push({ role: 'system', content: params.systemPrompt })
  for (const message of Array.isArray(params.messages) ? params.messages : []) {
    if (!isObject(message)) continue
    const content = contentText(message.content)
    messages.push(message.role === 'assistant' ? { role: 'assistant', content } : { role: 'user', content })
  }
  return messages
}

/** A sampling result holding `text`. */
export function samplingResult(text: string, model: string): Record<string, unknown> {
  return { role: 'assistant', content: { type: 'text', text }, model, stopReason: 'endTurn' }
}

/** Sampling `{ text }`: the case's text, every time. */
export function answerWithText(text: string): InputAnswer {
  return { result: samplingResult(text, 'scripted'), answered_by: "the case's text", problem: null }
}

/** Sampling `agent`: the model under test answers (the run's chat client, temperature 0); the call is one of the run's LLM calls. */
async function answerByModel(params: Record<string, unknown>, deps: InputDeps, signal: AbortSignal): Promise<InputAnswer> {
  const answered_by = `the model under test (${deps.model})`
  try {
    const response = await deps.llm.complete({ model: deps.model, messages: samplingMessages(params), temperature: 0, attempt: deps.attempt }, signal)
    deps.onSamplingCall({
      latency_ms: response.latency_ms,
      finish_reason: response.finish_reason,
      usage: response.usage,
      ...(response.cached ? { cached: true } : {}),
      purpose: 'sampling'
    })
    return { result: samplingResult(response.content ?? '', deps.model), answered_by, problem: null }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    // Cancelled (the call ended, timed out, or the run was cancelled): not a problem of the case.
    const problem = signal.aborted ? null : `sampling by the model under test failed: ${message}`
    return { error: { code: ProtocolErrorCode.InternalError, message }, answered_by, problem }
  }
}

// ---- roots and refusals ------------------------------------------------------------------------

/** The roots answer: each URI with its last path segment as its name. */
export function answerRoots(uris: readonly string[], answered_by = "the case's roots"): InputAnswer {
  return { result: { roots: uris.map((uri) => ({ uri, ...nameOf(uri) })) }, answered_by, problem: null }
}

function nameOf(uri: string): { name?: string } {
  try {
    const segment = new URL(uri).pathname.split('/').filter(Boolean).at(-1)
    return segment ? { name: decodeURIComponent(segment) } : {}
  } catch {
    return {}
  }
}

/** A request for a capability this client did not declare: refused, as a method this client does not serve. */
export function refused(method: string): InputAnswer {
  return { error: { code: ProtocolErrorCode.MethodNotFound, message: `${method} is not available: this client did not declare it` }, answered_by: NOT_DECLARED_REFUSED, problem: null }
}

// ---- the verdict -------------------------------------------------------------------------------

/** What the server asked over the run against what the case expected (see InputsVerdict). */
export function inputsVerdict(spec: InputSpec, declared: InputKind[], calls: { name?: string; input_rounds?: InputRound[] }[], outside: InputRound[] = []): InputsVerdict {
  const asked: InputKind[] = []
  const reasons: string[] = []
  const reason = (text: string) => void (reasons.includes(text) || reasons.push(text))
  let rounds = 0
  let unmatched = 0
  const outsideCalls = { name: 'outside any call', input_rounds: outside }
  for (const call of [outsideCalls, ...calls]) {
    const callRounds = call.input_rounds ?? []
    rounds += callRounds.length
    for (const round of callRounds) {
      for (const exchange of round.exchanges) {
        const kind = inputKindOf(exchange.method)
        if (kind && !asked.includes(kind)) asked.push(kind)
        if (exchange.answered_by === NO_RULE_MATCHED) unmatched++
        if (exchange.problem) reason(call.name ? `${call.name}: ${exchange.problem}` : exchange.problem)
      }
    }
    // max_input_rounds is per call: what the server asked outside any call is no call's rounds.
    if (call !== outsideCalls && callRounds.length > spec.max_input_rounds) {
      reason(`${call.name ?? 'a call'}: the server asked for input ${callRounds.length} times, more than max_input_rounds (${spec.max_input_rounds})`)
    }
  }
  for (const kind of spec.expect_input_requests) if (!asked.includes(kind)) reason(`expected the server to ask for ${kind}, but it never did`)
  return { declared, expected: [...spec.expect_input_requests], asked, rounds, unmatched, passed: reasons.length === 0, reasons, outside_calls: outside }
}
