import { afterAll, beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals'
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as core from '../__fixtures__/core.js'
import { appsShape, conformanceOnlyShape, failedWithBaselineShape, golden, HOSTILE, passedShape } from '../__fixtures__/report-shapes.js'
import { noBrowserReason, ReportBrowser, reportBrowserPath } from '../__fixtures__/report-browser.js'
import type { ResultsDocument } from '../src/results/types.js'

// eval-report.html where it is written: its pictures read only from under the output directory,
// the same redaction as every other file, the input that turns it off, and the comment's links into it.
const realCore = await import('@actions/core')
jest.unstable_mockModule('@actions/core', () => ({ ...realCore, ...core }))
const { readPublishOptions } = await import('../src/github/inputs.js')
const { writeResults } = await import('../src/output/write-results.js')
const { imageReaderUnder } = await import('../src/output/read-image.js')
const { renderComment } = await import('../src/report/comment.js')
const { ConfigError } = await import('../src/config/errors.js')

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('a picture')])
const OUTSIDE_PNG = Buffer.concat([PNG, Buffer.from(' from outside the output directory')])

/** The page's embedded data, as the page reads it. */
function embedded(html: string): { view: { images: Record<string, string>; verdict: string }; doc: ResultsDocument } {
  const match = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)
  if (!match) throw new Error('no report-data element')
  return JSON.parse(match[1])
}

/** The document with every occurrence of one string replaced (a picture's path, say). */
function replaced(doc: ResultsDocument, pairs: [string, string][]): ResultsDocument {
  let text = JSON.stringify(doc)
  for (const [from, to] of pairs) text = text.split(JSON.stringify(from)).join(JSON.stringify(to))
  return JSON.parse(text) as ResultsDocument
}

describe('the pictures the HTML report inlines are read from under the output directory only', () => {
  let work: string
  let root: string
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'html-images-'))
    root = join(work, 'out')
    mkdirSync(join(root, 'apps', 'nested'), { recursive: true })
    writeFileSync(join(root, 'apps', 'shot.png'), PNG)
    writeFileSync(join(root, 'apps', 'nested', 'deep.png'), PNG)
    writeFileSync(join(work, 'outside.png'), OUTSIDE_PNG)
    symlinkSync(join(work, 'outside.png'), join(root, 'apps', 'link-out.png'))
    symlinkSync(work, join(root, 'apps', 'dir-out'))
    symlinkSync(join(root, 'apps', 'shot.png'), join(root, 'apps', 'link-in.png'))
  })

  test('a picture inside is read; a missing one is absent', () => {
    const read = imageReaderUnder(root)
    expect(read('apps/shot.png')).toEqual(PNG)
    expect(read('apps/nested/deep.png')).toEqual(PNG)
    // A link that stays inside is as good as the file.
    expect(read('apps/link-in.png')).toEqual(PNG)
    expect(read('apps/missing.png')).toBeNull()
    expect(read('')).toBeNull()
  })

  test.each([
    ['a .. step', '../outside.png'],
    ['a .. step in the middle', 'apps/../../outside.png'],
    ['a backslash .. step', 'apps\\..\\..\\outside.png'],
    ['an absolute path', '<absolute>'],
    ['a symbolic link that leads out', 'apps/link-out.png'],
    ['a directory link that leads out', 'apps/dir-out/outside.png'],
    ['the directory itself', '.'],
    ['a NUL byte', 'apps/shot.png\0'],
    ['a directory', 'apps']
  ])('%s is refused', (_, path) => {
    const read = imageReaderUnder(root)
    expect(read(path === '<absolute>' ? join(work, 'outside.png') : path)).toBeNull()
  })

  test('writeResults inlines the pictures inside and leaves the others out of the page', () => {
    const doc = replaced(appsShape(), [
      ['apps/tool-test.weather-widget.1.step-1.png', 'apps/shot.png'],
      ['apps/tool-test.widget-throws.1.step-1.png', '../outside.png'],
      ['apps/tool-test.widget-silent.1.step-1.png', 'apps/link-out.png'],
      ['apps/tool-test.widget-fetches.1.step-1.png', join(work, 'outside.png')]
    ])
    const htmlPath = join(work, 'eval-report.html')
    const { files } = writeResults(doc, { resultsPath: join(root, 'eval-results.json'), reportPath: join(root, 'eval-report.md'), htmlPath, evalsV1Dir: root }, [])
    expect(files).toContain(htmlPath)
    const html = readFileSync(htmlPath, 'utf8')
    const { images } = embedded(html).view
    expect(Object.keys(images)).toEqual(['apps/shot.png'])
    expect(images['apps/shot.png']).toBe(`data:image/png;base64,${PNG.toString('base64')}`)
    expect(html).not.toContain(OUTSIDE_PNG.toString('base64'))
  })

  test('by default the pictures are read where the host wrote them: the output directory, else beside the results document', () => {
    const doc = replaced(appsShape(), [['apps/tool-test.weather-widget.1.step-1.png', 'apps/shot.png']])
    const htmlPath = join(work, 'page.html')
    writeResults(doc, { resultsPath: join(root, 'eval-results.json'), reportPath: join(work, 'eval-report.md'), htmlPath }, [])
    expect(Object.keys(embedded(readFileSync(htmlPath, 'utf8')).view.images)).toEqual(['apps/shot.png'])
    // Another output directory: nothing of this one is read.
    writeResults(doc, { resultsPath: join(root, 'eval-results.json'), reportPath: join(work, 'eval-report.md'), htmlPath, evalsV1Dir: work }, [])
    expect(embedded(readFileSync(htmlPath, 'utf8')).view.images).toEqual({})
  })
})

describe('the HTML report is written from the redacted document', () => {
  test('a planted secret never appears in eval-report.html, as in the other files', () => {
    const work = mkdtempSync(join(tmpdir(), 'html-secret-'))
    const secret = 'planted-secret-value-9876'
    const base = passedShape()
    const doc: ResultsDocument = { ...base, runs: base.runs.map((r, i) => (i === 0 ? { ...r, final_output: `the key is ${secret}`, actual_output: `the key is ${secret}`, judge: r.judge ? { ...r.judge, reason: `saw ${secret}` } : r.judge } : r)) }
    const paths = { resultsPath: join(work, 'eval-results.json'), reportPath: join(work, 'eval-report.md'), htmlPath: join(work, 'eval-report.html') }
    writeResults(doc, paths, [secret])
    const html = readFileSync(paths.htmlPath, 'utf8')
    expect(html).not.toContain(secret)
    expect(JSON.stringify(embedded(html).doc.runs[0].final_output)).toContain('***')
    for (const file of [paths.resultsPath, paths.reportPath]) expect(readFileSync(file, 'utf8')).not.toContain(secret)
  })

  test('a page that cannot be written does not keep the others from being written, and is named', () => {
    const work = mkdtempSync(join(tmpdir(), 'html-unwritable-'))
    writeFileSync(join(work, 'not-a-dir'), '')
    const paths = { resultsPath: join(work, 'eval-results.json'), reportPath: join(work, 'eval-report.md'), htmlPath: join(work, 'not-a-dir', 'eval-report.html') }
    expect(() => writeResults(passedShape(), paths, [])).toThrow(/not-a-dir/)
    expect(readFileSync(paths.reportPath, 'utf8')).toContain('# Eval Report')
  })
})

describe('input html_report', () => {
  beforeEach(() => {
    for (const key of Object.keys(core.inputs)) delete core.inputs[key]
  })
  test.each([
    ['', true],
    ['true', true],
    ['TRUE', true],
    ['false', false],
    [' False ', false]
  ])("'%s' is %s", (value, expected) => {
    core.inputs.html_report = value
    expect(readPublishOptions().htmlReport).toBe(expected)
  })
  test('any other value is an error naming the input', () => {
    core.inputs.html_report = 'yes'
    let error: unknown
    try {
      readPublishOptions()
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toBe("input 'html_report': must be true or false, got 'yes'")
  })
})

describe("the PR comment's links into the HTML report", () => {
  const marker = '<!-- mcp-server-evals:sticky:k -->'
  const run = 'https://github.com/octo/server/actions/runs/42'
  const html = `${run}/artifacts/77`

  test('each failed run the comment lists links to its anchor; the footer links the page', () => {
    const doc = failedWithBaselineShape()
    const failed = doc.runs.filter((r) => r.status === 'failed' || r.status === 'error').map((r) => r.index)
    expect(failed.length).toBeGreaterThan(0)
    const body = renderComment(doc, { marker, links: { summary: run, artifact: `${run}/artifacts/76`, html } })
    for (const index of failed) expect(body).toContain(`(${html}#run-${index})`)
    // No passing run is linked.
    const linked = [...body.matchAll(/#run-(\d+)\)/g)].map((m) => Number(m[1]))
    expect(new Set(linked)).toEqual(new Set(failed))
    expect(body).toContain(`Full report: [job summary](${run}) · [artifact](${run}/artifacts/76) · [HTML report](${html})`)
  })

  test('conformance failures and warnings link to their findings', () => {
    const doc = conformanceOnlyShape()
    const body = renderComment(doc, { marker, links: { html } })
    expect(body).toContain(`[details](${html}#check-list-cache-fields)`)
    expect(body).toContain(`[details](${html}#check-tools-list-deterministic-order)`)
  })

  test('without the HTML artifact the comment is as it was: no link into a page', () => {
    for (const doc of [golden(), failedWithBaselineShape(), conformanceOnlyShape()]) {
      const without = renderComment(doc, { marker, links: { summary: run, artifact: `${run}/artifacts/76` } })
      expect(renderComment(doc, { marker, links: { summary: run, artifact: `${run}/artifacts/76`, html: undefined } })).toBe(without)
      expect(without).not.toMatch(/#run-\d|#check-/)
    }
  })

  test('a URL that would break out of a Markdown link gives no links at all', () => {
    const doc = failedWithBaselineShape()
    const plain = renderComment(doc, { marker, links: {} })
    for (const bad of [`${run}/artifacts/1) [x](https://evil.example`, 'javascript:alert(1)', `${run}/artifacts/1#frag`, `${run}/artifacts/1 "x"`]) {
      expect(renderComment(doc, { marker, links: { html: bad } })).toBe(plain)
    }
  })

  test('a hostile check id is never put into a URL', () => {
    const doc = conformanceOnlyShape()
    const hostile: ResultsDocument = { ...doc, conformance: { ...doc.conformance!, checks: doc.conformance!.checks.map((c) => (c.id === 'list-cache-fields' ? { ...c, id: HOSTILE } : c)) } }
    const body = renderComment(hostile, { marker, links: { html } })
    expect(body).toContain(`[details](${html}#check-tools-list-deterministic-order)`)
    expect(body.match(/\[details\]\(/g)).toHaveLength(1)
    expect(body).not.toContain('https://evil.example)')
  })
})

// The file as written, opened as a reader opens it: the page works from disk, with no request.
const describeBrowser = reportBrowserPath ? describe : describe.skip
describeBrowser(`eval-report.html as written opens in Chromium${reportBrowserPath ? '' : ` (skipped: ${noBrowserReason})`}`, () => {
  const browser = new ReportBrowser()
  beforeAll(async () => browser.start(), 30_000)
  afterAll(async () => browser.close())

  test('the page writeResults wrote shows the verdict, with no console error and no request; hostile text stays text', async () => {
    const work = mkdtempSync(join(tmpdir(), 'html-open-'))
    const base = failedWithBaselineShape()
    const doc: ResultsDocument = { ...base, runs: base.runs.map((r, i) => (i === 0 ? { ...r, final_output: HOSTILE } : r)) }
    const htmlPath = join(work, 'eval-report.html')
    writeResults(doc, { resultsPath: join(work, 'eval-results.json'), reportPath: join(work, 'eval-report.md'), htmlPath }, [])
    const { page, errors, requests } = await browser.open(readFileSync(htmlPath, 'utf8'), { hash: `run-${doc.runs[0].index}` })
    expect(await page.textContent('h1')).toContain('failed')
    expect(await page.locator('img[src=x]').count()).toBe(0)
    expect(await page.evaluate(() => document.querySelectorAll('script:not([type="application/json"])').length)).toBe(1)
    expect(errors).toEqual([])
    expect(requests).toEqual([])
  }, 30_000)
})
