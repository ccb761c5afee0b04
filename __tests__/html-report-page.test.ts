import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { SHAPES } from '../__fixtures__/report-shapes.js'
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
})
