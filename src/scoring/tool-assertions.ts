import type { Json, ToolRequirement } from '../config/types.js'
import type { ToolAssertions, ToolCheck } from '../results/scoring.js'
import { compileMatcherPattern } from '../util/matcher-pattern.js'
import { pyEquals, pyStr } from './python-values.js'

// Compiled where the suite loader checks patterns too, so it lives in util.
export { compileMatcherPattern } from '../util/matcher-pattern.js'

/** A tool call as the model requested it (name and top-level arguments). */
export interface RequestedCall {
  name: string
  args: Record<string, Json>
}

export type { ToolAssertions } from '../results/scoring.js'

/**
 * Check required_tools with eval-action's semantics: each entry independently, one call may
 * satisfy several entries, names compared exactly, extra actual args ignored.
 */
export function checkRequiredTools(requirements: ToolRequirement[], calls: RequestedCall[]): ToolAssertions {
  const checks = requirements.map((req) => checkRequirement(req, calls))
  return { passed: checks.every((c) => c.passed), checks }
}

function checkRequirement(req: ToolRequirement, calls: RequestedCall[]): ToolCheck {
  const named = calls.filter((c) => c.name === req.name)
  const expected = req.args && Object.keys(req.args).length > 0 ? req.args : undefined
  if (named.length === 0) return { tool: req.name, passed: false, reason: 'not called', expected_args: expected ?? null }
  if (!expected) return { tool: req.name, passed: true, reason: `called ${named.length}x`, expected_args: null }
  if (named.some((call) => argsMatch(expected, call.args))) {
    return { tool: req.name, passed: true, reason: 'called with matching args', expected_args: expected }
  }
  const keys = Object.keys(expected)
  return {
    tool: req.name,
    passed: false,
    reason: 'called but args did not match',
    expected_args: expected,
    actual_args: named.map((call) => Object.fromEntries(keys.filter((k) => Object.hasOwn(call.args, k)).map((k) => [k, call.args[k]])))
  }
}

/** Every expected key must be present at the top level and its value must match. */
function argsMatch(expected: Record<string, Json>, actual: Record<string, Json>): boolean {
  return Object.entries(expected).every(([key, matcher]) => Object.hasOwn(actual, key) && valueMatches(matcher, actual[key]))
}

/** eval-action's matcher table: the first rule that applies wins. */
export function valueMatches(expected: Json, actual: Json): boolean {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    if ('contains' in expected) return pyStr(actual).toLowerCase().includes(String(expected.contains).toLowerCase())
    if ('pattern' in expected) return compileMatcherPattern(String(expected.pattern)).test(pyStr(actual))
  }
  if (expected === 'any') return true
  if (typeof expected === 'string') return pyStr(actual).toLowerCase() === expected.toLowerCase()
  return pyEquals(actual, expected)
}
