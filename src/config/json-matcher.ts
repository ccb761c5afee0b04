import { isObject } from '../util/objects.js'
import { compileMatcherPattern } from '../util/matcher-pattern.js'
import type { Json } from './types.js'

// The matcher of a tool test's `json` entry: its keywords, and what makes one usable, which the
// loader checks before any run (the matching itself is tooltests/matchers.ts, which documents them).

export const MATCHER_KEYWORDS = ['equals', 'contains', 'pattern', 'gte', 'gt', 'lte', 'lt', 'number', 'tolerance', 'length', 'exists'] as const
export type MatcherKeyword = (typeof MATCHER_KEYWORDS)[number]
export type MatcherObject = Partial<Record<MatcherKeyword, Json>>

const KEYWORDS = new Set<string>(MATCHER_KEYWORDS)
/** What a `length` matcher object may use: it is matched against a number. */
const LENGTH_KEYWORDS = new Set<string>(['equals', 'gte', 'gt', 'lte', 'lt', 'number', 'tolerance'])

/** Whether `matcher` is a matcher object rather than a literal. */
export function isMatcherObject(matcher: Json): matcher is Record<string, Json> {
  return isObject(matcher) && Object.keys(matcher).length > 0 && Object.keys(matcher).every((k) => KEYWORDS.has(k))
}

/**
 * What is wrong with a matcher, for the config loader to reject before any run; undefined when
 * it is usable. Literals are always usable: an object with a non-keyword key is a literal.
 */
export function matcherProblem(matcher: Json): string | undefined {
  if (!isMatcherObject(matcher)) return undefined
  const m = matcher as MatcherObject
  const keys = Object.keys(m)
  if (Object.hasOwn(m, 'contains') && typeof m.contains !== 'string' && typeof m.contains !== 'number') return `contains must be a string (got ${show(m.contains as Json)})`
  if (Object.hasOwn(m, 'pattern')) {
    if (typeof m.pattern !== 'string') return `pattern must be a string (got ${show(m.pattern as Json)})`
    try {
      compileMatcherPattern(m.pattern)
    } catch (error) {
      return `pattern ${show(m.pattern)} is not a valid regular expression: ${(error as Error).message}`
    }
  }
  for (const keyword of ['gte', 'gt', 'lte', 'lt', 'number'] as const) {
    if (Object.hasOwn(m, keyword) && !isFiniteNumber(m[keyword])) return `${keyword} must be a number (got ${show(m[keyword] as Json)})`
  }
  if (Object.hasOwn(m, 'tolerance')) {
    if (!Object.hasOwn(m, 'number')) return 'tolerance needs number (number: 3.5, tolerance: 0.01)'
    if (!isFiniteNumber(m.tolerance) || m.tolerance < 0) return `tolerance must be a non-negative number (got ${show(m.tolerance as Json)})`
  }
  if (Object.hasOwn(m, 'length')) {
    const length = m.length as Json
    if (typeof length === 'number') {
      if (!Number.isInteger(length) || length < 0) return `length must be a non-negative integer (got ${length})`
    } else if (!isMatcherObject(length) || !Object.keys(length).every((k) => LENGTH_KEYWORDS.has(k))) {
      return `length must be a number or a matcher of ${[...LENGTH_KEYWORDS].join('/')} (got ${show(length)})`
    } else {
      const inner = matcherProblem(length)
      if (inner) return `length: ${inner}`
    }
  }
  if (Object.hasOwn(m, 'exists')) {
    if (typeof m.exists !== 'boolean') return `exists must be true or false (got ${show(m.exists as Json)})`
    if (m.exists === false && keys.length > 1) return `exists: false cannot be combined with ${keys.filter((k) => k !== 'exists').join(', ')}: there is no value to match`
  }
  return undefined
}

/** A value as a reason shows it: JSON, cut at 80 characters. */
export function show(value: Json | undefined): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value)
  return text.length > 80 ? `${text.slice(0, 79)}…` : text
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
