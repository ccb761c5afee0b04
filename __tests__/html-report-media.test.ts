import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { failedWithBaselineShape } from '../__fixtures__/report-shapes.js'
import { ReportBrowser, noBrowserReason, reportBrowserPath } from '../__fixtures__/report-browser.js'
import { renderHtmlReport } from '../src/report/html/render.js'

/** A tool result's images in a run's page: the record's copy inline; nothing but a raster data: URL becomes an image. */

if (!reportBrowserPath) console.warn(`HTML report media tests skipped: ${noBrowserReason}`)
const describeWithBrowser = reportBrowserPath ? describe : describe.skip
// A 2 × 2 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4zwAE/0Ho/38GAB7vBPzpVsU+AAAAAElFTkSuQmCC'

describeWithBrowser("a tool result's images in the HTML report", () => {
  const browser = new ReportBrowser()
  beforeAll(() => browser.start())
  afterAll(() => browser.close())

  test('a kept copy shows inline with its alt text; a copy that is not a raster data: URL, or none, shows no image', async () => {
    const doc = failedWithBaselineShape()
    const run = doc.runs[0]
    const call = run.tool_calls[0]
    call.media = [
      { type: 'image', mime_type: 'image/png', bytes: 75, sent: true, reason: null, preview: `data:image/png;base64,${PNG}` },
      { type: 'image', mime_type: 'image/svg+xml', bytes: 40, sent: false, reason: 'not a format', preview: 'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+' },
      { type: 'image', mime_type: 'image/png', bytes: 900_000, sent: true, reason: null }
    ]
    const { page, errors, requests } = await browser.open(renderHtmlReport(doc), { hash: `run-${run.index}` })
    const images = await page.$$eval('.media-list img', (list) => list.map((img) => ({ src: (img as HTMLImageElement).src.slice(0, 22), alt: img.getAttribute('alt'), width: (img as HTMLImageElement).naturalWidth })))
    expect(images).toEqual([{ src: 'data:image/png;base64,', alt: `image 1 of the result of ${call.name} (image/png)`, width: 2 }])
    const items = await page.$$eval('.media-list li', (list) => list.map((li) => li.textContent ?? ''))
    expect(items[0]).toMatch(/^image image\/png, 75 B, sent to the model/)
    expect(items[1]).toContain('no copy in the document')
    expect(items[2]).toContain('no copy in the document')
    expect(errors).toEqual([])
    expect(requests).toEqual([])
    await page.context().close()
  })
})
