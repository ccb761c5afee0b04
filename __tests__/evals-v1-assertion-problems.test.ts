import { expect, test } from '@jest/globals'
import { assertionProblems } from '../src/config/evals-v1-assertion-problems.js'
import type { EvalsV1Assertion } from '../src/results/suite.js'

const at = ['flows', 0, 'checks', 1, 'assert', 2]
const problems = (rule: unknown) => assertionProblems(rule as EvalsV1Assertion, at)

test('usable rules of every kind have no problems', () => {
  const rules: EvalsV1Assertion[] = [
    { kind: 'executionError', equals: false },
    { kind: 'outputSchemaValid' },
    { kind: 'jsonpath', path: '$.structuredContent.items[0].name', type: 'string' },
    { kind: 'jsonpath', path: '$.structuredContent.feels-like', equals: null },
    { kind: 'equals', equals: { a: 1 } },
    { kind: 'contains', contains: 'x' },
    { kind: 'pattern', path: '$.content[0].text', pattern: '^\\d+ items?$' },
    { kind: 'schema', schema: { type: 'object', required: ['a'] } },
    { kind: 'resource', uri: '${fromResult:structuredContent.uri}', assert: [{ kind: 'contains', contains: 'ok' }] },
    { kind: 'widget', fields: { query: 'mango' } }
  ]
  for (const rule of rules) expect(problems(rule)).toEqual([])
})

test('each problem says what and where', () => {
  expect(problems({ kind: 'regex' })).toEqual([{ message: expect.stringContaining('unknown assertion kind "regex"'), path: [...at, 'kind'] }])
  expect(problems({ kind: 'jsonpath', path: '$.a[' })).toEqual([{ message: expect.stringMatching(/^invalid JSONPath "\$\.a\["/), path: [...at, 'path'] }])
  expect(problems({ kind: 'jsonpath', path: '$.items.0' })[0].message).toContain('write [0] for an array index')
  expect(problems({ kind: 'contains', path: 'structuredContent.x', contains: 'a' })[0].message).toContain('a path starts with $')
  expect(problems({ kind: 'jsonpath', type: 'float' })).toEqual([{ message: 'type must be one of number, integer, string, boolean, object, array, null', path: [...at, 'type'] }])
  expect(problems({ kind: 'equals' })).toEqual([{ message: 'equals needs the value to compare with (equals: …)', path: at }])
  expect(problems({ kind: 'contains' })[0].path).toEqual(at)
  expect(problems({ kind: 'contains', contains: '' })[0].message).toBe('contains is empty: it would match any value')
  expect(problems({ kind: 'pattern', pattern: '(?<=a)b' })).toEqual([{ message: expect.stringContaining('RE2 does not support a lookbehind'), path: [...at, 'pattern'] }])
  expect(problems({ kind: 'schema' })[0].message).toContain('schema needs the JSON Schema')
  expect(problems({ kind: 'schema', schema: { type: 'nonsense' } })).toEqual([{ message: expect.stringContaining('the schema cannot be compiled'), path: [...at, 'schema'] }])
  expect(problems({ kind: 'executionError', equals: 'no' })[0].path).toEqual([...at, 'equals'])
  expect(problems({ kind: 'widget' })[0].message).toContain('widget needs the fields')
  expect(problems({ kind: 'widget', fields: {} })[0].message).toBe('fields is empty: there is nothing to compare')
  expect(problems({ kind: 'resource' })[0].message).toContain('resource needs the uri')
  expect(problems({ kind: 'resource', uri: '${fromResult:$.a[}' })[0]).toEqual({ message: expect.stringMatching(/^in \$\{fromResult:\$\.a\[\}: invalid JSONPath/), path: [...at, 'uri'] })
})

test('a field the kind does not read is a problem (it would be ignored)', () => {
  expect(problems({ kind: 'outputSchemaValid', path: '$.x' })).toEqual([{ message: 'outputSchemaValid does not read path (it would be ignored)', path: [...at, 'path'] }])
  expect(problems({ kind: 'contains', contains: 'a', pattern: 'b' })[0].message).toBe('contains does not read pattern (it would be ignored)')
  expect(problems({ kind: 'widget', fields: { a: 1 }, colour: 'red' })[0].message).toBe('unknown key colour')
})

test('nested rules of a resource are checked, with their own paths', () => {
  const rule = { kind: 'resource', uri: 'config://x', assert: [{ kind: 'contains', contains: 'ok' }, { kind: 'pattern', pattern: '(a)\\1' }, { kind: 'resource', uri: 'a://b', assert: [{ kind: 'equals' }] }] }
  expect(problems(rule).map((p) => p.path)).toEqual([
    [...at, 'assert', 1, 'pattern'],
    [...at, 'assert', 2, 'assert', 0]
  ])
  expect(problems({ kind: 'resource', uri: 'a://b', assert: 'x' })[0]).toEqual({ message: 'assert must be a list of assertions', path: [...at, 'assert'] })
})
