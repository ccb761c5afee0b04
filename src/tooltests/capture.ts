import { PLACEHOLDER } from '../config/placeholders.js'
import type { Json } from '../config/types.js'
import type { AssertionCheck, StepResponse } from '../results/types.js'
import { responseValue } from './expect.js'
import { queryValues } from './jsonpath.js'
import { show, trimForReport } from './matchers.js'

// The placeholder syntax is checked when the suite is loaded, so it lives in config.
export { CAPTURE_NAME, malformedPlaceholders, referencedCaptures } from '../config/placeholders.js'

/**
 * Values one step keeps for later ones: `capture: { order: "$.order_id" }`, then
 * `args: { id: "${order}" }`.
 */

const WHOLE = /^\$\{([A-Za-z_][A-Za-z0-9_-]*)\}$/

/**
 * Replace `${name}` in every string value of `args`, recursively (object keys are left alone).
 * A string that is exactly `${name}` becomes the captured value with its type (a number stays a
 * number, an object an object); inside a longer string the value is interpolated (a string as it
 * is, anything else as JSON). `$${` is a literal `${`. A name nothing captured is left as written
 * and listed in `missing`, so the runner can fail the step instead of sending the placeholder.
 */
export function substituteCaptures(args: Record<string, Json>, captured: Record<string, Json>): { args: Record<string, Json>; missing: string[] } {
  const missing = new Set<string>()
  const substitute = (value: Json): Json => {
    if (typeof value === 'string') return substituteString(value, captured, missing)
    if (Array.isArray(value)) return value.map(substitute)
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v)]))
    return value
  }
  const out = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, substitute(v)]))
  return { args: out, missing: [...missing] }
}

function substituteString(text: string, captured: Record<string, Json>, missing: Set<string>): Json {
  const whole = WHOLE.exec(text)
  if (whole) {
    if (Object.hasOwn(captured, whole[1])) return captured[whole[1]]
    missing.add(whole[1])
    return text
  }
  return text.replace(PLACEHOLDER, (all, name: string | undefined) => {
    if (name === undefined) return '${'
    if (!Object.hasOwn(captured, name)) {
      missing.add(name)
      return all
    }
    const value = captured[name]
    return typeof value === 'string' ? value : JSON.stringify(value)
  })
}

/**
 * Take each capture's value from a step's value. A path must select exactly one node: none means
 * there is nothing to pass on, and several would leave the choice to document order, so both fail
 * the step with a `capture` check (index the path, `$.items[0].id`, to pick one). Every capture
 * gets a check, passed or not, so the report shows what was kept.
 */
export function captureValues(capture: Record<string, string>, value: Json): { captured: Record<string, Json>; checks: AssertionCheck[] } {
  const captured: Record<string, Json> = {}
  const checks: AssertionCheck[] = []
  for (const [name, path] of Object.entries(capture)) {
    let nodes: Json[]
    try {
      nodes = queryValues(path, value)
    } catch (error) {
      checks.push(failed(name, path, null, `cannot capture ${name}: ${(error as Error).message}`))
      continue
    }
    if (nodes.length === 1) {
      captured[name] = nodes[0]
      checks.push({ check: 'capture', path, passed: true, expected: name, actual: trimForReport(nodes[0]), reason: `captured ${name} = ${show(nodes[0])}` })
    } else if (nodes.length === 0) {
      checks.push(failed(name, path, null, `no value at ${path} to capture as ${name}`))
    } else {
      checks.push(failed(name, path, trimForReport(nodes), `${path} selects ${nodes.length} values; a capture needs exactly one (index it, e.g. [0], to pick one)`))
    }
  }
  return { captured, checks }
}

/**
 * `captureValues` on a response: the same value the `json` checks read (structuredContent, else
 * the text parsed as JSON, else the error's `{code, message, data}`). When there is none, every
 * capture fails with the reason.
 */
export function captureFromResponse(capture: Record<string, string>, response: StepResponse): { captured: Record<string, Json>; checks: AssertionCheck[] } {
  const value = responseValue(response)
  if (value.ok) return captureValues(capture, value.value)
  return { captured: {}, checks: Object.entries(capture).map(([name, path]) => failed(name, path, null, `cannot capture ${name}: ${value.reason}`)) }
}

const failed = (name: string, path: string, actual: Json, reason: string): AssertionCheck => ({ check: 'capture', path, passed: false, expected: name, actual, reason })
