import { beforeAll, describe, expect, test } from '@jest/globals'
import { fixturePath } from '../__fixtures__/harness.js'
import type { ServerConfig, ToolTest, ToolTestCall } from '../src/config/types.js'
import { createSessionFactory } from '../src/mcp/session.js'
import type { EvalsV1Assertion } from '../src/results/suite.js'
import type { ToolTestResult } from '../src/results/types.js'
import { runToolTests } from '../src/tooltests/run.js'
import { memorySnapshotStore } from '../src/tooltests/snapshot.js'

/** evals/v1 checks as tool tests, on a real server process: every assertion kind passing and failing. */

const SERVER: ServerConfig = { kind: 'stdio', command: process.execPath, args: [fixturePath('servers/evals-v1-server.mjs')], env: {} }

const LABELS: Record<string, string> = { 'tools/list': 'tools/list', 'resources/list': 'resources/list', 'prompts/list': 'prompts/list' }
const check = (id: string, target: { tool: string; args?: Record<string, string> } | ToolTestCall, asserts: EvalsV1Assertion[]): ToolTest => {
  const call = 'kind' in target ? target : undefined
  const tool = call ? (call.kind === 'resource' ? `resources/read ${call.uri}` : LABELS[call.method]) : (target as { tool: string }).tool
  return { id, runs: 1, tags: [], steps: [{ tool, ...(call ? { call } : {}), args: call ? {} : ((target as { args?: Record<string, string> }).args ?? {}), expect: { asserts }, capture: {} }] }
}
const paris = { tool: 'get_weather', args: { city: 'Paris' } }

const CHECKS: ToolTest[] = [
  check('weather-passes', paris, [
    { kind: 'executionError', equals: false },
    { kind: 'outputSchemaValid' },
    { kind: 'jsonpath', path: '$.structuredContent.city', equals: 'Paris' },
    { kind: 'jsonpath', path: '$.structuredContent.temp', type: 'number' },
    { kind: 'jsonpath', path: '$.content[0].text' },
    { kind: 'equals', path: '$.structuredContent.wind', equals: { unit: 'km/h', speed: 12 } },
    { kind: 'contains', contains: 'WINDY' },
    { kind: 'pattern', path: '$.content[0].text', pattern: '^paris: \\d+(\\.\\d)?°C' },
    { kind: 'schema', path: '$.structuredContent.conditions', schema: { type: 'array', items: { type: 'string' }, minItems: 1 } },
    { kind: 'widget', fields: { city: 'Paris', wind: { speed: 12, unit: 'km/h' } } },
    { kind: 'resource', uri: '${fromResult:structuredContent.widget}', assert: [{ kind: 'contains', path: '$.text', contains: 'id="weather"' }, { kind: 'jsonpath', path: '$.contents[0].mimeType', equals: 'text/html;profile=mcp-app' }] }
  ]),
  check('weather-fails', paris, [
    { kind: 'executionError', equals: true },
    { kind: 'jsonpath', path: '$.structuredContent.city', equals: 'paris' },
    { kind: 'jsonpath', path: '$.structuredContent.city', type: 'number' },
    { kind: 'jsonpath', path: '$.structuredContent.humidity' },
    { kind: 'equals', equals: { city: 'Paris' } },
    { kind: 'contains', contains: 'rain' },
    { kind: 'pattern', path: '$.structuredContent.city', pattern: '^lyon$' },
    { kind: 'schema', path: '$.structuredContent.conditions', schema: { type: 'array', maxItems: 1 } },
    { kind: 'widget', fields: { city: 'Oslo' } },
    { kind: 'resource', uri: '${fromResult:structuredContent.widget}', assert: [{ kind: 'contains', path: '$.text', contains: 'iframe' }] },
    { kind: 'resource', uri: 'config://missing' }
  ]),
  check('refusal-expected', { tool: 'delete_city', args: { city: 'Paris' } }, [{ kind: 'executionError' }, { kind: 'contains', path: '$.content[0].text', contains: 'permission denied' }]),
  check('refusal-unexpected', { tool: 'delete_city', args: { city: 'Paris' } }, [{ kind: 'executionError', equals: false }]),
  check('no-structured-output', { tool: 'echo', args: { text: 'hello' } }, [{ kind: 'outputSchemaValid' }, { kind: 'widget', fields: { text: 'hello' } }]),
  check('echo-has-no-output-schema', { tool: 'echo', args: { text: 'hello' } }, [{ kind: 'jsonpath', path: '$.content[0].text', equals: 'hello' }]),
  check('unknown-tool-expected', { tool: 'no_such_tool' }, [{ kind: 'executionError' }]),
  check('unknown-tool-unexpected', { tool: 'no_such_tool' }, [{ kind: 'jsonpath', path: '$.content' }]),
  check('settings-read', { kind: 'resource', uri: 'config://settings' }, [
    { kind: 'jsonpath', path: '$.contents[0].mimeType', equals: 'application/json' },
    { kind: 'contains', path: '$.contents[0].text', contains: '"theme":"dark"' },
    { kind: 'resource', uri: '${fromResult:contents[0].uri}', assert: [{ kind: 'pattern', path: '$.text', pattern: '"lang":\\s*"fr"' }] }
  ]),
  check('settings-read-fails', { kind: 'resource', uri: 'config://settings' }, [{ kind: 'contains', path: '$.contents[0].text', contains: 'light' }]),
  check('missing-resource-unexpected', { kind: 'resource', uri: 'config://missing' }, [{ kind: 'jsonpath', path: '$.contents' }]),
  check('missing-resource-expected', { kind: 'resource', uri: 'config://missing' }, [{ kind: 'executionError', equals: true }]),
  check('tools-listed', { kind: 'list', method: 'tools/list' }, [
    { kind: 'jsonpath', path: '$[?@.name == "get_weather"].outputSchema.required', equals: ['city', 'temp', 'conditions', 'wind', 'widget'] },
    { kind: 'jsonpath', path: '$[0]._meta.ui.resourceUri', equals: 'ui://widget/weather.html' },
    { kind: 'contains', path: '$[*].name', contains: 'delete_city' }
  ]),
  check('tools-listed-fails', { kind: 'list', method: 'tools/list' }, [{ kind: 'jsonpath', path: '$[?@.name == "search"]' }]),
  check('resources-and-prompts-listed', { kind: 'list', method: 'resources/list' }, [{ kind: 'jsonpath', path: '$[?@.uri == "config://settings"].mimeType', equals: 'application/json' }]),
  check('prompts-listed', { kind: 'list', method: 'prompts/list' }, [{ kind: 'jsonpath', path: '$[0].arguments[0].name', equals: 'city' }, { kind: 'jsonpath', path: '$[0].name', equals: 'summary' }])
]

let results: Record<string, ToolTestResult> = {}
beforeAll(async () => {
  const sessions = createSessionFactory(SERVER, { probeTimeoutMs: 3000, requestTimeoutMs: 30_000 })
  const done = await runToolTests(CHECKS, { timeoutSeconds: 60, concurrency: 4, snapshots: memorySnapshotStore(), secrets: [] }, { sessions })
  results = Object.fromEntries(done.map((r) => [r.id, r]))
}, 120_000)

const stepOf = (id: string) => {
  const result = results[id]
  expect(result.attempts[0].error).toBeNull()
  return result.attempts[0].steps[0]
}
const verdicts = (id: string) => stepOf(id).checks.map((c) => [c.check, c.passed])

describe('a tools/call checked by assert[]', () => {
  test('every kind can pass on a real answer, and nothing else is checked', () => {
    const step = stepOf('weather-passes')
    expect(step.checks.filter((c) => !c.passed)).toEqual([])
    expect(step.checks.map((c) => c.check)).toEqual(['is_error', 'output_schema', 'jsonpath', 'jsonpath', 'jsonpath', 'equals', 'contains', 'pattern', 'schema', 'widget', 'resource'])
    expect(step.checks[1].reason).toBe("structuredContent conforms to the tool's outputSchema")
    expect(step.response).toMatchObject({ kind: 'result', is_error: false, structured_content: { city: 'Paris' } })
    expect(results['weather-passes'].status).toBe('passed')
  })

  test('every kind can fail, each saying why', () => {
    const step = stepOf('weather-fails')
    expect(step.checks.every((c) => !c.passed)).toBe(true)
    expect(step.checks.map((c) => c.reason)).toEqual([
      'expected an execution error; the result is not an error',
      '$.structuredContent.city: "Paris" does not equal "paris"',
      '$.structuredContent.city: "Paris" is a string, not a number',
      'no value at $.structuredContent.humidity',
      expect.stringMatching(/^\$\.structuredContent: \{"city":"Paris",.* does not equal \{"city":"Paris"\}$/),
      '$.structuredContent does not contain "rain" (case-insensitive)',
      '$.structuredContent.city does not match /^lyon$/i',
      '$.structuredContent.conditions does not conform to the schema: (root) must NOT have more than 1 items',
      'a widget field differs from structuredContent: city: expected "Oslo", got "Paris"',
      'read ui://widget/weather.html; 1 of 1 nested assertion failed: contains $.text: $.text does not contain "iframe" (case-insensitive)',
      'reading config://missing failed: JSON-RPC error -32602: Resource not found: config://missing'
    ])
    expect(results['weather-fails'].status).toBe('failed')
  })

  test('an isError result: executionError passes by default and fails with equals: false', () => {
    expect(verdicts('refusal-expected')).toEqual([
      ['is_error', true],
      ['contains', true]
    ])
    expect(stepOf('refusal-unexpected').checks[0]).toMatchObject({ passed: false, reason: 'expected no execution error; the result has isError: true' })
  })

  test('no structuredContent: outputSchemaValid and widget fail; a tool without outputSchema passes on presence', () => {
    expect(verdicts('no-structured-output')).toEqual([
      ['output_schema', false],
      ['widget', false]
    ])
    expect(results['echo-has-no-output-schema'].passed).toBe(true)
  })

  test('a JSON-RPC error is an execution error; unexpected, a call check says so', () => {
    expect(results['unknown-tool-expected'].passed).toBe(true)
    const unexpected = stepOf('unknown-tool-unexpected')
    expect(unexpected.response).toMatchObject({ kind: 'error' })
    expect(unexpected.checks.map((c) => [c.check, c.passed])).toEqual([
      ['jsonpath', false],
      ['call', false]
    ])
    expect(unexpected.checks[1].reason).toMatch(/^the call was answered with JSON-RPC error -?\d+: .*no_such_tool/)
  })
})

describe('a resource read checked by assert[]', () => {
  test('the root is {contents}; a nested resource rule reads through the same session', () => {
    const step = stepOf('settings-read')
    expect(step.tool).toBe('resources/read config://settings')
    // The raw result, as the server sent it (its _meta and cache hints too).
    expect(step.response).toMatchObject({ kind: 'value', value: { contents: [{ uri: 'config://settings', mimeType: 'application/json', text: '{"theme":"dark","lang":"fr","units":"metric"}' }] } })
    expect(step.checks.map((c) => c.passed)).toEqual([true, true, true])
    expect(stepOf('settings-read-fails').checks[0]).toMatchObject({ check: 'contains', passed: false, actual: '{"theme":"dark","lang":"fr","units":"metric"}' })
  })

  test('a resource the server refuses: a call check unless executionError expects it', () => {
    const step = stepOf('missing-resource-unexpected')
    expect(step.response).toMatchObject({ kind: 'error', code: -32602, message: 'Resource not found: config://missing' })
    expect(step.checks.map((c) => [c.check, c.passed])).toEqual([
      ['jsonpath', false],
      ['call', false]
    ])
    expect(results['missing-resource-expected'].passed).toBe(true)
  })
})

describe('lists checked by assert[]', () => {
  test('the root is the list in MCP spelling (inputSchema, outputSchema, _meta, mimeType)', () => {
    expect(results['tools-listed'].passed).toBe(true)
    const step = stepOf('tools-listed')
    expect(step.response).toMatchObject({ kind: 'value', value: expect.arrayContaining([expect.objectContaining({ name: 'echo', inputSchema: expect.objectContaining({ type: 'object' }) })]) })
    expect(step.observed.calls).toBe(0)
    expect(results['resources-and-prompts-listed'].passed).toBe(true)
  })

  test('and they fail too', () => {
    expect(stepOf('tools-listed-fails').checks[0]).toMatchObject({ passed: false, reason: 'no value at $[?@.name == "search"]' })
    expect(verdicts('prompts-listed')).toEqual([
      ['jsonpath', true],
      ['jsonpath', false]
    ])
  })
})
