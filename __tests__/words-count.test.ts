import { describe, expect, test } from '@jest/globals'
import { count } from '../src/util/words.js'

describe('count', () => {
  // Whole numbers are grouped without ICU (its first use is slow); the text is toLocaleString's.
  test.each([0, -0, 1, -1, 12, 999, 1000, -1000, 12345, 1234567, -987654321, Number.MAX_SAFE_INTEGER, 2 ** 60, 1.5, 1234.5678, NaN, Infinity])('%p reads as toLocaleString("en-US") writes it', (n) => {
    expect(count(n, 'run')).toBe(`${n.toLocaleString('en-US')} ${n === 1 ? 'run' : 'runs'}`)
  })

  test('one is singular, the plural can be given', () => {
    expect(count(1, 'check')).toBe('1 check')
    expect(count(2, 'query', 'queries')).toBe('2 queries')
  })
})
