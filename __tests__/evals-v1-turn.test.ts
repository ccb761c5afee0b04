import { describe, expect, test } from '@jest/globals'
import { evalsV1Calls } from '../src/agent/evals-v1-calls.js'
import { exposeServer } from '../src/agent/exposure.js'
import { startTranscript, type ToolCallRecord } from '../src/agent/run-agent.js'
import type { EvalsV1TurnExpect, Json } from '../src/config/types.js'
import { outcomeOf } from '../src/mcp/outcome.js'
import { checkEvalsV1Turn, checkToolEntry, hasTurnChecks, type EvalsV1Call, type TurnCheckSession } from '../src/scoring/evals-v1-turn.js'

const expectOf = (partial: Partial<EvalsV1TurnExpect>): EvalsV1TurnExpect => ({ tools: [], result: null, widget_fields: null, widget_screenshot: null, ...partial })
const raw = (structuredContent: Json, isError = false): Record<string, unknown> => ({ content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent, isError })

/** A session whose resources are a map (a read of anything else throws, as a failed read does). */
const sessionOf = (resources: Record<string, string>, outputSchema?: Json): TurnCheckSession => ({
  outputSchemaOf: (tool) => (tool === 'search' ? outputSchema : undefined),
  readResource: async (uri) => {
    if (!(uri in resources)) throw new Error(`no resource ${uri}`)
    return { contents: [{ uri, text: resources[uri] }] }
  }
})

const CALLS: EvalsV1Call[] = [
  { name: 'search', args: { query: 'mango', limit: 2 }, turn: 0, raw: raw({ query: 'mango', total: 1, uri: 'fruit://mango' }) },
  { name: 'search', args: { query: 'apple' }, turn: 1, raw: raw({ query: 'apple', total: 0, uri: 'fruit://none' }) },
  { name: 'buy', args: { item: 'apple' }, turn: 1, protocol_error: { code: -32603, message: 'checkout is down' } }
]

describe('an evals/v1 turn’s tools[] entries', () => {
  test('some call of the name among all calls so far matches every matcher', () => {
    expect(checkToolEntry({ name: 'search', args: { query: 'MANGO' }, after_turn: null }, CALLS)).toEqual({ check: 'tools', passed: true, reason: 'search called with matching arguments (call 1, turn 1)' })
    expect(checkToolEntry({ name: 'search', args: null, after_turn: null }, CALLS)).toEqual({ check: 'tools', passed: true, reason: 'search called (2x)' })
  })

  test('afterTurn (0-based) leaves out the calls of earlier turns', () => {
    expect(checkToolEntry({ name: 'search', args: { query: 'mango' }, after_turn: 1 }, CALLS)).toEqual({
      check: 'tools',
      passed: false,
      reason: 'no call of search at or after turn 2 (afterTurn 1) matched its arguments; closest (call 2, turn 2): query="apple" (expected "mango", any case)'
    })
    expect(checkToolEntry({ name: 'search', args: { query: 'apple' }, after_turn: 1 }, CALLS).passed).toBe(true)
    expect(checkToolEntry({ name: 'search', args: null, after_turn: 2 }, CALLS)).toEqual({ check: 'tools', passed: false, reason: 'search was not called at or after turn 3 (afterTurn 2)' })
  })

  test('not called; and the closest call named when none matches (the fewest mismatched arguments)', () => {
    expect(checkToolEntry({ name: 'refund', args: null, after_turn: null }, CALLS)).toEqual({ check: 'tools', passed: false, reason: 'refund was not called' })
    expect(checkToolEntry({ name: 'search', args: { query: 'mango', limit: 3 }, after_turn: null }, CALLS).reason).toBe(
      'no call of search matched its arguments; closest (call 1, turn 1): limit=2 (expected 3)'
    )
  })
})

describe('an evals/v1 turn’s result and widget expectations', () => {
  test('result runs on the last call of the tool so far, its raw result the root, a nested resource read through the session', async () => {
    const expect1 = expectOf({
      result: {
        tool: 'search',
        assert: [
          { kind: 'equals', path: '$.structuredContent.query', equals: 'apple' },
          { kind: 'resource', uri: '${fromResult:$.structuredContent.uri}', assert: [{ kind: 'contains', contains: 'none left' }] }
        ]
      }
    })
    const passing = await checkEvalsV1Turn(expect1, CALLS, 1, sessionOf({ 'fruit://none': 'None left today' }))
    expect(passing).toEqual([{ check: 'result', passed: true, reason: 'search, call 2, turn 2: 2 assertions passed', assertions: [expect.objectContaining({ check: 'equals', passed: true }), expect.objectContaining({ check: 'resource', passed: true })] }])
    const failing = await checkEvalsV1Turn(expect1, CALLS, 1, sessionOf({}))
    expect(failing).toHaveLength(1)
    expect(failing[0].passed).toBe(false)
    expect(failing[0].reason).toMatch(/^search, call 2, turn 2: 1 of 2 assertions failed: resource .*no resource fruit:\/\/none/)
    // Each assertion's own check is kept, as a tool test keeps its checks.
    expect(failing[0].assertions!.map((a) => [a.check, a.passed])).toEqual([
      ['equals', true],
      ['resource', false]
    ])
  })

  test('result on a call answered with a JSON-RPC error: executionError counts it; another assertion fails with it', async () => {
    const refused = await checkEvalsV1Turn(expectOf({ result: { tool: 'buy', assert: [{ kind: 'executionError' }] } }), CALLS, 1, sessionOf({}))
    expect(refused[0]).toMatchObject({ check: 'result', passed: true })
    const expectedResult = await checkEvalsV1Turn(expectOf({ result: { tool: 'buy', assert: [{ kind: 'executionError', equals: false }] } }), CALLS, 1, sessionOf({}))
    expect(expectedResult[0].passed).toBe(false)
    expect(expectedResult[0].reason).toMatch(/^buy, call 3, turn 2: .*checkout is down/)
    // The error is the root, as in an evals/v1 check: `{error: {code, message, data}}`.
    const [code] = await checkEvalsV1Turn(expectOf({ result: { tool: 'buy', assert: [{ kind: 'executionError' }, { kind: 'jsonpath', path: '$.error.code', equals: -32603 }] } }), CALLS, 1, sessionOf({}))
    expect(code).toMatchObject({ check: 'result', passed: true })
  })

  test('result with no call of the tool, or a call never sent, fails saying so', async () => {
    const none = await checkEvalsV1Turn(expectOf({ result: { tool: 'refund', assert: [{ kind: 'executionError', equals: false }] } }), CALLS, 1, sessionOf({}))
    expect(none).toEqual([{ check: 'result', passed: false, reason: 'refund was not called, so there is no result to check' }])
    const unsent: EvalsV1Call[] = [{ name: 'wipe', args: {}, turn: 0, not_sent: "Error: there is no tool named 'wipe'." }]
    const notSent = await checkEvalsV1Turn(expectOf({ result: { tool: 'wipe', assert: [{ kind: 'executionError', equals: false }] } }), unsent, 0, sessionOf({}))
    expect(notSent[0]).toEqual({ check: 'result', passed: false, reason: "wipe, call 1, turn 1: the call was not sent to the server (Error: there is no tool named 'wipe'.)" })
  })

  test('outputSchemaValid reads the tool’s outputSchema from the session', async () => {
    const schema = { type: 'object', properties: { total: { type: 'string' } } }
    const [check] = await checkEvalsV1Turn(expectOf({ result: { tool: 'search', assert: [{ kind: 'outputSchemaValid' }] } }), CALLS, 1, sessionOf({}, schema))
    expect(check.passed).toBe(false)
    const [holds] = await checkEvalsV1Turn(expectOf({ result: { tool: 'search', assert: [{ kind: 'outputSchemaValid' }] } }), CALLS, 1, sessionOf({}, { type: 'object' }))
    expect(holds.passed).toBe(true)
  })

  test('widget fields read this turn’s last call (not an earlier turn’s); a turn without a call fails', async () => {
    const widget = expectOf({ widget_fields: { query: 'mango' } })
    expect(await checkEvalsV1Turn(widget, CALLS.slice(0, 1), 0, sessionOf({}))).toEqual([{ check: 'widget', passed: true, reason: 'search, call 1, turn 1: the widget field matches structuredContent' }])
    // Turn 2's last call is buy (a JSON-RPC error): no structuredContent.
    expect(await checkEvalsV1Turn(widget, CALLS, 1, sessionOf({}))).toEqual([{ check: 'widget', passed: false, reason: 'buy, call 3, turn 2: the call returned no structuredContent object' }])
    expect(await checkEvalsV1Turn(widget, CALLS, 2, sessionOf({}))).toEqual([
      { check: 'widget', passed: false, reason: 'this turn made no tool call, so there is no structuredContent to compare the widget fields with' }
    ])
  })

  test('the checks come in order, one per entry: tools entries, result, widget; a screenshot alone is a check too', async () => {
    const all = expectOf({
      tools: [
        { name: 'search', args: null, after_turn: null },
        { name: 'buy', args: { item: { contains: 'APP' } }, after_turn: 1 }
      ],
      result: { tool: 'search', assert: [{ kind: 'jsonpath', path: '$.structuredContent.total', equals: 0 }] },
      widget_fields: { item: 'apple' }
    })
    const checks = await checkEvalsV1Turn(all, CALLS, 1, sessionOf({}))
    expect(checks.map((c) => [c.check, c.passed])).toEqual([
      ['tools', true],
      ['tools', true],
      ['result', true],
      ['widget', false]
    ])
    expect(hasTurnChecks(all)).toBe(true)
    expect(hasTurnChecks(expectOf({ widget_screenshot: { rubric: 'looks right', threshold: 0.7, tool: null, args: null } }))).toBe(true)
    expect(hasTurnChecks(undefined)).toBe(false)
  })
})

describe('what the turn checks read of the agent’s calls', () => {
  test('a tools/call outcome carries the raw result, or the JSON-RPC error', () => {
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/call' }
    const result = raw({ total: 1 })
    expect(outcomeOf({ name: 'search', args: {}, request, latency_ms: 1, response: { kind: 'result', result } })).toMatchObject({ isError: false, result })
    const refused = outcomeOf({ name: 'search', args: {}, request, latency_ms: 1, response: { kind: 'error', error: { code: -32602, message: 'bad' } } })
    expect(refused).toEqual({ text: 'MCP error -32602: bad', isError: true, protocol_error: { code: -32602, message: 'bad' } })
  })

  test('evalsV1Calls: each call with its turn, raw answer, JSON-RPC error, or why it was never sent', () => {
    const transcript = startTranscript('system')
    const call = (extra: Partial<ToolCallRecord>): ToolCallRecord => ({ name: 'search', args: {}, result: '', shown_chars: 0, is_error: false, latency_ms: 1, ...extra })
    transcript.tool_calls.push(
      call({ raw_result: raw({ a: 1 }) }),
      call({ name: 'wipe', is_error: true, result: "Error: there is no tool named 'wipe'." }),
      call({ is_error: true, result: 'MCP error -1: x', protocol_error: { code: -1, message: 'x' } })
    )
    const turn = { user: 'u', simulated: false, first_message: 1, llm_calls: 1, final_output: 'a', stop_reason: 'final_answer' as const }
    transcript.turns.push({ ...turn, first_call: 0, calls: 1 }, { ...turn, first_call: 1, calls: 2 })
    expect(evalsV1Calls(transcript)).toEqual([
      { name: 'search', args: {}, turn: 0, raw: raw({ a: 1 }) },
      { name: 'wipe', args: {}, turn: 1, not_sent: "Error: there is no tool named 'wipe'." },
      { name: 'search', args: {}, turn: 1, protocol_error: { code: -1, message: 'x' } }
    ])
  })

  test('disallowed tools are not offered; resources and prompts of the same name still are', () => {
    const server = {
      tools: [
        { name: 'search', inputSchema: { type: 'object' } },
        { name: 'delete_all', inputSchema: { type: 'object' } }
      ],
      resources: [],
      prompts: [{ name: 'delete_all_prompt' }]
    }
    const { functions, targets } = exposeServer(server, ['delete_all'])
    expect(functions.map((f) => f.function.name)).toEqual(['search', 'delete_all_prompt'])
    expect(targets.has('delete_all')).toBe(false)
    expect(exposeServer(server).functions.map((f) => f.function.name)).toEqual(['search', 'delete_all', 'delete_all_prompt'])
  })
})

describe('an evals/v1 turn’s widget screenshot', () => {
  const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47])
  const SHOWN: EvalsV1Call[] = [
    { name: 'search', args: { query: 'mango' }, turn: 0, raw: raw({ query: 'mango' }), app_render: 'run-1.view-1' },
    { name: 'search', args: { query: 'apple' }, turn: 1, raw: raw({ query: 'apple' }), app_render: 'run-1.view-2' },
    { name: 'buy', args: { item: 'apple' }, turn: 1, raw: raw({ ok: true }) }
  ]
  const shot = (over: Partial<NonNullable<EvalsV1TurnExpect['widget_screenshot']>> = {}) => expectOf({ widget_screenshot: { rubric: 'Shows the fruit.', threshold: 0.7, tool: null, args: null, ...over } })
  const judged: string[] = []
  const screens = (score: number | Error, pngs: Record<string, Buffer> = { 'run-1.view-1': PNG_BYTES, 'run-1.view-2': PNG_BYTES }) => ({
    screenshotOf: (id: string) => pngs[id] ?? null,
    judge: async (input: { rubric: string; png: Buffer; context: string }) => {
      judged.push(input.context)
      if (score instanceof Error) throw score
      return { score, reason: 'looks right' }
    },
    signal: new AbortController().signal
  })

  test('the chosen call: this turn’s last rendered one, or the last of `tool` whose arguments match; its score / 10 against the threshold', async () => {
    judged.length = 0
    expect(await checkEvalsV1Turn(shot(), SHOWN, 1, sessionOf({}), screens(8))).toEqual([
      { check: 'widget', passed: true, reason: 'screenshot: search, call 2, turn 2: scored 8/10 against the threshold 0.7: looks right' }
    ])
    const [byArgs] = await checkEvalsV1Turn(shot({ tool: 'search', args: { query: 'mango' } }), SHOWN, 1, sessionOf({}), screens(6))
    expect(byArgs).toMatchObject({ passed: false, reason: expect.stringContaining('search, call 1, turn 1: scored 6/10 against the threshold 0.7') })
    expect(judged).toEqual(['the view of search (call 2, turn 2)', 'the view of search (call 1, turn 1)'])
  })

  test('no call, no view, no screenshot, no judge, or a judge that fails: the check fails, saying which', async () => {
    const reasonOf = async (expect1: EvalsV1TurnExpect, calls: EvalsV1Call[], s?: Parameters<typeof checkEvalsV1Turn>[4]) => (await checkEvalsV1Turn(expect1, calls, 1, sessionOf({}), s))[0]
    expect(await reasonOf(shot({ tool: 'refund' }), SHOWN, screens(9))).toEqual({ check: 'widget', passed: false, reason: 'screenshot: no call of refund so far, so there is no widget to judge' })
    expect((await reasonOf(shot({ tool: 'buy' }), SHOWN, screens(9))).reason).toBe('screenshot: buy, call 3, turn 2: no view was rendered for this call (its tool links no ui:// resource, or the call got no result)')
    expect((await reasonOf(shot(), SHOWN.slice(2), screens(9))).reason).toBe('screenshot: this turn made no call whose view was rendered, so there is no widget to judge')
    expect((await reasonOf(shot(), SHOWN, screens(9, {}))).reason).toContain('the view has no screenshot (render run-1.view-2 says why)')
    expect((await reasonOf(shot(), SHOWN, undefined)).reason).toContain('the view has no screenshot')
    expect((await reasonOf(shot(), SHOWN, { ...screens(9), judge: undefined })).reason).toContain('needs a vision judge, and none is configured')
    expect((await reasonOf(shot(), SHOWN, screens(new Error('401 no key')))).reason).toContain('the vision judge failed: 401 no key')
  })
})
