import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import type { Page } from 'playwright-core'
import { HOSTILE, cancelledShape, failedWithBaselineShape, invalidConfigurationShape, passedShape, telemetryShape } from '../__fixtures__/report-shapes.js'
import { manyRunsDocument } from '../__fixtures__/report-many-runs.js'
import { ReportBrowser, noBrowserReason, reportBrowserPath } from '../__fixtures__/report-browser.js'
import { renderHtmlReport } from '../src/report/html/render.js'

if (!reportBrowserPath) console.warn(`HTML report overview tests skipped: ${noBrowserReason}`)
const describeWithBrowser = reportBrowserPath ? describe : describe.skip

/** The text of every run row the list shows, as a reader sees it. */
const rowTexts = (page: Page) => page.$$eval('.run-list .run-row', (rows) => rows.map((r) => r.textContent ?? ''))
const runsCount = (page: Page) => page.textContent('#runs-count')
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** axe-core's serious and critical violations within the Overview and the run list (the other sections are not theirs). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource })
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe
    const result = await axe.run({ include: [['#overview'], ['#runs']] }, { resultTypes: ['violations'] })
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  })
}

const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '')

describeWithBrowser('the HTML report Overview in a real browser', () => {
  const browser = new ReportBrowser()
  beforeAll(() => browser.start())
  afterAll(() => browser.close())

  test('the gate, each layer, what moved against the baseline and cost and time', async () => {
    const { page, errors } = await browser.open(renderHtmlReport(failedWithBaselineShape()))
    const overview = (await page.textContent('#overview')) ?? ''
    expect(overview).toContain('Gate: delta against the baseline baseline/eval-results.json (2026-11-29 09:30) — ✗ failed')
    expect(overview).toContain('delta: 2 groups went from passing to failing')
    // Each layer with its status word, its name a link to its section.
    const layers = await page.$$eval('table.layers tbody tr', (rows) => rows.map((r) => [r.querySelector('a')?.getAttribute('href'), r.textContent]))
    expect(layers).toEqual([
      ['#conformance', expect.stringContaining('✗ failed')],
      ['#runs', 'Behaviour runs✗ failed5/8 runs passed'],
      ['#telemetry', expect.stringContaining('✓ passed')]
    ])
    // The metrics that moved, the worse first, with the gate's verdict on each.
    const metrics = await page.$$eval('table.changes-metrics tbody tr', (rows) => rows.map((r) => r.textContent))
    expect(metrics[0]).toBe('Run pass rate100%62.5%▼ −37.5 pt, worse ✗ worse by more than 2 pt')
    expect(overview).toMatch(/7 metrics unchanged: Tool selection accuracy 100%/)
    expect(overview).toContain('Groups: 2 regressed · 0 fixed · 2 new · 1 removed')
    expect(overview).toContain('Removed: old-case · anthropic/claude-sonnet-4.5 · default')
    expect(overview).toMatch(/Cost: \$0\.\d{4} → \$0\.\d{4} \(▲ \+[\d.]+%, worse\) · Median run: 1\.5s, unchanged/)
    expect(overview).toContain('8 runs: 5 passed, 2 failed, 1 errored')
    // A regressed group is marked in the cell's text and its name, not only by colour.
    const regressed = page.locator('button[aria-label="convert × openai/gpt-4o-mini: 0/1 ▼ regressed (0 of 1 passed, below its floor, regressed since the baseline)"]')
    expect(await regressed.textContent()).toBe('✗ 0/1 ▼ regressed')
    expect(errors).toEqual([])
    await page.context().close()
  })

  test('without a baseline, the pass floors decide', async () => {
    const { page } = await browser.open(renderHtmlReport(passedShape()))
    expect(await page.textContent('.gate')).toContain('Gate: absolute — ✓ passed (no baseline: the pass floors decide)')
    expect(await page.$('.changes')).toBeNull()
    await page.context().close()
  })

  test('a document that could not run says why; its behaviour layer is named, not linked to a run list it does not have', async () => {
    const { page } = await browser.open(renderHtmlReport(invalidConfigurationShape()))
    expect(await page.textContent('.fatal')).toMatch(/^✗ The evaluation could not run: input 'filter': 'tokio' matches no case id/)
    expect(await page.$$eval('table.layers tbody tr', (rows) => rows.map((r) => [r.querySelector('a'), r.textContent]))).toEqual([[null, 'Behaviour runs» skippedthe configuration is invalid']])
    expect(await page.$('#runs')).toBeNull()
    expect(await page.$('table.matrix')).toBeNull()
    await page.context().close()
  })

  test('the matrix: k/N per cell, flaky cells marked in words; a click narrows the runs to that case and model', async () => {
    const { page, errors } = await browser.open(renderHtmlReport(manyRunsDocument({ cases: 6, models: 3, repeats: 3 })))
    const headers = await page.$$eval('table.matrix thead th', (cells) => cells.map((c) => c.textContent))
    expect(headers).toEqual(['Case', 'vendor/model-1', 'vendor/model-2', 'vendor/model-3'])
    expect(await page.$$eval('table.matrix tbody tr', (rows) => rows.length)).toBe(6)
    // case-002 takes turns over the templates (failed, passed, error): 1 of 3 passed, below the hard floor.
    const flaky = page.locator('button[aria-label="case-002 × vendor/model-1: 1/3 flaky (1 of 3 passed, below its floor)"]')
    expect(await flaky.textContent({ timeout: 2000 })).toBe('✗ 1/3 flaky')
    // case-001 keeps one template per model: vendor/model-1 passes every run.
    expect(await page.locator('button[aria-label="case-001 × vendor/model-1: 3/3 (3 of 3 passed)"]').textContent()).toBe('✓ 3/3')
    expect(await runsCount(page)).toBe('54 runs')

    await page.click('button[aria-label^="case-004 × vendor/model-2:"]')
    await page.waitForFunction(() => location.hash === '#runs')
    expect(await runsCount(page)).toBe('3 of 54 runs')
    const rows = await rowTexts(page)
    expect(rows).toHaveLength(3)
    for (const row of rows) expect(row).toMatch(/case-004vendor\/model-2 · default/)
    // The filter controls say what the matrix chose.
    expect(await page.inputValue('select[name=case_id]')).toBe('case-004')
    expect(await page.inputValue('select[name=model]')).toBe('vendor/model-2')
    expect(errors).toEqual([])
    await page.context().close()
  })

  test('the matrix shows cancelled groups and groups the budget left unstarted, in words', async () => {
    const cancelled = await browser.open(renderHtmlReport(cancelledShape()))
    expect(await cancelled.page.textContent('button[aria-label^="greeting × openai/gpt-4o-mini:"]')).toBe('⊘ 0/1')
    expect(await cancelled.page.getAttribute('button[aria-label^="greeting × openai/gpt-4o-mini:"]', 'aria-label')).toMatch(/\(0 of 1 passed, cancelled\)$/)
    expect(await cancelled.page.textContent('.matrix-legend')).toContain('⊘ cancelled')
    await cancelled.page.context().close()
    const budget = await browser.open(renderHtmlReport(telemetryShape()))
    const names = await budget.page.$$eval('table.matrix button', (b) => b.map((x) => x.getAttribute('aria-label') ?? ''))
    expect(names.some((n) => n.endsWith('skipped: budget)'))).toBe(true)
    expect(await budget.page.textContent('.matrix-legend')).toContain('» skipped: budget (never started)')
    await budget.page.context().close()
  })

  test('the matrix is one Tab stop; the arrow keys move between cells and Enter filters the runs', async () => {
    const { page } = await browser.open(renderHtmlReport(manyRunsDocument({ cases: 4, models: 3, repeats: 2 })))
    const tabbable = await page.$$eval('table.matrix button', (buttons) => buttons.filter((b) => b.tabIndex === 0).length)
    expect(tabbable).toBe(1)
    await page.focus('table.matrix button[tabindex="0"]')
    expect(await focusedName(page)).toMatch(/^case-001 × vendor\/model-1:/)
    await page.keyboard.press('ArrowRight')
    expect(await focusedName(page)).toMatch(/^case-001 × vendor\/model-2:/)
    await page.keyboard.press('ArrowDown')
    expect(await focusedName(page)).toMatch(/^case-002 × vendor\/model-2:/)
    await page.keyboard.press('End')
    expect(await focusedName(page)).toMatch(/^case-002 × vendor\/model-3:/)
    await page.keyboard.press('ArrowRight') // the last column: it stays
    expect(await focusedName(page)).toMatch(/^case-002 × vendor\/model-3:/)
    await page.keyboard.press('ArrowLeft')
    // The cell that has focus is the one Tab comes back to.
    expect(await page.$$eval('table.matrix button[tabindex="0"]', (b) => b.map((x) => x.getAttribute('aria-label')))).toEqual([expect.stringMatching(/^case-002 × vendor\/model-2:/)])
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => document.querySelector('#runs-count')?.textContent === '2 of 24 runs')
    for (const row of await rowTexts(page)) expect(row).toContain('case-002vendor/model-2')
    await page.context().close()
  })

  test.each([
    ['failed-with-baseline', failedWithBaselineShape],
    ['many runs, several prompts', () => manyRunsDocument({ cases: 5, models: 3, repeats: 2, prompts: 2 })]
  ])('%s: axe-core finds no serious or critical violation in the Overview and the run list', async (_name, shape) => {
    // The CSP rightly refuses axe's script: bypassed for this check only.
    const { page } = await browser.open(renderHtmlReport(shape()), { bypassCsp: true })
    expect(await axeViolations(page)).toEqual([])
    await page.context().close()
  })

  test('a hostile case and model show as text in the matrix', async () => {
    const doc = manyRunsDocument({ cases: 2, models: 2, repeats: 1, caseId: (i) => (i === 0 ? HOSTILE : 'plain-case'), modelName: (i) => (i === 0 ? `model ${HOSTILE}` : 'vendor/plain') })
    const { page, errors } = await browser.open(renderHtmlReport(doc))
    const matrix = (await page.textContent('table.matrix')) ?? ''
    expect(matrix).toContain(HOSTILE)
    expect(matrix).toContain(`model ${HOSTILE}`)
    expect(await page.$$('img[src=x], img')).toHaveLength(0)
    expect(await page.$$eval('script', (s) => s.length)).toBe(2)
    await page.click(`button[aria-label^="${HOSTILE.replace(/"/g, '\\"')} × vendor/plain:"]`)
    expect(await runsCount(page)).toBe('1 of 4 runs')
    expect(errors).toEqual([])
    await page.context().close()
  })
})
