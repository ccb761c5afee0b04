import type { Json } from '../config/types.js'
import { pyEquals, pyStr } from '../scoring/python-values.js'
import { compileMatcherPattern, valueMatches } from '../scoring/tool-assertions.js'
import { isMatcherObject, MATCHER_KEYWORDS, matcherProblem, show, type MatcherKeyword, type MatcherObject } from '../config/json-matcher.js'

// What makes a matcher usable is checked when the suite is loaded, so that lives in config.
export { isMatcherObject, MATCHER_KEYWORDS, matcherProblem, show } from '../config/json-matcher.js'

/**
 * The matcher of one `json` entry (`"$.path": matcher`) of a tool test.
 *
 * A matcher is one of:
 * - the string `"any"`: a value must be there, whatever it is;
 * - a matcher object: a non-empty mapping whose keys are ALL matcher keywords; every keyword
 *   must hold (`{ gte: 1, lt: 10 }` is a range):
 *   - `equals`: strict deep equality: types, case and array order count, object key order does not;
 *   - `contains`: case-insensitive substring of the value's text, Python's `str()` of it as
 *     eval-action's `contains` sees it (`True`, `None`, dict and list reprs);
 *   - `pattern`: eval-action's regular expression (Python spellings, case-insensitive), searched
 *     in the same text;
 *   - `gte`, `gt`, `lte`, `lt`: the value must be a JSON number. A numeric string does not count:
 *     structured output is typed, and a tool that returns `"39 USD"` or `"39"` where a number
 *     belongs is the kind of regression these tests exist to catch;
 *   - `number` with optional `tolerance` (default 0): a JSON number within |actual − number| ≤ tolerance;
 *   - `length`: the length of an array, of a string (in Unicode code points, as RFC 9535's
 *     `length()`), or an object's key count; given as a number or as a matcher object of
 *     `equals`/`gte`/`gt`/`lte`/`lt`/`number`/`tolerance` (`length: { gte: 1 }`);
 *   - `exists`: `true`: the path selects at least one node; `false`: it selects none (and then no
 *     other keyword may be given);
 * - anything else is a literal, compared as eval-action compares `required_tools` arguments:
 *   a string case-insensitively against Python's `str()` of the value, other values by Python `==`
 *   (`1 == 1.0`, `True == 1`, lists ordered, mappings exact, strings nested inside them exact). An
 *   object with any key that is not a keyword, and the empty object, are literals.
 *
 * The nodelist the path selected: empty fails (`no value at $.x`) unless the matcher is
 * `exists: false`; one node is matched itself; several nodes must each match (`all 3 values`).
 */
export interface MatchOutcome {
  passed: boolean
  /** What was found: the single value, the array of values when several, null when none. */
  actual: Json
  reason: string
}

const COMPARISONS = { gte: '≥', gt: '>', lte: '≤', lt: '<' } as const

/** One `json` entry: `matcher` against the values the path selected. `path` only names it in reasons. */
export function matchValue(matcher: Json, nodes: Json[], path = 'the path'): MatchOutcome {
  const actual: Json = nodes.length === 0 ? null : nodes.length === 1 ? nodes[0] : nodes
  const problem = matcherProblem(matcher)
  if (problem) return { passed: false, actual, reason: `invalid matcher: ${problem}` }
  const object = isMatcherObject(matcher) ? (matcher as MatcherObject) : undefined
  if (object?.exists === false) {
    return nodes.length === 0
      ? { passed: true, actual, reason: `no value at ${path}, as expected` }
      : { passed: false, actual, reason: `expected no value at ${path}; found ${count(nodes.length)}: ${show(actual)}` }
  }
  if (nodes.length === 0) return { passed: false, actual, reason: `no value at ${path}` }
  const failures = nodes.map((node) => mismatch(matcher, object, node))
  const failed = failures.map((why, i) => ({ why, i })).filter((f) => f.why !== undefined)
  if (nodes.length === 1) {
    return failed.length ? { passed: false, actual, reason: failed[0].why as string } : { passed: true, actual, reason: `${show(nodes[0])} ${describeMatcher(matcher)}` }
  }
  if (failed.length === 0) return { passed: true, actual, reason: `all ${nodes.length} values at ${path} ${describeMatcher(matcher, true)}` }
  const first = failed[0]
  return {
    passed: false,
    actual,
    reason: `${failed.length} of ${nodes.length} values at ${path} do not match (all ${nodes.length} must); value ${first.i + 1}: ${first.why as string}`
  }
}

/** Why one value does not satisfy the matcher, or undefined when it does. */
function mismatch(matcher: Json, object: MatcherObject | undefined, value: Json): string | undefined {
  if (!object) return literalMatches(matcher, value) ? undefined : `${show(value)} does not equal ${show(matcher)}`
  for (const keyword of MATCHER_KEYWORDS) {
    if (!Object.hasOwn(object, keyword)) continue
    const why = keywordMismatch(keyword, object, value)
    if (why) return why
  }
  return undefined
}

function literalMatches(literal: Json, value: Json): boolean {
  // valueMatches would read an object literal that has a `contains` or `pattern` key as
  // eval-action's matcher; here such an object has a non-keyword key, so it is data.
  return isPlainObject(literal) ? pyEquals(value, literal) : valueMatches(literal, value)
}

function keywordMismatch(keyword: MatcherKeyword, m: MatcherObject, value: Json): string | undefined {
  switch (keyword) {
    case 'equals':
      return deepEqual(value, m.equals as Json) ? undefined : `${show(value)} is not exactly ${show(m.equals as Json)}`
    case 'contains': {
      const needle = String(m.contains)
      return pyStr(value).toLowerCase().includes(needle.toLowerCase()) ? undefined : `${show(value)} does not contain ${show(needle)}`
    }
    case 'pattern':
      return compileMatcherPattern(m.pattern as string).test(pyStr(value)) ? undefined : `${show(value)} does not match /${m.pattern as string}/`
    case 'gte':
    case 'gt':
    case 'lte':
    case 'lt': {
      if (typeof value !== 'number') return notANumber(value)
      const bound = m[keyword] as number
      return compare(keyword, value, bound) ? undefined : `${show(value)} is not ${COMPARISONS[keyword]} ${bound}`
    }
    case 'number': {
      if (typeof value !== 'number') return notANumber(value)
      const expected = m.number as number
      const tolerance = (m.tolerance as number | undefined) ?? 0
      if (Math.abs(value - expected) <= tolerance) return undefined
      return tolerance ? `${show(value)} is not within ${tolerance} of ${expected}` : `${show(value)} is not ${expected}`
    }
    case 'tolerance':
      // Read with `number`; matcherProblem rejects it alone.
      return undefined
    case 'length': {
      const length = lengthOf(value)
      if (length === undefined) return `${show(value)} has no length (it is ${typeName(value)})`
      const expected = m.length as Json
      if (typeof expected === 'number') return length === expected ? undefined : `length ${length} is not ${expected}`
      const why = mismatch(expected, expected as MatcherObject, length)
      return why ? `length ${why}` : undefined
    }
    case 'exists':
      // exists: true holds once there is a node to match; exists: false never gets here.
      return undefined
  }
}

/** Strict JSON equality: types, string case and array order count; object key order does not. */
export function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]))
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a)
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]))
  }
  return false
}

function lengthOf(value: Json): number | undefined {
  if (Array.isArray(value)) return value.length
  if (typeof value === 'string') return [...value].length
  if (isPlainObject(value)) return Object.keys(value).length
  return undefined
}

function compare(op: keyof typeof COMPARISONS, a: number, b: number): boolean {
  switch (op) {
    case 'gte':
      return a >= b
    case 'gt':
      return a > b
    case 'lte':
      return a <= b
    case 'lt':
      return a < b
  }
}

/** A short description of a matcher for passing reasons: `matches {"gte":1}`, `equals "x"`. */
export function describeMatcher(matcher: Json, plural = false): string {
  if (matcher === 'any') return plural ? 'are present (any)' : 'is present (any)'
  if (isMatcherObject(matcher)) return `${plural ? 'match' : 'matches'} ${show(matcher)}`
  return `${plural ? 'equal' : 'equals'} ${show(matcher)}`
}

const notANumber = (value: Json) =>
  typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
    ? `${show(value)} is a string, not a number (a numeric string does not count)`
    : `${show(value)} is ${typeName(value)}, not a number`

function typeName(value: Json): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  return `a ${typeof value}`
}

const count = (n: number) => (n === 1 ? '1 value' : `${n} values`)

/** Strings cut to about 500 characters, so a check's expected/actual stays readable in a report. */
export function trimForReport(value: Json, max = 500): Json {
  if (typeof value === 'string') return value.length > max ? `${value.slice(0, max)}… (${value.length - max} more characters)` : value
  if (Array.isArray(value)) return value.map((v) => trimForReport(v, max))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimForReport(v, max)]))
  return value
}

function isPlainObject(value: Json | undefined): value is { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
