import { describe, expect, test } from '@jest/globals'
import type { Json } from '../src/config/types.js'
import type { EvalsV1Assertion } from '../src/results/suite.js'
import { runEvalsV1Assertions, type AssertionContext } from '../src/scoring/evals-v1-assertions.js'
import { textOf } from '../src/scoring/evals-v1-args.js'
import { evalsV1Path, fromResultPath } from '../src/util/evals-v1-paths.js'

const weather = { city: 'Paris', temp: 21.5, conditions: ['sunny', 'windy'], wind: { speed: 12, unit: 'km/h' }, 'feels-like': 20 }
const result: Json = { content: [{ type: 'text', text: 'Paris: 21.5°C, sunny' }], structuredContent: weather, isError: false }
const outputSchema: Json = {
  type: 'object',
  properties: { city: { type: 'string' }, temp: { type: 'number' } },
  required: ['city', 'temp']
}
const resources: Record<string, Json> = {
  'config://settings': { contents: [{ uri: 'config://settings', mimeType: 'application/json', text: '{"theme":"dark","lang":"fr"}' }] },
  'ui://widget/weather.html': { contents: [{ uri: 'ui://widget/weather.html', mimeType: 'text/html', text: '<div id="weather">Paris</div>' }] }
}
const readResource = async (uri: string): Promise<Json> => {
  const found = resources[uri]
  if (!found) throw new Error(`Resource ${uri} not found`)
  return found
}
const ctx = (over: Partial<AssertionContext> = {}): AssertionContext => ({ root: result, outputSchema, readResource, ...over })
const one = async (rule: EvalsV1Assertion, over: Partial<AssertionContext> = {}) => {
  const checks = await runEvalsV1Assertions([rule], ctx(over))
  expect(checks).toHaveLength(1)
  return checks[0]
}

describe('executionError', () => {
  test('equals: false passes on a successful result, fails on isError', async () => {
    expect(await one({ kind: 'executionError', equals: false })).toMatchObject({ check: 'is_error', passed: true, expected: false, actual: false })
    const failed = await one({ kind: 'executionError', equals: false }, { root: { content: [], isError: true } })
    expect(failed).toMatchObject({ passed: false, actual: true })
    expect(failed.reason).toBe('expected no execution error; the result has isError: true')
  })

  test('without equals (or equals: true) the call must fail', async () => {
    expect((await one({ kind: 'executionError' })).passed).toBe(false)
    expect((await one({ kind: 'executionError', equals: true }, { root: { content: [], isError: true } })).passed).toBe(true)
  })

  test('a JSON-RPC error is an execution error (upstream: the call threw and no rule could pass)', async () => {
    const refused = { root: { error: { code: -32602, message: 'Unknown tool: nope' } }, protocolError: { code: -32602, message: 'Unknown tool: nope' } }
    const checks = await runEvalsV1Assertions([{ kind: 'executionError', equals: true }], ctx(refused))
    expect(checks).toEqual([expect.objectContaining({ check: 'is_error', passed: true, reason: 'the call was answered with JSON-RPC error -32602: Unknown tool: nope' })])
    // A refusal nothing expected: the rule fails, and a `call` check says what happened.
    const unexpected = await runEvalsV1Assertions([{ kind: 'executionError', equals: false }], ctx(refused))
    expect(unexpected.map((c) => [c.check, c.passed])).toEqual([
      ['is_error', false],
      ['call', false]
    ])
    expect(unexpected[1].reason).toContain('JSON-RPC error -32602: Unknown tool: nope')
  })

  test('no rule at all and a JSON-RPC error: the call check fails', async () => {
    const checks = await runEvalsV1Assertions([], ctx({ protocolError: { code: -32603, message: 'boom' } }))
    expect(checks).toEqual([expect.objectContaining({ check: 'call', passed: false })])
  })
})

describe('outputSchemaValid', () => {
  test('validates structuredContent against the outputSchema (upstream only checked presence)', async () => {
    expect(await one({ kind: 'outputSchemaValid' })).toMatchObject({ check: 'output_schema', path: '$.structuredContent', passed: true })
    const wrong = await one({ kind: 'outputSchemaValid' }, { root: { content: [], structuredContent: { city: 'Paris', temp: 'warm' } } })
    expect(wrong.passed).toBe(false)
    expect(wrong.reason).toBe("structuredContent does not conform to the tool's outputSchema: /temp must be number")
  })

  test('no outputSchema: passes on presence and says the tool declares none; no structuredContent fails', async () => {
    const none = await one({ kind: 'outputSchemaValid' }, { outputSchema: undefined })
    expect(none).toMatchObject({ passed: true, expected: null })
    expect(none.reason).toContain('declares no outputSchema')
    expect(await one({ kind: 'outputSchemaValid' }, { root: { content: [] } })).toMatchObject({ passed: false, reason: 'the result has no structuredContent' })
  })
})

describe('jsonpath', () => {
  test('equals is JSON equality, key order aside (upstream compared JSON text)', async () => {
    expect((await one({ kind: 'jsonpath', path: '$.structuredContent.wind', equals: { unit: 'km/h', speed: 12 } })).passed).toBe(true)
    const failed = await one({ kind: 'jsonpath', path: '$.structuredContent.city', equals: 'paris' })
    expect(failed).toMatchObject({ check: 'jsonpath', path: '$.structuredContent.city', passed: false, expected: 'paris', actual: 'Paris' })
    expect(failed.reason).toBe('$.structuredContent.city: "Paris" does not equal "paris"')
  })

  test('type: number as upstream, and the other JSON types', async () => {
    expect((await one({ kind: 'jsonpath', path: '$.structuredContent.temp', type: 'number' })).passed).toBe(true)
    expect((await one({ kind: 'jsonpath', path: '$.structuredContent.temp', type: 'integer' })).passed).toBe(false)
    expect((await one({ kind: 'jsonpath', path: '$.structuredContent.wind.speed', type: 'integer' })).passed).toBe(true)
    expect((await one({ kind: 'jsonpath', path: '$.structuredContent.conditions', type: 'array' })).passed).toBe(true)
    const notString = await one({ kind: 'jsonpath', path: '$.structuredContent.wind', type: 'string' })
    expect(notString.passed).toBe(false)
    expect(notString.reason).toBe('$.structuredContent.wind: {"speed":12,"unit":"km/h"} is an object, not a string')
  })

  test('without equals or type: the path must select something; the default path is the root', async () => {
    expect((await one({ kind: 'jsonpath', path: '$.content[0].text' })).passed).toBe(true)
    expect(await one({ kind: 'jsonpath', path: '$.structuredContent.humidity' })).toMatchObject({ passed: false, reason: 'no value at $.structuredContent.humidity' })
    expect(await one({ kind: 'jsonpath', equals: result })).toMatchObject({ path: '$', passed: true })
  })

  test('RFC 9535 paths beyond upstream, and upstream spellings RFC 9535 lacks', async () => {
    expect((await one({ kind: 'jsonpath', path: '$.structuredContent.conditions[?@ == "windy"]', equals: 'windy' })).passed).toBe(true)
    // Several nodes read as the array of their values.
    expect((await one({ kind: 'jsonpath', path: '$.structuredContent.conditions[*]', equals: ['sunny', 'windy'] })).passed).toBe(true)
    expect((await one({ kind: 'jsonpath', path: '$.structuredContent.feels-like', equals: 20 })).passed).toBe(true)
    const bad = await one({ kind: 'jsonpath', path: '$.structuredContent[' })
    expect(bad.passed).toBe(false)
    expect(bad.reason).toMatch(/^invalid JSONPath/)
  })
})

describe('equals / contains / pattern / schema default to $.structuredContent', () => {
  test('equals', async () => {
    expect((await one({ kind: 'equals', equals: { ...weather } })).passed).toBe(true)
    expect((await one({ kind: 'equals', path: '$.structuredContent.temp', equals: 21.5 })).passed).toBe(true)
    expect(await one({ kind: 'equals', equals: { city: 'Paris' } })).toMatchObject({ check: 'equals', path: '$.structuredContent', passed: false })
  })

  test('contains is case-insensitive on the value text, an object read as its JSON (upstream: "[object Object]")', async () => {
    expect(await one({ kind: 'contains', contains: 'KM/H' })).toMatchObject({ check: 'contains', passed: true })
    expect((await one({ kind: 'contains', path: '$.content[0].text', contains: 'SUNNY' })).passed).toBe(true)
    const failed = await one({ kind: 'contains', contains: 'rain' })
    expect(failed.passed).toBe(false)
    expect(failed.reason).toBe('$.structuredContent does not contain "rain" (case-insensitive)')
    expect((await one({ kind: 'contains', contains: 'object' })).passed).toBe(false)
  })

  test('pattern is a case-insensitive search on RE2', async () => {
    expect((await one({ kind: 'pattern', path: '$.structuredContent.city', pattern: '^par' })).passed).toBe(true)
    expect((await one({ kind: 'pattern', pattern: '"temp":\\s*2\\d' })).passed).toBe(true)
    expect((await one({ kind: 'pattern', path: '$.structuredContent.city', pattern: '^lyon$' })).passed).toBe(false)
    // A construct RE2 refuses fails the check with why, never runs on a backtracking engine.
    const refused = await one({ kind: 'pattern', path: '$.structuredContent.city', pattern: '(a+)\\1' })
    expect(refused.passed).toBe(false)
    expect(refused.reason).toContain('RE2 does not support a backreference')
  })

  test('a missing value fails (upstream read it as the empty text, so pattern: ".*" passed)', async () => {
    expect(await one({ kind: 'pattern', path: '$.structuredContent.nothing', pattern: '.*' })).toMatchObject({ passed: false, reason: 'no value at $.structuredContent.nothing' })
  })

  test('schema validates the value at the path (upstream did not implement it)', async () => {
    expect((await one({ kind: 'schema', schema: outputSchema })).passed).toBe(true)
    expect((await one({ kind: 'schema', path: '$.structuredContent.conditions', schema: { type: 'array', items: { enum: ['sunny', 'windy'] } } })).passed).toBe(true)
    const failed = await one({ kind: 'schema', path: '$.structuredContent.conditions', schema: { type: 'array', maxItems: 1 } })
    expect(failed).toMatchObject({ check: 'schema', passed: false })
    expect(failed.reason).toBe('$.structuredContent.conditions does not conform to the schema: (root) must NOT have more than 1 items')
  })
})

describe('resource', () => {
  test('reads the uri and runs the nested rules on {text, contents}, paths defaulting to $', async () => {
    const check = await one({
      kind: 'resource',
      uri: 'config://settings',
      assert: [
        { kind: 'contains', contains: 'DARK' },
        { kind: 'jsonpath', path: '$.contents[0].mimeType', equals: 'application/json' },
        { kind: 'pattern', path: '$.text', pattern: '"lang":"fr"' }
      ]
    })
    expect(check).toMatchObject({ check: 'resource', passed: true, expected: 'config://settings', reason: 'read config://settings; 3 nested assertions passed' })
  })

  test('nested failures are listed in the reason', async () => {
    const check = await one({ kind: 'resource', uri: 'config://settings', assert: [{ kind: 'contains', contains: 'light' }, { kind: 'jsonpath', path: '$.contents[1]' }] })
    expect(check.passed).toBe(false)
    expect(check.reason).toBe('read config://settings; 2 of 2 nested assertions failed: contains $: $ does not contain "light" (case-insensitive); jsonpath $.contents[1]: no value at $.contents[1]')
  })

  test('${fromResult:<path>} resolves against the root; a read that fails fails the check', async () => {
    const root: Json = { content: [], structuredContent: { widget: 'ui://widget/weather.html', missing: 'ui://nope' } }
    expect((await one({ kind: 'resource', uri: '${fromResult:structuredContent.widget}', assert: [{ kind: 'contains', path: '$.text', contains: 'id="weather"' }] }, { root })).passed).toBe(true)
    const failed = await one({ kind: 'resource', uri: '${fromResult:$.structuredContent.missing}' }, { root })
    expect(failed).toMatchObject({ passed: false, reason: 'reading ui://nope failed: Resource ui://nope not found' })
    const unresolved = await one({ kind: 'resource', uri: '${fromResult:structuredContent.absent}' }, { root })
    expect(unresolved.passed).toBe(false)
    expect(unresolved.reason).toContain('did not resolve to a string')
  })
})

describe('widget', () => {
  test('fields compared key by key with structuredContent, every mismatch said', async () => {
    expect(await one({ kind: 'widget', fields: { city: 'Paris', wind: { unit: 'km/h', speed: 12 } } })).toMatchObject({ check: 'widget', passed: true })
    const failed = await one({ kind: 'widget', fields: { city: 'Lyon', humidity: 40 } })
    expect(failed.passed).toBe(false)
    expect(failed.reason).toBe('2 widget fields differ from structuredContent: city: expected "Lyon", got "Paris"; humidity: expected 40, got (absent)')
    expect((await one({ kind: 'widget', fields: { city: 'Paris' } }, { root: { content: [] } })).passed).toBe(false)
  })
})

describe('the root is whatever the call returned', () => {
  test('a list as the server listed it', async () => {
    const tools: Json = [{ name: 'get-weather', inputSchema: { type: 'object' } }, { name: 'fail' }]
    const checks = await runEvalsV1Assertions(
      [
        { kind: 'jsonpath', path: '$[0].name', equals: 'get-weather' },
        { kind: 'jsonpath', path: '$[?@.name == "fail"]' },
        { kind: 'contains', path: '$', contains: 'inputSchema' },
        { kind: 'outputSchemaValid' }
      ],
      { root: tools, readResource }
    )
    expect(checks.map((c) => c.passed)).toEqual([true, true, true, false])
  })
})

test('textOf: strings as they are, numbers and booleans as written, null as empty, the rest as JSON', () => {
  expect([textOf('a'), textOf(1.5), textOf(true), textOf(null), textOf({ a: [1] }), textOf(['x'])]).toEqual(['a', '1.5', 'true', '', '{"a":[1]}', '["x"]'])
})

test('evals/v1 paths: RFC 9535 as is, upstream spellings bracketed, fromResult paths', () => {
  expect(evalsV1Path('$.a[0].b')).toBe('$.a[0].b')
  expect(evalsV1Path('$.structuredContent.feels-like')).toBe('$.structuredContent.feels-like')
  expect(evalsV1Path('$.structuredContent.a:b[1].1st')).toBe('$.structuredContent["a:b"][1]["1st"]')
  expect(() => evalsV1Path('$.items.0.name')).toThrow("write [0] for an array index or ['0'] for a key")
  expect(() => evalsV1Path('structuredContent.city')).toThrow('a path starts with $')
  expect(fromResultPath('${fromResult:structuredContent.uri}')).toBe('$.structuredContent.uri')
  expect(fromResultPath('${fromResult:$.a}')).toBe('$.a')
  expect(fromResultPath('config://x')).toBeUndefined()
})
