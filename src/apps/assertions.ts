import type { AppTest } from '../config/types.js'
import type { AppAssertionCheck } from '../results/types.js'
import { queryValues } from '../tooltests/jsonpath.js'
import { matchValue, show } from '../tooltests/matchers.js'
import type { Json } from '../util/json.js'
import type { AppJudgeFn } from './types.js'

/**
 * An app test's assertions on the rendered view, from what the page answered (pure but the judge):
 * `text_contains` on the frame's visible text, `selector` on what matched, `fields` as evals/v1
 * widget.fields on the call's structuredContent, `judge` by the injected vision judge.
 */

/** What the page answered for the assertions: the frame's innerText, and per selector its matches' texts. */
export interface ViewText {
  text: string
  selectors: Record<string, string[]>
}

export function textAssertions(test: AppTest, view: ViewText): AppAssertionCheck[] {
  const lower = view.text.toLowerCase()
  const excerpt = view.text.length > 300 ? `${view.text.slice(0, 299)}…` : view.text
  return test.text_contains.map((needle) => {
    const passed = lower.includes(needle.toLowerCase())
    return { check: 'text_contains', target: null, passed, expected: needle, actual: excerpt, reason: passed ? `the view shows ${JSON.stringify(needle)}` : `the view's text does not contain ${JSON.stringify(needle)}` }
  })
}

export function selectorAssertions(test: AppTest, view: ViewText): AppAssertionCheck[] {
  return test.selector.map((check) => {
    const texts = view.selectors[check.selector] ?? []
    if (check.count !== undefined) {
      const passed = texts.length === check.count
      return { check: 'selector', target: check.selector, passed, expected: check.count, actual: texts.length, reason: passed ? `${texts.length} elements match` : `expected ${check.count} elements to match, found ${texts.length}` }
    }
    if (check.text !== undefined) {
      const want = check.text.trim()
      const passed = texts.some((t) => t.trim() === want)
      const actual: Json = texts.slice(0, 10).map((t) => t.trim().slice(0, 200))
      return {
        check: 'selector',
        target: check.selector,
        passed,
        expected: want,
        actual,
        reason: passed ? `an element's text is ${JSON.stringify(want)}` : texts.length === 0 ? 'no element matches' : `no matching element's text is ${JSON.stringify(want)} (found ${show(actual)})`
      }
    }
    const passed = texts.length > 0
    return { check: 'selector', target: check.selector, passed, expected: true, actual: texts.length, reason: passed ? `${texts.length} element${texts.length === 1 ? '' : 's'} match` : 'no element matches' }
  })
}

/** `fields`: a key starting with `$` is a JSONPath on structuredContent; any other key is a property of it. */
export function fieldAssertions(test: AppTest, result: Record<string, unknown>): AppAssertionCheck[] {
  const structured = result.structuredContent as Json | undefined
  return Object.entries(test.fields).map(([key, matcher]) => {
    const path = key.startsWith('$') ? key : `$[${JSON.stringify(key)}]`
    if (structured === undefined || structured === null || typeof structured !== 'object') {
      return { check: 'fields', target: key, passed: false, expected: matcher, actual: null, reason: 'the call returned no structuredContent object' }
    }
    let nodes: Json[]
    try {
      nodes = queryValues(path, structured)
    } catch (error) {
      return { check: 'fields', target: key, passed: false, expected: matcher, actual: null, reason: (error as Error).message }
    }
    const outcome = matchValue(matcher, nodes, key)
    return { check: 'fields', target: key, passed: outcome.passed, expected: matcher, actual: outcome.actual, reason: outcome.reason }
  })
}

export async function judgeAssertion(test: AppTest, png: Buffer | null, judge: AppJudgeFn | undefined, context: string, signal: AbortSignal): Promise<AppAssertionCheck | null> {
  const rule = test.judge
  if (!rule) return null
  const base = { check: 'judge' as const, target: null, expected: rule.threshold }
  if (!judge) return { ...base, passed: false, actual: null, reason: 'app.judge needs a vision judge, and none is configured', score: null }
  if (!png) return { ...base, passed: false, actual: null, reason: 'no screenshot was taken, so there was nothing to judge', score: null }
  try {
    const { score, reason } = await judge({ rubric: rule.rubric, png, model: rule.model, context }, signal)
    const passed = score / 10 >= rule.threshold
    return { ...base, passed, actual: score, reason: `${score}/10 ${passed ? '≥' : '<'} threshold ${rule.threshold} × 10: ${reason}`, score }
  } catch (error) {
    return { ...base, passed: false, actual: null, reason: `the vision judge failed: ${error instanceof Error ? error.message : String(error)}`, score: null }
  }
}
