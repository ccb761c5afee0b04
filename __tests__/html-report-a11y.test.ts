import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { SHAPES, failedWithBaselineShape } from '../__fixtures__/report-shapes.js'
import { ReportBrowser, noBrowserReason, reportBrowserPath } from '../__fixtures__/report-browser.js'
import { renderHtmlReport } from '../src/report/html/render.js'

/**
 * The HTML report checked with axe-core in the real browser, on every golden shape and on a run's
 * page: no serious or critical violation (WCAG 2.1 A and AA rules). Screenshots of the overview and
 * of a failed run are kept under .tmp/test-artifacts/html-report/ for reviewers.
 */

if (!reportBrowserPath) console.warn(`HTML report accessibility tests skipped: ${noBrowserReason}`)
const describeWithBrowser = reportBrowserPath ? describe : describe.skip
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const ARTIFACTS = join(process.cwd(), '.tmp/test-artifacts/html-report')

interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string[] }[]
}

/** axe's serious and critical violations on the page as it is, as "rule (impact): help — selectors". */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (ctx: unknown, options: unknown) => Promise<{ violations: unknown[] }> } }).axe
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }, resultTypes: ['violations'] })
    return result.violations
  })
  return (violations as AxeViolation[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)
}

describeWithBrowser('the HTML report is accessible (axe-core)', () => {
  const browser = new ReportBrowser()
  beforeAll(() => browser.start())
  afterAll(() => browser.close())

  test.each(SHAPES)('%s: no serious or critical violation, in light and dark', async (_name, shape) => {
    const html = renderHtmlReport(shape())
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, errors } = await browser.open(html)
      await page.emulateMedia({ colorScheme })
      expect(await seriousViolations(page)).toEqual([])
      expect(errors).toEqual([])
      await page.context().close()
    }
  })

  test('the check sees a violation when there is one (a button with no name, an image with no text)', async () => {
    const { page } = await browser.open(renderHtmlReport(failedWithBaselineShape()))
    await page.evaluate(() => {
      document.querySelector('main')!.append(document.createElement('button'), Object.assign(document.createElement('img'), { src: 'data:image/png;base64,iVBORw0KGgo=' }))
    })
    const found = await seriousViolations(page)
    expect(found.map((v) => v.split(' ')[0]).sort()).toEqual(['button-name', 'image-alt'])
    await page.context().close()
  })

  test("a failed run's page: no serious or critical violation; screenshots kept for reviewers", async () => {
    const doc = failedWithBaselineShape()
    const failed = doc.runs.find((r) => r.status === 'failed') ?? doc.runs[0]
    const html = renderHtmlReport(doc)
    mkdirSync(ARTIFACTS, { recursive: true })
    const overview = await browser.open(html)
    await overview.page.screenshot({ path: join(ARTIFACTS, 'overview.png'), fullPage: true })
    await overview.page.context().close()
    const run = await browser.open(html, { hash: `run-${failed.index}` })
    expect(await run.page.textContent('main h2')).toContain(failed.case_id)
    expect(await seriousViolations(run.page)).toEqual([])
    await run.page.screenshot({ path: join(ARTIFACTS, 'failed-run.png'), fullPage: true })
    expect(run.errors).toEqual([])
    await run.page.context().close()
  })
})
