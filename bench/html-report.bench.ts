// The HTML report (eval-report.html) opened as a reader opens it: written to disk and loaded from
// file:// in headless Chromium (the system browser, as the MCP Apps layer finds it), for the
// example suite's document and for a 1,000-run one (the golden runs replicated as 50 cases × 4
// models × 5 repeats). Timed in the page from navigation start to `html[data-ready]` (the first
// screen rendered) and to interactive (a search typed once it is ready, the list narrowed and its count changed),
// over several loads in fresh browser contexts. Targets: interactive under 2 s at 1,000 runs, and
// the page's own bytes (the file less its embedded data) under 1 MB.
//
//   npm run bench:html
//   npm run bench:html -- --repeats 10 --cases 500        (10,000 runs)
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { golden } from '../__fixtures__/report-shapes.js'
import { manyRunsDocument } from '../__fixtures__/report-many-runs.js'
import { findBrowser } from '../src/apps/browser-path.js'
import { launchBrowser, type LaunchedBrowser } from '../src/apps/browser.js'
import { renderHtmlReport } from '../src/report/html/render.js'
import type { ResultsDocument } from '../src/results/types.js'
import { machineLine, round } from './processes.js'

const { values } = parseArgs({
  options: {
    repeats: { type: 'string', default: '5' },
    cases: { type: 'string', default: '50' }
  }
})
const TARGET_INTERACTIVE_MS = 2000
const TARGET_PAGE_BYTES = 1_000_000
const MODELS = 4
const REPEATS_PER_GROUP = 5

const found = findBrowser({ chromePath: '', env: process.env })
if (!found.choice) throw new Error(`no browser: ${found.reason}`)

interface Load {
  ready_ms: number
  interactive_ms: number
}

/**
 * One load in a fresh context. The times are the page's own clock (performance.now(), from
 * navigation start), taken by an init script's observer the moment `data-ready` is set and the
 * moment the count changes after the search is typed (an input event queued as soon as the page
 * is ready), so no round trip to the benchmark counts.
 */
async function load(launched: LaunchedBrowser, url: string, search: string): Promise<Load> {
  const context = await launched.browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  // A string, not a function: tsx would add helpers to a function's source that the page does not have.
  await page.addInitScript(`(() => {
    const marks = (window.__marks = {})
    // The document is empty when this runs: everything is observed from the document down.
    new MutationObserver(() => {
      if (marks.ready === undefined && document.documentElement && document.documentElement.dataset.ready) {
        marks.ready = performance.now()
        // The reader types as soon as the first screen is there: the task runs once the page's own work queued before it is done.
        setTimeout(() => {
          const input = document.querySelector('input[name=text]')
          input.value = ${JSON.stringify(search)}
          input.dispatchEvent(new Event('input', { bubbles: true }))
        }, 0)
      }
      const count = document.getElementById('runs-count')
      if (marks.ready !== undefined && marks.interactive === undefined && count && count.textContent.includes(' of ')) marks.interactive = performance.now()
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-ready'] })
  })()`)
  await page.goto(url)
  await page.waitForFunction('window.__marks && window.__marks.interactive !== undefined', undefined, { timeout: 30_000 })
  const marks = (await page.evaluate('window.__marks')) as Record<string, number>
  await context.close()
  if (errors.length) throw new Error(`the page reported errors: ${errors.join('; ')}`)
  return { ready_ms: marks.ready, interactive_ms: marks.interactive }
}

/** The file's bytes, and of them the embedded data's (the JSON in the report-data element) and the rest, the page's own. */
function sizes(html: string): { file: number; data: number; page: number } {
  const file = Buffer.byteLength(html)
  const start = html.indexOf('<script type="application/json" id="report-data">')
  const end = html.indexOf('</script>', start)
  const data = start < 0 || end < 0 ? 0 : Buffer.byteLength(html.slice(html.indexOf('>', start) + 1, end))
  return { file, data, page: file - data }
}

const kb = (n: number) => `${round(n / 1024, 1)} KiB`
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]
const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS')

const cases = Number(values.cases)
const repeats = Number(values.repeats)
const documents: [string, () => ResultsDocument, string][] = [
  ['example suite (golden)', golden, 'convert'],
  [`${(cases * MODELS * REPEATS_PER_GROUP).toLocaleString('en-US')} runs (${cases} cases × ${MODELS} models × ${REPEATS_PER_GROUP} repeats)`, () => manyRunsDocument({ cases, models: MODELS, repeats: REPEATS_PER_GROUP }), 'case-007']
]

const launched = await launchBrowser(found.choice.path)
const dir = mkdtempSync(join(tmpdir(), 'bench-html-'))
process.stdout.write(`HTML report benchmark: ${launched.version} headless, file://, ${repeats} loads each in fresh contexts, ${machineLine()}\n\n`)
process.stdout.write('document | file | embedded data | page (file less data) | page target | ready median / max ms | interactive median / max ms | interactive target\n--- | ---: | ---: | ---: | ---: | ---: | ---: | ---:\n')
const misses: string[] = []
try {
  for (const [name, build, search] of documents) {
    const renderedAt = performance.now()
    const html = renderHtmlReport(build())
    const renderMs = performance.now() - renderedAt
    const path = join(dir, `${documents.findIndex(([n]) => n === name)}.html`)
    writeFileSync(path, html)
    const size = sizes(html)
    if (size.file !== statSync(path).size) throw new Error('the file on disk is not the rendered report')
    const loads: Load[] = []
    for (let i = 0; i < repeats; i++) loads.push(await load(launched, pathToFileURL(path).href, search))
    const ready = loads.map((l) => l.ready_ms)
    const interactive = loads.map((l) => l.interactive_ms)
    const pageOk = size.page < TARGET_PAGE_BYTES
    const fastOk = Math.max(...interactive) < TARGET_INTERACTIVE_MS
    if (!pageOk) misses.push(`${name}: the page is ${kb(size.page)} beyond its data`)
    if (!fastOk) misses.push(`${name}: interactive after ${round(Math.max(...interactive), 0)} ms`)
    process.stdout.write(
      `${name} (rendered in ${round(renderMs, 0)} ms) | ${kb(size.file)} | ${kb(size.data)} | ${kb(size.page)} | < 1 MB ${verdict(pageOk)} | ${round(median(ready), 0)} / ${round(Math.max(...ready), 0)} | ${round(median(interactive), 0)} / ${round(Math.max(...interactive), 0)} | < ${TARGET_INTERACTIVE_MS} ms ${verdict(fastOk)}\n`
    )
  }
} finally {
  await launched.close()
  rmSync(dir, { recursive: true, force: true })
}
process.stdout.write(`\n${misses.length === 0 ? 'PASS: every document is interactive within 2 s and its page under 1 MB beyond its data' : `MISS: ${misses.join('; ')}`}\n`)
