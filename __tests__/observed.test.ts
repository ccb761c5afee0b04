import { afterEach, describe, expect, test } from '@jest/globals'
import { Client, type JSONRPCMessage, type JsonSchemaValidatorResult, type jsonSchemaValidator } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { fixturePath } from '../__fixtures__/harness.js'
import type { Json } from '../src/config/types.js'
import {
  OBSERVED_CHECKS,
  OBSERVED_CONTENT_BLOCKS,
  OBSERVED_INVALID_ARGUMENTS,
  OBSERVED_OUTPUT_SCHEMA,
  OBSERVED_UNKNOWN_TOOL,
  observeToolCall,
  observedChecks,
  type ObserveContext
} from '../src/conformance/observed.js'
import type { McpTool, RawCallResponse, RawToolCall } from '../src/mcp/session.js'
import type { Observation } from '../src/results/types.js'
import { validateArgs } from '../src/scoring/args-schema.js'
import { schemaCompilations as outputSchemaCompilations } from '../src/util/json-schema.js'

const OUTPUT = { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] }
const GET_ITEM: McpTool = { name: 'get_item', inputSchema: { type: 'object', properties: { id: { type: 'string' } } }, outputSchema: OUTPUT }
const PLAIN: McpTool = { name: 'plain', inputSchema: { type: 'object' } }
const MODERN: ObserveContext = { era: 'modern', argsValid: true }
const LEGACY: ObserveContext = { era: 'legacy', argsValid: true }

const text = (value: string) => ({ type: 'text', text: value })
const result = (fields: Record<string, unknown>): RawCallResponse => ({ kind: 'result', result: { resultType: 'complete', content: [text('ok')], ...fields } })
const rpcError = (code: number, message = 'nope'): RawCallResponse => ({ kind: 'error', error: { code, message } })

function call(response: RawCallResponse, name = 'get_item', args: Record<string, unknown> = { id: 'skillet' }): RawToolCall {
  return { name, args, request: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }, response, latency_ms: 3 }
}

/** Findings as "check:severity:message" for compact expectations. */
const seen = (findings: Observation[]) => findings.map((f) => `${f.check}:${f.severity}:${f.message}`)

describe('observed-output-schema', () => {
  test.each([
    ['conforming structuredContent', result({ structuredContent: { price: 39 } }), []],
    ['a number where the schema wants one, with extra fields', result({ structuredContent: { price: 1.5, currency: 'USD' } }), []],
    ['the wrong type', result({ structuredContent: { price: '39 USD' } }), ['observed-output-schema:error:get_item: structuredContent/price must be number (got "39 USD")']],
    ['a required property missing', result({ structuredContent: {} }), ["observed-output-schema:error:get_item: structuredContent must have required property 'price'"]],
    ['no structuredContent', result({}), ['observed-output-schema:error:get_item: the tool declares an outputSchema but the result has no structuredContent']],
    ['null structuredContent is a value to validate', result({ structuredContent: null }), ['observed-output-schema:error:get_item: structuredContent must be object (got null)']],
    ['an isError result need not conform', result({ isError: true, content: [text('out of stock')] }), []],
    ['a JSON-RPC error is not a result', rpcError(-32603), []]
  ])('%s', (_name, response, expected) => {
    expect(seen(observeToolCall(call(response), GET_ITEM, MODERN))).toEqual(expected)
  })

  test('a tool without an outputSchema is not held to one', () => {
    expect(observeToolCall(call(result({ structuredContent: 'anything' }), 'plain'), PLAIN, MODERN)).toEqual([])
  })

  test.each([
    ['does not compile', { type: 'no-such-type' }],
    ['has a remote $ref (never fetched)', { type: 'object', properties: { price: { $ref: 'https://schemas.example.com/price.json' } } }],
    ['has a dangling local $ref', { $ref: '#/$defs/nowhere' }],
    ['declares an unsupported dialect', { $schema: 'http://json-schema.org/draft-04/schema#', type: 'string' }]
  ])('a schema that %s is the probe’s finding, not this one’s', (_name, outputSchema) => {
    const tool: McpTool = { ...GET_ITEM, outputSchema }
    expect(observeToolCall(call(result({ structuredContent: { price: 'x' } })), tool, MODERN)).toEqual([])
  })

  test('the dialect the schema declares is the one used', () => {
    // draft-07 `items` as an array is a tuple; 2020-12 reads `prefixItems` instead.
    const draft7: McpTool = { ...GET_ITEM, outputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'number' }] } }
    expect(seen(observeToolCall(call(result({ structuredContent: ['x'] })), draft7, MODERN))).toEqual(['observed-output-schema:error:get_item: structuredContent/0 must be number (got "x")'])
    const modern: McpTool = { ...GET_ITEM, outputSchema: { type: 'array', prefixItems: [{ type: 'number' }] } }
    expect(seen(observeToolCall(call(result({ structuredContent: ['x'] })), modern, MODERN))).toHaveLength(1)
  })

  test('a schema with an $id compiles again for a second tool', () => {
    const a: McpTool = { ...GET_ITEM, outputSchema: { $id: 'urn:item', type: 'object', required: ['a'] } }
    const b: McpTool = { ...GET_ITEM, outputSchema: { $id: 'urn:item', type: 'object', required: ['b'] } }
    expect(observeToolCall(call(result({ structuredContent: { a: 1 } })), a, MODERN)).toEqual([])
    expect(seen(observeToolCall(call(result({ structuredContent: { a: 1 } })), b, MODERN))).toHaveLength(1)
  })

  test('a long value is cut in the message', () => {
    const [finding] = observeToolCall(call(result({ structuredContent: { price: 'x'.repeat(500) } })), GET_ITEM, MODERN)
    expect(finding.message.length).toBeLessThan(120)
  })

  test('each schema is compiled once, however many calls and tool objects use it', () => {
    const schema = { type: 'object', properties: { unique: { const: 'compile-once' } } }
    const before = outputSchemaCompilations()
    for (let i = 0; i < 200; i++) {
      // A fresh tool object each time (as every session lists its own), same schema text.
      const tool: McpTool = { ...GET_ITEM, outputSchema: JSON.parse(JSON.stringify(schema)) as Record<string, unknown> }
      observeToolCall(call(result({ structuredContent: { unique: i % 2 ? 'compile-once' : 'other' } })), tool, MODERN)
    }
    expect(outputSchemaCompilations() - before).toBe(1)
    // A schema that does not compile is remembered too.
    const broken: McpTool = { ...GET_ITEM, outputSchema: { type: 'never-a-type-once' } }
    for (let i = 0; i < 50; i++) observeToolCall(call(result({ structuredContent: {} })), broken, MODERN)
    expect(outputSchemaCompilations() - before).toBe(2)
  })
})

describe('observed-invalid-arguments-result', () => {
  test.each([
    ['invalid args → JSON-RPC error', false, rpcError(-32602, 'id must be a string'), MODERN, ['observed-invalid-arguments-result:error:get_item: arguments that fail its inputSchema got JSON-RPC error -32602 (id must be a string), not a result with isError: true']],
    ['legacy: a warning', false, rpcError(-32602, 'bad'), LEGACY, ['observed-invalid-arguments-result:warning:get_item: arguments that fail its inputSchema got JSON-RPC error -32602 (bad), not a result with isError: true']],
    ['invalid args → isError result', false, result({ isError: true }), MODERN, []],
    ['valid args → JSON-RPC error', true, rpcError(-32603), MODERN, []],
    ['unknown validity → JSON-RPC error', null, rpcError(-32602), MODERN, []],
    ['an envelope error answers a different problem', false, rpcError(-32022), MODERN, []]
  ])('%s', (_name, argsValid, response, context, expected) => {
    expect(seen(observeToolCall(call(response), GET_ITEM, { ...context, argsValid }))).toEqual(expected)
  })
})

describe('observed-unknown-tool-error', () => {
  const unknown = (response: RawCallResponse, context = MODERN) => seen(observeToolCall(call(response, 'nope', {}), undefined, { ...context, argsValid: null }))
  test.each([
    ['-32602 is right', rpcError(-32602), MODERN, []],
    ['an isError result', result({ isError: true }), MODERN, ['observed-unknown-tool-error:error:nope: an unlisted tool got a result (isError: true), not JSON-RPC error -32602']],
    ['a plain result', result({}), MODERN, ['observed-unknown-tool-error:error:nope: an unlisted tool got a result, not JSON-RPC error -32602']],
    ['another code', rpcError(-32601, 'Unknown tool'), MODERN, ['observed-unknown-tool-error:error:nope: an unlisted tool got JSON-RPC error -32601 (Unknown tool), not -32602']],
    ['legacy isError result: a warning', result({ isError: true }), LEGACY, ['observed-unknown-tool-error:warning:nope: an unlisted tool got a result (isError: true), not JSON-RPC error -32602']],
    ['legacy other code: a warning', rpcError(-32000), LEGACY, ['observed-unknown-tool-error:warning:nope: an unlisted tool got JSON-RPC error -32000 (nope), not -32602']]
  ])('%s', (_name, response, context, expected) => {
    expect(unknown(response, context)).toEqual(expected)
  })

  test('a listed tool is never an unknown tool', () => {
    expect(observeToolCall(call(rpcError(-32601), 'plain', {}), PLAIN, MODERN)).toEqual([])
    expect(observeToolCall(call(result({ isError: true }), 'plain', {}), PLAIN, MODERN)).toEqual([])
  })
})

describe('observed-content-blocks', () => {
  const blocks = (content: unknown) => seen(observeToolCall(call(result({ content }), 'plain', {}), PLAIN, MODERN))
  const finding = (message: string) => [`observed-content-blocks:error:plain: ${message}`]
  const PNG = Buffer.from('a tiny png').toString('base64')

  test.each([
    ['text', [text('hi')]],
    ['an empty array', []],
    ['image', [{ type: 'image', data: PNG, mimeType: 'image/png' }]],
    ['audio', [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }]],
    ['resource_link', [{ type: 'resource_link', uri: 'docs://a', name: 'a' }]],
    ['text resource', [{ type: 'resource', resource: { uri: 'docs://a', text: 'body' } }]],
    ['blob resource', [{ type: 'resource', resource: { uri: 'docs://a', blob: 'aGk=' } }]],
    ['padded base64, one and two', [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }, { type: 'image', data: 'aA==', mimeType: 'image/png' }]]
  ])('valid: %s', (_name, content) => {
    expect(blocks(content)).toEqual([])
  })

  test.each([
    ['content missing', undefined, 'the result has no content array'],
    ['content not an array', { type: 'text', text: 'hi' }, 'content is an object, not an array'],
    ['a block that is not an object', [text('ok'), 'hi'], 'content[1] is a string, not a content block'],
    ['a block without a type', [{ text: 'hi' }], 'content[0] has no string type'],
    ['an unknown type', [{ type: 'video', data: 'AAAA' }], 'content[0] has unknown type "video"'],
    ['text without text', [{ type: 'text', value: 'hi' }], 'content[0] (text) has no string text'],
    ['text that is not a string', [{ type: 'text', text: 5 }], 'content[0] (text) has no string text'],
    ['image without data', [{ type: 'image', mimeType: 'image/png' }], 'content[0] (image) has no string data'],
    ['image without mimeType', [{ type: 'image', data: PNG }], 'content[0] (image) has no string mimeType'],
    ['image data not base64', [{ type: 'image', data: 'not base64!', mimeType: 'image/png' }], 'content[0] (image) data is not valid base64'],
    ['image data base64url', [{ type: 'image', data: 'ab-_', mimeType: 'image/png' }], 'content[0] (image) data is not valid base64'],
    ['image data unpadded', [{ type: 'image', data: 'aGk', mimeType: 'image/png' }], 'content[0] (image) data is not valid base64'],
    ['image data with whitespace', [{ type: 'image', data: 'aGk=\n', mimeType: 'image/png' }], 'content[0] (image) data is not valid base64'],
    ['audio data not base64', [{ type: 'audio', data: 'a=bc', mimeType: 'audio/wav' }], 'content[0] (audio) data is not valid base64'],
    ['resource_link without uri', [{ type: 'resource_link', name: 'a' }], 'content[0] (resource_link) has no string uri'],
    ['resource_link without name', [{ type: 'resource_link', uri: 'docs://a' }], 'content[0] (resource_link) has no string name'],
    ['resource without resource', [{ type: 'resource', uri: 'docs://a' }], 'content[0] (resource) has no resource object'],
    ['resource without uri', [{ type: 'resource', resource: { text: 'x' } }], 'content[0] (resource) has no string resource.uri'],
    ['resource without text or blob', [{ type: 'resource', resource: { uri: 'docs://a' } }], 'content[0] (resource) has neither string resource.text nor resource.blob'],
    ['resource blob not base64', [{ type: 'resource', resource: { uri: 'docs://a', blob: '***' } }], 'content[0] (resource) resource.blob is not valid base64']
  ])('invalid: %s', (_name, content, message) => {
    expect(blocks(content)).toEqual(finding(message))
  })

  test('several bad blocks are one finding naming the first three', () => {
    const bad = { type: 'text' }
    expect(blocks([text('ok'), bad, bad, bad, bad, bad])).toEqual(
      finding('content[1] (text) has no string text, content[2] (text) has no string text, content[3] (text) has no string text and 2 more')
    )
  })

  test('an isError result is held to it too; an input_required one is not', () => {
    expect(seen(observeToolCall(call(result({ isError: true, content: 'oops' }), 'plain', {}), PLAIN, MODERN))).toEqual(finding('content is a string, not an array'))
    const pending: RawCallResponse = { kind: 'result', result: { resultType: 'input_required', requestState: 'abc' } }
    expect(observeToolCall(call(pending, 'plain', {}), PLAIN, MODERN)).toEqual([])
  })
})

describe('evidence and robustness', () => {
  test('evidence is short single-line JSON, the field at issue first', () => {
    const long = 'line\n'.repeat(400)
    const [finding] = observeToolCall(call(result({ content: [text(long)], structuredContent: { price: 'x' } })), GET_ITEM, MODERN)
    expect(finding.evidence.response.startsWith('{"result":{"structuredContent":{"price":"x"}')).toBe(true)
    expect(finding.evidence.response.length).toBeLessThanOrEqual(601)
    expect(finding.evidence.response).not.toMatch(/\n/)
    expect(JSON.parse(finding.evidence.request)).toMatchObject({ method: 'tools/call', params: { name: 'get_item' } })
  })

  test('a JSON-RPC error is shown as the error', () => {
    const [finding] = observeToolCall(call(rpcError(-32602, 'bad id')), GET_ITEM, { era: 'modern', argsValid: false })
    expect(JSON.parse(finding.evidence.response)).toEqual({ error: { code: -32602, message: 'bad id' } })
  })

  test('server text is kept as data, never interpreted', () => {
    const [finding] = observeToolCall(call(rpcError(-32601, '<script>alert(1)</script>\n| x |'), 'nope', {}), undefined, { era: 'modern', argsValid: null })
    expect(finding.message).toContain('<script>alert(1)</script> | x |')
  })

  test('never throws on malformed answers', () => {
    const circular: Record<string, unknown> = {}
    circular.self = circular
    const weird: RawToolCall[] = [
      { ...call(result({})), response: { kind: 'result', result: null as unknown as Record<string, unknown> } },
      { ...call(result({})), response: { kind: 'error', error: null as unknown as { code: number; message: string } } },
      { ...call(result({})), request: circular },
      { ...call(result({ structuredContent: circular })) }
    ]
    for (const c of weird) expect(() => observeToolCall(c, GET_ITEM, MODERN)).not.toThrow()
    expect(seen(observeToolCall(weird[0], GET_ITEM, MODERN))).toEqual(['observed-content-blocks:error:get_item: the result is not an object'])
  })
})

describe('observedChecks', () => {
  const finding = (check: string, message: string, severity: 'error' | 'warning' = 'error'): Observation => ({
    check,
    severity,
    tool: 'get_item',
    message,
    evidence: { request: `req ${message}`, response: `res ${message}` }
  })
  const byId = (checks: ReturnType<typeof observedChecks>) => Object.fromEntries(checks.map((c) => [c.id, c]))

  test('all seven checks, always, in a fixed order, with their specs', () => {
    const checks = observedChecks([])
    expect(checks.map((c) => c.id)).toEqual(['observed-output-schema', 'observed-invalid-arguments-result', 'observed-unknown-tool-error', 'observed-content-blocks', 'observed-input-required', 'observed-undeclared-capability', 'observed-input-rounds'])
    expect(OBSERVED_CHECKS.map((c) => c.id)).toEqual(checks.map((c) => c.id))
    expect(checks.every((c) => c.status === 'skip' && c.message === 'no tool result was observed')).toBe(true)
    expect(checks.map((c) => [c.severity, c.spec])).toEqual([
      ['error', "§8 structuredContent MUST conform to the tool's outputSchema"],
      ['error', '§5 tool argument failures are results with isError: true, not JSON-RPC errors'],
      ['error', '§5 unknown tool → -32602'],
      ['error', 'tool result content must be valid content blocks'],
      ['error', '§7 input_required only on tools/call, prompts/get, resources/read; inputRequests well formed; no ttlMs/cacheScope'],
      ['error', '§7 a server MUST NOT ask for a capability the client did not declare (-32021), nor for url-mode elicitation from a client that declared form only'],
      ['warning', 'more input rounds than max_input_rounds']
    ])
  })

  test('sources that saw no call: skip', () => {
    expect(observedChecks([{ label: 'tool test a', observed: { calls: 0, findings: [] } }]).map((c) => c.status)).toEqual(OBSERVED_CHECKS.map(() => 'skip'))
  })

  test('calls without findings: pass, counting every call', () => {
    const checks = observedChecks([
      { label: 'tool test a', observed: { calls: 9, findings: [], asked: 0 } },
      { label: 'run #1 x · gpt-4o · default', observed: { calls: 5, findings: [], asked: 2 } }
    ])
    expect(checks.map((c) => [c.status, c.message])).toEqual(OBSERVED_CHECKS.map(() => ['pass', '14 tool results checked; none broke it']))
    expect(observedChecks([{ label: 'a', observed: { calls: 1, findings: [] } }])[0].message).toBe('1 tool result checked; none broke it')
  })

  test('the input checks skip when the server asked for no input during any call (asked absent counts as 0); a finding still counts', () => {
    const statuses = (sources: Parameters<typeof observedChecks>[0]) => observedChecks(sources).map((c) => [c.id, c.status, c.status === 'skip' ? c.message : ''])
    const tools = ['observed-output-schema', 'observed-invalid-arguments-result', 'observed-unknown-tool-error', 'observed-content-blocks'].map((id) => [id, 'pass', ''])
    const skipped = ['observed-input-required', 'observed-undeclared-capability', 'observed-input-rounds'].map((id) => [id, 'skip', 'the server asked for no input'])
    expect(statuses([{ label: 'a', observed: { calls: 3, findings: [], asked: 0 } }, { label: 'b', observed: { calls: 2, findings: [] } }])).toEqual([...tools, ...skipped])
    // A session finding (an undeclared request outside any call) is a finding: the check fails even with no call that asked.
    const undeclared = finding('observed-undeclared-capability', '(outside a call): the server sent sampling/createMessage, but the client did not declare sampling')
    expect(statuses([{ label: 'a', observed: { calls: 3, findings: [undeclared], asked: 0 } }])).toEqual([...tools, skipped[0], ['observed-undeclared-capability', 'fail', ''], skipped[2]])
  })

  test('a finding fails its check only, naming where it was seen, with its evidence', () => {
    const checks = byId(
      observedChecks([
        { label: 'tool test bin-of-skillet', observed: { calls: 1, findings: [finding(OBSERVED_OUTPUT_SCHEMA.id, 'get_item: structuredContent/price must be number (got "39 USD")')] } },
        { label: 'run #3 find-skillet · gpt-4o · default', observed: { calls: 2, findings: [finding(OBSERVED_OUTPUT_SCHEMA.id, 'get_item: structuredContent/price must be number (got "39 USD")')] } }
      ])
    )
    expect(checks[OBSERVED_OUTPUT_SCHEMA.id]).toEqual({
      ...OBSERVED_OUTPUT_SCHEMA,
      status: 'fail',
      message: 'get_item: structuredContent/price must be number (got "39 USD") (seen in tool test bin-of-skillet; run #3 find-skillet · gpt-4o · default)',
      evidence: { request: 'req get_item: structuredContent/price must be number (got "39 USD")', response: 'res get_item: structuredContent/price must be number (got "39 USD")' }
    })
    expect(checks[OBSERVED_CONTENT_BLOCKS.id].status).toBe('pass')
    expect(checks[OBSERVED_CONTENT_BLOCKS.id].message).toBe('3 tool results checked; none broke it')
  })

  test('one source repeating a finding is named once; labels cap at three', () => {
    const same = finding(OBSERVED_CONTENT_BLOCKS.id, 'x: content[0] (text) has no string text')
    const sources = ['a', 'b', 'c', 'd', 'e'].map((label) => ({ label: `run ${label}`, observed: { calls: 2, findings: [same, same] } }))
    const check = byId(observedChecks(sources))[OBSERVED_CONTENT_BLOCKS.id]
    expect(check.message).toBe('x: content[0] (text) has no string text (seen in run a; run b; run c; and 2 more)')
  })

  test('up to five distinct findings, then "and N more"', () => {
    const findings = Array.from({ length: 8 }, (_, i) => finding(OBSERVED_UNKNOWN_TOOL.id, `tool${i}: an unlisted tool got a result, not JSON-RPC error -32602`))
    const check = byId(observedChecks([{ label: 'tool test t', observed: { calls: 8, findings } }]))[OBSERVED_UNKNOWN_TOOL.id]
    expect(check.message.split('; ').slice(0, 5).map((m) => m.split(':')[0])).toEqual(['tool0', 'tool1', 'tool2', 'tool3', 'tool4'])
    expect(check.message.endsWith('; and 3 more')).toBe(true)
    expect(check.evidence?.request).toBe('req tool0: an unlisted tool got a result, not JSON-RPC error -32602')
  })

  test('only warnings (legacy): warn with severity warning; any error: fail', () => {
    const warning = finding(OBSERVED_INVALID_ARGUMENTS.id, 'w', 'warning')
    const onlyWarnings = byId(observedChecks([{ label: 'a', observed: { calls: 1, findings: [warning] } }]))[OBSERVED_INVALID_ARGUMENTS.id]
    expect([onlyWarnings.status, onlyWarnings.severity]).toEqual(['warn', 'warning'])
    const mixed = byId(observedChecks([{ label: 'a', observed: { calls: 2, findings: [warning, finding(OBSERVED_INVALID_ARGUMENTS.id, 'e')] } }]))[OBSERVED_INVALID_ARGUMENTS.id]
    expect([mixed.status, mixed.severity]).toEqual(['fail', 'error'])
  })

  test('findings of other checks are ignored', () => {
    const checks = observedChecks([{ label: 'a', observed: { calls: 1, findings: [finding('something-else', 'x')], asked: 1 } }])
    expect(checks.map((c) => c.status)).toEqual(OBSERVED_CHECKS.map(() => 'pass'))
  })
})

describe('end to end: a real server’s real frames', () => {
  let client: Client | undefined
  afterEach(async () => {
    await client?.close().catch(() => undefined)
    client = undefined
  })

  test('produce exactly the expected findings', async () => {
    // Driven the way the session drives a server: auto negotiation, a short probe, and a validator
    // that lets everything through, so the SDK's own schema check does not hide the answer.
    const permissive: jsonSchemaValidator = { getValidator: <T>() => (input: unknown): JsonSchemaValidatorResult<T> => ({ valid: true, data: input as T, errorMessage: undefined }) }
    client = new Client({ name: 'observed-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 2000 } }, jsonSchemaValidator: permissive })
    const transport = new StdioClientTransport({ command: process.execPath, args: [fixturePath('servers/observed-server.mjs')], stderr: 'ignore' })
    await client.connect(transport)
    expect(client.getProtocolEra()).toBe('modern')

    // The raw frames, both ways: the SDK strips resultType and rejects bad content blocks, so
    // the checks read what came over the wire, as the session's callToolRaw does.
    const sent: JSONRPCMessage[] = []
    const received: JSONRPCMessage[] = []
    const send = transport.send.bind(transport)
    transport.send = (message: JSONRPCMessage) => {
      sent.push(message)
      return send(message)
    }
    const onmessage = transport.onmessage!
    transport.onmessage = (message, ...rest) => {
      received.push(message)
      onmessage(message, ...rest)
    }

    const listed = await client.listTools(undefined, { cacheMode: 'bypass' })
    const tools: McpTool[] = listed.tools.map((t) => ({
      name: t.name,
      inputSchema: t.inputSchema as Record<string, unknown>,
      ...(t.outputSchema ? { outputSchema: t.outputSchema as Record<string, unknown> } : {})
    }))
    expect(tools.map((t) => t.name)).toEqual(['get_item'])

    const observeRaw = async (name: string, args: Record<string, unknown>): Promise<Observation[]> => {
      await client!.callTool({ name, arguments: args }).catch(() => undefined)
      const request = [...sent].reverse().find((m) => 'method' in m && m.method === 'tools/call') as Record<string, unknown>
      const frame = received.find((m) => 'id' in m && m.id === request.id && !('method' in m)) as Record<string, unknown>
      const response: RawCallResponse = 'error' in frame ? { kind: 'error', error: frame.error as { code: number; message: string } } : { kind: 'result', result: frame.result as Record<string, unknown> }
      const tool = tools.find((t) => t.name === name)
      const argsValid = validateArgs(tool?.inputSchema, args as Record<string, Json>)?.valid ?? null
      return observeToolCall({ name, args, request, response, latency_ms: 0 }, tool, { era: 'modern', argsValid })
    }

    const observations = {
      skillet: await observeRaw('get_item', { id: 'skillet' }),
      photo: await observeRaw('get_item', { id: 'photo' }),
      missing: await observeRaw('get_item', { id: 'missing' }),
      pan: await observeRaw('get_item', { id: 'pan' }),
      unknown: await observeRaw('no_such_tool', {}),
      badArgs: await observeRaw('get_item', { id: 5 })
    }
    expect(Object.fromEntries(Object.entries(observations).map(([k, v]) => [k, seen(v)]))).toEqual({
      skillet: ['observed-output-schema:error:get_item: structuredContent/price must be number (got "39 USD")'],
      photo: ['observed-content-blocks:error:get_item: content[1] (image) data is not valid base64'],
      missing: ['observed-output-schema:error:get_item: the tool declares an outputSchema but the result has no structuredContent'],
      pan: [],
      unknown: ['observed-unknown-tool-error:error:no_such_tool: an unlisted tool got a result (isError: true), not JSON-RPC error -32602'],
      badArgs: ['observed-invalid-arguments-result:error:get_item: arguments that fail its inputSchema got JSON-RPC error -32602 (id must be a string), not a result with isError: true']
    })
    // The evidence is the raw frame, resultType and all.
    expect(observations.skillet[0].evidence.response).toContain('"resultType":"complete"')

    const checks = observedChecks([
      { label: 'tool test skillet', observed: { calls: 4, findings: [...observations.skillet, ...observations.photo, ...observations.missing] } },
      { label: 'run #1 find · gpt-4o · default', observed: { calls: 2, findings: [...observations.skillet, ...observations.unknown, ...observations.badArgs] } }
    ])
    expect(checks.map((c) => `${c.id}:${c.status}`)).toEqual([
      'observed-output-schema:fail',
      'observed-invalid-arguments-result:fail',
      'observed-unknown-tool-error:fail',
      'observed-content-blocks:fail',
      // This server never asks the client for input: nothing for the input checks to hold to the rules.
      'observed-input-required:skip',
      'observed-undeclared-capability:skip',
      'observed-input-rounds:skip'
    ])
    expect(checks[0].message).toBe(
      'get_item: structuredContent/price must be number (got "39 USD") (seen in tool test skillet; run #1 find · gpt-4o · default); get_item: the tool declares an outputSchema but the result has no structuredContent (seen in tool test skillet)'
    )
  })
})
