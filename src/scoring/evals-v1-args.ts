import type { Json } from '../config/types.js'
import { deepEqual, show } from '../tooltests/matchers.js'
import { isObject } from '../util/objects.js'
import { compileMatcherPattern } from '../util/matcher-pattern.js'

/**
 * evals/v1 argument matchers (a scenario turn's `expect.tools[].args`) and widget fields, as
 * @mcp-use/evals reads them, pure. Per key of `args`, the first rule that applies:
 * - `"any"`: always matches, even when the key is absent;
 * - `{any: true, requirePresent: true}`: matches when the key is present;
 * - a string: equal, case-insensitively, to the value's text (a string as it is, null as the
 *   empty text, anything else as JSON text);
 * - a number or a boolean: the same value, or the same text (`5` matches `"5"`);
 * - `{contains}`: the value's text holds it, case-insensitively;
 * - `{pattern}`: the value's text matches it, case-insensitively, on RE2 (compileMatcherPattern);
 * - anything else (an object, an array, null): JSON equality, whatever the key order.
 * Every matcher but `"any"` needs the key present.
 */

/** Why one argument did not match, in words: `city="Lyon" (expected "paris")`. Null when it matched. */
export function argMismatch(key: string, matcher: Json, args: Record<string, Json>): string | null {
  if (matcher === 'any') return null
  if (!Object.hasOwn(args, key)) return `${key} missing`
  const actual = args[key]
  return argMatches(matcher, actual) ? null : `${key}=${show(actual)} (${describeMatcher(matcher)})`
}

/** Whether a present argument's value satisfies one matcher. A pattern RE2 cannot compile matches nothing (the suite loader refuses it first). */
export function argMatches(matcher: Json, actual: Json): boolean {
  if (matcher === 'any') return true
  if (typeof matcher === 'string') return textOf(actual).toLowerCase() === matcher.toLowerCase()
  if (typeof matcher === 'number' || typeof matcher === 'boolean') return actual === matcher || textOf(actual) === String(matcher)
  if (isObject(matcher)) {
    if (isPresenceMatcher(matcher)) return true
    if (typeof matcher.contains === 'string') return textOf(actual).toLowerCase().includes(matcher.contains.toLowerCase())
    if (typeof matcher.pattern === 'string') {
      try {
        return compileMatcherPattern(matcher.pattern).test(textOf(actual))
      } catch {
        return false
      }
    }
  }
  return deepEqual(matcher, actual)
}

/** Every mismatched argument of one call (empty: the call matches every matcher), in the matchers' order. */
export function argsMismatches(expected: Record<string, Json>, args: Record<string, Json>): string[] {
  return Object.entries(expected)
    .map(([key, matcher]) => argMismatch(key, matcher, args))
    .filter((m): m is string => m !== null)
}

/**
 * Widget fields against a call's structuredContent, key by key (JSON equality, whatever the key
 * order); every mismatched key is named. No structuredContent (not an object) fails.
 */
export function matchWidgetFields(expected: Record<string, Json>, structured: Json | undefined): { passed: boolean; reason: string } {
  if (!isObject(structured)) return { passed: false, reason: 'the call returned no structuredContent object' }
  const content = structured as Record<string, Json>
  const mismatched = Object.entries(expected)
    .filter(([key, value]) => !(Object.hasOwn(content, key) && deepEqual(value, content[key])))
    .map(([key, value]) => `${key}: expected ${show(value)}, got ${Object.hasOwn(content, key) ? show(content[key]) : '(absent)'}`)
  const keys = Object.keys(expected).length
  return mismatched.length === 0
    ? { passed: true, reason: keys === 1 ? 'the widget field matches structuredContent' : `${keys} widget fields match structuredContent` }
    : { passed: false, reason: `${mismatched.length === 1 ? 'a widget field differs' : `${mismatched.length} widget fields differ`} from structuredContent: ${mismatched.join('; ')}` }
}

/** `{any: true, requirePresent: true}`. */
function isPresenceMatcher(matcher: Record<string, Json>): boolean {
  return matcher.any === true && matcher.requirePresent === true
}

/** A value's text, as the matchers and the `contains`/`pattern` assertions read it: a string as it is, null as the empty text (as there), anything else as JSON. */
export function textOf(value: Json): string {
  return typeof value === 'string' ? value : value === null ? '' : JSON.stringify(value)
}

function describeMatcher(matcher: Json): string {
  if (typeof matcher === 'string') return `expected ${JSON.stringify(matcher)}, any case`
  if (typeof matcher === 'number' || typeof matcher === 'boolean') return `expected ${String(matcher)}`
  if (isObject(matcher)) {
    if (typeof matcher.contains === 'string') return `expected to contain ${JSON.stringify(matcher.contains)}, any case`
    if (typeof matcher.pattern === 'string') return `expected to match /${matcher.pattern}/i`
  }
  return `expected ${show(matcher)}`
}
