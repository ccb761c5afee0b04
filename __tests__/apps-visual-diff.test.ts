import { afterEach, describe, expect, test } from '@jest/globals'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PNG } from 'pngjs'
import { paintPng } from '../__fixtures__/png.js'
import { appsShape } from '../__fixtures__/report-shapes.js'
import { applyVisualDiff } from '../src/apps/apply-visual-diff.js'
import { compareScreenshots } from '../src/apps/visual-diff.js'
import { applyGate } from '../src/execute/baseline.js'
import type { AppRender, ResultsDocument } from '../src/results/types.js'

const png = paintPng

/** A white card with a dark bar; `shift` moves the bar down. */
const card = (shift = 0) => png(100, 50, (_, y) => (y >= 10 + shift && y < 20 + shift ? [20, 20, 80] : [255, 255, 255]))

describe('compareScreenshots (pngjs + pixelmatch over real PNGs)', () => {
  test('the same image: nothing changed, no diff image', () => {
    expect(compareScreenshots(card(), card(), 0.01)).toEqual({ changed_ratio: 0, changed: false, diffPng: null })
  })

  test('a moved bar: the share of changed pixels, over the threshold, and a diff image of the same size with the changed pixels red', () => {
    const result = compareScreenshots(card(5), card(), 0.01)
    // Rows 10–14 and 20–24 differ: 10 of 50 rows.
    expect(result.changed_ratio).toBeCloseTo(0.2, 2)
    expect(result.changed).toBe(true)
    const diff = PNG.sync.read(result.diffPng!)
    expect([diff.width, diff.height]).toEqual([100, 50])
    const at = (x: number, y: number) => [...diff.data.subarray((y * 100 + x) * 4, (y * 100 + x) * 4 + 3)]
    expect(at(50, 12)).toEqual([255, 0, 0])
    expect(at(50, 40)).not.toEqual([255, 0, 0])
  })

  test('under the threshold: measured, not changed, no diff image', () => {
    const result = compareScreenshots(card(1), card(), 0.1)
    expect(result.changed_ratio).toBeCloseTo(0.04, 2)
    expect(result).toMatchObject({ changed: false, diffPng: null })
  })

  test('sizes that differ: changed whole', () => {
    expect(compareScreenshots(png(100, 60), png(100, 50), 0.5)).toEqual({ changed_ratio: 1, changed: true, diffPng: null })
  })

  test('a buffer that is not a PNG throws', () => {
    expect(() => compareScreenshots(Buffer.from('not a png'), card(), 0.01)).toThrow()
  })
})

describe('applyVisualDiff: the baseline’s screenshots beside the baseline document, compared at gate time', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  const setup = () => {
    const root = mkdtempSync(join(tmpdir(), 'visual-diff-'))
    dirs.push(root)
    const out = join(root, 'out')
    const baseline = join(root, 'baseline', 'apps')
    mkdirSync(join(out, 'apps'), { recursive: true })
    mkdirSync(baseline, { recursive: true })
    return { out, baseline }
  }
  const rendersOf = (doc: ResultsDocument): AppRender[] => [
    ...(doc.tool_tests?.tests ?? []).flatMap((t) => t.attempts.flatMap((a) => a.steps.flatMap((s) => (s.app ? [s.app] : [])))),
    ...doc.runs.flatMap((r) => r.app_renders ?? [])
  ]
  const byId = (doc: ResultsDocument, id: string) => rendersOf(doc).find((r) => r.id === id)!
  /** The shape with the comparisons the fixture wrote by hand taken away: what the engine hands the gate. */
  const fresh = (): ResultsDocument => {
    const doc = appsShape()
    const strip = (r: AppRender): AppRender => ({ ...r, visual_diff: null, findings: r.findings.filter((f) => f.id !== 'app-visual-change') })
    return {
      ...doc,
      tool_tests: doc.tool_tests && { ...doc.tool_tests, tests: doc.tool_tests.tests.map((t) => ({ ...t, attempts: t.attempts.map((a) => ({ ...a, steps: a.steps.map((s) => (s.app ? { ...s, app: strip(s.app) } : s)) })) })) },
      runs: doc.runs.map((r) => (r.app_renders ? { ...r, app_renders: r.app_renders.map(strip) } : r))
    }
  }
  const GOOD = 'tool-test.weather-widget.1.step-1'
  const RUN = 'run-1.call-1'

  test('unchanged, changed (review), no baseline screenshot, and one that cannot be read: each render on its own', () => {
    const { out, baseline } = setup()
    writeFileSync(join(out, 'apps', `${GOOD}.png`), card())
    writeFileSync(join(baseline, `${GOOD}.png`), card())
    writeFileSync(join(out, 'apps', `${RUN}.png`), card(5))
    writeFileSync(join(baseline, `${RUN}.png`), card())
    writeFileSync(join(out, 'apps', 'run-2.call-1.png'), card())
    writeFileSync(join(baseline, 'run-2.call-1.png'), 'truncated')
    writeFileSync(join(out, 'apps', 'tool-test.widget-blank.1.step-1.png'), card())
    const doc = fresh()
    const after = applyVisualDiff(doc, out, baseline)

    const good = byId(after, GOOD)
    expect(good.visual_diff).toEqual({ baseline: `apps/baseline/${GOOD}.png`, changed_ratio: 0, changed: false, diff: null })
    expect(good.findings.find((f) => f.id === 'app-visual-change')).toMatchObject({ status: 'passed' })
    expect(readFileSync(join(out, 'apps', 'baseline', `${GOOD}.png`))).toEqual(card())
    expect(existsSync(join(out, 'apps', 'diff', `${GOOD}.png`))).toBe(false)

    const run = byId(after, RUN)
    expect(run.visual_diff).toMatchObject({ baseline: `apps/baseline/${RUN}.png`, changed: true, diff: `apps/diff/${RUN}.png` })
    expect(run.visual_diff!.changed_ratio).toBeCloseTo(0.2, 2)
    expect(run.findings.find((f) => f.id === 'app-visual-change')).toMatchObject({ status: 'review', message: "20% of the pixels differ from the baseline's screenshot (threshold 1%)" })
    expect(PNG.sync.read(readFileSync(join(out, 'apps', 'diff', `${RUN}.png`))).width).toBe(100)

    const unreadable = byId(after, 'run-2.call-1')
    expect(unreadable.visual_diff).toBeNull()
    expect(unreadable.findings.find((f) => f.id === 'app-visual-change')).toMatchObject({ status: 'skipped', message: expect.stringMatching(/^the screenshot could not be compared with the baseline's: /) })

    // No baseline screenshot of it: left as it was.
    expect(byId(after, 'tool-test.widget-blank.1.step-1')).toEqual(byId(doc, 'tool-test.widget-blank.1.step-1'))
    // For review: nothing fails that did not before; the counts follow the findings.
    expect(after.passed).toBe(doc.passed)
    expect(after.runs.map((r) => r.status)).toEqual(doc.runs.map((r) => r.status))
    expect(after.apps?.findings['app-visual-change']).toEqual({ passed: 1, review: 1, skipped: 1 })
    expect(after.apps?.failed).toBe(doc.apps?.failed)
    // Applied again, the diff is said once.
    expect(applyVisualDiff(after, out, baseline).apps?.findings['app-visual-change']).toEqual({ passed: 1, review: 1, skipped: 1 })
  })

  test('app_visual_diff: fail — a changed screenshot fails its render, its tool test and its run, and the document', () => {
    const { out, baseline } = setup()
    writeFileSync(join(out, 'apps', `${GOOD}.png`), card(5))
    writeFileSync(join(baseline, `${GOOD}.png`), card())
    writeFileSync(join(out, 'apps', `${RUN}.png`), card(5))
    writeFileSync(join(baseline, `${RUN}.png`), card())
    const base = fresh()
    const doc: ResultsDocument = { ...base, passed: true, apps: { ...base.apps!, visual_diff: 'fail' } }
    const after = applyVisualDiff(doc, out, baseline)
    expect(byId(after, GOOD).findings.find((f) => f.id === 'app-visual-change')?.status).toBe('failed')
    const test = after.tool_tests!.tests.find((t) => t.id === 'weather-widget')!
    expect(test).toMatchObject({ status: 'failed', passed: false })
    expect(test.attempts[0]).toMatchObject({ status: 'failed', steps: [{ passed: false }] })
    expect(after.tool_tests!.failed).toBe(doc.tool_tests!.failed + 1)
    expect(after.runs[0]).toMatchObject({ status: 'failed', success: false })
    expect(after.groups.find((g) => g.case_id === after.runs[0].case_id)?.success).toBe(false)
    expect(after.summary.failed).toBe(doc.summary.failed + 1)
    expect(after.summary.tokens).toEqual(doc.summary.tokens)
    expect(after.apps?.failed).toBe(doc.apps!.failed + 2)
    expect(after.passed).toBe(false)
  })

  test('at the gate: the baseline document’s own apps/ directory, compared before the verdict', () => {
    const { out, baseline } = setup()
    const baselinePath = join(baseline, '..', 'eval-results.json')
    writeFileSync(baselinePath, JSON.stringify(fresh()))
    writeFileSync(join(out, 'apps', `${RUN}.png`), card(5))
    writeFileSync(join(baseline, `${RUN}.png`), card())
    const doc = { ...fresh(), gate: null, changes: null }
    const gated = applyGate(doc, { mode: null, max_drop: 0.02, baseline: baselinePath }, () => undefined, { outputDir: out })
    expect(gated.gate?.baseline?.source).toBe(baselinePath)
    expect(byId(gated, RUN).visual_diff).toMatchObject({ changed: true, diff: `apps/diff/${RUN}.png` })
    // Without the output directory (a caller that renders nothing), no comparison.
    expect(byId(applyGate(doc, { mode: null, max_drop: 0.02, baseline: baselinePath }), RUN).visual_diff).toBeNull()
  })

  test('no apps section, or the layer skipped: the document as it was', () => {
    const { out, baseline } = setup()
    const doc = fresh()
    const { apps: _, ...without } = doc
    expect(applyVisualDiff(without as ResultsDocument, out, baseline)).toBe(without)
    const skipped = { ...doc, apps: { ...doc.apps!, status: 'skipped' as const } }
    expect(applyVisualDiff(skipped, out, baseline)).toBe(skipped)
  })
})
