import { describe, expect, test } from '@jest/globals'
import type { Json } from '../src/config/types.js'
import { argMismatch, argMatches, argsMismatches, matchWidgetFields } from '../src/scoring/evals-v1-args.js'
import { deepEqual as jsonEqual } from '../src/tooltests/matchers.js'

// @mcp-use/evals' argMatchers.ts, rule by rule, each passing and failing (and the defects fixed).
describe('evals/v1 argument matchers', () => {
  const rows: [string, Json, Json, boolean][] = [
    ['string: case-insensitive equality', 'Mango', 'mANGO', true],
    ['string: no substring match', 'man', 'mango', false],
    ['string: a number by its text', '5', 5, true],
    ['string: a number, other text', '5.0', 5, false],
    ['string: a boolean by its text', 'TRUE', true, true],
    ['string: an object by its JSON text', '{"a":1}', { a: 1 }, true],
    ['string: null is the empty text', '', null, true],
    ['number: the same number', 3, 3, true],
    ['number: its text', 3, '3', true],
    ['number: another number', 3, 4, false],
    ['number: other text', 3, '3.0', false],
    ['boolean: the same boolean', true, true, true],
    ['boolean: its text', false, 'false', true],
    ['boolean: the other one', true, false, false],
    ['boolean: text in another case', true, 'True', false],
    ['"any": anything', 'any', { deep: [1] }, true],
    ['"any": null too', 'any', null, true],
    ['presence matcher: any present value', { any: true, requirePresent: true }, null, true],
    ['contains: case-insensitive substring', { contains: 'ANG' }, 'mango', true],
    ['contains: misses', { contains: 'kiwi' }, 'mango', false],
    ['contains: on a number', { contains: '25' }, 1250, true],
    ['contains: on an object’s JSON text', { contains: '"city":"paris"' }, { city: 'Paris' }, true],
    ['pattern: a search, case-insensitive', { pattern: '^m.NGO$' }, 'Mango', true],
    ['pattern: misses', { pattern: '^ango' }, 'mango', false],
    ['pattern: on a number’s text', { pattern: '^\\d{3}$' }, 250, true],
    ['pattern RE2 cannot compile: no match', { pattern: '(a)\\1' }, 'aa', false],
    ['object: JSON equality', { city: 'paris', days: 2 }, { city: 'paris', days: 2 }, true],
    ['object: key order does not matter (upstream compared JSON.stringify)', { city: 'paris', days: 2 }, { days: 2, city: 'paris' }, true],
    ['object: a different value', { city: 'paris' }, { city: 'Paris' }, false],
    ['object: extra keys fail', { city: 'paris' }, { city: 'paris', days: 2 }, false],
    ['object: {any: true} alone is an object to equal', { any: true }, 'x', false],
    ['array: JSON equality (upstream: an array never matched)', ['a', 'b'], ['a', 'b'], true],
    ['array: order counts', ['a', 'b'], ['b', 'a'], false],
    ['null: equals null', null, null, true],
    ['null: not the empty text', null, '', false]
  ]
  test.each(rows)('%s', (_name, matcher, actual, result) => {
    expect(argMatches(matcher, actual)).toBe(result)
  })

  test('an absent key fails every matcher but "any" (upstream matched "" and {contains: ""} against it)', () => {
    const args: Record<string, Json> = { other: 1 }
    expect(argMismatch('q', 'any', args)).toBeNull()
    expect(argMismatch('q', { any: true, requirePresent: true }, args)).toBe('q missing')
    expect(argMismatch('q', '', args)).toBe('q missing')
    expect(argMismatch('q', { contains: '' }, args)).toBe('q missing')
    expect(argMismatch('q', null, args)).toBe('q missing')
  })

  test('a mismatch says what was sent and what was expected, key by key in the matchers’ order', () => {
    const args: Record<string, Json> = { query: 'apple', limit: 3, tags: ['x'] }
    expect(argsMismatches({ query: 'mango', limit: 3, missing: 'any', tags: ['y'], extra: { contains: 'z' } }, args)).toEqual([
      'query="apple" (expected "mango", any case)',
      'tags=["x"] (expected ["y"])',
      'extra missing'
    ])
    expect(argsMismatches({ query: { contains: 'APP' }, limit: 3 }, args)).toEqual([])
    expect(argsMismatches({ query: { pattern: '^b' }, limit: true }, args)).toEqual(['query="apple" (expected to match /^b/i)', 'limit=3 (expected true)'])
  })
})

describe('evals/v1 widget fields', () => {
  test('key by key JSON equality with structuredContent, whatever the key order; extra keys there are fine', () => {
    const structured = { query: 'mango', results: [{ name: 'Mango', price: 2 }], total: 1 }
    expect(matchWidgetFields({ query: 'mango', results: [{ price: 2, name: 'Mango' }] }, structured)).toEqual({ passed: true, reason: '2 widget fields match structuredContent' })
  })

  test('every mismatched key is named, an absent one too', () => {
    const result = matchWidgetFields({ query: 'Mango', total: 1, page: 1 }, { query: 'mango', total: 1 })
    expect(result.passed).toBe(false)
    expect(result.reason).toBe('2 widget fields differ from structuredContent: query: expected "Mango", got "mango"; page: expected 1, got (absent)')
  })

  test('no structuredContent object fails', () => {
    expect(matchWidgetFields({ a: 1 }, undefined)).toEqual({ passed: false, reason: 'the call returned no structuredContent object' })
    expect(matchWidgetFields({ a: 1 }, [1])).toMatchObject({ passed: false })
  })

  test('JSON equality (deepEqual): nested objects in any key order, arrays in order', () => {
    expect(jsonEqual({ a: { b: 1, c: [1, { d: 2, e: 3 }] } }, { a: { c: [1, { e: 3, d: 2 }], b: 1 } })).toBe(true)
    expect(jsonEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false)
    expect(jsonEqual(1, '1')).toBe(false)
  })
})
