import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import type { Page } from 'playwright-core'
import { HOSTILE, resilienceShape } from '../__fixtures__/report-shapes.js'
import { manyRunsDocument } from '../__fixtures__/report-many-runs.js'
import { ReportBrowser, noBrowserReason, reportBrowserPath } from '../__fixtures__/report-browser.js'
import { renderHtmlReport } from '../src/report/html/render.js'

if (!reportBrowserPath) console.warn(`HTML report run list tests skipped: ${noBrowserReason}`)
const describeWithBrowser = reportBrowserPath ? describe : describe.skip

/** The index of every run row the list shows, in order. */
const shownRuns = (page: Page) => page.$$eval('.run-list .run-row', (rows) => rows.map((r) => Number(r.getAttribute('data-run'))))
const rowTexts = (page: Page) => page.$$eval('.run-list .run-row', (rows) => rows.map((r) => r.textContent ?? ''))
const runsCount = (page: Page) => page.textContent('#runs-count')

describeWithBrowser('the HTML report run list in a real browser', () => {
  const browser = new ReportBrowser()
  beforeAll(() => browser.start())
  afterAll(() => browser.close())

  test('each run is a row linking to its page: verdict word, index, case, model · prompt, repeat, judge score, time, first reason', async () => {
    const { page, errors } = await browser.open(renderHtmlReport(manyRunsDocument({ cases: 2, models: 2, repeats: 2 })))
    const rows = await rowTexts(page)
    expect(rows).toHaveLength(8)
    // Run 3: the golden `convert` run on vendor/model-2, judged 57% against 90%.
    expect(rows[2]).toBe('✗ failed#3case-001vendor/model-2 · defaultrun 1/2judge 57% (≥ 90%)1.50 sjudge 57% < threshold 90%: scored 6 for the answer')
    expect(rows[0]).toBe('✓ passed#1case-001vendor/model-1 · defaultrun 1/2judge 87% (≥ 70%)1.50 s')
    expect(rows.find((r) => r.includes('⚠ error'))).toMatch(/not judged1\.50 sserver error: /)
    expect(await page.$$eval('.run-list .run-row', (links) => links.map((a) => a.getAttribute('href')))).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((i) => `#run-${i}`))
    await page.click('.run-row[data-run="3"]')
    await page.waitForFunction(() => location.hash === '#run-3' && document.getElementById('run-3') !== null)
    expect(errors).toEqual([])
    await page.context().close()
  })

  test('each filter control and the search narrow the runs; "Clear filters" restores them all', async () => {
    const { page, errors } = await browser.open(renderHtmlReport(manyRunsDocument({ cases: 4, models: 2, repeats: 1, prompts: 2 })))
    expect(await runsCount(page)).toBe('16 runs')
    expect(await page.isDisabled('button.clear-filters')).toBe(true)
    // The values offered are the document's.
    expect(await page.$$eval('select[name=status] option', (o) => o.map((x) => x.textContent))).toEqual(['any', 'passed', 'failed', 'error'])
    expect(await page.$$eval('select[name=finding] option', (o) => o.map((x) => x.textContent))).toEqual(['any', 'judge failed', 'tool assertion failed'])

    await page.selectOption('select[name=status]', 'error')
    expect(await shownRuns(page)).toEqual([11, 12, 13, 14])
    expect(await runsCount(page)).toBe('4 of 16 runs')
    await page.click('button.clear-filters')
    expect(await shownRuns(page)).toHaveLength(16)

    await page.selectOption('select[name=case_id]', 'case-002')
    expect(await shownRuns(page)).toEqual([5, 6, 7, 8])
    await page.selectOption('select[name=model]', 'vendor/model-2')
    expect(await shownRuns(page)).toEqual([7, 8])
    await page.selectOption('select[name=prompt]', 'prompt-2')
    expect(await shownRuns(page)).toEqual([8])
    expect(await runsCount(page)).toBe('1 of 16 runs')
    await page.click('button.clear-filters')
    expect(await page.inputValue('select[name=case_id]')).toBe('')

    await page.selectOption('select[name=tag]', 'tag-2')
    expect(await shownRuns(page)).toEqual([9, 10, 11, 12])
    await page.selectOption('select[name=tag]', '')
    await page.selectOption('select[name=finding]', 'judge-failed')
    expect(await shownRuns(page)).toEqual([3, 4, 5, 6])
    await page.click('button.clear-filters')

    // Free text: every word, in the case, model, prompt, input, answer or reasons.
    await page.fill('input[name=text]', 'connection closed')
    expect(await shownRuns(page)).toEqual([11, 12, 13, 14])
    await page.fill('input[name=text]', 'CASE-003 model-1')
    expect(await shownRuns(page)).toEqual([9, 10])
    await page.fill('input[name=text]', 'no run says this')
    expect(await runsCount(page)).toBe('0 of 16 runs')
    expect(await page.textContent('#runs')).toContain('No run matches these filters.')
    await page.click('button.clear-filters')
    expect(await page.inputValue('input[name=text]')).toBe('')
    expect(await shownRuns(page)).toHaveLength(16)
    expect(errors).toEqual([])
    await page.context().close()
  })

  test('the Layer 2 findings: fault injected, attack planted, recovery failed, attack succeeded', async () => {
    const { page } = await browser.open(renderHtmlReport(resilienceShape()))
    expect(await page.$$eval('select[name=finding] option', (o) => o.map((x) => x.getAttribute('value')))).toEqual(['', 'fault', 'attack', 'recovery-failed', 'attack-succeeded', 'judge-failed'])
    await page.selectOption('select[name=finding]', 'fault')
    expect(await shownRuns(page)).toEqual([1, 2, 3, 4, 7, 8, 9])
    await page.selectOption('select[name=finding]', 'attack')
    expect(await shownRuns(page)).toEqual([5, 6, 11, 12])
    await page.selectOption('select[name=finding]', 'recovery-failed')
    expect(await shownRuns(page)).toEqual([2])
    await page.selectOption('select[name=finding]', 'attack-succeeded')
    expect(await shownRuns(page)).toEqual([11])
    expect((await rowTexts(page))[0]).toContain('attack succeeded')
    await page.context().close()
  })

  test('a 1,000-run document renders a window of the list, and reaches the last run by scrolling and by "Show more"', async () => {
    const { page, errors } = await browser.open(renderHtmlReport(manyRunsDocument({ cases: 50, models: 4, repeats: 5 })))
    expect(await runsCount(page)).toBe('1,000 runs')
    expect(await page.$$eval('.run-list li', (li) => li.length)).toBe(100)
    expect(await page.textContent('.run-list-more')).toContain('Showing 100 of 1,000')
    // The button adds a window (the sentinel beside it, now in view, may add another).
    await page.click('.run-list-more button')
    const afterClick = await page.$$eval('.run-list li', (li) => li.length)
    expect(afterClick).toBeGreaterThanOrEqual(200)
    expect(afterClick % 100).toBe(0)
    // Scrolling down the list brings the rest, a window at a time (the layer sections follow the list: scroll to its end, not the page's).
    for (let i = 0; i < 30 && !(await page.$('.run-row[data-run="1000"]')); i++) {
      await page.evaluate(() => document.querySelector('.run-list-more')?.scrollIntoView({ block: 'end' }))
      await page.waitForTimeout(50)
    }
    expect(await page.$('.run-row[data-run="1000"]')).not.toBeNull()
    expect(await page.$('.run-list-more')).toBeNull()
    // A new filter starts again at the first window.
    await page.selectOption('select[name=status]', 'passed')
    expect(await page.$$eval('.run-list li', (li) => li.length)).toBe(100)
    expect(await runsCount(page)).toMatch(/^\d+ of 1,000 runs$/)
    expect(errors).toEqual([])
    await page.context().close()
  })

  test('↑ and ↓ move between the rows', async () => {
    const { page } = await browser.open(renderHtmlReport(manyRunsDocument({ cases: 2, models: 1, repeats: 2 })))
    await page.focus('.run-row[data-run="1"]')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-run'))).toBe('3')
    await page.keyboard.press('ArrowUp')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-run'))).toBe('2')
    await page.context().close()
  })

  test('a hostile case, model, answer and reason show as text, in the rows and the filters, and the search finds them', async () => {
    const doc = manyRunsDocument({ cases: 2, models: 2, repeats: 1, caseId: (i) => (i === 0 ? HOSTILE : 'plain-case'), modelName: (i) => (i === 0 ? `m ${HOSTILE}` : 'vendor/plain') })
    doc.runs = doc.runs.map((r) => ({ ...r, final_output: `${HOSTILE} answer`, input: `${HOSTILE} input` }))
    // A failed run's reason carries the judge's words.
    doc.runs[1] = { ...doc.runs[1], metrics: doc.runs[1].metrics.map((m) => ({ ...m, reason: HOSTILE })) }
    const { page, errors } = await browser.open(renderHtmlReport(doc))
    const list = (await page.textContent('.run-list')) ?? ''
    expect(list).toContain(HOSTILE)
    expect(list).toContain(`m ${HOSTILE} · default`)
    expect((await rowTexts(page))[1]).toContain(`< threshold 90%: ${HOSTILE}`)
    expect(await page.$$eval('select[name=case_id] option', (o) => o.map((x) => x.textContent))).toContain(HOSTILE)
    expect(await page.$$('img')).toHaveLength(0)
    expect(await page.$$eval('script', (s) => s.length)).toBe(2)
    await page.selectOption('select[name=case_id]', HOSTILE)
    expect(await shownRuns(page)).toEqual([1, 2])
    await page.click('button.clear-filters')
    await page.fill('input[name=text]', '<img src=x')
    expect(await shownRuns(page)).toHaveLength(4)
    await page.fill('input[name=text]', 'vendor/plain </details>')
    expect(await shownRuns(page)).toEqual([2, 4])
    expect(errors).toEqual([])
    await page.context().close()
  })
})
