import type { ArgMatchMode, GoldenExpectations, Json } from '../config/types.js'
import type { GoldenAssertions, GoldenCheck, GoldenCheckName } from '../results/scoring.js'
import { pyEquals } from './python-values.js'
import { compileMatcherPattern, type RequestedCall } from './tool-assertions.js'

export type { GoldenAssertions, GoldenCheck } from '../results/scoring.js'

/** Asks whether two values mean the same (the judge model, cached); false when unsure. */
export type SemanticMatcher = (expected: string, actual: string) => Promise<boolean>

/**
 * The golden-set checks of one run, over the calls the model requested, in order:
 * which tool it picked first (or that it picked none), the arguments of that tool, the order of
 * calls, tools it must not call, and how many calls it made.
 */
export async function checkGolden(golden: GoldenExpectations, calls: RequestedCall[], semantic: SemanticMatcher): Promise<GoldenAssertions> {
  const checks: GoldenCheck[] = []
  const names = calls.map((c) => c.name)
  if (golden.expect_tool === null) {
    checks.push(names.length === 0 ? ok('expect_tool', 'no tool called, as expected') : no('expect_tool', `expected no tool call; called ${list(names)}`))
  } else if (golden.expect_tool !== undefined) {
    checks.push(
      names[0] === golden.expect_tool
        ? ok('expect_tool', `${golden.expect_tool} called first`)
        : no('expect_tool', names.length ? `expected ${golden.expect_tool} first; called ${list(names)}` : `expected ${golden.expect_tool}; no tool was called`)
    )
  }
  if (golden.expect_args && golden.expect_tool) checks.push(await checkArgs(golden.expect_tool, golden.expect_args, golden.arg_match ?? {}, calls, semantic))
  if (golden.expect_sequence) checks.push(checkSequence(golden.expect_sequence, golden.sequence ?? 'in_order', names))
  if (golden.forbidden_tools) {
    const hit = golden.forbidden_tools.filter((t) => names.includes(t))
    checks.push(hit.length ? no('forbidden_tools', `called forbidden ${list(hit)}`) : ok('forbidden_tools', `none of ${list(golden.forbidden_tools)} called`))
  }
  if (golden.max_tool_calls !== undefined) {
    checks.push(
      names.length <= golden.max_tool_calls ? ok('max_tool_calls', `${names.length} of at most ${golden.max_tool_calls} calls`) : no('max_tool_calls', `${names.length} calls, more than ${golden.max_tool_calls}`)
    )
  }
  return { passed: checks.every((c) => c.passed), checks }
}

async function checkArgs(tool: string, expected: Record<string, Json>, modes: Record<string, ArgMatchMode>, calls: RequestedCall[], semantic: SemanticMatcher): Promise<GoldenCheck> {
  const candidates = calls.filter((c) => c.name === tool)
  if (candidates.length === 0) return no('expect_args', `${tool} was not called`)
  let closest = ''
  for (const call of candidates) {
    const mismatched: string[] = []
    for (const [key, value] of Object.entries(expected)) {
      const mode = modes[key] ?? 'exact'
      if (!Object.hasOwn(call.args, key)) mismatched.push(`${key} missing`)
      else if (!(await argMatches(mode, value, call.args[key], semantic))) mismatched.push(`${key}=${JSON.stringify(call.args[key])} (${describeMode(mode)} ${JSON.stringify(value)})`)
    }
    if (mismatched.length === 0) return ok('expect_args', `${tool} called with the expected arguments`)
    if (!closest || mismatched.join(', ').length < closest.length) closest = mismatched.join(', ')
  }
  return no('expect_args', `no call of ${tool} matched: ${closest}`)
}

/** One argument against its expectation, by the case's `arg_match` mode. */
export async function argMatches(mode: ArgMatchMode, expected: Json, actual: Json, semantic: SemanticMatcher): Promise<boolean> {
  if (typeof mode === 'object') return numbersWithin(expected, actual, mode.number)
  switch (mode) {
    case 'exact':
      return pyEquals(actual, expected)
    case 'contains':
      return text(actual).toLowerCase().includes(text(expected).toLowerCase())
    case 'pattern':
      return compileMatcherPattern(text(expected)).test(text(actual))
    case 'any':
      return true
    case 'number':
      return numbersWithin(expected, actual, 0)
    case 'semantic':
      // Equal text needs no judge.
      return text(actual).trim().toLowerCase() === text(expected).trim().toLowerCase() || semantic(text(expected), text(actual))
  }
}

function numbersWithin(expected: Json, actual: Json, tolerance: number): boolean {
  const a = Number(actual)
  const e = Number(expected)
  return typeof actual !== 'boolean' && actual !== null && actual !== '' && Number.isFinite(a) && Number.isFinite(e) && Math.abs(a - e) <= tolerance
}

/** in_order: the expected tools appear in this order (others may come between); exact: nothing else. */
function checkSequence(expected: string[], mode: 'in_order' | 'exact', names: string[]): GoldenCheck {
  if (mode === 'exact') {
    const same = expected.length === names.length && expected.every((n, i) => n === names[i])
    return same ? ok('expect_sequence', `calls were exactly ${list(expected)}`) : no('expect_sequence', `expected exactly ${list(expected)}; called ${list(names)}`)
  }
  let at = 0
  for (const name of names) if (name === expected[at]) at++
  return at === expected.length
    ? ok('expect_sequence', `${list(expected)} called in order`)
    : no('expect_sequence', `expected ${list(expected)} in order; called ${list(names)} (stopped before ${expected[at]})`)
}

const text = (v: Json): string => (typeof v === 'string' ? v : JSON.stringify(v))
const list = (names: string[]) => (names.length ? names.join(' → ') : '(none)')
const describeMode = (mode: ArgMatchMode) => (typeof mode === 'object' ? `within ${mode.number} of` : mode === 'exact' ? 'expected' : `${mode}`)
const ok = (check: GoldenCheckName, reason: string): GoldenCheck => ({ check, passed: true, reason })
const no = (check: GoldenCheckName, reason: string): GoldenCheck => ({ check, passed: false, reason })
