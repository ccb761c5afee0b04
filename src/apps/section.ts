import { appRenderFailed, type AppFindingId, type AppFindingStatus, type AppRender, type AppsSection } from '../results/apps.js'
import type { RunResult, ToolTestsSection } from '../results/types.js'

/** How the browser host's opening went, as the journal keeps it (a section without its counts). */
export type AppsOpened = Pick<AppsSection, 'status' | 'reason' | 'browser'>

/** The apps settings the section repeats (the journal header's). */
export type AppsSectionSettings = Pick<AppsSection, 'visual_diff' | 'visual_threshold'>

/** Why the section says `skipped` when the host was never opened: nothing asked for a render. */
export const NOT_REACHED = 'no view was rendered: no tool test step or run reached a tool call whose tool links a ui:// resource'

/** Every render the document holds: the tool tests' steps (in test, attempt and step order), then the runs' (in run order). */
export function rendersOf(toolTests: ToolTestsSection | null, runs: readonly RunResult[]): AppRender[] {
  const steps = (toolTests?.tests ?? []).flatMap((test) => test.attempts.flatMap((attempt) => attempt.steps.flatMap((step) => (step.app ? [step.app] : []))))
  return [...steps, ...runs.flatMap((run) => run.app_renders ?? [])]
}

/**
 * The document's `apps` section, a pure function of the settings, how the host's opening went
 * (null: it was never opened, since nothing reached a render) and every render the document holds.
 */
export function appsSection(settings: AppsSectionSettings, opened: AppsOpened | null, renders: readonly AppRender[]): AppsSection {
  const findings: Partial<Record<AppFindingId, Partial<Record<AppFindingStatus, number>>>> = {}
  for (const render of renders) {
    for (const finding of render.findings) {
      const byStatus = (findings[finding.id] ??= {})
      byStatus[finding.status] = (byStatus[finding.status] ?? 0) + 1
    }
  }
  return {
    status: opened?.status ?? 'skipped',
    reason: opened ? opened.reason : NOT_REACHED,
    browser: opened?.browser ?? null,
    visual_diff: settings.visual_diff,
    visual_threshold: settings.visual_threshold,
    renders: renders.length,
    failed: renders.filter(appRenderFailed).length,
    findings
  }
}
