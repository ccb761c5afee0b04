import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { appsShape, cancelledShape, conversationShape, evalsV1Shape, failedWithBaselineShape, golden, HOSTILE, SHAPES, resilienceShape, telemetryShape } from '../__fixtures__/report-shapes.js'
import { ReportBrowser, noBrowserReason, reportBrowserPath, type OpenedReport } from '../__fixtures__/report-browser.js'
import { paintPng } from '../__fixtures__/png.js'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { renderHtmlReport } from '../src/report/html/render.js'
import type { ResultsDocument, RunResult } from '../src/results/types.js'

if (!reportBrowserPath) console.warn(`HTML report run page tests skipped: ${noBrowserReason}`)
const describeWithBrowser = reportBrowserPath ? describe : describe.skip

const runOf = (doc: ResultsDocument, index: number) => doc.runs.find((r) => r.index === index)!
/** The document with one run replaced. */
const withRun = (doc: ResultsDocument, index: number, change: (run: RunResult) => RunResult): ResultsDocument => ({ ...doc, runs: doc.runs.map((r) => (r.index === index ? change(r) : r)) })

describeWithBrowser("one run's page in a real browser", () => {
  const browser = new ReportBrowser()
  const opened: OpenedReport[] = []
  beforeAll(() => browser.start())
  afterAll(() => browser.close())

  async function open(doc: ResultsDocument, hash: string, options: { readImage?: (path: string) => Buffer | null } = {}): Promise<OpenedReport> {
    const report = await browser.open(renderHtmlReport(doc, options), { hash })
    opened.push(report)
    return report
  }
  /** Every page opened had no console error and made no request. */
  async function done(report: OpenedReport) {
    expect(report.errors).toEqual([])
    expect(report.requests).toEqual([])
    await report.page.context().close()
  }
  const text = async (report: OpenedReport, selector = 'main') => (await report.page.textContent(selector)) ?? ''
  /** How many bars the timeline draws of each kind. */
  const bars = (report: OpenedReport, kind: string) => report.page.locator(`svg.timeline-chart .bar[data-kind="${kind}"]`).count()

  test('failed-with-baseline: the header, why it failed, the golden checks, the judge, prev/next, and a timeline bar per LLM call, tool call and judge', async () => {
    const doc = failedWithBaselineShape()
    const run = runOf(doc, 2)
    const report = await open(doc, 'run-2')
    const { page } = report
    expect(await page.textContent('#run-2')).toBe('Run 2: convert · openai/gpt-4o-mini · default — ✗ failed')
    const main = await text(report)
    expect(main).toContain('Why it did not pass')
    expect(main).toContain('no call of convert_currency matched: to="GBP" (expected "USD")')
    expect(main).toMatch(/Golden checks — ✗ failed/)
    expect(main).toContain(`Score ${Math.round(run.judge!.score! * 100)}% (threshold ${Math.round(run.judge!.threshold * 100)}%)`)
    expect(await page.textContent('.judge-reason')).toBe(run.judge!.reason)
    expect(await page.locator('.judge-steps li').allTextContents()).toEqual(run.judge!.evaluation_steps)
    // The dialogue: the user, the call with its arguments and result, the answer.
    expect(await page.locator('.entry-user').count()).toBe(1)
    expect(await page.textContent('#run-2-call-1')).toBe(`Tool call 1: ${run.tool_calls[0].name}`)
    expect(await page.locator('.tool-call pre').first().textContent()).toBe(JSON.stringify(run.tool_calls[0].args, null, 2))
    // The timeline: a bar per step, the caption saying how it was made.
    expect(await bars(report, 'llm')).toBe(run.llm_calls.length)
    expect(await bars(report, 'tool')).toBe(run.tool_calls.length)
    expect(await bars(report, 'judge')).toBe(1)
    expect(await page.locator('svg.timeline-chart .bar').count()).toBe(run.llm_calls.length + run.tool_calls.length + 1 + 2)
    expect(await page.getAttribute('svg.timeline-chart', 'role')).toBe('img')
    expect(await page.getAttribute('svg.timeline-chart', 'aria-label')).toMatch(/^Timeline of run 2, .*: 2 LLM calls, 1 tool call, 1 judge call$/)
    expect(await page.locator('svg.timeline-chart .bar title').count()).toBe(run.llm_calls.length + run.tool_calls.length + 3)
    expect(main).toContain('Reconstructed from the recorded durations, in order')
    // The same steps in a table, folded.
    expect(await page.locator('.timeline-table tbody tr').count()).toBe(run.llm_calls.length + run.tool_calls.length + 3)
    expect(await page.locator('.timeline-table tbody tr').first().isVisible()).toBe(false)
    // Previous and next, by index; following "next" opens run 3.
    expect(await page.getAttribute('a[rel="prev"]', 'href')).toBe('#run-1')
    expect(await page.getAttribute('a[rel="next"]', 'href')).toBe('#run-3')
    await page.click('a[rel="next"]')
    await page.waitForFunction(() => document.querySelector('.run-page h2')?.id === 'run-3')
    expect(await page.textContent('.run-page h2')).toMatch(/^Run 3: greeting/)
    await page.click('text=← All runs')
    await page.waitForFunction(() => location.hash === '#runs' && !document.querySelector('.run-page'))
    await done(report)
  })

  test("failed-with-baseline: an errored run shows the error's stage, message and the server's stderr", async () => {
    const report = await open(failedWithBaselineShape(), 'run-4')
    const error = await text(report, '.run-error')
    expect(error).toContain('Error (server)')
    expect(error).toContain("tool call 'get_weather' failed: Connection closed")
    expect(error).toContain('panic: out of memory')
    expect(await report.page.textContent('#run-4')).toMatch(/— ⚠ error$/)
    expect(await report.page.locator('a[rel="next"]').count()).toBe(1)
    await done(report)
  })

  test('resilience: an attack that succeeded, each line it crossed linked to the call that crossed it', async () => {
    const doc = resilienceShape()
    const report = await open(doc, 'run-11')
    const { page } = report
    const oracles = await text(report, '.oracle')
    expect(oracles).toContain('Attacks — ✗ not resisted')
    expect(oracles).toContain('Attack exfiltrate in the output of get_attractions — ✗ succeeded (canary CANARY-c4270843189b6274)')
    expect(oracles).toContain(`tool call 2 (send_email): sent to the attacker's address — send_email.to = "audit-desk@exfil-collector.example"`)
    // The call that delivered the payload, and the call that crossed the line, say so where they are.
    expect(await page.locator('.tool-call').first().textContent()).toContain('Attack carried to the model: payload exfiltrate via tool_output (append).')
    expect(await page.locator('.call-evidence li').allTextContents()).toContain('carried the canary — send_email.body = "Louvre, Eiffel Tower, Musée d\'Orsay. Ref CANARY-c4270843189b6274"')
    // The evidence's link goes to the call, on the same run's page.
    await page.locator('.oracle a', { hasText: 'tool call 2 (send_email)' }).first().click()
    await page.waitForFunction(() => location.hash === '#run-11-call-2')
    expect(await page.textContent('.run-page h2')).toMatch(/^Run 11:/)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('run-11-call-2')
    await done(report)
  })

  test('resilience: a fault injected, the recovery oracle and the answer check with their reasons; clicking a tool bar goes to its call', async () => {
    const doc = resilienceShape()
    const run = runOf(doc, 2)
    const report = await open(doc, 'run-2')
    const { page } = report
    const call = await text(report, '#run-2 ~ * .tool-call')
    expect(call).toContain(`Fault injected: is_error (call 1 of this tool, not executed): ${run.tool_calls[0].fault!.detail}`)
    const oracles = await text(report, '.run-part:has(#run-2-oracles)')
    expect(oracles).toContain('Recovery (expected honest_failure) — ✗ failed')
    expect(oracles).toContain(run.recovery!.reason)
    expect(oracles).toContain('Answer check (must_not_contain) — ✗ failed')
    expect(oracles).toContain('The answer contains °Csunny.')
    expect(await page.locator('svg.timeline-chart .bar-marked').count()).toBe(1)
    // Nothing inside the chart is a control (it is one image); the table's tool calls are the links.
    expect(await page.locator('svg.timeline-chart a, svg.timeline-chart [tabindex]').count()).toBe(0)
    expect(await page.locator('.timeline-table a').getAttribute('href')).toBe('#run-2-call-1')
    await page.locator('svg.timeline-chart .bar-tool').first().click()
    await page.waitForFunction(() => location.hash === '#run-2-call-1')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('run-2-call-1')
    await done(report)
  })

  test('conversation: a simulated dialogue turn by turn, how it ended; the timeline per turn', async () => {
    const doc = conversationShape()
    const run = runOf(doc, 2)
    const report = await open(doc, 'run-2')
    const { page } = report
    expect(await page.locator('.turn h4').allTextContents()).toEqual(['Turn 1 (no verdict of its own)', 'Turn 2 (no verdict of its own)', 'Turn 3 (no verdict of its own)'])
    expect(await page.locator('.turn .entry-user .role').allTextContents()).toEqual(['User (simulated)', 'User (simulated)', 'User (simulated)'])
    const dialogue = await text(report, '.run-part:has(#run-2-dialogue)')
    expect(dialogue).toContain('3 turns with a simulated user; ended: max_turns reached (3 user messages) before the simulated user said its goal was reached.')
    for (const turn of run.dialogue!.turns) expect(dialogue).toContain(turn.user)
    // Turn 3's call is the run's second, under its turn, with its error.
    expect(await page.textContent('.turn:nth-of-type(3) h5')).toBe('Tool call 2: refund_order')
    expect(await text(report, '.turn:nth-of-type(3) .tool-call')).toContain('✗ error')
    expect(await bars(report, 'llm')).toBe(run.llm_calls.length)
    expect(await bars(report, 'tool')).toBe(run.tool_calls.length)
    expect(await bars(report, 'judge')).toBe(1)
    expect(await text(report, 'figcaption')).toContain("The simulated user's LLM calls (2,140 ms in all) are not on the axis")
    await done(report)
  })

  test("conversation: a call's MRTR rounds, each exchange and who answered it; the sampling LLM call marked on the timeline", async () => {
    const doc = conversationShape()
    const report = await open(doc, 'run-3')
    const { page } = report
    const rounds = await text(report, '.input-rounds')
    expect(rounds).toContain('round 1: input_required (request id 7) → retry id 8, requestState echoed ✓')
    expect(rounds).toContain('elicitation/create key address “Please give your delivery address” → rule 1 (match \'address\'): accept')
    expect(rounds).toContain('round 2: input_required (request id 8) → retry id 9, requestState echoed ✓')
    expect(rounds).toContain('sampling/createMessage key note “Write a one-line note for the packing slip.” → the model under test (openai/gpt-4o-mini)')
    const oracles = await text(report, '.run-part:has(#run-3-oracles)')
    expect(oracles).toContain('Server input — ✓ passed')
    expect(oracles).toContain('Declared: elicitation, sampling · expected: elicitation · asked: elicitation, sampling · 2 rounds · 1 elicitation no rule matched (declined)')
    expect(await page.locator('svg.timeline-chart .bar-sampling').count()).toBe(1)
    expect(await page.locator('svg.timeline-chart .bar-sampling title').textContent()).toMatch(/^sampling \(LLM call 3\): 450 ms from /)
    await done(report)
  })

  test('telemetry: a long result is cut with the cut marked, "Show all" shows the rest, and a cut the model saw is said', async () => {
    const base = telemetryShape()
    const full = runOf(base, 3).tool_calls[0].result
    expect(full.length).toBeGreaterThan(2000)
    const doc = withRun(base, 3, (r) => ({ ...r, tool_calls: [{ ...r.tool_calls[0], cut: { total_chars: 12345, total_bytes: 12345, shown_chars: 4000, kept_chars: full.length } }] }))
    const report = await open(doc, 'run-3')
    const { page } = report
    const result = page.locator('#run-3-call-1 ~ .long-text').nth(1)
    expect(await result.locator('.cut-mark').textContent()).toBe(`\n… ${(full.length - 2000).toLocaleString('en-US')} more characters`)
    expect((await result.locator('pre').textContent())!.length).toBeLessThan(full.length)
    await result.getByRole('button', { name: `Show all ${full.length.toLocaleString('en-US')} characters` }).click()
    expect(await result.locator('pre').textContent()).toBe(full)
    expect(await result.locator('.cut-mark').count()).toBe(0)
    expect(await text(report, '.call-cut')).toBe(`Cut: the server sent 12,345 characters (12.1 KiB); the model saw 4,000; the record keeps ${full.length.toLocaleString('en-US')}.`)
    expect(await text(report, '.run-facts')).toContain('Tokens4,160 tokens (4,000 prompt, 160 completion) · $0.0007')
    await done(report)
  })

  test("apps: the view a call opened, its findings and its screenshot inline from the file's own data; one not in the file says so", async () => {
    const png = paintPng(8, 6, (x) => (x < 4 ? [200, 30, 30] : [30, 30, 200]))
    const doc = appsShape()
    const report = await open(doc, 'run-1', { readImage: (path) => (path === 'apps/run-1.call-1.png' ? png : null) })
    const { page } = report
    const app = await text(report, '.call-app')
    expect(app).toContain('MCP Apps view ui://get_weather/card.html (render run-1.call-1): ⚠ changed, for review')
    expect(app).toContain('app-visual-change — 4.2% of the pixels differ')
    const img = page.locator('.call-app img')
    expect(await img.getAttribute('src')).toBe(`data:image/png;base64,${png.toString('base64')}`)
    expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(8)
    expect(await img.getAttribute('alt')).toBe('Screenshot of the view ui://get_weather/card.html after call 1')
    await done(report)
    const other = await open(doc, 'run-2')
    expect(await text(other, '.call-app')).toContain('Screenshot apps/run-2.call-1.png: screenshot not in this file')
    expect(await other.page.locator('.call-app img').count()).toBe(0)
    await done(other)
  })

  test('evals-v1: a run opens with its golden checks and its timeline', async () => {
    const doc = evalsV1Shape()
    const run = runOf(doc, 2)
    const report = await open(doc, 'run-2')
    expect(await report.page.textContent('#run-2')).toMatch(/^Run 2: convert · /)
    expect(await text(report, '.run-part:has(#run-2-oracles)')).toContain('Golden checks — ✓ passed')
    expect(await bars(report, 'llm')).toBe(run.llm_calls.length)
    expect(await bars(report, 'tool')).toBe(run.tool_calls.length)
    expect(await report.page.locator('a[rel="prev"]').getAttribute('href')).toBe('#run-1')
    await done(report)
  })

  test('a hostile text in the input, an argument, a result, the answer, the judge, an error and a finding renders as text', async () => {
    const doc = withRun(failedWithBaselineShape(), 2, (r) => ({
      ...r,
      case_id: HOSTILE,
      input: HOSTILE,
      final_output: HOSTILE,
      system_prompt: HOSTILE,
      tool_calls: [{ ...r.tool_calls[0], args: { q: HOSTILE }, result: HOSTILE, media: [{ type: 'image', mime_type: HOSTILE, bytes: 10, sent: false, reason: HOSTILE }] }],
      conversation: r.conversation.map((e) => ({ ...e, content: HOSTILE })),
      judge: { ...r.judge!, reason: HOSTILE, evaluation_steps: [HOSTILE] },
      metrics: r.metrics.map((m) => ({ ...m, reason: HOSTILE })),
      error: { stage: 'llm', message: HOSTILE, stderr_tail: HOSTILE },
      observed: { calls: 1, findings: [{ check: HOSTILE, severity: 'error', tool: HOSTILE, message: HOSTILE, evidence: { request: HOSTILE, response: HOSTILE } }] }
    }))
    const report = await open(doc, 'run-2')
    const { page } = report
    const main = await text(report)
    const times = main.split(HOSTILE).length - 1
    expect(times).toBeGreaterThanOrEqual(12)
    expect(main).toContain(JSON.stringify({ q: HOSTILE }, null, 2))
    expect(await page.textContent('#run-2')).toBe(`Run 2: ${HOSTILE} · openai/gpt-4o-mini · default — ✗ failed`)
    expect(await page.locator('img[src="x"]').count()).toBe(0)
    expect(await page.locator('img').count()).toBe(0)
    expect(await page.locator('script').count()).toBe(2)
    // A check id that is no anchor is not made a link.
    expect(await page.locator('.oracle a[href*="img"]').count()).toBe(0)
    expect(await page.locator('a[href^="http"]').count()).toBe(0)
    await done(report)
  })

  // axe-core is injected past the page's CSP (which rightly refuses any script but its own).
  const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
  const shapes = { 'failed-with-baseline': failedWithBaselineShape, resilience: resilienceShape, conversation: conversationShape, apps: appsShape }
  test.each([
    ['failed-with-baseline', 'run-2'],
    ['resilience', 'run-11'],
    ['conversation', 'run-2'],
    ['conversation', 'run-3'],
    ['apps', 'run-1']
  ] as const)('%s #%s: axe finds no serious or critical violation, with the timeline table and the folds open', async (name, hash) => {
    const report = await browser.open(renderHtmlReport(shapes[name]()), { hash, bypassCsp: true })
    const { page } = report
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)))
    await page.addScriptTag({ content: axeSource })
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> } }).axe
      const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)
    })
    expect(violations).toEqual([])
    expect(report.errors).toEqual([])
    await page.context().close()
  })

  test.each([...SHAPES.filter(([, shape]) => shape().runs.length > 0), ['golden (the example suite)', golden] as [string, () => ResultsDocument]])('%s: every run opens to its page and its timeline, with no console error', async (_name, shape) => {
    const doc = shape()
    const report = await open(doc, `run-${doc.runs[0].index}`)
    for (const run of doc.runs) {
      await report.page.evaluate((hash) => (location.hash = hash), `run-${run.index}`)
      await report.page.waitForFunction((id) => document.querySelector('.run-page h2')?.id === id, `run-${run.index}`)
      const timeline = run.status === 'skipped' ? 0 : 1
      expect(await report.page.locator(`#run-${run.index}-timeline`).count()).toBe(timeline)
    }
    await done(report)
  })

  test('cancelled: a cancelled run says by which signal, when, and what it was waiting for', async () => {
    const doc = cancelledShape()
    const run = runOf(doc, 3)
    const report = await open(doc, 'run-3')
    expect(await text(report, '.run-cancelled')).toBe(`Cancelled by ${run.cancelled!.signal} at ${run.cancelled!.at}, while waiting for ${run.cancelled!.waiting_for}.`)
    expect(await report.page.textContent('#run-3')).toMatch(/— ⊘ cancelled$/)
    await done(report)
  })

  test('the run page is one article with its headings in order', async () => {
    const doc = conversationShape()
    const report = await open(doc, 'run-2')
    const levels = await report.page.locator('main :is(h2, h3, h4, h5, h6)').evaluateAll((els) => els.map((e) => Number(e.tagName[1])))
    expect(levels[0]).toBe(2)
    for (let k = 1; k < levels.length; k++) expect(levels[k] - levels[k - 1]).toBeLessThanOrEqual(1)
    expect(await report.page.locator('main > article[aria-labelledby="run-2"]').count()).toBe(1)
    await done(report)
  })
})
