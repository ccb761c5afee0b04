import { pathProblem } from '../util/jsonpath.js'
import { matcherProblem } from './json-matcher.js'
import { DEFAULT_APPS_SETTINGS, type AppAction, type AppJudge, type AppSelectorCheck, type AppsSettings, type AppTest, type Json, type ToolTestCall } from './types.js'

// MCP Apps in the suite: a tool test step's `app:` and the suite's `apps:`, as the YAML holds them
// (already valid against the JSON Schema), normalised and checked for what the schema cannot say.

/** A step's `app:` as written: `true` (the host's findings alone), or the actions and checks. */
export type RawAppTest =
  | true
  | {
      actions?: ({ click: string } | { fill: string; value: string })[]
      text_contains?: string | string[]
      selector?: RawSelectorCheck | RawSelectorCheck[]
      fields?: Record<string, Json>
      judge?: string | { rubric: string; threshold?: number; model?: string }
    }

type RawSelectorCheck = { selector: string; text?: string; count?: number }

/** The suite's `apps:` as written. */
export type RawAppsSettings = 'render' | 'off' | { render: boolean; timeout_ms?: number; visual_threshold?: number }

/** The judge's default threshold for `app.judge` (evals/v1's scale, 0–1). */
export const DEFAULT_APP_JUDGE_THRESHOLD = 0.5

type Problem = (message: string, path: (string | number)[]) => void

/**
 * A step's `app:` normalised (lists always present, `judge` null when absent), its problems
 * reported at `at` (the `app` key's path): JSONPaths that do not parse, matchers that are not
 * valid, a selector that is blank, and an `app:` on a step that calls no tool (`call`: a resource
 * read or a list has no app to render).
 */
export function normaliseAppTest(raw: RawAppTest, at: (string | number)[], problem: Problem, call?: ToolTestCall): AppTest {
  if (call !== undefined) {
    const what = call.kind === 'resource' ? `a resource read (${call.uri})` : `a list (${call.method})`
    problem(`app: needs a tool call, whose tool links a ui:// resource; this step is ${what}, which has no app to render`, at)
  }
  const test: AppTest = { actions: [], text_contains: [], selector: [], fields: {}, judge: null }
  if (raw === true) return test
  test.actions = (raw.actions ?? []).map((action, k): AppAction => {
    const isClick = 'click' in action
    const selector = isClick ? action.click : action.fill
    blankSelector(selector, [...at, 'actions', k, isClick ? 'click' : 'fill'], problem)
    return isClick ? { action: 'click', selector } : { action: 'fill', selector, value: action.value }
  })
  if (raw.text_contains !== undefined) test.text_contains = typeof raw.text_contains === 'string' ? [raw.text_contains] : [...raw.text_contains]
  if (raw.selector !== undefined) {
    const single = !Array.isArray(raw.selector)
    const checks = Array.isArray(raw.selector) ? raw.selector : [raw.selector]
    test.selector = checks.map((check, k): AppSelectorCheck => {
      const where = single ? [...at, 'selector'] : [...at, 'selector', k]
      blankSelector(check.selector, [...where, 'selector'], problem)
      return { selector: check.selector, ...(check.text !== undefined ? { text: check.text } : {}), ...(check.count !== undefined ? { count: check.count } : {}) }
    })
  }
  if (raw.fields !== undefined) {
    for (const [path, matcher] of Object.entries(raw.fields)) {
      const trouble = pathProblem(path)
      if (trouble) problem(`${trouble} (RFC 9535)`, [...at, 'fields', path])
      const bad = matcherProblem(matcher)
      if (bad) problem(bad, [...at, 'fields', path])
    }
    test.fields = { ...raw.fields }
  }
  if (raw.judge !== undefined) test.judge = judgeOf(raw.judge)
  return test
}

function judgeOf(raw: string | { rubric: string; threshold?: number; model?: string }): AppJudge {
  if (typeof raw === 'string') return { rubric: raw.trim(), threshold: DEFAULT_APP_JUDGE_THRESHOLD, model: null }
  return { rubric: raw.rubric.trim(), threshold: raw.threshold ?? DEFAULT_APP_JUDGE_THRESHOLD, model: raw.model ?? null }
}

/** A selector of spaces alone selects nothing (the schema's minLength sees only the empty string). */
function blankSelector(selector: string, where: (string | number)[], problem: Problem): void {
  if (selector.trim() === '') problem('must be a CSS selector, not blank', where)
}

/**
 * The suite's `apps:` resolved: the string forms are `{ render }`; what is left unset is
 * DEFAULT_APPS_SETTINGS'. `visualDiff` (the app_visual_diff input or flag) wins when given.
 */
export function appsSettingsOf(raw: RawAppsSettings | undefined, visualDiff?: 'review' | 'fail'): AppsSettings {
  const settings: AppsSettings = { ...DEFAULT_APPS_SETTINGS }
  if (raw === 'render') settings.render = true
  else if (typeof raw === 'object') {
    settings.render = raw.render
    if (raw.timeout_ms !== undefined) settings.render_timeout_ms = raw.timeout_ms
    if (raw.visual_threshold !== undefined) settings.visual_threshold = raw.visual_threshold
  }
  if (visualDiff !== undefined) settings.visual_diff = visualDiff
  return settings
}
