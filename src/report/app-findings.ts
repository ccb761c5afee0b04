import { appRenderFailed, type AppFinding, type AppRender, type ResultsDocument, type RunResult, type ToolCallResult, type ToolTestResult, type ToolTestStepResult } from '../results/types.js'
import { firstLine } from '../util/text.js'

/**
 * The MCP Apps renders of a document as its renderers read them (report, comment, JUnit, SARIF):
 * where each was made, the finding that matters most, and its verdict in words. Pure, from the
 * document only. Words are plain text: each renderer escapes them for where they go.
 */

/** Where a render was made: a tool test's step (its attempt when it runs more than once), or a run's call. */
export type RenderPlace = { kind: 'tool-test'; test: ToolTestResult; attempt: number; step: ToolTestStepResult } | { kind: 'run'; run: RunResult; call: number }

export interface PlacedRender {
  render: AppRender
  place: RenderPlace
}

/** Every render of the document, tool tests first (in test, attempt and step order), then runs (in run and call order). */
export function appRendersOf(doc: ResultsDocument): PlacedRender[] {
  const out: PlacedRender[] = []
  for (const test of doc.tool_tests?.tests ?? []) {
    for (const attempt of test.attempts) for (const step of attempt.steps) if (step.app) out.push({ render: step.app, place: { kind: 'tool-test', test, attempt: attempt.attempt, step } })
  }
  for (const run of doc.runs) for (const render of run.app_renders ?? []) out.push({ render, place: { kind: 'run', run, call: render.call_index } })
  return out
}

/** "tool test weather-widget, step 1" (", attempt 2 of 3" when repeated), or "run 3, call 2": plain text. */
export function placeWords(place: RenderPlace): string {
  if (place.kind === 'run') return `run ${place.run.index} (${place.run.case_id} · ${place.run.model}), call ${place.call}`
  const attempt = place.test.runs > 1 ? `, attempt ${place.attempt} of ${place.test.runs}` : ''
  return `tool test ${place.test.id}${attempt}, step ${place.step.index}`
}

/** How much a finding weighs: failed, then review, then warning; passed and skipped not at all. */
const WEIGHT: Record<AppFinding['status'], number> = { failed: 3, review: 2, warning: 1, skipped: 0, passed: 0 }

/** The finding that matters most (failed > review > warning); null when none is worth a look. */
export function worstFinding(render: AppRender): AppFinding | null {
  let worst: AppFinding | null = null
  for (const finding of render.findings) if (WEIGHT[finding.status] > 0 && (worst === null || WEIGHT[finding.status] > WEIGHT[worst.status])) worst = finding
  return worst
}

/** How a render stands: failed (a failed finding, action, assertion, or the host could not render it), review, warning, passed, or not done (skipped, cancelled). */
export type RenderStanding = 'failed' | 'review' | 'warning' | 'passed' | 'not-done'

export function renderStanding(render: AppRender): RenderStanding {
  if (appRenderFailed(render)) return 'failed'
  if (render.status === 'skipped' || render.status === 'cancelled') return 'not-done'
  const worst = worstFinding(render)
  return worst?.status === 'review' ? 'review' : worst?.status === 'warning' ? 'warning' : 'passed'
}

/** The mark of a standing: ✗ failed, ◐ review, ⚠ warning, ✓ passed, ⊘ not done. */
export const STANDING_MARK: Record<RenderStanding, string> = { failed: '✗', review: '◐', warning: '⚠', passed: '✓', 'not-done': '⊘' }

/** The order a reviewer reads renders in: failed, review, warning, passed, not done. */
const STANDING_ORDER: RenderStanding[] = ['failed', 'review', 'warning', 'passed', 'not-done']
export const byStanding = (a: AppRender, b: AppRender) => STANDING_ORDER.indexOf(renderStanding(a)) - STANDING_ORDER.indexOf(renderStanding(b))

/**
 * Why a render did not pass (or what a reviewer should see), in one line of plain text:
 * "app-no-errors: the view threw: …", "fill #city: no element matched …", "text_contains: …",
 * "not rendered: …"; "passed" when nothing is worth a line.
 */
export function renderVerdictWords(render: AppRender): string {
  if (render.status === 'error') return `not rendered: ${firstLine(render.reason ?? 'the host could not render the view')}`
  if (render.status === 'skipped' || render.status === 'cancelled') return `${render.status}${render.reason ? `: ${firstLine(render.reason)}` : ''}`
  const failed = render.findings.find((f) => f.status === 'failed')
  if (failed) return `${failed.id}: ${firstLine(failed.message)}`
  const action = render.actions.find((a) => !a.passed)
  if (action) return `${action.action} ${action.selector}: ${firstLine(action.error ?? 'failed')}`
  const assertion = render.assertions.find((a) => !a.passed)
  if (assertion) return `${assertion.check}${assertion.target ? ` ${assertion.target}` : ''}: ${firstLine(assertion.reason)}`
  const worst = worstFinding(render)
  return worst ? `${worst.id}: ${firstLine(worst.message)}` : 'passed'
}

/** The run's failed renders, one reason each: "app show_weather (call 1): app-no-errors: …". */
export function runAppReasons(run: RunResult): string[] {
  return (run.app_renders ?? []).filter(appRenderFailed).map((r) => `app ${r.tool} (call ${r.call_index}): ${renderVerdictWords(r)}`)
}

/** The render a run's call opened, when it has one. */
export function callRender(run: RunResult, call: ToolCallResult): AppRender | null {
  if (call.app_render === undefined) return null
  return (run.app_renders ?? []).find((r) => r.id === call.app_render) ?? null
}

/** The render's anchor in the report's MCP Apps section (the id made safe for an attribute). */
export function renderAnchor(render: Pick<AppRender, 'id'>): string {
  return `app-${render.id.toLowerCase().replace(/[^a-z0-9_.-]/g, '-')}`
}

/**
 * The render's files as links may name them: `apps/…/<name>.png` and nothing else (no scheme, no
 * way up, no characters an attribute or Markdown would read); null for any other path.
 */
export function safeImagePath(path: string | null): string | null {
  return path !== null && /^apps\/(?:(?:baseline|diff)\/)?[A-Za-z0-9][A-Za-z0-9._-]*\.png$/.test(path) && !path.includes('..') ? path : null
}
