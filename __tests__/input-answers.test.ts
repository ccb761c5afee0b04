import { describe, expect, test } from '@jest/globals'
import {
  answerElicitation,
  answerRoots,
  answerWithText,
  inputsVerdict,
  NO_RULE_MATCHED,
  prepareInputs,
  refused,
  samplingMessages,
  schemaMismatch,
  uncheckableSchema,
  type InputDeps
} from '../src/agent/input-answers.js'
import type { ElicitationRule, InputSpec } from '../src/config/types.js'
import type { ChatRequest, ChatResponse } from '../src/llm/chat.js'
import type { InputExchange, InputRound, LlmCallResult } from '../src/results/types.js'

/** How a run answers the server (pure parts), and the verdict on what it asked. */

const ADDRESS = { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } }, required: ['street', 'city'] }
const ask = (message: string, requestedSchema: unknown = ADDRESS) => ({ mode: 'form', message, requestedSchema })
const rule = (match: string, action: ElicitationRule['action'], content: ElicitationRule['content'] = null): ElicitationRule => ({ match, action, content })

function spec(overrides: Partial<InputSpec> = {}): InputSpec {
  return { elicitation: null, sampling: null, roots: null, expect_input_requests: [], max_input_rounds: 5, ...overrides }
}

const signal = new AbortController().signal
const noLlm: InputDeps = { llm: { complete: () => Promise.reject(new Error('not to be called')) }, model: 'm', attempt: 1, onSamplingCall: () => undefined }

describe('answerElicitation', () => {
  const rules = [rule('zip', 'accept', { zip: '1' }), rule('deliver.*address', 'accept', { street: '1 Main St', city: 'Springfield' }), rule('address', 'decline')]

  test('the first rule whose pattern is found in the message wins (case-insensitive)', () => {
    expect(answerElicitation(rules, ask('Where should we DELIVER? Give an address.'))).toEqual({
      result: { action: 'accept', content: { street: '1 Main St', city: 'Springfield' } },
      answered_by: "rule 2 (match 'deliver.*address'): accept",
      problem: null
    })
    expect(answerElicitation(rules, ask('Your address?'))).toEqual({ result: { action: 'decline' }, answered_by: "rule 3 (match 'address'): decline", problem: null })
    expect(answerElicitation([rule('name', 'cancel')], ask('Your NAME?'))).toEqual({ result: { action: 'cancel' }, answered_by: "rule 1 (match 'name'): cancel", problem: null })
  })

  test('no rule matches, or no rules at all (elicitation: []): decline, recorded as such', () => {
    expect(answerElicitation(rules, ask('Favourite colour?'))).toEqual({ result: { action: 'decline' }, answered_by: NO_RULE_MATCHED, problem: null })
    expect(answerElicitation([], ask('Anything'))).toEqual({ result: { action: 'decline' }, answered_by: 'no rule matched: declined', problem: null })
    // A request without a message: only a rule that matches the empty text answers it.
    expect(answerElicitation([rule('x', 'accept', {})], {}).answered_by).toBe(NO_RULE_MATCHED)
    expect(answerElicitation([rule('^$', 'cancel')], {}).answered_by).toBe("rule 1 (match '^$'): cancel")
  })

  test('accept content that fails the requested schema: not sent; cancel, and the problem says why', () => {
    expect(answerElicitation([rule('address', 'accept', { street: 12, city: 'X' })], ask('address?'))).toEqual({
      result: { action: 'cancel' },
      answered_by: "rule 1 (match 'address'): accept, sent as cancel",
      problem: "the content of rule 1 (match 'address') does not match the requested schema: street must be string"
    })
  })

  test('patterns are read as the config loader checks them: Python spellings such as (?i), (?P<name>…) and \\A work', () => {
    const address = { street: '1 Main St', city: 'Springfield' }
    expect(answerElicitation([rule('(?i)address', 'accept', address)], ask('Your ADDRESS?'))).toMatchObject({ result: { action: 'accept', content: address }, answered_by: "rule 1 (match '(?i)address'): accept" })
    expect(answerElicitation([rule('(?P<what>deliver)', 'decline')], ask('Where to deliver?')).answered_by).toBe("rule 1 (match '(?P<what>deliver)'): decline")
    expect(answerElicitation([rule('\\Awhere', 'cancel')], ask('Where to?')).answered_by).toBe("rule 1 (match '\\Awhere'): cancel")
    expect(answerElicitation([rule('\\Awhere', 'cancel')], ask('So, where to?')).answered_by).toBe(NO_RULE_MATCHED)
  })

  test('a requested schema that cannot be checked: the content is not sent; cancel, and the problem says so', () => {
    const answer = answerElicitation([rule('address', 'accept', { street: 'a', city: 'b' })], ask('address?', { type: 'object', properties: { street: { $ref: 'https://schemas.example/street.json' } } }))
    expect(answer).toMatchObject({ result: { action: 'cancel' }, answered_by: "rule 1 (match 'address'): accept, sent as cancel" })
    expect(answer.problem).toMatch(/^the requested schema could not be checked: the schema cannot be compiled: .*\(remote \$refs are not fetched\); the content of rule 1 \(match 'address'\) was not sent$/)
    expect(uncheckableSchema({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' })).toBe('the schema declares an unsupported dialect http://json-schema.org/draft-04/schema#')
    expect(uncheckableSchema(ADDRESS)).toBeNull()
    expect(uncheckableSchema(undefined)).toBeNull()
  })

  test('a pattern that is not a regular expression matches nothing instead of throwing', () => {
    expect(answerElicitation([rule('(', 'accept', {}), rule('.', 'decline')], ask('x'))).toEqual({ result: { action: 'decline' }, answered_by: "rule 2 (match '.'): decline", problem: null })
  })
})

describe('schemaMismatch', () => {
  test('null when the content satisfies the schema, or there is no schema to hold it to', () => {
    expect(schemaMismatch(ADDRESS, { street: 'a', city: 'b' })).toBeNull()
    expect(schemaMismatch(undefined, { anything: true })).toBeNull()
    expect(schemaMismatch('not a schema', {})).toBeNull()
  })
  test('the first errors, named by field', () => {
    expect(schemaMismatch(ADDRESS, {})).toBe("the content must have required property 'street'")
    const typed = { type: 'object', properties: { n: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } }
    expect(schemaMismatch(typed, { n: 1.5 })).toBe('n must be integer')
    expect(schemaMismatch(typed, { tags: ['a', 3] })).toBe('tags.1 must be string')
  })
})

describe('sampling', () => {
  test('samplingMessages: the system prompt first, then the messages as text; other content as a placeholder', () => {
    expect(
      samplingMessages({
        systemPrompt: 'Be brief.',
        messages: [
          { role: 'user', content: { type: 'text', text: 'Hi' } },
          { role: 'assistant', content: { type: 'text', text: 'Hello' } },
          { role: 'user', content: [{ type: 'text', text: 'Look:' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
          'garbage'
        ]
      })
    ).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
      { role: 'user', content: 'Look:\n[image]' }
    ])
    expect(samplingMessages({})).toEqual([])
  })

  test('{ text }: the case text, from model "scripted"', () => {
    expect(answerWithText('Fixed.')).toEqual({ result: { role: 'assistant', content: { type: 'text', text: 'Fixed.' }, model: 'scripted', stopReason: 'endTurn' }, answered_by: "the case's text", problem: null })
  })

  test('agent: the run model at temperature 0, the attempt passed on, the LLM call recorded with purpose sampling', async () => {
    const requests: ChatRequest[] = []
    const calls: LlmCallResult[] = []
    const response: ChatResponse = { content: 'Short.', tool_calls: [], finish_reason: 'stop', usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 }, logprobs: null, latency_ms: 12, cached: true }
    const deps: InputDeps = {
      llm: { complete: async (request) => (requests.push(request), response) },
      model: 'openai/gpt-4o',
      attempt: 3,
      onSamplingCall: (call) => calls.push(call)
    }
    const inputs = prepareInputs(spec({ sampling: 'agent' }), null, deps)
    const answer = await inputs.client.answer('sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'Sum up' } }] }, signal)
    expect(answer).toEqual({ result: { role: 'assistant', content: { type: 'text', text: 'Short.' }, model: 'openai/gpt-4o', stopReason: 'endTurn' }, answered_by: 'the model under test (openai/gpt-4o)', problem: null })
    expect(requests).toEqual([{ model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'Sum up' }], temperature: 0, attempt: 3 }])
    expect(calls).toEqual([{ latency_ms: 12, finish_reason: 'stop', usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 }, cached: true, purpose: 'sampling' }])
  })

  test('agent, the model fails: a JSON-RPC -32603 with the message, and a problem; no LLM call recorded', async () => {
    const calls: LlmCallResult[] = []
    const inputs = prepareInputs(spec({ sampling: 'agent' }), null, { ...noLlm, onSamplingCall: (c) => calls.push(c) })
    expect(await inputs.client.answer('sampling/createMessage', { messages: [] }, signal)).toEqual({
      error: { code: -32603, message: 'not to be called' },
      answered_by: 'the model under test (m)',
      problem: 'sampling by the model under test failed: not to be called'
    })
    expect(calls).toEqual([])
  })

  test('agent, and the call ended (cancelled, timed out) while the model answered: an error, but no problem of the case', async () => {
    const controller = new AbortController()
    const deps: InputDeps = {
      ...noLlm,
      llm: {
        complete: (_request, signal) =>
          new Promise((_resolve, reject) => {
            signal?.addEventListener('abort', () => reject(new Error('the request was aborted')), { once: true })
            controller.abort()
          })
      }
    }
    const answer = await prepareInputs(spec({ sampling: 'agent' }), null, deps).client.answer('sampling/createMessage', { messages: [] }, controller.signal)
    expect(answer).toEqual({ error: { code: -32603, message: 'the request was aborted' }, answered_by: 'the model under test (m)', problem: null })
  })
})

describe('roots and refusals', () => {
  test('each root with its last path segment as its name (decoded); a bare root has none', () => {
    expect(answerRoots(['file:///work/shop/', 'file:///tmp/my%20dir', 'file:///'])).toEqual({
      result: { roots: [{ uri: 'file:///work/shop/', name: 'shop' }, { uri: 'file:///tmp/my%20dir', name: 'my dir' }, { uri: 'file:///' }] },
      answered_by: "the case's roots",
      problem: null
    })
  })

  test('a method not declared is refused with -32601', async () => {
    expect(refused('sampling/createMessage')).toEqual({
      error: { code: -32601, message: 'sampling/createMessage is not available: this client did not declare it' },
      answered_by: 'not declared: refused',
      problem: null
    })
    const inputs = prepareInputs(spec({ elicitation: [] }), null, noLlm)
    expect(await inputs.client.answer('roots/list', {}, signal)).toMatchObject({ answered_by: 'not declared: refused' })
    expect(await inputs.client.answer('tools/call', {}, signal)).toMatchObject({ answered_by: 'not declared: refused' })
  })
})

describe('prepareInputs', () => {
  test('declares exactly what the case can answer; case roots win over server_config roots', async () => {
    expect(prepareInputs(null, null, noLlm).client).toMatchObject({ capabilities: {}, maxRounds: 5 })
    expect(prepareInputs(null, ['file:///srv'], noLlm).client.capabilities).toEqual({ roots: {} })
    expect(prepareInputs(spec({ elicitation: [], max_input_rounds: 2 }), null, noLlm).client).toMatchObject({ capabilities: { elicitation: {} }, maxRounds: 2 })
    expect(prepareInputs(spec({ sampling: { text: 't' }, roots: ['file:///case'] }), ['file:///srv'], noLlm).client.capabilities).toEqual({ sampling: {}, roots: {} })
    const caseRoots = prepareInputs(spec({ roots: ['file:///case'] }), ['file:///srv'], noLlm)
    expect(await caseRoots.client.answer('roots/list', {}, signal)).toEqual({ result: { roots: [{ uri: 'file:///case', name: 'case' }] }, answered_by: "the case's roots", problem: null })
    const serverRoots = prepareInputs(spec(), ['file:///srv'], noLlm)
    expect(await serverRoots.client.answer('roots/list', {}, signal)).toMatchObject({ answered_by: "the server_config's roots" })
  })

  test('verdict: null only when the client declared nothing; roots from server_config alone still get one, expecting nothing', () => {
    expect(prepareInputs(null, null, noLlm).verdict([])).toBeNull()
    const atStart: InputRound = { round: 1, via: 'server_request', request_id: null, retry_id: null, request_state: null, request_state_echoed: null, exchanges: [] }
    expect(prepareInputs(null, ['file:///srv'], noLlm).verdict([{ name: 'list_directory' }], [atStart])).toEqual({
      declared: ['roots'],
      expected: [],
      asked: [],
      rounds: 1,
      unmatched: 0,
      passed: true,
      reasons: [],
      outside_calls: [atStart]
    })
  })
})

describe('inputsVerdict', () => {
  const exchange = (method: string, extra: Partial<InputExchange> = {}): InputExchange => ({
    key: 'k',
    method,
    summary: '',
    params: {},
    response: null,
    error: null,
    answered_by: 'x',
    problem: null,
    ...extra
  })
  const round = (...exchanges: InputExchange[]): InputRound => ({ round: 1, via: 'input_required', request_id: 1, retry_id: 2, request_state: null, request_state_echoed: true, exchanges })

  test('asked in first-asked order over every call; rounds and unmatched counted; passes when every expected kind came', () => {
    const calls = [
      { name: 'a', input_rounds: [round(exchange('roots/list')), round(exchange('elicitation/create', { answered_by: NO_RULE_MATCHED }))] },
      { name: 'b' },
      { name: 'c', input_rounds: [round(exchange('elicitation/create'), exchange('sampling/createMessage'))] }
    ]
    expect(inputsVerdict(spec({ expect_input_requests: ['elicitation', 'roots'] }), ['elicitation', 'roots', 'sampling'], calls)).toEqual({
      declared: ['elicitation', 'roots', 'sampling'],
      expected: ['elicitation', 'roots'],
      asked: ['roots', 'elicitation', 'sampling'],
      rounds: 3,
      unmatched: 1,
      passed: true,
      outside_calls: [],
      reasons: []
    })
  })

  test('fails for an expected request that never came, a problem (named by tool, once), and a call over max_input_rounds', () => {
    const problem = 'the content of rule 1 (match \'a\') does not match the requested schema: x must be string'
    const bad = round(exchange('elicitation/create', { problem }))
    const verdict = inputsVerdict(spec({ expect_input_requests: ['sampling'], max_input_rounds: 1 }), ['elicitation'], [{ name: 'order', input_rounds: [bad, bad] }, { name: 'order', input_rounds: [bad] }])
    expect(verdict.passed).toBe(false)
    expect(verdict.reasons).toEqual([`order: ${problem}`, 'order: the server asked for input 2 times, more than max_input_rounds (1)', 'expected the server to ask for sampling, but it never did'])
    expect(inputsVerdict(spec(), [], []).passed).toBe(true)
  })

  test('what the server asked outside any call (roots at start) counts as asked, and is kept in the verdict', () => {
    const atStart = [{ ...round(exchange('roots/list')), via: 'server_request' as const, request_id: null, retry_id: null, request_state_echoed: null }]
    const verdict = inputsVerdict(spec({ expect_input_requests: ['roots'] }), ['roots'], [{ name: 'list_directory' }], atStart)
    expect(verdict).toMatchObject({ asked: ['roots'], rounds: 1, passed: true, reasons: [] })
    expect(verdict.outside_calls).toEqual(atStart)
    expect(inputsVerdict(spec({ expect_input_requests: ['roots'] }), ['roots'], [{ name: 'list_directory' }]).reasons).toEqual(['expected the server to ask for roots, but it never did'])
  })

  test('max_input_rounds is per call: many requests outside any call (a server asking for roots again and again) fail nothing', () => {
    const atStart = { ...round(exchange('roots/list')), via: 'server_request' as const, request_id: null, retry_id: null, request_state_echoed: null }
    const verdict = inputsVerdict(spec({ max_input_rounds: 1 }), ['roots'], [], [atStart, atStart, atStart])
    expect(verdict).toMatchObject({ rounds: 3, passed: true, reasons: [] })
  })
})
