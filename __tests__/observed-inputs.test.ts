import { describe, expect, test } from '@jest/globals'
import {
  inputRequiredProblems,
  OBSERVED_INPUT_CHECKS,
  observeInputs,
  observeMisplacedInputRequired
} from '../src/conformance/observed-inputs.js'
import { OBSERVED_CHECKS, observedChecks } from '../src/conformance/observed.js'
import { inputRoundsOf, redactRounds, type AnsweredInput } from '../src/mcp/input-rounds.js'
import type { CallInput, InputAnswer } from '../src/mcp/session.js'
import type { TappedCall, TappedServerRequest, WindowFrames } from '../src/mcp/frames.js'

/** The rounds read from raw frames, and the observed checks on what the server asked (pure). */

let seq = 0
const ELICIT = { method: 'elicitation/create', params: { mode: 'form', message: 'Your address?', requestedSchema: { type: 'object' } } }

/** One leg of a call: our request (params), the server's result. */
function leg(id: number, params: Record<string, unknown>, result: Record<string, unknown> | undefined): TappedCall {
  return {
    id,
    request: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'order', arguments: {}, ...params } },
    sentAt: 0,
    seq: ++seq,
    ...(result ? { response: { jsonrpc: '2.0', id, result } } : {})
  }
}
const inputRequired = (extra: Record<string, unknown> = {}) => ({ resultType: 'input_required', inputRequests: { address: ELICIT }, ...extra })
const complete = { resultType: 'complete', content: [{ type: 'text', text: 'done' }] }
const accepted = { action: 'accept', content: { street: 'a' } }
const answered = (method: string, params: Record<string, unknown>, answer: Partial<InputAnswer> = {}): AnsweredInput => ({
  method,
  params,
  answer: { result: accepted, answered_by: 'rule 1', problem: null, ...answer } as InputAnswer
})
const frames = (calls: TappedCall[], server_requests: TappedServerRequest[] = []): WindowFrames => ({ calls, server_requests })

/** A server request and, when `replied`, our reply (sequence numbers in the order they happened). */
function serverRequest(id: number, method: string, params: Record<string, unknown> | undefined, reply?: Record<string, unknown>): TappedServerRequest {
  return { request: { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }, seq: ++seq, ...(reply ? { reply: { jsonrpc: '2.0', id, ...reply } } : {}) }
}
const replyNow = (request: TappedServerRequest) => ((request.replySeq = ++seq), request)

describe('inputRoundsOf: MRTR', () => {
  test('a round per input_required answer: ids, our responses from the retry, requestState and its echo', () => {
    const calls = [leg(4, {}, inputRequired({ requestState: 'abc' })), leg(5, { inputResponses: { address: accepted }, requestState: 'abc' }, complete)]
    expect(inputRoundsOf(frames(calls), [answered('elicitation/create', ELICIT.params)], ['elicitation'])).toEqual([
      {
        round: 1,
        via: 'input_required',
        request_id: 4,
        retry_id: 5,
        request_state: 'abc',
        request_state_echoed: true,
        exchanges: [{ key: 'address', method: 'elicitation/create', summary: 'Your address?', params: ELICIT.params, response: accepted, error: null, answered_by: 'rule 1', problem: null }]
      }
    ])
  })

  test('the echo: altered, dropped or invented state is not echoed; no state and none sent back is', () => {
    const echoed = (server: Record<string, unknown>, retry: Record<string, unknown>) =>
      inputRoundsOf(frames([leg(1, {}, inputRequired(server)), leg(2, { inputResponses: {}, ...retry }, complete)]), [], ['elicitation'])[0].request_state_echoed
    expect(echoed({ requestState: 'abc' }, { requestState: 'abd' })).toBe(false)
    expect(echoed({ requestState: 'abc' }, {})).toBe(false)
    expect(echoed({}, { requestState: 'abc' })).toBe(false)
    expect(echoed({}, {})).toBe(true)
  })

  test('no retry (the rounds ran out, the call failed): retry_id, echo and responses are null; why the request went unanswered', () => {
    const calls = [leg(1, {}, { resultType: 'input_required', inputRequests: { s: { method: 'sampling/createMessage', params: { messages: [] } }, r: { method: 'roots/list' }, x: { method: 'tasks/get' } } })]
    const [round] = inputRoundsOf(frames(calls), [], ['roots'])
    expect(round).toMatchObject({ retry_id: null, request_state: null, request_state_echoed: null })
    expect(round.exchanges.map((e) => [e.key, e.summary, e.response, e.answered_by])).toEqual([
      ['s', '(no messages)', null, 'not declared: refused'],
      ['r', 'list the roots', null, 'not answered'],
      ['x', 'tasks/get', null, 'not an input request: refused']
    ])
  })

  test('answers are matched by method and equal params (key order aside), each once, else the first unused of the method', () => {
    const other = { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object' } }
    const calls = [
      leg(1, {}, { resultType: 'input_required', inputRequests: { a: ELICIT, b: { method: 'elicitation/create', params: other } } }),
      leg(2, { inputResponses: { a: accepted, b: { action: 'decline' } } }, complete)
    ]
    const log = [
      answered('elicitation/create', { requestedSchema: { type: 'object' }, message: 'Your name?', mode: 'form' }, { result: { action: 'decline' }, answered_by: 'no rule matched: declined' }),
      answered('elicitation/create', { message: 'something the SDK rewrote' }, { answered_by: 'rule 1' })
    ]
    expect(inputRoundsOf(frames(calls), log, ['elicitation'])[0].exchanges.map((e) => [e.key, e.answered_by])).toEqual([
      ['a', 'rule 1'],
      ['b', 'no rule matched: declined']
    ])
  })

  test('a failed answer: its error and problem are recorded', () => {
    const sampling = { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Sum up' } }] } }
    const calls = [leg(1, {}, { resultType: 'input_required', inputRequests: { s: sampling } })]
    const log = [{ method: sampling.method, params: sampling.params, answer: { error: { code: -32603, message: 'down' }, answered_by: 'the model under test (m)', problem: 'sampling failed: down' } }]
    expect(inputRoundsOf(frames(calls), log, ['sampling'])[0].exchanges[0]).toMatchObject({ summary: 'Sum up', response: null, error: { code: -32603, message: 'down' }, problem: 'sampling failed: down' })
  })

  test('sizes are bounded: strings in params and responses cut at 2,000, the summary at 500, requestState at 200', () => {
    const long = 'x'.repeat(5000)
    const calls = [leg(1, {}, inputRequired({ requestState: long, inputRequests: { a: { method: 'elicitation/create', params: { message: long, extra: [long] } } } })), leg(2, { inputResponses: { a: { action: 'accept', content: { v: long } } }, requestState: long }, complete)]
    const [round] = inputRoundsOf(frames(calls), [], ['elicitation'])
    const [exchange] = round.exchanges
    expect(round.request_state).toHaveLength(200)
    expect(round.request_state_echoed).toBe(true)
    expect(exchange.summary).toHaveLength(500)
    expect((exchange.params as { message: string }).message).toHaveLength(2000)
    expect((exchange.params as { extra: string[] }).extra[0]).toHaveLength(2000)
    expect((exchange.response as { content: { v: string } }).content.v).toHaveLength(2000)
  })

  test('a huge params object is bounded in all: 20,000 characters and 1,000 nodes, then […]', () => {
    const wide = Object.fromEntries(Array.from({ length: 90 }, (_, i) => [`k${i}`, 'y'.repeat(1999)]))
    const grid = Array.from({ length: 100 }, () => Array.from({ length: 100 }, (_, j) => j))
    const params = { message: 'Your address?', wide, grid }
    const calls = [leg(1, {}, { resultType: 'input_required', inputRequests: { a: { method: 'elicitation/create', params } } })]
    const kept = inputRoundsOf(frames(calls), [], ['elicitation'])[0].exchanges[0].params as { message: string; wide: Record<string, string>; grid?: unknown }
    expect(kept.message).toBe('Your address?')
    // Keys and strings share the 20,000: nine strings of 1,999 characters fit whole, the tenth is cut, the rest is past the budget.
    const strings = Object.values(kept.wide).filter((v) => v !== '[…]')
    expect(strings.map((v) => v.length)).toEqual([...Array(9).fill(1999), expect.any(Number)])
    expect(strings[9]).toMatch(/y…$/)
    expect([...Object.keys(kept.wide).filter((k) => k !== '…'), ...strings, 'message', 'wide', kept.message].join('').length).toBeLessThanOrEqual(20_000)
    expect(kept.wide['…']).toBe('[…]')
    expect(kept).not.toHaveProperty('grid')
    expect((kept as Record<string, unknown>)['…']).toBe('[…]')
    expect(JSON.stringify(kept).length).toBeLessThan(21_000)

    // Nodes: 1,000 in all, however short the values.
    const [numbers] = inputRoundsOf(frames([leg(2, {}, { resultType: 'input_required', inputRequests: { a: { method: 'roots/list', params: { grid } } } })]), [], ['roots'])[0].exchanges
    const rows = (numbers.params as { grid: unknown[][] }).grid
    const leaves = rows.flat().filter((v) => typeof v === 'number').length
    expect(leaves).toBeGreaterThan(900)
    expect(leaves + rows.length).toBeLessThanOrEqual(1000)
    expect(rows.at(-1)).toBe('[…]')
  })

  test('a key named __proto__ is kept as a key', () => {
    const params = JSON.parse('{"message":"m","__proto__":{"polluted":true}}') as Record<string, unknown>
    const [exchange] = inputRoundsOf(frames([leg(1, {}, { resultType: 'input_required', inputRequests: { a: { method: 'elicitation/create', params } } })]), [], ['elicitation'])[0].exchanges
    expect(Object.prototype.hasOwnProperty.call(exchange.params, '__proto__')).toBe(true)
    expect((exchange.params as { polluted?: unknown }).polluted).toBeUndefined()
  })
})

describe('inputRoundsOf: legacy server requests', () => {
  test('requests sent back to back are one round; one sent after we replied starts the next; only input methods count', () => {
    const a = serverRequest(0, 'elicitation/create', ELICIT.params, { result: accepted })
    const b = serverRequest(1, 'roots/list', undefined, { result: { roots: [] } })
    replyNow(a)
    replyNow(b)
    const ping = replyNow(serverRequest(2, 'ping', undefined, { result: {} }))
    const c = replyNow(serverRequest(3, 'sampling/createMessage', { messages: [] }, { error: { code: -32601, message: 'Method not found' } }))
    const rounds = inputRoundsOf(frames([], [a, b, ping, c]), [answered('elicitation/create', ELICIT.params), answered('roots/list', {}, { result: { roots: [] }, answered_by: "the case's roots" })], ['elicitation', 'roots'])
    expect(rounds.map((r) => [r.round, r.via, r.request_id, r.retry_id, r.exchanges.map((e) => e.key)])).toEqual([
      [1, 'server_request', null, null, ['0', '1']],
      [2, 'server_request', null, null, ['3']]
    ])
    expect(rounds[0].exchanges.map((e) => [e.method, e.params, e.response, e.answered_by])).toEqual([
      ['elicitation/create', ELICIT.params, accepted, 'rule 1'],
      ['roots/list', {}, { roots: [] }, "the case's roots"]
    ])
    // The SDK refused a capability we did not declare: no handler of ours saw it.
    expect(rounds[1].exchanges[0]).toMatchObject({ response: null, error: { code: -32601, message: 'Method not found' }, answered_by: 'not declared: refused' })
  })

  test('a request we never replied to', () => {
    const [round] = inputRoundsOf(frames([], [serverRequest(7, 'roots/list', undefined)]), [], ['roots'])
    expect(round.exchanges[0]).toMatchObject({ key: '7', response: null, error: null, answered_by: 'not answered' })
  })
})

describe('redactRounds', () => {
  test('every string a secret could be in, redacted; the rest as it was', () => {
    const secret = 'sk-SECRET'
    const calls = [
      leg(1, {}, inputRequired({ requestState: `s-${secret}`, inputRequests: { a: { method: 'elicitation/create', params: { message: `key ${secret}`, nested: [{ v: secret }] } } } })),
      leg(2, { inputResponses: { a: { action: 'accept', content: { token: secret } } }, requestState: `s-${secret}` }, complete)
    ]
    const rounds = inputRoundsOf(frames(calls), [answered('elicitation/create', {}, { answered_by: `rule 1 (match '${secret}')`, problem: `bad ${secret}` })], ['elicitation'])
    const redacted = redactRounds(rounds, (t) => t.split(secret).join('***'))
    expect(JSON.stringify(redacted)).not.toContain(secret)
    expect(redacted[0]).toMatchObject({ request_id: 1, retry_id: 2, request_state: 's-***', request_state_echoed: true })
    expect(redacted[0].exchanges[0]).toMatchObject({ key: 'a', summary: 'key ***', params: { message: 'key ***', nested: [{ v: '***' }] }, response: { content: { token: '***' } }, answered_by: "rule 1 (match '***')", problem: 'bad ***' })
    // The input is left alone.
    expect(JSON.stringify(rounds)).toContain(secret)
  })
})

describe('inputRequiredProblems', () => {
  test('a well-formed answer has none', () => {
    expect(inputRequiredProblems(inputRequired())).toEqual([])
    expect(inputRequiredProblems({ resultType: 'input_required', requestState: 'only state' })).toEqual([])
    expect(inputRequiredProblems({ resultType: 'input_required', inputRequests: { r: { method: 'roots/list' } } })).toEqual([])
  })
  test('cache fields, malformed inputRequests, a non-string requestState, neither of the two', () => {
    expect(inputRequiredProblems(inputRequired({ ttlMs: 0 }))).toEqual(['carries ttlMs (never on input_required)'])
    expect(inputRequiredProblems(inputRequired({ ttlMs: 5, cacheScope: 'public' }))).toEqual(['carries ttlMs and cacheScope (never on input_required)'])
    expect(inputRequiredProblems({ resultType: 'input_required', inputRequests: [ELICIT] })).toEqual(['has inputRequests an array, not an object', 'has neither inputRequests nor requestState'])
    expect(
      inputRequiredProblems({
        resultType: 'input_required',
        inputRequests: { a: 'ask', b: { params: {} }, c: { method: 'tools/call' }, d: { method: 'roots/list', params: 'x' } }
      })
    ).toEqual([
      'has inputRequests.a a string, not a request',
      'has inputRequests.b without a method',
      'has inputRequests.c asking for "tools/call", not elicitation/create, sampling/createMessage or roots/list',
      'has inputRequests.d.params a string, not an object'
    ])
    expect(inputRequiredProblems({ resultType: 'input_required', inputRequests: {}, requestState: 7 })).toEqual(['has requestState a number, not a string', 'has neither inputRequests nor requestState'])
  })
})

describe('observeInputs', () => {
  const input = (overrides: Partial<CallInput>): CallInput => ({ rounds: [], frames: frames([]), declared: [], max_rounds: 5, failure: null, ...overrides })

  test('nothing wrong: no findings', () => {
    const calls = [leg(1, {}, inputRequired({ requestState: 'x' })), leg(2, { inputResponses: { address: accepted }, requestState: 'x' }, complete)]
    expect(observeInputs('order', input({ frames: frames(calls), rounds: inputRoundsOf(frames(calls), [], ['elicitation']), declared: ['elicitation'] }))).toEqual([])
  })

  test('a malformed input_required answer: one finding per call, naming every problem, the fields up front in the evidence', () => {
    const bad = inputRequired({ ttlMs: 1000, cacheScope: 'private', padding: 'p'.repeat(2000) })
    const calls = [leg(1, {}, bad), leg(2, { inputResponses: {} }, bad), leg(3, { inputResponses: {} }, complete)]
    const findings = observeInputs('order', input({ frames: frames(calls), declared: ['elicitation'] }))
    expect(findings).toEqual([
      {
        check: 'observed-input-required',
        severity: 'error',
        tool: 'order',
        message: 'order: the input_required answer carries ttlMs and cacheScope (never on input_required)',
        evidence: { request: expect.stringContaining('"id":1'), response: expect.stringContaining('"result":{"resultType":"input_required","ttlMs":1000,"cacheScope":"private","inputRequests"') }
      }
    ])
    // Trimmed like every finding's evidence: 600 characters and the ellipsis.
    expect(findings[0].evidence.response.length).toBeLessThanOrEqual(601)
  })

  test('undeclared capabilities, MRTR and legacy alike', () => {
    const calls = [leg(1, {}, { resultType: 'input_required', inputRequests: { s: { method: 'sampling/createMessage', params: {} }, r: { method: 'roots/list' } } })]
    const legacy = [replyNow(serverRequest(0, 'elicitation/create', ELICIT.params, { error: { code: -32601, message: 'Method not found' } })), serverRequest(1, 'ping', undefined)]
    expect(observeInputs('sum', input({ frames: frames(calls, legacy), declared: ['roots'] })).map((f) => [f.check, f.severity, f.message])).toEqual([
      ['observed-undeclared-capability', 'error', 'sum: input request "s" asks for sampling/createMessage, but the client did not declare sampling (the server should answer -32021)'],
      ['observed-undeclared-capability', 'error', 'sum: the server sent elicitation/create, but the client did not declare elicitation']
    ])
  })

  test('more rounds than max_input_rounds: a warning', () => {
    const calls = [leg(1, {}, inputRequired()), leg(2, { inputResponses: {} }, inputRequired()), leg(3, { inputResponses: {} }, inputRequired())]
    const rounds = inputRoundsOf(frames(calls), [], ['elicitation'])
    const findings = observeInputs('order', input({ frames: frames(calls), rounds, declared: ['elicitation'], max_rounds: 2 }))
    expect(findings.map((f) => [f.check, f.severity, f.message])).toEqual([['observed-input-rounds', 'warning', 'order: the server asked for input 3 times, more than max_input_rounds (2)']])
    expect(findings[0].evidence.request).toContain('"id":3')
    expect(observeInputs('order', input({ frames: frames(calls), rounds, declared: ['elicitation'], max_rounds: 3 }))).toEqual([])
  })

  test('never throws on garbage', () => {
    expect(observeInputs('x', { rounds: [], frames: { calls: [{ request: {}, response: { result: 'nope' } }], server_requests: [{ request: {} }] }, declared: [], max_rounds: 1, failure: null } as unknown as CallInput)).toEqual([])
    expect(observeInputs('x', null as unknown as CallInput)).toEqual([])
  })
})

describe('the input checks among the observed checks', () => {
  test('listed after the tool-result checks, with their severities and specs', () => {
    expect(OBSERVED_CHECKS.slice(-3)).toEqual(OBSERVED_INPUT_CHECKS)
    expect(OBSERVED_INPUT_CHECKS.map((c) => [c.id, c.severity, c.spec])).toEqual([
      ['observed-input-required', 'error', '§7 input_required only on tools/call, prompts/get, resources/read; inputRequests well formed; no ttlMs/cacheScope'],
      ['observed-undeclared-capability', 'error', '§7 a server MUST NOT ask for a capability the client did not declare (-32021), nor for url-mode elicitation from a client that declared form only'],
      ['observed-input-rounds', 'warning', 'more input rounds than max_input_rounds']
    ])
  })

  test('a misplaced input_required (a list at open) fails its check even when no tool result was observed', () => {
    const finding = observeMisplacedInputRequired({ method: 'tools/list', request: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, response: { jsonrpc: '2.0', id: 1, result: { resultType: 'input_required' } } })
    expect(finding).toEqual({
      check: 'observed-input-required',
      severity: 'error',
      tool: 'tools/list',
      message: 'tools/list: answered input_required, which only tools/call, prompts/get and resources/read may',
      evidence: { request: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', response: '{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}' }
    })
    const checks = Object.fromEntries(observedChecks([{ label: 'run #1 a · m · default', observed: { calls: 0, findings: [finding] } }]).map((c) => [c.id, c]))
    expect(checks['observed-input-required']).toMatchObject({ status: 'fail', message: `${finding.message} (seen in run #1 a · m · default)` })
    expect(checks['observed-output-schema'].status).toBe('skip')
  })

  test('the rounds check only warns', () => {
    const finding = { check: 'observed-input-rounds', severity: 'warning' as const, tool: 'order', message: 'order: too many', evidence: { request: '', response: '' } }
    const check = observedChecks([{ label: 'r', observed: { calls: 1, findings: [finding] } }]).find((c) => c.id === 'observed-input-rounds')!
    expect([check.status, check.severity]).toEqual(['warn', 'warning'])
  })
})
