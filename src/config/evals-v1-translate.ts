import { escapeCaptures } from './placeholders.js'
import { assertionProblems } from './evals-v1-assertion-problems.js'
import type { RawV1Check, RawV1Scenario, RawV1Turn } from './evals-v1-raw.js'
import { patternProblem, type Report } from './expectations.js'
import { normaliseResilience } from './resilience.js'
import type { ConversationTurn, EvalCase, EvalsV1Assertion, EvalsV1TurnExpect, Json, ToolTest, ToolTestCall } from './types.js'
import type { YamlPath } from './yaml-document.js'

// An evals/v1 flow's checks as tool tests, and its scenarios as conversation cases.

const LISTS = { listTools: 'tools/list', listResources: 'resources/list', listPrompts: 'prompts/list' } as const

/** Every rule of a list (and the rules nested in `resource`) checked by the assertion engine's own rules. */
function checkRules(rules: EvalsV1Assertion[], at: YamlPath, report: Report): void {
  rules.forEach((rule, k) => {
    for (const problem of assertionProblems(rule, [...at, k])) report(problem.message, problem.path)
  })
}

/** A check as a tool test: one step, its call (a tool, a resource read, a list) and its assertions; one run, as in @mcp-use/evals. */
export function toolTestOfCheck(check: RawV1Check, at: YamlPath, report: Report): ToolTest {
  checkRules(check.assert, [...at, 'assert'], report)
  const { tool, resource, mcp } = check.call
  // The schema has exactly one of the three.
  const call: ToolTestCall | undefined = resource !== undefined ? { kind: 'resource', uri: resource } : mcp !== undefined ? { kind: 'list', method: LISTS[mcp] } : undefined
  const label = call === undefined ? (tool ?? '') : call.kind === 'resource' ? `resources/read ${call.uri}` : call.method
  return {
    id: check.id,
    steps: [{ tool: label, ...(call ? { call } : {}), args: escapeCaptures(check.call.args ?? {}) as Record<string, Json>, expect: { asserts: check.assert }, capture: {} }],
    runs: 1,
    tags: []
  }
}

/**
 * A scenario as a conversation case (kind hard: every run must pass, as there): its turns in
 * order, each carrying its evals/v1 expectations; the judge's rubric and threshold as the case's;
 * `expect.tools.forbidden` as its golden forbidden tools. A turn's widget screenshot renders the
 * scenario's apps (`apps: render`), and so does the judge's `screenshot: true` (`judge_screenshot`).
 */
export function caseOfScenario(scenario: RawV1Scenario, at: YamlPath, report: Report, defaults: { threshold: number }): EvalCase {
  const judge = scenario.expect?.judge
  const threshold = judge?.threshold ?? defaults.threshold
  const turns: ConversationTurn[] = scenario.turns.map((turn, k) => {
    const turnAt = [...at, 'turns', k]
    return { user: turn.user, rubric: null, threshold, required_tools: [], golden: null, evals_v1: turnExpectOf(turn, k, turnAt, report, defaults.threshold) }
  })
  const forbidden = scenario.expect?.tools?.forbidden ?? []
  // A turn's widget screenshot is judged on the view the browser host rendered: the scenario renders its apps.
  const shownScreenshot = judge?.screenshot === true
  const screenshots = shownScreenshot || turns.some((t) => t.evals_v1?.widget_screenshot)
  return {
    id: scenario.id,
    prompt: scenario.turns[0].user,
    rubric: (judge?.rubric ?? '').trim(),
    threshold,
    required_tools: [],
    golden: forbidden.length > 0 ? { forbidden_tools: [...forbidden] } : null,
    runs: 1,
    kind: 'hard',
    tags: [...(scenario.tags ?? [])],
    resilience: normaliseResilience({}, at, report),
    conversation: { kind: 'turns', turns },
    inputs: null,
    ...(screenshots ? { apps: 'render' as const } : {}),
    ...(shownScreenshot ? { judge_screenshot: true as const } : {})
  }
}

function turnExpectOf(turn: RawV1Turn, index: number, at: YamlPath, report: Report, defaultThreshold: number): EvalsV1TurnExpect {
  const expect = turn.expect ?? {}
  const tools = (expect.tools ?? []).map((t, j) => {
    // Checked after this turn, on the calls so far: no call of a later turn exists yet.
    if (t.afterTurn !== undefined && t.afterTurn > index) {
      report(`afterTurn ${t.afterTurn} is later than this turn (${index}, counting from 0): the expectation is checked after this turn, when no call of a later turn exists yet, so it could never pass`, [...at, 'expect', 'tools', j, 'afterTurn'])
    }
    for (const [name, matcher] of Object.entries(t.args ?? {})) {
      const pattern = matcher !== null && typeof matcher === 'object' && !Array.isArray(matcher) ? matcher.pattern : undefined
      const problem = typeof pattern === 'string' ? patternProblem(pattern) : null
      if (problem) report(problem, [...at, 'expect', 'tools', j, 'args', name, 'pattern'])
    }
    return { name: t.name, args: t.args ?? null, after_turn: t.afterTurn ?? null }
  })
  if (expect.result) checkRules(expect.result.assert, [...at, 'expect', 'result', 'assert'], report)
  const screenshot = expect.widget?.screenshot
  return {
    tools,
    result: expect.result ? { tool: expect.result.tool, assert: expect.result.assert } : null,
    widget_fields: expect.widget?.fields ?? null,
    widget_screenshot: screenshot ? { rubric: screenshot.rubric, threshold: screenshot.threshold ?? defaultThreshold, tool: screenshot.tool ?? null, args: screenshot.args ?? null } : null
  }
}
