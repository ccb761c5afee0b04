import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from '@jest/globals'
import type { Json, ToolTestExpect } from '../src/config/types.js'
import type { McpTool } from '../src/mcp/session.js'
import type { AssertionCheck, StepResponse } from '../src/results/types.js'
import { schemaProblem } from '../src/config/tool-tests.js'
import { checkStep, responseText, responseValue } from '../src/tooltests/expect.js'
import { fileSnapshotStore, memorySnapshotStore, normaliseSnapshot, snapshotFileName, snapshotText, type SnapshotStore } from '../src/tooltests/snapshot.js'
import { sortKeys } from '../src/util/objects.js'

const text = (t: string) => ({ type: 'text', text: t })
const ok = (structured: Json | null, ...texts: string[]): StepResponse => ({ kind: 'result', is_error: false, content: texts.map(text), structured_content: structured })
const toolError = (message: string): StepResponse => ({ kind: 'result', is_error: true, content: [text(message)], structured_content: null })
const rpcError = (code: number, message: string, data: Json | null = null): StepResponse => ({ kind: 'error', code, message, data })

const item = { id: 'ITM-005', bin: 'K-17-ZETA', stock: 3, price: 39 }
const itemResponse = ok(item, JSON.stringify(item))

function run(
  expectations: ToolTestExpect,
  response: StepResponse,
  options: { tool?: McpTool; latencyMs?: number; snapshots?: SnapshotStore; stepIndex?: number; stepCount?: number; testId?: string } = {}
): AssertionCheck[] {
  return checkStep({
    testId: options.testId ?? 'bin-of-skillet',
    step: { tool: 'get_item', args: { id: 'ITM-005' }, expect: expectations, capture: {} },
    stepIndex: options.stepIndex ?? 1,
    stepCount: options.stepCount ?? 1,
    response,
    latencyMs: options.latencyMs ?? 10,
    tool: options.tool,
    snapshots: options.snapshots ?? memorySnapshotStore()
  })
}
const only = (checks: AssertionCheck[], name: AssertionCheck['check']) => {
  const found = checks.filter((c) => c.check === name)
  expect(found).toHaveLength(1)
  return found[0]
}

describe('is_error', () => {
  const rows: [string, boolean | undefined, StepResponse, boolean, RegExp][] = [
    ['default false, a result', undefined, itemResponse, true, /^the result is not an error$/],
    ['default false, an isError result', undefined, toolError('no such item'), false, /^expected a successful result; the result has isError: true \(no such item\)$/],
    ['default false, a JSON-RPC error', undefined, rpcError(-32602, 'Invalid params'), false, /^expected a successful result; the call got a JSON-RPC error -32602: Invalid params$/],
    ['false, a result', false, itemResponse, true, /not an error/],
    ['true, an isError result', true, toolError('no such item'), true, /^the result has isError: true/],
    ['true, a JSON-RPC error', true, rpcError(-32602, 'Invalid params'), true, /^the call got a JSON-RPC error -32602/],
    ['true, a result', true, itemResponse, false, /^expected the call to be refused; the result is not an error$/]
  ]
  test.each(rows)('%s', (_name, isError, response, passed, reason) => {
    const check = run(isError === undefined ? {} : { is_error: isError }, response)[0]
    expect(check.check).toBe('is_error')
    expect(check.passed).toBe(passed)
    expect(check.expected).toBe(isError ?? false)
    expect(check.actual).toBe(response.kind === 'error' || (response.kind === 'result' && response.is_error))
    expect(check.reason).toMatch(reason)
  })
  test('with no expectations, is_error is the only check', () => {
    expect(run({}, itemResponse).map((c) => c.check)).toEqual(['is_error'])
  })
})

describe('output_schema', () => {
  const tool = (outputSchema?: Record<string, unknown>): McpTool => ({ name: 'get_item', inputSchema: { type: 'object' }, outputSchema })
  const priced = { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] }
  test('valid structuredContent passes', () => {
    const check = only(run({}, ok({ price: 39 }), { tool: tool(priced) }), 'output_schema')
    expect(check).toMatchObject({ passed: true, expected: priced, actual: { price: 39 }, reason: "structuredContent conforms to get_item's outputSchema" })
  })
  test('"39 USD" where the schema says number fails', () => {
    const check = only(run({}, ok({ price: '39 USD' }), { tool: tool(priced) }), 'output_schema')
    expect(check.passed).toBe(false)
    expect(check.reason).toBe("structuredContent does not conform to get_item's outputSchema: /price must be number")
  })
  test('missing structuredContent fails, even when the text is that JSON', () => {
    const check = only(run({}, ok(null, '{"price":39}'), { tool: tool(priced) }), 'output_schema')
    expect(check.passed).toBe(false)
    expect(check.reason).toBe('get_item declares an outputSchema, but the result has no structuredContent (the spec requires it)')
  })
  test('a missing required property fails', () => {
    expect(only(run({}, ok({}), { tool: tool(priced) }), 'output_schema').reason).toMatch(/must have required property 'price'/)
  })
  test('a remote $ref is not fetched: fails with the reason', () => {
    const check = only(run({}, ok({ price: 1 }), { tool: tool({ $ref: 'https://example.com/item.json' }) }), 'output_schema')
    expect(check.passed).toBe(false)
    expect(check.reason).toMatch(/cannot be compiled: .*https:\/\/example\.com\/item\.json.*\(remote \$refs are not fetched\)/)
  })
  test('an unsupported dialect fails with the reason', () => {
    const check = only(run({}, ok({}), { tool: tool({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' }) }), 'output_schema')
    expect(check.passed).toBe(false)
    expect(check.reason).toMatch(/unsupported dialect http:\/\/json-schema.org\/draft-04\/schema#/)
  })
  test('a draft-07 schema is checked under draft-07', () => {
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { n: { type: 'integer' } } }
    expect(only(run({}, ok({ n: 1 }), { tool: tool(schema) }), 'output_schema').passed).toBe(true)
    expect(only(run({}, ok({ n: 1.5 }), { tool: tool(schema) }), 'output_schema').passed).toBe(false)
  })
  test.each([
    ['no outputSchema', tool(undefined), itemResponse],
    ['no tool', undefined, itemResponse],
    ['an isError result', tool(priced), toolError('boom')],
    ['a JSON-RPC error', tool(priced), rpcError(-32603, 'boom')]
  ])('skipped: %s', (_name, t, response) => {
    expect(run({}, response, { tool: t }).some((c) => c.check === 'output_schema')).toBe(false)
  })
  test('comes right after is_error', () => {
    expect(run({ contains: ['K-17'] }, itemResponse, { tool: tool(priced) }).map((c) => c.check)).toEqual(['is_error', 'output_schema', 'contains'])
  })
})

describe('contains and pattern read the text', () => {
  test('contains: one check per substring, case-insensitive', () => {
    const checks = run({ contains: ['k-17-zeta', 'ITM-005', 'missing'] }, itemResponse).filter((c) => c.check === 'contains')
    expect(checks.map((c) => [c.expected, c.passed])).toEqual([
      ['k-17-zeta', true],
      ['ITM-005', true],
      ['missing', false]
    ])
    expect(checks[2].reason).toBe('the text does not contain "missing"')
    expect(checks[2].actual).toBe(JSON.stringify(item))
  })
  test('contains: the JSON of structuredContent when there is no text', () => {
    expect(only(run({ contains: ['"bin":"K-17-ZETA"'] }, ok({ bin: 'K-17-ZETA' })), 'contains').passed).toBe(true)
  })
  test('contains: text blocks joined with newlines', () => {
    expect(only(run({ contains: ['first\nsecond'] }, ok(null, 'first', 'second')), 'contains').passed).toBe(true)
  })
  test('contains: the text wins over structuredContent', () => {
    expect(only(run({ contains: ['"bin"'] }, ok({ bin: 'x' }, 'Bin is x')), 'contains').passed).toBe(false)
  })
  test('contains: the message of a JSON-RPC error', () => {
    expect(only(run({ is_error: true, contains: ['unknown item'] }, rpcError(-32602, 'Unknown item ITM-9')), 'contains').passed).toBe(true)
  })
  test('pattern: search, case-insensitive, Python spelling', () => {
    expect(only(run({ pattern: '(?P<bin>k-\\d+-zeta)' }, itemResponse), 'pattern')).toMatchObject({ passed: true, expected: '(?P<bin>k-\\d+-zeta)' })
    expect(only(run({ pattern: '^K-17' }, itemResponse), 'pattern')).toMatchObject({ passed: false, reason: 'the text does not match /^K-17/' })
  })
  test('pattern: an invalid one fails the check', () => {
    expect(only(run({ pattern: '(' }, itemResponse), 'pattern')).toMatchObject({ passed: false, reason: expect.stringMatching(/^invalid pattern: /) })
  })
  test('a long text is cut in the report', () => {
    const long = 'x'.repeat(2000)
    const check = only(run({ contains: ['y'] }, ok(null, long)), 'contains')
    expect(check.actual).toBe(`${'x'.repeat(500)}… (1500 more characters)`)
  })
})

describe('json', () => {
  test('one check per path, in order, path named', () => {
    const checks = run({ json: { '$.bin': 'K-17-ZETA', '$.stock': { gte: 1 }, '$.price': { gte: 100 } } }, itemResponse).filter((c) => c.check === 'json')
    expect(checks.map((c) => [c.path, c.passed, c.actual])).toEqual([
      ['$.bin', true, 'K-17-ZETA'],
      ['$.stock', true, 3],
      ['$.price', false, 39]
    ])
    expect(checks[1].expected).toEqual({ gte: 1 })
    expect(checks[2].reason).toBe('39 is not ≥ 100')
  })
  test('reads structuredContent before the text', () => {
    expect(only(run({ json: { '$.bin': 'A' } }, ok({ bin: 'A' }, '{"bin":"B"}')), 'json').passed).toBe(true)
  })
  test('falls back to the text parsed as JSON', () => {
    expect(only(run({ json: { '$.bin': 'B' } }, ok(null, '{"bin":"B"}')), 'json').passed).toBe(true)
    expect(only(run({ json: { '$[1]': 2 } }, ok(null, ' [1, 2] ')), 'json').passed).toBe(true)
  })
  test('text that is not JSON fails with a clear reason', () => {
    const check = only(run({ json: { '$.bin': 'x' } }, ok(null, 'The skillet is in bin K-17-ZETA, aisle 4, next to the other cast-iron pans and the woks')), 'json')
    expect(check.passed).toBe(false)
    expect(check.reason).toBe('the result has no structuredContent and its text is not JSON: "The skillet is in bin K-17-ZETA, aisle 4, next to the other cast-iron pans and t…"')
  })
  test('no content at all', () => {
    expect(only(run({ json: { '$.x': 1 } }, ok(null)), 'json').reason).toBe('the result has no structuredContent and no text content')
  })
  test('a JSON-RPC error is {code, message, data}', () => {
    const checks = run({ is_error: true, json: { '$.code': -32602, '$.message': { contains: 'unknown' }, '$.data.field': 'id' } }, rpcError(-32602, 'Unknown item', { field: 'id' }))
    expect(checks.filter((c) => c.check === 'json').map((c) => c.passed)).toEqual([true, true, true])
  })
  test('nothing at the path', () => {
    expect(only(run({ json: { '$.nope': 'x' } }, itemResponse), 'json')).toMatchObject({ passed: false, actual: null, reason: 'no value at $.nope' })
  })
  test('a bad path fails the check instead of throwing', () => {
    expect(only(run({ json: { '$.[': 1 } }, itemResponse), 'json').reason).toMatch(/^invalid JSONPath/)
  })
})

describe('schema', () => {
  test('passes and fails against the value', () => {
    expect(only(run({ schema: { type: 'object', required: ['bin'] } }, itemResponse), 'schema')).toMatchObject({ passed: true, reason: 'the value conforms to the schema' })
    expect(only(run({ schema: { type: 'object', required: ['aisle'] } }, itemResponse), 'schema')).toMatchObject({ passed: false, reason: "the value does not conform to the schema: (root) must have required property 'aisle'" })
  })
  test('2020-12 by default: prefixItems works', () => {
    const schema = { type: 'array', prefixItems: [{ type: 'string' }], items: false }
    expect(only(run({ schema }, ok(null, '["a"]')), 'schema').passed).toBe(true)
    expect(only(run({ schema }, ok(null, '["a", 1]')), 'schema').passed).toBe(false)
  })
  test('boolean schemas', () => {
    expect(only(run({ schema: true }, itemResponse), 'schema').passed).toBe(true)
    expect(only(run({ schema: false }, itemResponse), 'schema').passed).toBe(false)
  })
  test('no value to check', () => {
    expect(only(run({ schema: { type: 'string' } }, ok(null, 'plain')), 'schema').reason).toMatch(/its text is not JSON/)
  })
  test('schemaProblem for the loader', () => {
    expect(schemaProblem({ type: 'object' })).toBeUndefined()
    expect(schemaProblem(true)).toBeUndefined()
    expect(schemaProblem({ type: 'nonsense' })).toMatch(/^the schema cannot be compiled: /)
    expect(schemaProblem('object')).toBe('the schema is not a JSON Schema (an object or a boolean)')
    expect(schemaProblem({ $ref: 'https://example.com/s.json' })).toMatch(/remote \$refs are not fetched/)
  })
})

describe('max_ms', () => {
  test.each([
    [1999, true, 'answered in 1999 ms'],
    [2000, true, 'answered in 2000 ms'],
    [2001, false, 'took 2001 ms, more than 2000 ms']
  ])('%i ms', (latencyMs, passed, reason) => {
    expect(only(run({ max_ms: 2000 }, itemResponse, { latencyMs }), 'max_ms')).toEqual({ check: 'max_ms', path: null, passed, expected: 2000, actual: latencyMs, reason })
  })
})

test('the checks come in a fixed order', () => {
  const tool: McpTool = { name: 'get_item', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } }
  const checks = run({ snapshot: { ignore: [] }, max_ms: 5, schema: true, json: { '$.a': 1, '$.b': 2 }, pattern: 'x', contains: ['y'], is_error: false }, itemResponse, { tool })
  expect(checks.map((c) => c.check)).toEqual(['is_error', 'output_schema', 'contains', 'pattern', 'json', 'json', 'schema', 'max_ms', 'snapshot'])
})

describe('snapshot', () => {
  const response = ok({ updated_at: '2026-05-01T10:00:00Z', stock: 3, bin: 'K-17-ZETA' })
  const stored = snapshotText({ is_error: false, value: { bin: 'K-17-ZETA', stock: 3 } })

  test('not set: no check', () => {
    expect(run({ snapshot: null }, response).some((c) => c.check === 'snapshot')).toBe(false)
    expect(run({}, response).some((c) => c.check === 'snapshot')).toBe(false)
  })
  test('missing, not CI: written, passes', () => {
    const store = memorySnapshotStore({ dir: 'snaps' })
    const check = only(run({ snapshot: { ignore: ['$.updated_at'] } }, response, { snapshots: store }), 'snapshot')
    expect(check).toMatchObject({ passed: true, reason: `snapshot written to ${join('snaps', 'bin-of-skillet.json')}`, expected: null })
    expect(store.files.get('bin-of-skillet.json')).toBe('{\n  "is_error": false,\n  "value": {\n    "bin": "K-17-ZETA",\n    "stock": 3\n  }\n}\n')
  })
  test('missing in CI: fails, nothing written', () => {
    const store = memorySnapshotStore({ ci: true, dir: 'snaps' })
    const check = only(run({ snapshot: { ignore: [] } }, response, { snapshots: store }), 'snapshot')
    expect(check.passed).toBe(false)
    expect(check.reason).toBe(
      `no snapshot ${join('snaps', 'bin-of-skillet.json')}; run the evaluation again with --update-snapshots (the action's update_snapshots: true in CI) to write it, and commit it`
    )
    expect(store.files.size).toBe(0)
  })
  test('missing in CI with update: written', () => {
    const store = memorySnapshotStore({ ci: true, update: true })
    expect(only(run({ snapshot: { ignore: ['$.updated_at'] } }, response, { snapshots: store }), 'snapshot').passed).toBe(true)
    expect(store.files.get('bin-of-skillet.json')).toBe(stored)
  })
  test('present and equal: passes, whatever the key order and line endings of the file', () => {
    const reordered = '{\r\n"value": {"stock": 3, "bin": "K-17-ZETA"},\r\n"is_error": false}'
    const store = memorySnapshotStore({ ci: true, files: { 'bin-of-skillet.json': reordered } })
    const check = only(run({ snapshot: { ignore: ['$.updated_at'] } }, response, { snapshots: store }), 'snapshot')
    expect(check).toMatchObject({ passed: true, expected: { is_error: false, value: { stock: 3, bin: 'K-17-ZETA' } }, actual: { is_error: false, value: { bin: 'K-17-ZETA', stock: 3 } } })
    expect(check.diff).toBeUndefined()
    expect(store.files.get('bin-of-skillet.json')).toBe(reordered)
  })
  test('ignore matters: without it the timestamp differs', () => {
    const store = memorySnapshotStore({ files: { 'bin-of-skillet.json': stored } })
    expect(only(run({ snapshot: { ignore: [] } }, response, { snapshots: store }), 'snapshot').passed).toBe(false)
  })
  test('changed: fails with a unified diff, file untouched', () => {
    const store = memorySnapshotStore({ dir: 'snaps', files: { 'bin-of-skillet.json': stored } })
    const changed = ok({ updated_at: 'x', stock: 2, bin: 'K-17-ZETA' })
    const check = only(run({ snapshot: { ignore: ['$.updated_at'] } }, changed, { snapshots: store }), 'snapshot')
    expect(check.passed).toBe(false)
    expect(check.reason).toBe(`the result differs from the snapshot ${join('snaps', 'bin-of-skillet.json')}; if the change is intended, run with --update-snapshots and commit the file`)
    // Named as a reviewer knows the file: no directory, no Index: line.
    expect(check.diff).toContain('--- stored bin-of-skillet.json\n+++ this run\n')
    expect(check.diff).not.toContain('Index:')
    expect(check.diff).toContain('-    "stock": 3\n')
    expect(check.diff).toContain('+    "stock": 2\n')
    expect(check.diff).toContain('     "bin": "K-17-ZETA",\n')
    expect(store.files.get('bin-of-skillet.json')).toBe(stored)
  })
  test('changed with update: overwritten, passes', () => {
    const store = memorySnapshotStore({ update: true, files: { 'bin-of-skillet.json': stored } })
    const check = only(run({ snapshot: { ignore: ['$.updated_at'] } }, ok({ stock: 2, bin: 'K-17-ZETA' }), { snapshots: store }), 'snapshot')
    expect(check.passed).toBe(true)
    expect(check.reason).toMatch(/^snapshot updated: /)
    expect(check.diff).toContain('+    "stock": 2')
    expect(store.files.get('bin-of-skillet.json')).toBe(snapshotText({ is_error: false, value: { bin: 'K-17-ZETA', stock: 2 } }))
  })
  test('a stored file that is not JSON differs', () => {
    const store = memorySnapshotStore({ files: { 'bin-of-skillet.json': 'garbage' } })
    const check = only(run({ snapshot: { ignore: [] } }, response, { snapshots: store }), 'snapshot')
    expect(check).toMatchObject({ passed: false, expected: 'garbage' })
    expect(check.reason).toMatch(/^the stored snapshot is not valid JSON /)
  })
  test('a refusal is snapshotted with is_error true', () => {
    const store = memorySnapshotStore()
    run({ is_error: true, snapshot: { ignore: [] } }, rpcError(-32602, 'Unknown item'), { snapshots: store })
    expect(JSON.parse(store.files.get('bin-of-skillet.json') as string)).toEqual({ is_error: true, value: { code: -32602, data: null, message: 'Unknown item' } })
  })
  test('a text answer that is not JSON is stored as the string', () => {
    const store = memorySnapshotStore()
    run({ snapshot: { ignore: ['$.x'] } }, ok(null, 'Bin K-17'), { snapshots: store })
    expect(JSON.parse(store.files.get('bin-of-skillet.json') as string)).toEqual({ is_error: false, value: 'Bin K-17' })
  })
  test('multi-step tests name a file per step', () => {
    const store = memorySnapshotStore()
    run({ snapshot: { ignore: [] } }, response, { snapshots: store, testId: 'order-then-read', stepIndex: 2, stepCount: 3 })
    expect([...store.files.keys()]).toEqual(['order-then-read.step-2.json'])
  })
  test('a store that cannot write fails the check', () => {
    const store: SnapshotStore = {
      ci: false,
      update: false,
      dir: 'ro',
      read: () => undefined,
      write: () => {
        throw new Error('EROFS: read-only file system')
      }
    }
    expect(only(run({ snapshot: { ignore: [] } }, response, { snapshots: store }), 'snapshot')).toMatchObject({ passed: false, reason: `cannot write snapshot ${join('ro', 'bin-of-skillet.json')}: EROFS: read-only file system` })
  })
})

describe('fileSnapshotStore on a real directory', () => {
  const root = mkdtempSync(join(tmpdir(), 'tooltests-snap-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  test('writes on first run (making the directory), matches on the next, fails on a change', () => {
    const dir = join(root, 'nested', '__snapshots__')
    const store = fileSnapshotStore(dir, { ci: false, update: false })
    expect(existsSync(dir)).toBe(false)
    expect(store.read('bin-of-skillet.json')).toBeUndefined()
    expect(only(run({ snapshot: { ignore: [] } }, itemResponse, { snapshots: store }), 'snapshot').reason).toBe(`snapshot written to ${join(dir, 'bin-of-skillet.json')}`)
    const file = join(dir, 'bin-of-skillet.json')
    expect(readFileSync(file, 'utf8')).toBe(snapshotText({ is_error: false, value: sortKeys(item) }))
    expect(readFileSync(file, 'utf8').endsWith('}\n')).toBe(true)

    const ci = fileSnapshotStore(dir, { ci: true, update: false })
    expect(only(run({ snapshot: { ignore: [] } }, itemResponse, { snapshots: ci }), 'snapshot').passed).toBe(true)
    const changed = only(run({ snapshot: { ignore: [] } }, ok({ ...item, stock: 0 }), { snapshots: ci }), 'snapshot')
    expect(changed.passed).toBe(false)
    expect(changed.diff).toContain('-    "stock": 3')

    writeFileSync(file, 'not json')
    const update = fileSnapshotStore(dir, { ci: true, update: true })
    expect(only(run({ snapshot: { ignore: [] } }, itemResponse, { snapshots: update }), 'snapshot').passed).toBe(true)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ is_error: false, value: item })
  })
  test('refuses a name that would leave the directory', () => {
    const store = fileSnapshotStore(root, { ci: false, update: false })
    expect(() => store.write('../x.json', '{}')).toThrow('invalid snapshot name "../x.json"')
    expect(() => store.read('a/b.json')).toThrow('invalid snapshot name')
  })
})

describe('snapshot helpers', () => {
  test.each([
    ['bin-of-skillet', 1, 1, 'bin-of-skillet.json'],
    ['order-then-read', 1, 2, 'order-then-read.step-1.json'],
    ['order-then-read', 2, 2, 'order-then-read.step-2.json'],
    ['a/b c', 1, 1, 'a_b_c.json'],
    ['..up', 1, 1, '__up.json']
  ])('snapshotFileName(%s, %i, %i)', (id, index, count, name) => {
    expect(snapshotFileName(id, index, count)).toBe(name)
  })
  test('normaliseSnapshot sorts keys at every level and drops ignored paths', () => {
    const doc = normaliseSnapshot(false, { z: 1, a: { y: [{ d: 1, c: 2 }], x: 'ts' } }, ['$.a.x'])
    expect(JSON.stringify(doc)).toBe('{"is_error":false,"value":{"a":{"y":[{"c":2,"d":1}]},"z":1}}')
  })
  test('snapshotText: two spaces and a trailing newline', () => {
    expect(snapshotText({ is_error: true, value: [1] })).toBe('{\n  "is_error": true,\n  "value": [\n    1\n  ]\n}\n')
  })
})

describe('responseText and responseValue', () => {
  test.each([
    ['text blocks joined', ok(null, 'a', 'b'), 'a\nb'],
    ['structuredContent JSON when no text', ok({ a: 1 }), '{"a":1}'],
    ['text wins over structuredContent', ok({ a: 1 }, 'A is 1'), 'A is 1'],
    ['an image placeholder', { kind: 'result', is_error: false, content: [{ type: 'image', mimeType: 'image/png', data: '' }], structured_content: null } as StepResponse, '[image: image/png]'],
    ['a JSON-RPC error: its message', rpcError(-32601, 'Method not found'), 'Method not found']
  ])('responseText: %s', (_name, response, expected) => {
    expect(responseText(response)).toBe(expected)
  })
  test.each([
    ['structuredContent', ok({ a: 1 }, '{"a":2}'), { ok: true, value: { a: 1 } }],
    ['a falsy structuredContent is still one', ok(0, '5'), { ok: true, value: 0 }],
    ['text parsed as JSON', ok(null, '{"a":2}'), { ok: true, value: { a: 2 } }],
    ['a JSON scalar in text', ok(null, '42'), { ok: true, value: 42 }],
    ['a JSON-RPC error', rpcError(-32602, 'bad', { f: 1 }), { ok: true, value: { code: -32602, message: 'bad', data: { f: 1 } } }],
    ['no JSON', ok(null, 'hello'), { ok: false, reason: 'the result has no structuredContent and its text is not JSON: "hello"' }],
    ['an isError result with plain text', toolError('boom'), { ok: false, reason: 'the result has no structuredContent and its text is not JSON: "boom"' }]
  ])('responseValue: %s', (_name, response, expected) => {
    expect(responseValue(response)).toEqual(expected)
  })
})
