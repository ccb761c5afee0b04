import { readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { groupRuns } from '../aggregate/groups.js'
import { summarize } from '../aggregate/summarize.js'
import { APP_FINDING_IDS, appRenderFailed, type AppFinding, type AppRender, type AppsSection, type ResultsDocument, type ToolTestResult, type ToolTestsSection } from '../results/types.js'
import { round4 } from '../util/text.js'
import { percent } from '../util/words.js'
import { writeFileReplacing } from '../util/write-file.js'
import { compareScreenshots } from './visual-diff.js'

/**
 * The visual diff against the baseline, at gate time: for each rendered view whose screenshot
 * (`<outputDir>/apps/<name>.png`) has a screenshot of the same name in the baseline's `apps/`
 * directory (saved with the baseline document), the share of changed pixels; the baseline's PNG
 * copied to `apps/baseline/<name>.png` and, when it changed, the difference written to
 * `apps/diff/<name>.png`, both beside the current one (the artifact holds them). Each compared
 * render gets its `visual_diff` and an `app-visual-change` finding: passed under the threshold;
 * over it `review`, or `failed` with `app_visual_diff: fail` — then the render fails its tool test
 * or run, and the document no longer passes. A screenshot that cannot be compared (not a PNG, not
 * readable) is that render's `skipped` finding, saying why; the others are compared all the same.
 * Returns a new document; the files are the only effect.
 */
export function applyVisualDiff(doc: ResultsDocument, outputDir: string, baselineAppsDir: string): ResultsDocument {
  const section = doc.apps
  if (!section || section.status !== 'ran') return doc
  const compare = (render: AppRender) => compared(render, section, outputDir, baselineAppsDir)
  let failedNow = false
  const mark = (before: AppRender, after: AppRender) => {
    if (!appRenderFailed(before) && appRenderFailed(after)) failedNow = true
    return after
  }
  const tool_tests = doc.tool_tests && withToolTests(doc.tool_tests, (r) => mark(r, compare(r)))
  let runsChanged = false
  const runs = doc.runs.map((run) => {
    if (!run.app_renders?.length) return run
    const renders = run.app_renders.map((r) => mark(r, compare(r)))
    const failedRun = run.status === 'passed' && renders.some(appRenderFailed)
    runsChanged ||= failedRun
    return { ...run, app_renders: renders, ...(failedRun ? { status: 'failed' as const, success: false } : {}) }
  })
  const all = [...(tool_tests?.tests ?? []).flatMap((t) => t.attempts.flatMap((a) => a.steps.flatMap((s) => (s.app ? [s.app] : [])))), ...runs.flatMap((r) => r.app_renders ?? [])]
  const out: ResultsDocument = { ...doc, tool_tests, runs, apps: recount(section, all), passed: doc.passed && !failedNow }
  if (!runsChanged) return out
  // A run the visual diff failed: its group and the summary counted again (the tokens and cache as they were).
  const groups = groupRuns(runs, doc.config?.pass_floors ?? { hard: 1, soft: 0.8 })
  return { ...out, groups, summary: { ...doc.summary, ...summarize(runs, groups), tokens: doc.summary.tokens, cache: doc.summary.cache } }
}

/** A regular file's path, or null when there is none there. */
function fileAt(path: string): string | null {
  try {
    return statSync(path).isFile() ? path : null
  } catch {
    return null
  }
}

/** The render with its comparison, or as it was when it has no screenshot or the baseline has none of it. */
function compared(render: AppRender, section: AppsSection, outputDir: string, baselineAppsDir: string): AppRender {
  if (render.status !== 'rendered' || render.screenshot === null) return render
  const name = basename(render.screenshot)
  const current = fileAt(join(outputDir, render.screenshot))
  const before = fileAt(join(baselineAppsDir, name))
  if (!current || !before) return render
  try {
    const baselinePng = readFileSync(before)
    const result = compareScreenshots(readFileSync(current), baselinePng, section.visual_threshold)
    // Written as every output is: replaced, never through a link planted at the name.
    const baseline = `apps/baseline/${name}`
    writeFileReplacing(join(outputDir, baseline), baselinePng)
    let diff: string | null = null
    if (result.diffPng) {
      diff = `apps/diff/${name}`
      writeFileReplacing(join(outputDir, diff), result.diffPng)
    }
    const ratio = round4(result.changed_ratio)
    const sized = result.changed_ratio === 1 && result.diffPng === null
    const words = sized ? "the screenshot's size differs from the baseline's" : `${percent(ratio)} of the pixels differ from the baseline's screenshot (threshold ${percent(section.visual_threshold)})`
    const status: AppFinding['status'] = !result.changed ? 'passed' : section.visual_diff === 'fail' ? 'failed' : 'review'
    const finding: AppFinding = { id: 'app-visual-change', status, message: words, evidence: [baseline, ...(diff ? [diff] : [])] }
    return { ...render, visual_diff: { baseline, changed_ratio: ratio, changed: result.changed, diff }, findings: withFinding(render.findings, finding) }
  } catch (error) {
    const finding: AppFinding = { id: 'app-visual-change', status: 'skipped', message: `the screenshot could not be compared with the baseline's: ${(error as Error).message}`, evidence: [] }
    return { ...render, visual_diff: null, findings: withFinding(render.findings, finding) }
  }
}

/** The findings with `finding` in place of an earlier one of its id (applied twice, the diff is said once). */
function withFinding(findings: AppFinding[], finding: AppFinding): AppFinding[] {
  return [...findings.filter((f) => f.id !== finding.id), finding]
}

/** The tool tests with each step's app compared; a step, attempt and test its app now fails fail with it, and the counts follow. */
function withToolTests(section: ToolTestsSection, compare: (render: AppRender) => AppRender): ToolTestsSection {
  let changed = false
  const tests = section.tests.map((test): ToolTestResult => {
    let failedHere = false
    const attempts = test.attempts.map((attempt) => {
      const steps = attempt.steps.map((step) => {
        if (!step.app) return step
        const app = compare(step.app)
        changed ||= app !== step.app
        const fails = step.passed && appRenderFailed(app)
        failedHere ||= fails
        return { ...step, app, passed: step.passed && !fails }
      })
      return { ...attempt, steps, status: attempt.status === 'passed' && steps.some((s) => !s.passed) ? ('failed' as const) : attempt.status }
    })
    return failedHere && test.status === 'passed' ? { ...test, attempts, status: 'failed', passed: false } : { ...test, attempts }
  })
  if (!changed) return section
  const n = (status: ToolTestResult['status']) => tests.filter((t) => t.status === status).length
  return { ...section, tests, passed: n('passed'), failed: n('failed'), errored: n('error'), cancelled: n('cancelled') }
}

/** The section's counts over the renders as they are now. */
function recount(section: AppsSection, renders: AppRender[]): AppsSection {
  const findings: AppsSection['findings'] = {}
  for (const id of APP_FINDING_IDS) {
    for (const f of renders.flatMap((r) => r.findings).filter((x) => x.id === id)) {
      const byStatus = (findings[id] ??= {})
      byStatus[f.status] = (byStatus[f.status] ?? 0) + 1
    }
  }
  return { ...section, renders: renders.length, failed: renders.filter(appRenderFailed).length, findings }
}

