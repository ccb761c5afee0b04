import { describe, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { cspHash, jsonForScript, reportCsp } from '../src/report/html/embed.js'
import { markdownPhraseToText } from '../src/report/html/plain.js'
import { htmlReportChunks, renderHtmlReport, DATA_ELEMENT_ID } from '../src/report/html/render.js'
import { existsSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ResultsNotWrittenError, writeResults } from '../src/output/write-results.js'
import { VIEWER_CSS, VIEWER_JS } from '../src/report/html/viewer-assets.generated.js'
import { HOSTILE, failedWithBaselineShape } from '../__fixtures__/report-shapes.js'

describe('the HTML report file', () => {
  test('the embedded JSON cannot end its script element, and parses back to the value', () => {
    const value = { a: '</script><script>alert(1)</script>', b: '<!-- x -->', c: 'a\u2028b\u2029c & d' }
    const text = jsonForScript(value)
    expect(text).not.toMatch(/<|>|&|\u2028|\u2029/)
    expect(JSON.parse(text)).toEqual(value)
  })

  test('the policy allows exactly its own script and style, by hash, and no network', () => {
    const csp = reportCsp('x()', 'a{}')
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain(`script-src ${cspHash('x()')}`)
    expect(csp).toContain(`style-src ${cspHash('a{}')}`)
    expect(csp).toContain('img-src data:')
    expect(csp).not.toMatch(/unsafe|https?:|\*/)
  })

  test('one file: the data element, the page script and style inline, nothing linked', () => {
    const doc = failedWithBaselineShape()
    doc.runs[0].final_output = HOSTILE
    const html = renderHtmlReport(doc)
    expect(html).toContain(`<script>${VIEWER_JS}</script>`)
    expect(html).toContain(`<style>${VIEWER_CSS}</style>`)
    expect(html).not.toMatch(/<(link|img|iframe)\b|src=["']?https?:/i)
    const data = html.match(new RegExp(`<script type="application/json" id="${DATA_ELEMENT_ID}">([^<]*)</script>`))
    expect(data).not.toBeNull()
    expect(JSON.parse(data![1]).doc.runs[0].final_output).toBe(HOSTILE)
    // The hostile text is nowhere in the file as markup.
    expect(html).not.toContain('<img src=x')
  })

  test('the headline comes back as plain text', () => {
    expect(markdownPhraseToText('> **2/4 passed** — 1 failed · `x` \\*a\\* &lt;b&gt; &amp;')).toBe('2/4 passed — 1 failed · `x` *a* <b> &')
  })

  test('the committed page assets are what the build makes of the sources', async () => {
    const script = '../scripts/build-html-viewer.mjs'
    const { viewerAssets } = (await import(script)) as { viewerAssets: () => Promise<string> }
    expect(readFileSync(new URL('../src/report/html/viewer-assets.generated.ts', import.meta.url), 'utf8')).toBe(await viewerAssets())
  })

  test('the page is rendered in pieces: the document without its runs, then one run at a time', () => {
    const doc = failedWithBaselineShape()
    const pieces = [...htmlReportChunks(doc)]
    expect(pieces.join('')).toBe(renderHtmlReport(doc))
    // The head, the data without its runs, a piece per run, the closing bracket, the script.
    expect(pieces).toHaveLength(2 + doc.runs.length + 2)
    expect(Math.max(...pieces.slice(2, -2).map((p) => p.length))).toBeLessThan(JSON.stringify(doc).length / 2)
    const data = renderHtmlReport(doc).match(new RegExp(`<script type="application/json" id="${DATA_ELEMENT_ID}">([^<]*)</script>`))!
    expect(JSON.parse(data[1]).doc).toEqual(JSON.parse(JSON.stringify(doc)))
  })

  test('a page that fails half-way through leaves nothing at its path, and the other files are written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'html-stream-'))
    const doc = failedWithBaselineShape()
    // A value JSON cannot write, in the last run: the page fails after its first pieces were rendered.
    ;(doc.runs[doc.runs.length - 1] as unknown as { poison: unknown }).poison = { toJSON: () => { throw new Error('poisoned run') } }
    const paths = { resultsPath: undefined, reportPath: join(dir, 'eval-report.md'), htmlPath: join(dir, 'eval-report.html') }
    let error: unknown
    try {
      writeResults(doc, paths, [])
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ResultsNotWrittenError)
    expect((error as Error).message).toBe(`${paths.htmlPath}: the HTML report could not be rendered (poisoned run)`)
    expect(existsSync(paths.htmlPath)).toBe(false)
    expect(readdirSync(dir)).toEqual(['eval-report.md'])
  })
})
