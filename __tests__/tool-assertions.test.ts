import { describe, expect, test } from '@jest/globals'
import type { Json } from '../src/config/types.js'
import { pyRepr, pyStr } from '../src/scoring/python-values.js'
import { checkRequiredTools, compileMatcherPattern, valueMatches, type RequestedCall } from '../src/scoring/tool-assertions.js'

// Every row of the matcher table in eval-action-compat.md §3.
describe('valueMatches follows eval-action’s matcher table', () => {
  const rows: [string, Json, Json, boolean][] = [
    ['contains: case-insensitive substring', { contains: 'PAR' }, 'Paris', true],
    ['contains: misses', { contains: 'lyon' }, 'Paris', false],
    ['contains: on Python str() of a bool', { contains: 'true' }, true, true],
    ['contains: on Python str() of None', { contains: 'none' }, null, true],
    ['contains: on a dict repr', { contains: "'k': 1" }, { k: 1 }, true],
    ['contains: on a list repr', { contains: "['a', 'b']" }, ['a', 'b'], true],
    ['contains wins over pattern', { contains: 'par', pattern: '^x$' }, 'Paris', true],
    ['pattern: search, not full match', { pattern: 'ari' }, 'Paris', true],
    ['pattern: case-insensitive', { pattern: '^paris$' }, 'PARIS', true],
    ['pattern: anchored miss', { pattern: '^aris' }, 'Paris', false],
    ['pattern: on str() of a number', { pattern: '^25\\d$' }, 250, true],
    ['"any": always true', 'any', null, true],
    ['"any": any value', 'any', { deep: [1] }, true],
    ['"ANY" is not the any literal', 'ANY', 'x', false],
    ['string: case-insensitive exact', 'us-east-1', 'US-EAST-1', true],
    ['string: no substring match', 'us-east', 'us-east-1', false],
    ['string: stringified number', '5', 5, true],
    ['string: stringified bool', 'TRUE', true, true],
    ['string: stringified null', 'none', null, true],
    ['equality: 1.0 == 1', 1.0, 1, true],
    ['equality: "1" vs 1 is false', 1, '1', false],
    ['equality: True == 1 (Python quirk)', 1, true, true],
    ['equality: bool vs bool', false, false, true],
    ['equality: lists are ordered', [1, 2], [2, 1], false],
    ['equality: equal lists', [1, 'a'], [1, 'a'], true],
    ['equality: maps exact', { a: 1 }, { a: 1 }, true],
    ['equality: extra keys fail', { a: 1 }, { a: 1, b: 2 }, false],
    ['equality: null == null', null, null, true],
    ['equality: null vs value', null, 0, false]
  ]
  test.each(rows)('%s', (_name, expected, actual, result) => {
    expect(valueMatches(expected, actual)).toBe(result)
  })
})

describe('checkRequiredTools', () => {
  const calls: RequestedCall[] = [
    { name: 'get_weather', args: { city: 'Paris', units: 'celsius' } },
    { name: 'get_weather', args: { city: 'Tokyo' } },
    { name: 'search', args: { q: 'x' } }
  ]

  test('not called', () => {
    expect(checkRequiredTools([{ name: 'plan_trip' }], calls)).toEqual({
      passed: false,
      checks: [{ tool: 'plan_trip', passed: false, reason: 'not called', expected_args: null }]
    })
  })

  test('not called keeps the expected args', () => {
    const result = checkRequiredTools([{ name: 'plan_trip', args: { days: 2 } }], calls)
    expect(result.checks[0]).toEqual({ tool: 'plan_trip', passed: false, reason: 'not called', expected_args: { days: 2 } })
  })

  test('called, no args expected: counts calls with that name', () => {
    expect(checkRequiredTools([{ name: 'get_weather' }], calls).checks[0]).toEqual({
      tool: 'get_weather',
      passed: true,
      reason: 'called 2x',
      expected_args: null
    })
  })

  test('one matching call among several passes', () => {
    const check = checkRequiredTools([{ name: 'get_weather', args: { city: 'tokyo' } }], calls).checks[0]
    expect(check).toEqual({ tool: 'get_weather', passed: true, reason: 'called with matching args', expected_args: { city: 'tokyo' } })
  })

  test('none match: actual_args per call, only the expected keys it has', () => {
    const check = checkRequiredTools([{ name: 'get_weather', args: { city: 'Lyon', units: 'any' } }], calls).checks[0]
    expect(check).toEqual({
      tool: 'get_weather',
      passed: false,
      reason: 'called but args did not match',
      expected_args: { city: 'Lyon', units: 'any' },
      actual_args: [{ city: 'Paris', units: 'celsius' }, { city: 'Tokyo' }]
    })
    expect(Object.keys(check)).toEqual(['tool', 'passed', 'reason', 'expected_args', 'actual_args'])
  })

  test('"any" still requires the key to be present', () => {
    expect(checkRequiredTools([{ name: 'get_weather', args: { units: 'any' } }], [calls[1]]).passed).toBe(false)
  })

  test('names compare exactly and case-sensitively', () => {
    expect(checkRequiredTools([{ name: 'Get_Weather' }], calls).passed).toBe(false)
  })

  test('one call may satisfy several entries; the same tool may be listed twice', () => {
    const result = checkRequiredTools(
      [
        { name: 'get_weather', args: { city: 'Paris' } },
        { name: 'get_weather', args: { units: { contains: 'cel' } } }
      ],
      calls
    )
    expect(result.passed).toBe(true)
    expect(result.checks).toHaveLength(2)
  })

  test('no requirements pass with no checks', () => {
    expect(checkRequiredTools([], calls)).toEqual({ passed: true, checks: [] })
  })

  test('extra actual args are ignored and no nested paths are read', () => {
    expect(checkRequiredTools([{ name: 'search', args: { q: 'X' } }], calls).passed).toBe(true)
    expect(checkRequiredTools([{ name: 'search', args: { 'q.x': 'X' } }], calls).passed).toBe(false)
  })
})

describe('Python values', () => {
  test.each([
    [true, 'True'],
    [null, 'None'],
    [5, '5'],
    [2.5, '2.5'],
    ['it\'s', '"it\'s"'],
    [{ a: [1, 'b', null, false] }, "{'a': [1, 'b', None, False]}"]
  ] as [Json, string][])('repr(%j) = %s', (value, repr) => {
    expect(pyRepr(value)).toBe(repr)
  })

  test('str() of a string is the string itself', () => {
    expect(pyStr('abc')).toBe('abc')
  })
})

describe('compileMatcherPattern', () => {
  test('translates Python-only spellings', () => {
    expect(compileMatcherPattern('(?P<c>par)is').test('PARIS')).toBe(true)
    expect(compileMatcherPattern('\\Aparis\\Z').test('paris')).toBe(true)
    expect(compileMatcherPattern('\\Aparis\\Z').test('paris\n')).toBe(false)
    expect(compileMatcherPattern('(?i)^paris$').test('PARIS')).toBe(true)
  })

  test('invalid patterns throw', () => {
    expect(() => compileMatcherPattern('([unclosed')).toThrow()
  })
})
