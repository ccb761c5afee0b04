import type { Suite } from '../config/types.js'

/**
 * Whether the suite asks for any MCP Apps render, and so needs the browser host and has an
 * `apps` section in its document: `apps: render` on the suite or on a case, or a tool test step
 * with `app:`. (An evals/v1 scenario with a widget screenshot is a case with `apps: render`.)
 */
export function suiteRendersApps(suite: Pick<Suite, 'apps' | 'cases' | 'tool_tests'>): boolean {
  return suiteRendersInRuns(suite) || suite.tool_tests.some((test) => test.steps.some((step) => step.app !== undefined))
}

/** Whether any behaviour run may render apps: `apps: render` on the suite or on a case. */
export function suiteRendersInRuns(suite: Pick<Suite, 'apps' | 'cases'>): boolean {
  return Boolean(suite.apps?.render) || suite.cases.some((c) => c.apps === 'render')
}

/** Whether any app test has `app.judge`, or an evals/v1 turn a widget screenshot, and so the evaluation needs a vision judge (src/scoring/vision-judge.ts). */
export function suiteJudgesApps(suite: Pick<Suite, 'tool_tests'> & Partial<Pick<Suite, 'cases'>>): boolean {
  if (suite.tool_tests.some((test) => test.steps.some((step) => step.app?.judge != null))) return true
  return (suite.cases ?? []).some((c) => c.conversation?.kind === 'turns' && c.conversation.turns.some((t) => t.evals_v1?.widget_screenshot))
}
