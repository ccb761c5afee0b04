import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals'
import { fixturePath } from '../__fixtures__/harness.js'
import { answer, startScriptedLlm, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { ADDRESS_MESSAGE, ADDRESS_SCHEMA, NAME_MESSAGE, orderRef, startMrtrHttpServer, summarySampling } from '../__fixtures__/servers/mrtr-server.mjs'
import { prepareInputs, type InputDeps, type RunInputs } from '../src/agent/input-answers.js'
import type { InputSpec, ServerConfig } from '../src/config/types.js'
import { sessionFindingsOf, watchSession } from '../src/conformance/observe-session.js'
import { createChatClient } from '../src/llm/chat.js'
import { createSessionFactory, outcomeOf, ServerError, type ClientInputs, type McpSession } from '../src/mcp/session.js'
import type { InputRound, LlmCallResult } from '../src/results/types.js'

/** The recorded exchange of an address elicitation answered by the case's first rule, under `key` (MRTR: the inputRequests key; legacy: the request id). */
const acceptedAddress = (key: unknown) => ({
  key,
  method: 'elicitation/create',
  summary: ADDRESS_MESSAGE,
  params: { mode: 'form', message: ADDRESS_MESSAGE, requestedSchema: ADDRESS_SCHEMA },
  response: { action: 'accept', content: { street: '1 Main St', city: 'Springfield' } },
  error: null,
  answered_by: "rule 1 (match 'address'): accept",
  problem: null
})

/**
 * Server input over real sessions (issue 13): a modern server asking with input_required (MRTR)
 * and a legacy one sending server→client requests, answered by the same case keys, and what the
 * rounds record of it.
 */

const MODEL = 'openai/gpt-4o'
const ACCEPT_ADDRESS: InputSpec['elicitation'] = [{ match: 'address', action: 'accept', content: { street: '1 Main St', city: 'Springfield' } }]
const ORDERED = `Ordered 2 skillet to 1 Main St, Springfield (ref ${orderRef('skillet', 2, '1 Main St', 'Springfield')})`
const ORDER = { item: 'skillet', quantity: 2 }

function spec(overrides: Partial<InputSpec> = {}): InputSpec {
  return { elicitation: null, sampling: null, roots: null, expect_input_requests: [], max_input_rounds: 5, ...overrides }
}

const stdio = (server: string, ...args: string[]): ServerConfig => ({ kind: 'stdio', command: process.execPath, args: [fixturePath(`servers/${server}`), ...args], env: {} })
const MODERN = (...args: string[]) => stdio('mrtr-server.mjs', ...args)
const LEGACY = (...args: string[]) => stdio('legacy-input-server.mjs', ...args)

/** A chat client that must not be called: sampling is not `agent` in these cases. */
const noLlm: InputDeps = {
  llm: {
    complete: () => Promise.reject(new Error('the model was not to be called'))
  },
  model: MODEL,
  attempt: 1,
  onSamplingCall: () => undefined
}

/** What a test may change about a session: the factory's request timeout, and the client inputs (to watch them). */
interface SessionSettings {
  requestTimeoutMs?: number
  client?: (client: ClientInputs) => ClientInputs
}

/** Open a session with the inputs of `inputSpec` (after a first open that only probes the era, as a run's factory does), run `body`, close. */
async function withSession<T>(config: ServerConfig, inputSpec: InputSpec | null, body: (s: McpSession, inputs: RunInputs) => Promise<T>, deps: InputDeps = noLlm, settings: SessionSettings = {}): Promise<T> {
  const factory = createSessionFactory(config, { probeTimeoutMs: 3000, requestTimeoutMs: settings.requestTimeoutMs })
  const signal = new AbortController().signal
  await (await factory.open(signal)).close()
  const inputs = prepareInputs(inputSpec, null, deps)
  const session = await factory.open(signal, { inputs: settings.client ? settings.client(inputs.client) : inputs.client })
  try {
    return await body(session, inputs)
  } finally {
    await session.close()
  }
}

const signal = () => new AbortController().signal
const exchangeOf = (rounds: InputRound[] | undefined, round = 0) => rounds?.[round]?.exchanges[0]

/** The client inputs, with every request that reached `answer` counted by method. */
function counting(asked: string[]): (client: ClientInputs) => ClientInputs {
  return (client) => ({ ...client, answer: (method, params, abort) => (asked.push(method), client.answer(method, params, abort)) })
}

/** Wait until `done()` holds (at most 5 s). */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done() && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20))
}

/** A chat client on the scripted LLM that notes, per request, whether its signal was aborted before it settled. */
function watchedChat(url: string, settled: { aborted: boolean; ms: number }[]): InputDeps['llm'] {
  const chat = createChatClient({ baseURL: url, apiKey: 'test-key', maxRetries: 0 })
  return {
    complete: async (request, abort) => {
      const started = performance.now()
      try {
        return await chat.complete(request, abort)
      } finally {
        settled.push({ aborted: abort?.aborted === true, ms: performance.now() - started })
      }
    }
  }
}

describe('a modern server: input_required rounds (stdio)', () => {
  test('an elicitation answered by the first matching rule: the retry has a new id, echoes requestState, and the order goes through', async () => {
    await withSession(MODERN(), spec({ elicitation: ACCEPT_ADDRESS, expect_input_requests: ['elicitation'] }), async (session, inputs) => {
      expect(session.era).toBe('modern')
      const raw = await session.callToolRaw('order_item', ORDER, signal())
      expect(raw.response).toMatchObject({ kind: 'result', result: { content: [{ type: 'text', text: ORDERED }] } })
      const rounds = raw.input?.rounds
      expect(rounds).toHaveLength(1)
      const [round] = rounds!
      expect(round).toMatchObject({ round: 1, via: 'input_required', request_state: '0', request_state_echoed: true })
      expect(typeof round.request_id).toBe('number')
      expect(typeof round.retry_id).toBe('number')
      expect(round.retry_id).not.toBe(round.request_id)
      expect(round.exchanges).toEqual([
        acceptedAddress('address')
      ])
      // The request the server saw carried exactly the capability the case can answer.
      const first = raw.input!.frames.calls[0].request as { params: { _meta: Record<string, unknown> } }
      expect(first.params._meta['io.modelcontextprotocol/clientCapabilities']).toEqual({ elicitation: {} })
      // The retry carried what we answered, and the state byte for byte.
      const retry = raw.input!.frames.calls[1].request as { id: number; params: Record<string, unknown> }
      expect(retry.id).toBe(round.retry_id)
      expect(retry.params).toMatchObject({ requestState: '0', inputResponses: { address: { action: 'accept' } } })

      const outcome = await session.callTool('order_item', ORDER, signal())
      expect(outcome).toEqual({ text: ORDERED, isError: false, result: expect.any(Object), input_rounds: [expect.objectContaining({ via: 'input_required' })] })
      expect(inputs.verdict([{ name: 'order_item', input_rounds: outcome.input_rounds }])).toEqual({
        declared: ['elicitation'],
        expected: ['elicitation'],
        asked: ['elicitation'],
        rounds: 1,
        unmatched: 0,
        passed: true,
        outside_calls: [],
        reasons: []
      })
    })
  })

  test('decline and cancel rules: the server hears them, the rounds say which rule', async () => {
    const declined = await withSession(MODERN(), spec({ elicitation: [{ match: 'deliver', action: 'decline', content: null }] }), (s) => s.callTool('order_item', ORDER, signal()))
    expect(declined.text).toBe('Order not placed: the user declined to give an address')
    expect(exchangeOf(declined.input_rounds)).toMatchObject({ response: { action: 'decline' }, answered_by: "rule 1 (match 'deliver'): decline" })
    const cancelled = await withSession(MODERN(), spec({ elicitation: [{ match: 'nothing', action: 'accept', content: {} }, { match: 'ADDRESS', action: 'cancel', content: null }] }), (s) =>
      s.callTool('order_item', ORDER, signal())
    )
    expect(cancelled.text).toBe('Order cancelled')
    expect(exchangeOf(cancelled.input_rounds)).toMatchObject({ response: { action: 'cancel' }, answered_by: "rule 2 (match 'ADDRESS'): cancel" })
  })

  test('no rule matches: declined and recorded; the verdict counts it, and still wants an expected sampling that never came', async () => {
    await withSession(MODERN(), spec({ elicitation: [{ match: 'zip code', action: 'accept', content: { zip: '12345' } }], sampling: { text: 'x' }, expect_input_requests: ['sampling', 'elicitation'] }), async (session, inputs) => {
      const outcome = await session.callTool('order_item', ORDER, signal())
      expect(outcome.text).toBe('Order not placed: the user declined to give an address')
      expect(exchangeOf(outcome.input_rounds)).toMatchObject({ response: { action: 'decline' }, answered_by: 'no rule matched: declined', problem: null })
      expect(inputs.verdict([{ name: 'order_item', input_rounds: outcome.input_rounds }])).toEqual({
        declared: ['elicitation', 'sampling'],
        expected: ['sampling', 'elicitation'],
        asked: ['elicitation'],
        rounds: 1,
        unmatched: 1,
        passed: false,
        outside_calls: [],
        reasons: ['expected the server to ask for sampling, but it never did']
      })
    })
  })

  test('accept content that fails the requested schema is not sent: cancel, with the problem recorded and the verdict failed', async () => {
    await withSession(MODERN(), spec({ elicitation: [{ match: 'address', action: 'accept', content: { street: '1 Main St' } }] }), async (session, inputs) => {
      const outcome = await session.callTool('order_item', ORDER, signal())
      expect(outcome.text).toBe('Order cancelled')
      const exchange = exchangeOf(outcome.input_rounds)!
      expect(exchange.response).toEqual({ action: 'cancel' })
      expect(exchange.answered_by).toBe("rule 1 (match 'address'): accept, sent as cancel")
      expect(exchange.problem).toBe("the content of rule 1 (match 'address') does not match the requested schema: the content must have required property 'city'")
      const verdict = inputs.verdict([{ name: 'order_item', input_rounds: outcome.input_rounds }])!
      expect(verdict.passed).toBe(false)
      expect(verdict.reasons).toEqual([`order_item: ${exchange.problem}`])
    })
  })

  describe('sampling', () => {
    let llm: ScriptedLlm
    beforeAll(async () => {
      llm = await startScriptedLlm((request) => answer(request.model, 'Skillets are pans.'))
    })
    afterAll(() => llm.close())

    test("agent: the model under test answers through the run's chat client, and the call is one of the run's LLM calls", async () => {
      const calls: LlmCallResult[] = []
      const deps: InputDeps = { llm: createChatClient({ baseURL: llm.url, apiKey: 'test-key', maxRetries: 0 }), model: MODEL, attempt: 2, onSamplingCall: (c) => calls.push(c) }
      const before = llm.requests.length
      const outcome = await withSession(MODERN(), spec({ sampling: 'agent', expect_input_requests: ['sampling'] }), (s) => s.callTool('summarize_text', { text: 'A skillet is a pan.' }, signal()), deps)
      expect(outcome.text).toBe('Summary: Skillets are pans.')
      const sent = llm.requests.slice(before)
      expect(sent).toHaveLength(1)
      expect(sent[0]).toMatchObject({
        model: MODEL,
        temperature: 0,
        messages: [
          { role: 'system', content: 'You write one-sentence summaries.' },
          { role: 'user', content: 'Summarize in one sentence: A skillet is a pan.' }
        ]
      })
      expect(sent[0].tools).toBeUndefined()
      expect(calls).toEqual([{ latency_ms: expect.any(Number), finish_reason: 'stop', usage: expect.objectContaining({ prompt_tokens: 100, completion_tokens: 20 }), purpose: 'sampling' }])
      expect(exchangeOf(outcome.input_rounds)).toEqual({
        key: 'summary',
        method: 'sampling/createMessage',
        summary: 'Summarize in one sentence: A skillet is a pan.',
        params: summarySampling('A skillet is a pan.'),
        response: { role: 'assistant', content: { type: 'text', text: 'Skillets are pans.' }, model: MODEL, stopReason: 'endTurn' },
        error: null,
        answered_by: `the model under test (${MODEL})`,
        problem: null
      })
    })

    test('agent, and the model fails: the call fails with the reason, and the problem is recorded', async () => {
      const failing: InputDeps = { ...noLlm, llm: { complete: () => Promise.reject(new Error('the provider is down')) } }
      const outcome = await withSession(MODERN(), spec({ sampling: 'agent' }), (s) => s.callTool('summarize_text', { text: 't' }, signal()), failing)
      expect(outcome).toMatchObject({ isError: true, text: "Error: the client could not answer the server's sampling/createMessage: the provider is down" })
      expect(outcome.input_rounds).toEqual([expect.objectContaining({ retry_id: null, request_state_echoed: null })])
      expect(exchangeOf(outcome.input_rounds)).toMatchObject({ response: null, error: { code: -32603, message: 'the provider is down' }, problem: 'sampling by the model under test failed: the provider is down' })
    })
  })

  test("sampling { text } and roots: the case's text and roots", async () => {
    await withSession(MODERN(), spec({ sampling: { text: 'Fixed summary.' }, roots: ['file:///work/shop', 'file:///tmp/other%20dir'] }), async (session) => {
      const summary = await session.callTool('summarize_text', { text: 'anything' }, signal())
      expect(summary.text).toBe('Summary: Fixed summary.')
      expect(exchangeOf(summary.input_rounds)).toMatchObject({ answered_by: "the case's text", response: { model: 'scripted' } })
      const roots = await session.callTool('list_workspace', {}, signal())
      expect(roots.text).toBe('Roots: file:///work/shop, file:///tmp/other%20dir')
      expect(exchangeOf(roots.input_rounds)).toEqual({
        key: 'roots',
        method: 'roots/list',
        summary: 'list the roots',
        params: {},
        response: { roots: [{ uri: 'file:///work/shop', name: 'shop' }, { uri: 'file:///tmp/other%20dir', name: 'other dir' }] },
        error: null,
        answered_by: "the case's roots",
        problem: null
      })
    })
  })

  test('a prompt and a resource ask too: their outcomes carry their rounds', async () => {
    await withSession(MODERN(), spec({ elicitation: [{ match: 'name', action: 'accept', content: { name: 'Ada' } }], roots: ['file:///srv/data'] }), async (session) => {
      const prompt = await session.getPrompt('welcome', {}, signal())
      expect(prompt.text).toBe('Welcome, Ada!')
      expect(exchangeOf(prompt.input_rounds)).toMatchObject({ method: 'elicitation/create', summary: NAME_MESSAGE, response: { action: 'accept', content: { name: 'Ada' } } })
      const resource = await session.readResource('workspace://roots', signal())
      expect(resource.text).toContain('file:///srv/data')
      expect(resource.isError).toBe(false)
      expect(exchangeOf(resource.input_rounds)).toMatchObject({ method: 'roots/list', response: { roots: [{ uri: 'file:///srv/data', name: 'data' }] } })
      expect(sessionFindingsOf(session)).toEqual([])
    })
  })

  test('several rounds: each retry has its own id and echoes the state of its round', async () => {
    const outcome = await withSession(MODERN('ROUNDS=3'), spec({ elicitation: ACCEPT_ADDRESS }), (s) => s.callTool('order_item', ORDER, signal()))
    expect(outcome.text).toBe(ORDERED)
    const rounds = outcome.input_rounds!
    expect(rounds.map((r) => [r.round, r.request_state, r.request_state_echoed])).toEqual([
      [1, '0', true],
      [2, '1', true],
      [3, '2', true]
    ])
    const ids = rounds.flatMap((r) => [r.request_id, r.retry_id])
    // Each round's retry is the next round's request; every leg a new id.
    expect(rounds.slice(1).map((r) => r.request_id)).toEqual(rounds.slice(0, -1).map((r) => r.retry_id))
    expect(new Set(ids).size).toBe(rounds.length + 1)
  })

  test('more rounds than max_input_rounds: an isError outcome for the model, the rounds kept, a finding, and the verdict failed', async () => {
    await withSession(MODERN('ROUNDS=9'), spec({ elicitation: ACCEPT_ADDRESS, max_input_rounds: 2 }), async (session, inputs) => {
      const watched = watchSession(session)
      const outcome = await watched.session.callTool('order_item', ORDER, signal())
      expect(outcome).toMatchObject({ isError: true, text: 'Error: the server asked for input more than 2 times (max_input_rounds 2)' })
      expect(outcome.input_rounds!.map((r) => r.retry_id === null)).toEqual([false, false, true])
      expect(watched.observed().findings).toEqual([
        {
          check: 'observed-input-rounds',
          severity: 'warning',
          tool: 'order_item',
          message: 'order_item: the server asked for input 3 times, more than max_input_rounds (2)',
          evidence: { request: expect.stringContaining('"requestState":"1"'), response: expect.stringContaining('input_required') }
        }
      ])
      expect(inputs.verdict([{ name: 'order_item', input_rounds: outcome.input_rounds }])!.reasons).toEqual([
        'order_item: the server asked for input 3 times, more than max_input_rounds (2)'
      ])
    })
  })

  test('a server asking for a capability the client did not declare: flagged, and the call fails for the model', async () => {
    for (const inputSpec of [spec({ elicitation: ACCEPT_ADDRESS }), null]) {
      await withSession(MODERN('ASK=sampling-undeclared'), inputSpec, async (session) => {
        const watched = watchSession(session)
        const outcome = await watched.session.callTool('summarize_text', { text: 't' }, signal())
        expect(outcome).toMatchObject({ isError: true, text: 'Error: the server asked for sampling/createMessage, but this client did not declare sampling' })
        expect(outcome.input_rounds).toEqual([expect.objectContaining({ retry_id: null, exchanges: [expect.objectContaining({ method: 'sampling/createMessage', answered_by: 'not declared: refused', response: null })] })])
        expect(watched.observed().findings.map((f) => [f.check, f.severity, f.message])).toEqual([
          ['observed-undeclared-capability', 'error', 'summarize_text: input request "summary" asks for sampling/createMessage, but the client did not declare sampling (the server should answer -32021)']
        ])
      })
    }
  })

  test('a url-mode elicitation (this client declares form mode only): refused, flagged, and the call fails for the model', async () => {
    await withSession(MODERN('ASK=url'), spec({ elicitation: ACCEPT_ADDRESS }), async (session) => {
      const watched = watchSession(session)
      const outcome = await watched.session.callTool('order_item', ORDER, signal())
      expect(outcome).toMatchObject({ isError: true, text: 'Error: the server asked for a url-mode elicitation, but this client declared form mode only' })
      expect(exchangeOf(outcome.input_rounds)).toMatchObject({ key: 'address', method: 'elicitation/create', params: { mode: 'url' }, response: null, answered_by: 'url mode not declared: refused', problem: null })
      expect(watched.observed().findings.map((f) => [f.check, f.severity, f.message])).toEqual([
        ['observed-undeclared-capability', 'error', 'order_item: input request "address" asks for a url-mode elicitation, but the client declared form mode only (the server should answer -32021)']
      ])
    })
  })

  test('watchSession counts the calls during which the server asked (a tool call and a resource read here; a call that asked nothing is not counted): what lets the input checks run', async () => {
    await withSession(MODERN(), spec({ elicitation: ACCEPT_ADDRESS, roots: ['file:///srv'] }), async (session) => {
      const watched = watchSession(session)
      await watched.session.callTool('order_item', ORDER, signal())
      await watched.session.callTool('order_item', { ...ORDER, street: '1 Main St', city: 'Springfield' }, signal())
      await watched.session.readResource('workspace://roots', signal())
      expect(watched.observed()).toEqual({ calls: 2, findings: [], asked: 2 })
    })
  })

  test('the SDK-built server refuses instead: -32021, no finding', async () => {
    await withSession(MODERN(), spec({ elicitation: ACCEPT_ADDRESS }), async (session) => {
      const watched = watchSession(session)
      const outcome = await watched.session.callTool('summarize_text', { text: 't' }, signal())
      expect(outcome.isError).toBe(true)
      expect(outcome.text).toMatch(/^MCP error -32021: /)
      expect(outcome.input_rounds).toBeUndefined()
      expect(watched.observed().findings).toEqual([])
    })
  })

  test('an input_required answer with ttlMs and cacheScope: flagged, the call still goes on', async () => {
    await withSession(MODERN('BAD=ttl'), spec({ elicitation: ACCEPT_ADDRESS }), async (session) => {
      const watched = watchSession(session)
      expect((await watched.session.callTool('order_item', ORDER, signal())).text).toBe(ORDERED)
      const [finding] = watched.observed().findings
      expect(finding).toMatchObject({ check: 'observed-input-required', severity: 'error', message: 'order_item: the input_required answer carries ttlMs and cacheScope (never on input_required)' })
      expect(finding.evidence.response).toMatch(/^\{"jsonrpc":"2\.0","id":\d+,"result":\{"resultType":"input_required","ttlMs":60000,"cacheScope":"private"/)
    })
  })

  test('a malformed inputRequests entry: flagged, and the call fails with what the SDK said', async () => {
    await withSession(MODERN('BAD=shape'), spec({ elicitation: ACCEPT_ADDRESS }), async (session) => {
      const watched = watchSession(session)
      const outcome = await watched.session.callTool('order_item', ORDER, signal())
      expect(outcome.isError).toBe(true)
      expect(outcome.text).toMatch(/^Error: the server's input request could not be answered: .*must be an embedded request object with a method/)
      expect(exchangeOf(outcome.input_rounds)).toMatchObject({ key: 'address', method: '(no method)', answered_by: 'not an input request: refused' })
      expect(watched.observed().findings.map((f) => f.message)).toEqual(['order_item: the input_required answer has inputRequests.address without a method'])
    })
  })

  test('input_required on a list (at open): a session finding; the session still opens', async () => {
    await withSession(MODERN('BAD=list'), spec({ elicitation: ACCEPT_ADDRESS, max_input_rounds: 1 }), async (session) => {
      expect(session.prompts).toEqual([])
      expect(sessionFindingsOf(session)).toEqual([
        {
          check: 'observed-input-required',
          severity: 'error',
          tool: 'prompts/list',
          message: 'prompts/list: answered input_required, which only tools/call, prompts/get and resources/read may',
          evidence: { request: expect.stringContaining('"method":"prompts/list"'), response: expect.stringContaining('"resultType":"input_required"') }
        }
      ])
    })
  })
})

describe('a modern server over HTTP', () => {
  test('the same rounds over Streamable HTTP', async () => {
    const server = await startMrtrHttpServer()
    try {
      const outcome = await withSession({ kind: 'http', url: server.url, headers: {} }, spec({ elicitation: ACCEPT_ADDRESS, roots: ['file:///a'] }), async (session) => {
        expect(session.era).toBe('modern')
        expect((await session.callTool('list_workspace', {}, signal())).text).toBe('Roots: file:///a')
        return session.callTool('order_item', ORDER, signal())
      })
      expect(outcome.text).toBe(ORDERED)
      expect(outcome.input_rounds).toEqual([expect.objectContaining({ via: 'input_required', request_state: '0', request_state_echoed: true })])
      expect(outcome.input_rounds![0].retry_id).not.toBe(outcome.input_rounds![0].request_id)
    } finally {
      await server.close()
    }
  })
})

describe('a legacy server: server→client requests', () => {
  test('the same case answers elicitation/create: the same outcome, one server_request round keyed by the request id', async () => {
    const inputSpec = spec({ elicitation: ACCEPT_ADDRESS, expect_input_requests: ['elicitation'] })
    await withSession(LEGACY(), inputSpec, async (session, inputs) => {
      expect(session.era).toBe('legacy')
      const outcome = await session.callTool('order_item', ORDER, signal())
      expect(outcome.text).toBe(ORDERED)
      expect(outcome.input_rounds).toEqual([
        {
          round: 1,
          via: 'server_request',
          request_id: null,
          retry_id: null,
          request_state: null,
          request_state_echoed: null,
          exchanges: [
            acceptedAddress(expect.stringMatching(/^\d+$/))
          ]
        }
      ])
      expect(inputs.verdict([{ name: 'order_item', input_rounds: outcome.input_rounds }])!.passed).toBe(true)
    })
    // One YAML, both eras: the modern server ends the same way.
    const modern = await withSession(MODERN(), inputSpec, (s) => s.callTool('order_item', ORDER, signal()))
    expect(modern.text).toBe(ORDERED)
  })

  test('decline, cancel, roots and sampling text on a legacy server', async () => {
    await withSession(LEGACY(), spec({ elicitation: [{ match: 'address', action: 'decline', content: null }], sampling: { text: 'Short.' }, roots: ['file:///srv/a'] }), async (session) => {
      expect((await session.callTool('order_item', ORDER, signal())).text).toBe('Order not placed: the user declined to give an address')
      const summary = await session.callTool('summarize_text', { text: 'long' }, signal())
      expect(summary.text).toBe('Summary: Short.')
      expect(exchangeOf(summary.input_rounds)).toMatchObject({ method: 'sampling/createMessage', params: summarySampling('long'), answered_by: "the case's text" })
      const roots = await session.callTool('list_workspace', {}, signal())
      expect(roots.text).toBe('Roots: file:///srv/a')
      expect(exchangeOf(roots.input_rounds)).toMatchObject({ method: 'roots/list', params: {}, response: { roots: [{ uri: 'file:///srv/a', name: 'a' }] } })
    })
    const cancelled = await withSession(LEGACY(), spec({ elicitation: [{ match: '.', action: 'cancel', content: null }] }), (s) => s.callTool('order_item', ORDER, signal()))
    expect(cancelled.text).toBe('Order cancelled')
  })

  test('requests one after the other are rounds of their own', async () => {
    const outcome = await withSession(LEGACY('ROUNDS=2'), spec({ elicitation: ACCEPT_ADDRESS }), (s) => s.callTool('order_item', ORDER, signal()))
    expect(outcome.text).toBe(ORDERED)
    expect(outcome.input_rounds!.map((r) => [r.round, r.via, r.exchanges.length])).toEqual([
      [1, 'server_request', 1],
      [2, 'server_request', 1]
    ])
    expect(outcome.input_rounds![0].exchanges[0].key).not.toBe(outcome.input_rounds![1].exchanges[0].key)
  })

  test('more rounds than max_input_rounds: the request past it is refused unanswered, the same isError outcome as MRTR, a finding, the verdict failed', async () => {
    const asked: string[] = []
    await withSession(
      LEGACY('ROUNDS=9'),
      spec({ elicitation: ACCEPT_ADDRESS, max_input_rounds: 2 }),
      async (session, inputs) => {
        const watched = watchSession(session)
        const outcome = await watched.session.callTool('order_item', ORDER, signal())
        expect(outcome).toMatchObject({ isError: true, text: 'Error: the server asked for input more than 2 times (max_input_rounds 2)' })
        expect(outcome.input_rounds!.map((r) => [r.round, r.via, r.exchanges[0].answered_by, r.exchanges[0].error])).toEqual([
          [1, 'server_request', "rule 1 (match 'address'): accept", null],
          [2, 'server_request', "rule 1 (match 'address'): accept", null],
          [3, 'server_request', 'max_input_rounds reached: refused', { code: -32603, message: 'no more input for this call: max_input_rounds (2) reached' }]
        ])
        // The third request never reached the answers.
        expect(asked).toEqual(['elicitation/create', 'elicitation/create'])
        expect(watched.observed().findings.map((f) => [f.check, f.severity, f.message])).toEqual([
          ['observed-input-rounds', 'warning', 'order_item: the server asked for input 3 times, more than max_input_rounds (2)']
        ])
        expect(inputs.verdict([{ name: 'order_item', input_rounds: outcome.input_rounds }])!.reasons).toEqual(['order_item: the server asked for input 3 times, more than max_input_rounds (2)'])
      },
      noLlm,
      { client: counting(asked) }
    )
  })

  test('a server that asks on after the refusal: only max_input_rounds + 1 rounds are kept, the rest counted, none answered', async () => {
    const asked: string[] = []
    await withSession(
      LEGACY('ROUNDS=9', 'ASK=persist'),
      spec({ elicitation: ACCEPT_ADDRESS, max_input_rounds: 2 }),
      async (session) => {
        const raw = await session.callToolRaw('order_item', ORDER, signal())
        // What the server heard: two answers, seven refusals.
        expect(raw.response).toMatchObject({ kind: 'result', result: { content: [{ type: 'text', text: 'Asked 9 times: 2 accepted, 7 refused' }] } })
        expect(raw.input!.frames.server_requests).toHaveLength(3)
        expect(raw.input!.frames.server_requests_dropped).toBe(6)
        expect(raw.input!.rounds.map((r) => r.exchanges[0].answered_by)).toEqual(["rule 1 (match 'address'): accept", "rule 1 (match 'address'): accept", 'max_input_rounds reached: refused'])
        expect(asked).toHaveLength(2)
        expect(outcomeOf(raw)).toMatchObject({ isError: true, text: 'Error: the server asked for input more than 2 times (max_input_rounds 2)' })
        expect(watchSession(session).check(raw).map((f) => f.message)).toEqual([
          'order_item: the server asked for input 3 times, more than max_input_rounds (2) (and 6 more requests, refused and not recorded)'
        ])
      },
      noLlm,
      { client: counting(asked) }
    )
  })

  test('a url-mode elicitation: the client refuses it (-32602), and it is flagged', async () => {
    await withSession(LEGACY('ASK=url'), spec({ elicitation: ACCEPT_ADDRESS }), async (session) => {
      const watched = watchSession(session)
      const outcome = await watched.session.callTool('order_item', ORDER, signal())
      expect(outcome.isError).toBe(true)
      expect(exchangeOf(outcome.input_rounds)).toMatchObject({ method: 'elicitation/create', params: { mode: 'url' }, response: null, error: { code: -32602 }, answered_by: 'url mode not declared: refused' })
      expect(watched.observed().findings.map((f) => [f.check, f.message])).toEqual([
        ['observed-undeclared-capability', 'order_item: the server sent a url-mode elicitation/create, but the client declared form mode only']
      ])
    })
  })

  test('a ping from the server asks for no input: not among the frames, not a round', async () => {
    await withSession(LEGACY('ASK=ping'), spec({ elicitation: ACCEPT_ADDRESS }), async (session) => {
      const raw = await session.callToolRaw('order_item', ORDER, signal())
      expect(outcomeOf(raw).text).toBe(ORDERED)
      expect(raw.input!.frames.server_requests.map((r) => r.request.method)).toEqual(['elicitation/create'])
      expect(raw.input!.rounds.map((r) => r.exchanges.map((e) => e.method))).toEqual([['elicitation/create']])
    })
  })

  test('a legacy server sending a request for an undeclared capability: refused by the client (-32601) and flagged', async () => {
    await withSession(LEGACY('ASK=sampling-undeclared'), spec({ elicitation: ACCEPT_ADDRESS }), async (session) => {
      const watched = watchSession(session)
      const outcome = await watched.session.callTool('summarize_text', { text: 't' }, signal())
      expect(outcome).toMatchObject({ isError: true, text: expect.stringContaining('-32601') })
      expect(exchangeOf(outcome.input_rounds)).toMatchObject({ method: 'sampling/createMessage', response: null, error: { code: -32601 }, answered_by: 'not declared: refused' })
      expect(watched.observed().findings.map((f) => [f.check, f.message])).toEqual([
        ['observed-undeclared-capability', 'summarize_text: the server sent sampling/createMessage, but the client did not declare sampling']
      ])
    })
  })
})

describe('a call that ends while its input is still being answered', () => {
  let llm: ScriptedLlm | undefined
  afterEach(async () => {
    await llm?.close()
    llm = undefined
  })

  test("legacy: the sampling LLM call stops when its call is aborted, and its late answer is not the next call's", async () => {
    const controller = new AbortController()
    const settled: { aborted: boolean; ms: number }[] = []
    llm = await startScriptedLlm((request, index) => {
      if (index > 0) return { ...answer(request.model, 'Skillets are pans.'), delayMs: 2500 }
      // The run is cancelled while the model is still answering the first call's sampling request.
      controller.abort(new Error('the run was cancelled'))
      return { status: 500, body: { error: { message: 'too late' } }, delayMs: 1500 }
    })
    const deps: InputDeps = { llm: watchedChat(llm.url, settled), model: MODEL, attempt: 1, onSamplingCall: () => undefined }
    await withSession(
      LEGACY(),
      spec({ sampling: 'agent' }),
      async (session) => {
        await expect(session.callTool('summarize_text', { text: 'A skillet is a pan.' }, controller.signal)).rejects.toThrow(ServerError)
        await until(() => settled.length > 0)
        // The first LLM request ended with its call, long before its reply was due.
        expect(settled).toEqual([{ aborted: true, ms: expect.any(Number) }])
        expect(settled[0].ms).toBeLessThan(1200)
        // The same request again: were the first call's (failed) answer filed under this call, its rounds would show it.
        const next = await session.callTool('summarize_text', { text: 'A skillet is a pan.' }, signal())
        expect(next.text).toBe('Summary: Skillets are pans.')
        expect(next.input_rounds).toHaveLength(1)
        expect(exchangeOf(next.input_rounds)).toMatchObject({ response: { content: { type: 'text', text: 'Skillets are pans.' } }, error: null, problem: null })
      },
      deps
    )
  })

  test('modern: a sampling answer slower than the call\'s deadline stops at the deadline, and the call fails as a timeout (ServerError), not as an answer for the model', async () => {
    const settled: { aborted: boolean; ms: number }[] = []
    llm = await startScriptedLlm((request) => ({ ...answer(request.model, 'late'), delayMs: 3000 }))
    const deps: InputDeps = { llm: watchedChat(llm.url, settled), model: MODEL, attempt: 1, onSamplingCall: () => undefined }
    await withSession(
      MODERN(),
      spec({ sampling: 'agent' }),
      async (session) => {
        const started = performance.now()
        const failed: unknown = await session.callToolRaw('summarize_text', { text: 't' }, signal()).then(
          () => null,
          (error: unknown) => error
        )
        expect(failed).toBeInstanceOf(ServerError)
        expect((failed as Error).message).toBe("tool call 'summarize_text' failed: REQUEST_TIMEOUT: no answer within 1000 ms")
        expect(performance.now() - started).toBeLessThan(2900)
        await until(() => settled.length > 0)
        expect(settled).toEqual([{ aborted: true, ms: expect.any(Number) }])
      },
      deps,
      { requestTimeoutMs: 1000 }
    )
  })
})
