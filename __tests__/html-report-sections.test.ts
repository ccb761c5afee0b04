import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { paintPng } from '../__fixtures__/png.js'
import { ReportBrowser, noBrowserReason, reportBrowserPath, type OpenedReport } from '../__fixtures__/report-browser.js'
import {
  HOSTILE,
  appsShape,
  appsSkippedShape,
  conformanceOnlyShape,
  failedWithBaselineShape,
  mixedShape,
  resilienceShape,
  telemetryShape,
  toolTestsFailedShape,
  unreachableShape
} from '../__fixtures__/report-shapes.js'
import { appRendersOf, renderAnchor } from '../src/report/app-findings.js'
import { renderHtmlReport } from '../src/report/html/render.js'
import type { ResultsDocument } from '../src/results/types.js'

// The layer sections of eval-report.html as a reader sees them in a real browser: each finding's
// evidence, the anchors that open a finding, the matrices, the charts beside their tables, the
// budgets, the screenshots inline, and hostile server text shown as text.

if (!reportBrowserPath) console.warn(`HTML report section tests skipped: ${noBrowserReason}`)
const describeWithBrowser = reportBrowserPath ? describe : describe.skip

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

const text = async (page: Page, selector: string) => (await page.locator(selector).first().textContent()) ?? ''
const isOpen = (page: Page, id: string) => page.evaluate((i) => (document.getElementById(i) as HTMLDetailsElement | null)?.open ?? null, id)

/** Open every fold under `root` and wait until each has built its body. */
async function openEveryFold(page: Page, root: string): Promise<void> {
  await page.evaluate((r) => document.querySelectorAll(`${r} details`).forEach((d) => ((d as HTMLDetailsElement).open = true)), root)
  await page.waitForFunction((r) => Array.from(document.querySelectorAll(`${r} details`), (d) => d.children.length > 1).every(Boolean), root)
}

/** Nothing hostile became markup: no `<img src=x>`, no script but the data and the page's own. */
async function expectInert(opened: OpenedReport): Promise<void> {
  expect(await opened.page.locator('img[src="x"]').count()).toBe(0)
  expect(await opened.page.locator('script').count()).toBe(2)
  expect(await opened.page.locator('h1:has-text("pwned")').count()).toBe(0)
  expect(opened.errors).toEqual([])
  expect(opened.requests).toEqual([])
}

describeWithBrowser('the HTML report: the layer sections', () => {
  const browser = new ReportBrowser()
  beforeAll(() => browser.start())
  afterAll(() => browser.close())

  const open = async (doc: ResultsDocument, options: Parameters<ReportBrowser['open']>[1] & { readImage?: (path: string) => Buffer | null } = {}) => {
    const { readImage, ...rest } = options
    return browser.open(renderHtmlReport(doc, { readImage }), rest)
  }

  describe('protocol conformance', () => {
    const withHostileCheck = () => {
      const doc = conformanceOnlyShape()
      const check = doc.conformance!.checks.find((c) => c.id === 'list-cache-fields')!
      check.message = `ttlMs is missing ${HOSTILE}`
      check.evidence = { request: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', response: `{"result":{"tools":[]},"note":"${HOSTILE}"}` }
      return doc
    }

    test('a failed check is open with its message, rule and evidence; hostile text stays text', async () => {
      const opened = await open(withHostileCheck())
      const { page } = opened
      expect(await isOpen(page, 'check-list-cache-fields')).toBe(true)
      const check = await text(page, '#check-list-cache-fields')
      expect(check).toContain('✗ failed')
      expect(check).toContain(`ttlMs is missing ${HOSTILE}`)
      expect(check).toContain('§6 ttlMs and cacheScope')
      expect(check).toContain('Request')
      expect(check).toContain('"method":"tools/list"')
      expect(check).toContain(`"note":"${HOSTILE}"`)
      // The warning is open too; a passed check is folded.
      expect(await isOpen(page, 'check-tools-list-deterministic-order')).toBe(true)
      expect(await isOpen(page, 'check-discover-responds')).toBe(false)
      const section = await text(page, '#conformance')
      expect(section).toMatch(/28 checks: 20 passed, 1 failed, 1 warning, 6 skipped · gate: fail on error/)
      expect(section).toContain('stdio server: no HTTP binding')
      expect(section).toContain('2026-07-28')
      expect(section).toContain('conformance-fixture 1.0.0')
      await expectInert(opened)
      await page.context().close()
    })

    test('#check-<id> opens that check, even a passed one', async () => {
      const opened = await open(failedWithBaselineShape(), { hash: 'check-discover-responds' })
      expect(await isOpen(opened.page, 'check-discover-responds')).toBe(true)
      expect(await isOpen(opened.page, 'check-discover-capabilities')).toBe(false)
      expect(await text(opened.page, '#check-discover-responds')).toContain('server/discover answered')
      await expectInert(opened)
      await opened.page.context().close()
    })

    test("a legacy server: the expected failures file's entries, the official suite's view, the steps to migrate", async () => {
      const doc = conformanceOnlyShape()
      const c = doc.conformance!
      c.era = 'legacy'
      c.negotiated_version = '2025-11-25'
      c.migration = ['Answer server/discover with supportedVersions', `Drop the session header ${HOSTILE}`]
      const warned = c.checks.find((k) => k.id === 'tools-list-deterministic-order')!
      Object.assign(warned, { status: 'expected', expected_entry: 'tools-list-deterministic-order:tools/list', methods: ['tools/list'], revision: 'both', official: { scenarios: ['tools-list:order'], scoring: 'differs', note: 'it only warns' } })
      c.expected_failures = {
        file: 'conformance-expected.txt',
        entries: [
          { entry: 'tools-list-deterministic-order:tools/list', line: 1, check: 'tools-list-deterministic-order', method: 'tools/list', outcome: 'expected' },
          { entry: 'discover-responds', line: 2, check: 'discover-responds', method: null, outcome: 'stale' },
          { entry: 'discover-respond', line: 3, check: 'discover-respond', method: null, outcome: 'unknown' }
        ]
      }
      const opened = await open(doc)
      const section = await text(opened.page, '#conformance')
      expect(section).toContain('legacy server')
      expect(section).toContain('2025-11-25')
      expect(section).toContain('A stale or unknown entry fails the conformance gate')
      expect(section).toMatch(/stale\s*discover-responds\s*\(conformance-expected.txt:2\) — passed: remove the entry/)
      expect(section).toContain('no check has this id; did you mean discover-responds?')
      // An expected failure is folded; opened, its fold is built.
      expect(await isOpen(opened.page, 'check-tools-list-deterministic-order')).toBe(false)
      await opened.page.click('#check-tools-list-deterministic-order > summary')
      await opened.page.waitForSelector('#check-tools-list-deterministic-order .fold-body')
      const expected = await text(opened.page, '#check-tools-list-deterministic-order')
      expect(expected).toContain('⚠ expected failure')
      expect(expected).toContain('2025-11-25 and 2026-07-28')
      expect(expected).toContain('scored differently (tools-list): it only warns')
      expect(expected).toContain('tools-list-deterministic-order:tools/list')
      expect(await opened.page.locator('#conformance ol li').allTextContents()).toEqual(c.migration)
      await expectInert(opened)
      await opened.page.context().close()
    })

    test('an unreachable server: the error, the cause and the stderr, instead of checks', async () => {
      const opened = await open(unreachableShape())
      const section = await text(opened.page, '#conformance')
      expect(section).toContain('could not be started or reached over stdio')
      expect(section).toContain('spawn python3 ENOENT')
      expect(section).toContain('ENOENT')
      expect(section).toContain(`python3: not found\n${HOSTILE}`)
      expect(await opened.page.locator('#conformance details.check').count()).toBe(0)
      await expectInert(opened)
      await opened.page.context().close()
    })
  })

  describe('tool tests', () => {
    test("a failing test is open with its call, each check's expected and actual, the diff and the stderr", async () => {
      const opened = await open(toolTestsFailedShape())
      const { page } = opened
      expect(await page.locator('.tool-tests-table tbody tr').count()).toBe(6)
      // The ones that did not pass come first.
      expect(await text(page, '.tool-tests-table tbody tr:last-child')).toContain('fast-enough')
      expect(await isOpen(page, 'tool-test-weather-json')).toBe(true)
      expect(await isOpen(page, 'tool-test-fast-enough')).toBe(false)
      const weather = await text(page, '#tool-test-weather-json')
      expect(weather).toContain('json at $.temp')
      expect(weather).toMatch(/Expected\s*21\s*Actual\s*"21"/)
      // The hostile city came back in the answer: it is the actual value, as text.
      expect(weather).toContain(JSON.stringify(HOSTILE))
      expect(await text(page, '#tool-test-intro-page')).toContain('+    "body": "Run ```npx evil``` <script>alert(1)</script> @octocat"')
      const crash = await text(page, '#tool-test-crash')
      expect(crash).toContain('⚠ errored')
      expect(crash).toContain(`RuntimeError: ${HOSTILE}`)
      expect(await text(page, '#tool-test-search-flaky')).toContain('Attempt 2 of 3')
      await expectInert(opened)
      await page.context().close()
    })

    test('the table links each test to its fold, and #tool-test-<id> opens a passed one', async () => {
      const opened = await open(mixedShape(), { hash: 'tool-test-fast-enough' })
      const { page } = opened
      const rows = await page.locator('.tool-tests-table tbody tr').allTextContents()
      expect(rows[0]).toMatch(/✗ failed/)
      expect(rows.at(-1)).toMatch(/✓ passed/)
      const doc = mixedShape()
      const passing = doc.tool_tests!.tests.find((t) => t.passed)!
      await page.click(`.tool-tests-table a[href="#tool-test-${passing.id}"]`)
      await page.waitForFunction((id) => (document.getElementById(id) as HTMLDetailsElement | null)?.open === true, `tool-test-${passing.id}`)
      await expectInert(opened)
      await page.context().close()
    })
  })

  test('resilience: the cells per model, the totals, and each failed cell with the runs that failed it', async () => {
    const doc = resilienceShape()
    const attacked = doc.runs.find((r) => r.security?.attacks.some((a) => a.delivered && !a.resisted))!
    attacked.security!.attacks.find((a) => !a.resisted)!.evidence[0].detail = HOSTILE
    const opened = await open(doc)
    const { page } = opened
    const section = await text(page, '#resilience')
    expect(section).toContain('3 of 10 cells below their floor')
    expect(section).toContain('Recovery from faults 6/7 (86%) · Attack resistance 3/4 (75%)')
    expect(await page.locator('.resilience-matrix').count()).toBe(2)
    const models = doc.summary.resilience!.by_model
    expect(await page.locator('.resilience-matrix').first().locator('tbody tr').count()).toBe(models.length)
    expect(await page.locator('.res-cell.cell-fail').count()).toBe(3)
    expect(await page.locator('.res-cell').count()).toBe(models.reduce((n, m) => n + m.faults.length + m.attacks.length, 0))
    const failedCell = await text(page, '.res-cell.cell-fail')
    expect(failedCell).toMatch(/✗ below floor\s*recovered 0\/1\s*1 of 1 planned counted · rate 0% · floor 100%/)
    // A planned run where the fault never fired tested nothing: it is one of the runs that failed its cell.
    const untested = doc.runs.find((r) => r.case_id === 'convert-disconnect' && r.model === 'anthropic/claude-sonnet-4.5' && !r.tool_calls.some((c) => c.fault))!
    expect(section).toContain('1 of 2 planned counted (1 not triggered)')
    expect(await page.locator(`.failed-cells li li:has(a[href="#run-${untested.index}"])`).textContent()).toContain('the disconnect fault never fired in this run, so it tested nothing')
    const link = page.locator(`.failed-cells a[href="#run-${attacked.index}"]`)
    expect(await link.count()).toBe(1)
    const line = (await page.locator('.failed-cells li li').filter({ has: page.locator(`a[href="#run-${attacked.index}"]`) }).textContent()) ?? ''
    expect(line).toContain(`attack exfiltrate succeeded (canary ${attacked.security!.attacks[0].canary})`)
    expect(line).toContain(HOSTILE)
    await link.click()
    expect(await page.evaluate(() => location.hash)).toBe(`#run-${attacked.index}`)
    await expectInert(opened)
    await page.context().close()
  })

  test('telemetry: the figures, the latency and cost charts beside their tables, every budget with ✓/✗', async () => {
    const doc = telemetryShape()
    const opened = await open(doc)
    const { page } = opened
    const t = doc.telemetry!
    const models = t.models.filter((m) => m.prompt_name === null)
    expect(await page.locator('#telemetry-tools svg[role="img"] .chart-row').count()).toBe(t.tools.length)
    expect(await page.locator('#telemetry-tools svg[role="img"] rect').count()).toBe(t.tools.length * 2)
    expect(await page.locator('#telemetry-tools .tools-table tbody tr').count()).toBe(t.tools.length)
    expect(await page.locator('#telemetry-models svg[role="img"] .chart-row').count()).toBe(models.length)
    expect(await page.locator('#telemetry-models .models-table').first().locator('tbody tr').count()).toBe(models.length)
    const slowest = [...t.tools].sort((a, b) => (b.latency_ms.p95 ?? 0) - (a.latency_ms.p95 ?? 0))[0]
    const label = (await page.locator('#telemetry-tools svg').getAttribute('aria-label')) ?? ''
    expect(label).toContain(`the largest ${slowest.name}`)
    // Each bar says its figure in its title and as a label beside it.
    const titles = await page.locator('#telemetry-tools svg title').allTextContents()
    expect(titles).toContain(`${slowest.name} — p95: 1.24 s`)
    expect(await text(page, '#telemetry-tools svg')).toContain('p95 1.24 s')
    const budgets = [...t.budgets, ...(doc.gate?.trends ?? [])]
    const failed = budgets.filter((b) => !b.passed)
    expect(failed.length).toBeGreaterThan(0)
    expect(await page.locator('#telemetry-budgets tbody tr').count()).toBe(budgets.length)
    expect(await page.locator('#telemetry-budgets tbody tr:has-text("✗ exceeded")').count()).toBe(failed.length)
    expect(await page.locator('#telemetry-budgets tbody tr:has-text("✓ held")').count()).toBe(budgets.length - failed.length)
    const budgetsText = await text(page, '#telemetry-budgets')
    for (const b of failed) expect(budgetsText).toContain(b.reason)
    expect(budgetsText).toContain('3 runs skipped')
    const section = await text(page, '#telemetry')
    expect(section).toContain(`2 of ${budgets.length} budgets exceeded · 3 runs skipped`)
    expect(section).toContain('21.4 s for the whole evaluation')
    expect(section).toContain('cost unknown')
    await expectInert(opened)
    await page.context().close()
  })

  describe('MCP Apps', () => {
    const png = paintPng(64, 40, (x, y) => [x * 4, y * 6, 128])

    test('every render with its place, verdict and findings, and its screenshot inline', async () => {
      const doc = appsShape()
      const opened = await open(doc, { readImage: () => png })
      const { page } = opened
      const placed = appRendersOf(doc)
      expect(await page.locator('#apps details.app-render').count()).toBe(placed.length)
      const throwing = placed.find((p) => p.render.id.includes('widget-throws'))!.render
      const anchor = renderAnchor(throwing)
      expect(await isOpen(page, anchor)).toBe(true)
      const block = await text(page, `[id="${anchor}"]`)
      expect(block).toContain('✗ failed')
      expect(block).toContain('app-no-errors')
      expect(block).toContain('tool test widget-throws, step 1')
      // The view's hostile console line is a finding's evidence, shown as text.
      expect(block).toContain(`console.error: render failed ${HOSTILE}`)
      // A passed render's fold is built when it is opened: open them all, as a reader would.
      expect(await page.locator('#apps details.app-render:not([open]) img').count()).toBe(0)
      await openEveryFold(page, '#apps')
      const images = page.locator('#apps img')
      // The baseline and the diff are shown beside the screenshot when it changed.
      const shots = placed.flatMap((p) => [p.render.screenshot, ...(p.render.visual_diff?.changed ? [p.render.visual_diff.baseline, p.render.visual_diff.diff] : [])]).filter((s) => s !== null)
      expect(await images.count()).toBe(shots.length)
      await page.waitForFunction(() => Array.from(document.querySelectorAll('#apps img'), (i) => (i as HTMLImageElement).complete).every(Boolean))
      const loaded = await images.evaluateAll((list) => list.map((i) => ({ src: (i as HTMLImageElement).src.slice(0, 22), width: (i as HTMLImageElement).naturalWidth, alt: (i as HTMLImageElement).alt })))
      for (const image of loaded) {
        expect(image.src).toBe('data:image/png;base64,')
        expect(image.width).toBe(64)
        expect(image.alt).not.toBe('')
      }
      // A run's render links to the run's page; an app step's render is inline in its tool test too.
      const runRender = placed.find((p) => p.place.kind === 'run')!
      expect(await page.locator(`[id="${renderAnchor(runRender.render)}"] a[href="#run-${runRender.render.id.match(/^run-(\d+)/)![1]}"]`).count()).toBe(1)
      expect(await page.locator('#tool-test-widget-throws img[src^="data:image/png;base64,"]').count()).toBe(1)
      expect(await page.locator(`#tool-test-widget-throws a[href="#${anchor}"]`).count()).toBe(1)
      await expectInert(opened)
      await page.context().close()
    })

    test('#app-<id> opens a passed render; a screenshot the file lacks is said to be missing', async () => {
      const doc = appsShape()
      const passedRender = appRendersOf(doc).find((p) => p.render.id.includes('weather-widget'))!.render
      const opened = await open(doc, { hash: renderAnchor(passedRender) })
      const { page } = opened
      expect(await isOpen(page, renderAnchor(passedRender))).toBe(true)
      expect(await page.locator('#apps img').count()).toBe(0)
      expect(await text(page, `[id="${renderAnchor(passedRender)}"]`)).toContain(`${passedRender.screenshot}: screenshot not in this file`)
      await expectInert(opened)
      await page.context().close()
    })

    test('skipped for want of a browser: a notice, never a pass', async () => {
      const doc = appsSkippedShape()
      const opened = await open(doc, { readImage: () => png })
      const section = await text(opened.page, '#apps')
      expect(section).toContain(`Not rendered: ${doc.apps!.reason}`)
      expect(section).toContain('none counts as passed')
      expect(section).not.toContain('✓ passed')
      expect(await opened.page.locator('#apps details.app-render').count()).toBe(2)
      await expectInert(opened)
      await opened.page.context().close()
    })
  })

  test.each([
    ['conformance-only', conformanceOnlyShape],
    ['unreachable', unreachableShape],
    ['tool-tests-failed', toolTestsFailedShape],
    ['resilience', resilienceShape],
    ['telemetry', telemetryShape],
    ['apps', appsShape]
  ])('%s: axe finds no serious or critical violation in the sections, every fold open', async (_name, shape) => {
    const png = paintPng(32, 24)
    const opened = await open(shape(), { bypassCsp: true, readImage: () => png })
    const { page } = opened
    const sections = ['#conformance', '#tool-tests', '#resilience', '#telemetry', '#apps']
    for (const section of sections) await openEveryFold(page, section)
    await page.evaluate(axeSource)
    const violations = await page.evaluate(async (selectors) => {
      const include = selectors.filter((s) => document.querySelector(s)).map((s) => [s])
      const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> } }).axe
      const result = await axe.run({ include }, { resultTypes: ['violations'] })
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, target: v.nodes[0]?.target.join(' ') }))
    }, sections)
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])
    await page.context().close()
  })
})
