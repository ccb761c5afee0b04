import { describe, expect, test } from '@jest/globals'
import type { Json } from '../src/config/types.js'
import { deepEqual, isMatcherObject, matcherProblem, matchValue, trimForReport } from '../src/tooltests/matchers.js'

// One node unless a row says otherwise: [name, matcher, value, passes].
describe('matchValue: one value against each keyword', () => {
  const rows: [string, Json, Json, boolean][] = [
    // equals: strict
    ['equals: same string', { equals: 'K-17-ZETA' }, 'K-17-ZETA', true],
    ['equals: case counts', { equals: 'k-17-zeta' }, 'K-17-ZETA', false],
    ['equals: "1" is not 1', { equals: 1 }, '1', false],
    ['equals: true is not 1', { equals: 1 }, true, false],
    ['equals: 1.0 is 1 (one JSON number)', { equals: 1.0 }, 1, true],
    ['equals: deep object, key order free', { equals: { a: 1, b: [1, 'x'] } }, { b: [1, 'x'], a: 1 }, true],
    ['equals: deep object, nested case counts', { equals: { a: 'X' } }, { a: 'x' }, false],
    ['equals: extra key fails', { equals: { a: 1 } }, { a: 1, b: 2 }, false],
    ['equals: array order counts', { equals: [1, 2] }, [2, 1], false],
    ['equals: null', { equals: null }, null, true],
    ['equals: null is not 0', { equals: null }, 0, false],
    // contains: case-insensitive, on Python str()
    ['contains: case-insensitive', { contains: 'zeta' }, 'K-17-ZETA', true],
    ['contains: misses', { contains: 'alpha' }, 'K-17-ZETA', false],
    ['contains: on str() of a number', { contains: '39' }, 1395, true],
    ['contains: number needle', { contains: 17 }, 'K-17', true],
    ['contains: on str() of a bool', { contains: 'true' }, true, true],
    ['contains: on a dict repr', { contains: "'bin': 'k" }, { bin: 'K-1' }, true],
    ['contains: on a list repr', { contains: "['a', 'b']" }, ['a', 'b'], true],
    // pattern: eval-action's regex, search, case-insensitive
    ['pattern: search', { pattern: '\\d{2}' }, 'K-17-ZETA', true],
    ['pattern: case-insensitive', { pattern: '^k-\\d+-zeta$' }, 'K-17-ZETA', true],
    ['pattern: anchored miss', { pattern: '^17' }, 'K-17', false],
    ['pattern: Python named group', { pattern: '(?P<n>\\d+)-5' }, '5-5', true],
    ['pattern: on str() of a number', { pattern: '^\\d+\\.5$' }, 2.5, true],
    // comparisons: JSON numbers only
    ['gte: equal', { gte: 1 }, 1, true],
    ['gte: above', { gte: 1 }, 7, true],
    ['gte: below', { gte: 1 }, 0, false],
    ['gt: equal fails', { gt: 1 }, 1, false],
    ['gt: above', { gt: 1 }, 1.5, true],
    ['lte: equal', { lte: 5 }, 5, true],
    ['lte: above fails', { lte: 5 }, 5.01, false],
    ['lt: equal fails', { lt: 5 }, 5, false],
    ['lt: below', { lt: 5 }, -3, true],
    ['gte: a numeric string does not count', { gte: 1 }, '39', false],
    ['gte: "39 USD" fails', { gte: 1 }, '39 USD', false],
    ['lt: a bool is not a number', { lt: 5 }, true, false],
    ['gte: null is not a number', { gte: 0 }, null, false],
    // number + tolerance
    ['number: exact', { number: 3.5 }, 3.5, true],
    ['number: default tolerance 0', { number: 3.5 }, 3.5000001, false],
    ['number: within tolerance', { number: 3.5, tolerance: 0.01 }, 3.505, true],
    ['number: at the tolerance edge', { number: 10, tolerance: 2 }, 8, true],
    ['number: outside tolerance', { number: 3.5, tolerance: 0.01 }, 3.52, false],
    ['number: a numeric string does not count', { number: 3.5 }, '3.5', false],
    // length
    ['length: array', { length: 3 }, [1, 2, 3], true],
    ['length: array, wrong', { length: 2 }, [1, 2, 3], false],
    ['length: string in code points', { length: 2 }, 'é😀', true],
    ['length: object keys', { length: 2 }, { a: 1, b: 2 }, true],
    ['length: empty array', { length: 0 }, [], true],
    ['length: a matcher', { length: { gte: 1 } }, ['x'], true],
    ['length: a matcher, fails', { length: { gte: 1 } }, [], false],
    ['length: range matcher', { length: { gt: 1, lte: 3 } }, 'abcd', false],
    ['length: a number has none', { length: 1 }, 5, false],
    ['length: null has none', { length: 0 }, null, false],
    // exists
    ['exists: true with a value', { exists: true }, 'x', true],
    ['exists: true with null (a null is a value)', { exists: true }, null, true],
    ['exists: false with a value fails', { exists: false }, 'x', false],
    // combinations: all must hold
    ['range: inside', { gte: 1, lt: 10 }, 5, true],
    ['range: at the open end', { gte: 1, lt: 10 }, 10, false],
    ['range: below', { gte: 1, lt: 10 }, 0, false],
    ['contains and pattern', { contains: 'zeta', pattern: '^K' }, 'K-17-ZETA', true],
    ['contains and pattern, one fails', { contains: 'zeta', pattern: '^Z' }, 'K-17-ZETA', false],
    ['exists and equals', { exists: true, equals: 2 }, 2, true],
    ['length and contains', { length: 9, contains: '17' }, 'K-17-ZETA', true],
    // literals, as eval-action's required_tools args
    ['literal string: case-insensitive', 'k-17-zeta', 'K-17-ZETA', true],
    ['literal string: no substring', 'K-17', 'K-17-ZETA', false],
    ['literal string: against a number', '2', 2, true],
    ['literal number: 2 == 2.0', 2, 2.0, true],
    ['literal number: against a numeric string', 2, '2', false],
    ['literal bool: True == 1 (Python)', true, 1, true],
    ['literal false', false, false, true],
    ['literal null', null, null, true],
    ['literal null vs 0', null, 0, false],
    ['literal "any"', 'any', { deep: [1] }, true],
    ['literal "any" with null', 'any', null, true],
    ['literal list: ordered', [1, 2], [2, 1], false],
    ['literal list: equal', [1, 'a'], [1, 'a'], true],
    ['literal object with a non-keyword key', { bin: 'K-1', stock: 2 }, { stock: 2, bin: 'K-1' }, true],
    ['literal object: strings inside compare exactly', { bin: 'K-1' }, { bin: 'k-1' }, false],
    ['literal object mixing a keyword and a non-keyword key is data', { contains: 'x', other: 1 }, 'xyz', false],
    ['the same object as data', { contains: 'x', other: 1 }, { other: 1, contains: 'x' }, true],
    ['empty object is the literal {}', {}, {}, true],
    ['empty object literal vs a value', {}, { a: 1 }, false]
  ]
  test.each(rows)('%s', (_name, matcher, value, passes) => {
    const outcome = matchValue(matcher, [value], '$.x')
    expect(outcome.passed).toBe(passes)
    expect(outcome.actual).toEqual(value)
    expect(outcome.reason).not.toBe('')
  })
})

describe('matchValue: failure reasons say what was wrong', () => {
  const rows: [Json, Json, RegExp][] = [
    [{ gte: 1 }, '39 USD', /"39 USD" is a string, not a number/],
    [{ gte: 1 }, '39', /is a string, not a number \(a numeric string does not count\)/],
    [{ gte: 100 }, 39, /39 is not ≥ 100/],
    [{ lt: 5 }, 5, /5 is not < 5/],
    [{ number: 3.5, tolerance: 0.01 }, 3.6, /not within 0.01 of 3.5/],
    [{ equals: 'A' }, 'a', /"a" is not exactly "A"/],
    [{ contains: 'lyon' }, 'Paris', /"Paris" does not contain "lyon"/],
    [{ pattern: '^x' }, 'Paris', /does not match \/\^x\//],
    [{ length: { gte: 3 } }, [1], /length 1 is not ≥ 3/],
    [{ length: 2 }, 5, /has no length \(it is a number\)/],
    ['Paris', 'Lyon', /"Lyon" does not equal "Paris"/]
  ]
  test.each(rows)('%j on %j', (matcher, value, reason) => {
    const outcome = matchValue(matcher, [value], '$.x')
    expect(outcome.passed).toBe(false)
    expect(outcome.reason).toMatch(reason)
  })
})

describe('matchValue: the nodelist', () => {
  test('empty fails with the path named', () => {
    expect(matchValue('x', [], '$.bin')).toEqual({ passed: false, actual: null, reason: 'no value at $.bin' })
  })
  test('empty fails even for "any" and exists: true', () => {
    expect(matchValue('any', [], '$.bin').passed).toBe(false)
    expect(matchValue({ exists: true }, [], '$.bin')).toEqual({ passed: false, actual: null, reason: 'no value at $.bin' })
    expect(matchValue({ length: 0 }, [], '$.bin').passed).toBe(false)
  })
  test('exists: false passes on empty', () => {
    expect(matchValue({ exists: false }, [], '$.deleted_at')).toEqual({ passed: true, actual: null, reason: 'no value at $.deleted_at, as expected' })
  })
  test('exists: false fails on several, with what was found', () => {
    const outcome = matchValue({ exists: false }, [1, 2], '$.x[*]')
    expect(outcome.passed).toBe(false)
    expect(outcome.actual).toEqual([1, 2])
    expect(outcome.reason).toBe('expected no value at $.x[*]; found 2 values: [1,2]')
  })
  test('one node: actual is the value, not a list', () => {
    expect(matchValue({ gte: 1 }, [[5]], '$.x').actual).toEqual([5])
  })
  test('several nodes: all must match', () => {
    const ok = matchValue({ gte: 1 }, [1, 2, 3], '$.items[*].qty')
    expect(ok).toEqual({ passed: true, actual: [1, 2, 3], reason: 'all 3 values at $.items[*].qty match {"gte":1}' })
  })
  test('several nodes: one miss fails, and says which', () => {
    const bad = matchValue({ gte: 1 }, [1, 0, 3], '$.items[*].qty')
    expect(bad.passed).toBe(false)
    expect(bad.actual).toEqual([1, 0, 3])
    expect(bad.reason).toBe('1 of 3 values at $.items[*].qty do not match (all 3 must); value 2: 0 is not ≥ 1')
  })
  test('several nodes against a literal', () => {
    expect(matchValue('open', ['OPEN', 'Open'], '$.s[*]').passed).toBe(true)
    expect(matchValue('open', ['OPEN', 'closed'], '$.s[*]').passed).toBe(false)
  })
  test('the path defaults to a generic name', () => {
    expect(matchValue(1, []).reason).toBe('no value at the path')
  })
  test('an invalid matcher fails instead of throwing', () => {
    const outcome = matchValue({ gte: 'one' }, [1], '$.x')
    expect(outcome.passed).toBe(false)
    expect(outcome.reason).toBe('invalid matcher: gte must be a number (got "one")')
  })
})

describe('matcherProblem', () => {
  const problems: [Json, string][] = [
    [{ gte: 'one' }, 'gte must be a number (got "one")'],
    [{ lt: null }, 'lt must be a number (got null)'],
    [{ number: '3' }, 'number must be a number (got "3")'],
    [{ tolerance: 1 }, 'tolerance needs number (number: 3.5, tolerance: 0.01)'],
    [{ number: 1, tolerance: -1 }, 'tolerance must be a non-negative number (got -1)'],
    [{ pattern: 3 }, 'pattern must be a string (got 3)'],
    [{ contains: ['a'] }, 'contains must be a string (got ["a"])'],
    [{ length: -1 }, 'length must be a non-negative integer (got -1)'],
    [{ length: 1.5 }, 'length must be a non-negative integer (got 1.5)'],
    [{ length: 'two' }, 'length must be a number or a matcher of equals/gte/gt/lte/lt/number/tolerance (got "two")'],
    [{ length: { contains: 'x' } }, 'length must be a number or a matcher of equals/gte/gt/lte/lt/number/tolerance (got {"contains":"x"})'],
    [{ length: { gte: 'x' } }, 'length: gte must be a number (got "x")'],
    [{ exists: 'yes' }, 'exists must be true or false (got "yes")'],
    [{ exists: false, equals: 1 }, 'exists: false cannot be combined with equals: there is no value to match']
  ]
  test.each(problems)('%j', (matcher, problem) => {
    expect(matcherProblem(matcher)).toBe(problem)
  })
  test('an invalid regular expression is named', () => {
    expect(matcherProblem({ pattern: '(' })).toMatch(/^pattern "\(" is not a valid regular expression: /)
    // RE2 runs the patterns (linear time): a backreference is refused, Python's spelling too.
    expect(matcherProblem({ pattern: '(?P<n>\\d+)-(?P=n)' })).toMatch(/is not a valid regular expression: RE2 does not support a backreference \(\(\?P=n\)\)/)
  })
  const fine: Json[] = ['x', 1, null, true, [1], {}, 'any', { gte: 1, lt: 10 }, { number: 1, tolerance: 0.5 }, { length: { gte: 1 } }, { exists: false }, { pattern: '(?P<a>x)' }, { gte: 'x', note: 1 }]
  test.each(fine)('%j is usable', (matcher) => {
    expect(matcherProblem(matcher)).toBeUndefined()
  })
})

describe('helpers', () => {
  test('isMatcherObject: all keys keywords, at least one', () => {
    expect(isMatcherObject({ gte: 1 })).toBe(true)
    expect(isMatcherObject({ gte: 1, x: 1 })).toBe(false)
    expect(isMatcherObject({})).toBe(false)
    expect(isMatcherObject([{ gte: 1 }])).toBe(false)
    expect(isMatcherObject('gte')).toBe(false)
  })
  test('deepEqual is strict', () => {
    expect(deepEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true)
    expect(deepEqual({ a: 1 }, { a: true })).toBe(false)
    expect(deepEqual([1], { 0: 1 })).toBe(false)
  })
  test('trimForReport cuts long strings, deeply', () => {
    const long = 'x'.repeat(600)
    const trimmed = trimForReport({ a: [long], b: 1 }) as { a: string[]; b: number }
    expect(trimmed.a[0]).toBe(`${'x'.repeat(500)}… (100 more characters)`)
    expect(trimmed.b).toBe(1)
    expect(trimForReport('short')).toBe('short')
  })
})
