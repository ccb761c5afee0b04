import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { SHAPES, failedWithBaselineShape } from '../__fixtures__/report-shapes.js'
import { ReportBrowser, noBrowserReason, reportBrowserPath } from '../__fixtures__/report-browser.js'
import { renderHtmlReport } from '../src/report/html/render.js'

if (!reportBrowserPath) console.warn(`HTML report page tests skipped: ${noBrowserReason}`)
const describeWithBrowser = reportBrowserPath ? describe : describe.skip

describeWithBrowser('the HTML report of each golden shape in a real browser', () => {
  const browser = new ReportBrowser()
  beforeAll(() => browser.start())
  afterAll(() => browser.close())

  test.each(SHAPES)('%s: renders its verdict, with no console error and no request', async (_name, shape) => {
    const doc = shape()
    const html = renderHtmlReport(doc)
    const { page, errors, requests } = await browser.open(html)
    const title = await page.textContent('h1')
    expect(title).toMatch(/^Eval Report — /)
    expect(await page.title()).toBe(title)
    expect(errors).toEqual([])
    expect(requests).toEqual([])
    await page.context().close()
  })

  test('conformance failures come before warnings; a run opens on why it failed, then its timeline, then its input', async () => {
    const doc = failedWithBaselineShape()
    const checks = doc.conformance!.checks
    // The shape lists its warning before its failure: the page puts the failure first.
    expect(checks.findIndex((c) => c.status === 'warn')).toBeLessThan(checks.findIndex((c) => c.status === 'fail'))
    const html = renderHtmlReport(doc)
    const { page } = await browser.open(html, { hash: 'conformance' })
    const marks = await page.$$eval('#conformance details[open] > summary', (s) => s.map((x) => x.textContent ?? ''))
    expect(marks[0]).toMatch(/^✗ failed/)
    expect(marks.slice(1).every((m) => !m.startsWith('✗'))).toBe(true)
    expect(marks[0]).toContain('(an error when it fails)')
    await page.context().close()
    const run = doc.runs.find((r) => r.status === 'failed')!
    const opened = await browser.open(html, { hash: `run-${run.index}` })
    const order = await opened.page.$$eval('article h3', (hs) => hs.map((h) => h.id))
    expect(order.indexOf(`run-${run.index}-timeline`)).toBeGreaterThan(-1)
    expect(order.indexOf(`run-${run.index}-timeline`)).toBeLessThan(order.indexOf(`run-${run.index}-input`))
    await opened.page.context().close()
  })
})
