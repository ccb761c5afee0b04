import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { runOptions } from '../__fixtures__/options.js'
import { DASHBOARD_URI } from '../__fixtures__/servers/model-view-server.mjs'
import { emptyRender } from '../src/apps/render-record.js'
import type { AppHost, AppHostOpening, AppHostOptions, RenderRequest } from '../src/apps/types.js'
import { prepare, type Prepared } from '../src/config/prepare.js'
import type { AppTest } from '../src/config/types.js'
import { evaluate } from '../src/evaluate.js'
import { CancelledError } from '../src/execute/cancellation.js'
import { documentFromJournal, readJournal } from '../src/execute/journal.js'
import { formatToolTestLine } from '../src/report/tool-test-line.js'
import { appRenderFailed, type AppFinding, type AppRender, type ResultsDocument, type ToolTestResult } from '../src/results/types.js'

// The MCP Apps glue of the tool tests (issue 30), end to end through evaluate(): a real fixture
// server process, and a browser host double that renders nothing but computes its record from the
// request — it reads the view's resource on the test's own session (a tool whose resource cannot
// be read is an error, as for a real host) and checks app.text_contains against that HTML and the
// call's result text, the text a view would show.

const BROWSER = { path: '/opt/fake/chromium', version: 'Chromium 1.0 (double)', source: 'search' as const }
const NO_BROWSER = 'no Chrome or Chromium found: install one (apt-get install chromium) or set chrome_path'

interface FakeHost extends AppHost {
  requests: RenderRequest[]
  closed: number
  options: AppHostOptions[]
}

/** A host double; `hang`: every render waits for its signal (to cancel during it). */
function fakeHost(behaviour: { hang?: () => void } = {}): { host: FakeHost; open: (options: AppHostOptions) => Promise<AppHostOpening> } {
  const host: FakeHost = {
    browser: BROWSER,
    requests: [],
    closed: 0,
    options: [],
    async render(request) {
      host.requests.push(request)
      const started = performance.now()
      const uri = request.tool.ui!.resource_uri!
      if (behaviour.hang) {
        behaviour.hang()
        if (!request.signal.aborted) await new Promise((resolve) => request.signal.addEventListener('abort', resolve, { once: true }))
        return record(request, uri, 'cancelled', 'cancelled during the render', [], started)
      }
      const read = await request.session.readResource(uri, request.signal)
      const contents = (read.result as { contents?: { text?: string }[] } | undefined)?.contents
      const html = contents?.[0]?.text
      if (read.isError || typeof html !== 'string') return record(request, uri, 'error', `the resource ${uri} could not be read`, [], started)
      const shown = `${html}\n${JSON.stringify(request.result)}`.toLowerCase()
      const render = record(request, uri, 'rendered', null, [{ id: 'app-initializes', status: 'passed', message: 'initialized', evidence: [] }], started)
      render.assertions = (request.test?.text_contains ?? []).map((text) => ({
        check: 'text_contains' as const,
        target: null,
        passed: shown.includes(text.toLowerCase()),
        expected: text,
        actual: null,
        reason: shown.includes(text.toLowerCase()) ? `the view shows '${text}'` : `the view does not show '${text}'`
      }))
      return render
    },
    async close() {
      host.closed++
    }
  }
  return {
    host,
    open: async (options) => {
      host.options.push(options)
      return { host }
    }
  }
}

function record(request: RenderRequest, uri: string, status: AppRender['status'], reason: string | null, findings: AppFinding[], started: number): AppRender {
  return {
    ...emptyRender(request, status, reason, { width: 800, height: 600 }),
    resource_uri: uri,
    screenshot: status === 'rendered' ? `apps/${request.id}.png` : null,
    initialized_ms: status === 'rendered' ? 5 : null,
    duration_ms: Math.round(performance.now() - started),
    findings
  }
}

const app = (text_contains: string[]): AppTest => ({ actions: [], text_contains, selector: [], fields: {}, judge: null })

const SUITE = `tool_tests:
  - id: dashboard-shows
    tool: show_dashboard
    args: {}
    expect: { contains: Dashboard shown }
  - id: dashboard-wrong-text
    tool: show_dashboard
    args: {}
  - id: log-has-no-view
    tool: read_log
    args: { size: 100 }
  - id: chart-unreadable
    tool: show_chart
    args: {}
  - id: plain
    tool: read_log
    args: { size: 100 }
`

/** The suite through prepare(), then `app:` set on the steps that have one (as the config's parser will). */
function prepared(dir: string, apps: Record<string, AppTest>, yaml = SUITE): Prepared {
  writeFileSync(join(dir, 'evals.yaml'), yaml)
  const server = JSON.stringify({ command: process.execPath, args: [fixturePath('servers/model-view-server.mjs'), `STATE_FILE=${join(dir, 'state.json')}`] })
  const p = prepare(runOptions(dir, { serverConfig: server, conformance: 'off', baseUrl: 'http://127.0.0.1:9' }), {})
  for (const t of p.suite.tool_tests) if (apps[t.id]) t.steps[0]!.app = apps[t.id]
  return p
}

const testOf = (doc: ResultsDocument, id: string): ToolTestResult => doc.tool_tests!.tests.find((t) => t.id === id)!

describe('app tests in the tool tests, with a browser host double', () => {
  test('a step passes or fails by its render; a tool without a view is an error; the section counts every render; the journal gives the same section', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apps-tooltests-'))
    const { host, open } = fakeHost()
    const warnings: string[] = []
    const p = prepared(dir, { 'dashboard-shows': app(['Dashboard', '3 widgets']), 'dashboard-wrong-text': app(['Weather']), 'log-has-no-view': app([]), 'chart-unreadable': app([]) })
    const doc = await evaluate(p, { openAppHost: open, onWarning: (m) => warnings.push(m) })

    // Opened once, with the run's options; closed once at the end.
    expect(host.options).toHaveLength(1)
    expect(host.options[0]).toMatchObject({ chromePath: '', outputDir: dir, renderTimeoutMs: 15_000, concurrency: p.options.concurrency, secrets: p.secrets })
    expect(host.closed).toBe(1)
    expect(warnings).toEqual([])

    const shows = testOf(doc, 'dashboard-shows')
    expect(shows.status).toBe('passed')
    const step = shows.attempts[0]!.steps[0]!
    expect(step.passed).toBe(true)
    expect(step.app).toMatchObject({ id: 'tool-test.dashboard-shows.1.step-1', tool: 'show_dashboard', call_index: 1, resource_uri: DASHBOARD_URI, status: 'rendered' })
    expect(step.app!.assertions.map((a) => a.passed)).toEqual([true, true])
    // The render was given the raw result of the test's own call, on the test's own session.
    const request = host.requests.find((r) => r.id === 'tool-test.dashboard-shows.1.step-1')!
    expect(request.result).toMatchObject({ content: [{ type: 'text', text: 'Dashboard shown: 3 widgets, all green.' }] })
    expect(request.test).toEqual(app(['Dashboard', '3 widgets']))

    // The call's checks pass; the view does not show what the test asks: the step fails, its checks untouched.
    const wrong = testOf(doc, 'dashboard-wrong-text')
    expect(wrong.status).toBe('failed')
    const wrongStep = wrong.attempts[0]!.steps[0]!
    expect(wrongStep.checks.every((c) => c.passed)).toBe(true)
    expect(wrongStep.passed).toBe(false)
    expect(appRenderFailed(wrongStep.app!)).toBe(true)
    // The log line names the app check that failed.
    expect(formatToolTestLine(wrong, 2, 5)).toMatch(/^✗ tool test dashboard-wrong-text \(\d+ ms\): .*text_contains.*the view does not show 'Weather'.* \[2\/5\]$/)

    // A tool that links no view: the render is an error, the host never asked.
    const log = testOf(doc, 'log-has-no-view')
    expect(log.status).toBe('failed')
    expect(log.attempts[0]!.steps[0]!.app).toMatchObject({ status: 'error', reason: "tool 'read_log' links no ui:// resource (its _meta.ui.resourceUri)", resource_uri: '', findings: [] })
    expect(formatToolTestLine(log, 3, 5)).toMatch(/^✗ tool test log-has-no-view \(\d+ ms\): .*tool 'read_log' links no ui:\/\/ resource/)
    expect(host.requests.some((r) => r.tool.name === 'read_log')).toBe(false)

    // The host's own error (the chart's resource is not there) fails its step too.
    expect(testOf(doc, 'chart-unreadable').attempts[0]!.steps[0]!.app).toMatchObject({ status: 'error', reason: expect.stringContaining('could not be read') })
    // A step without `app:` is as it was.
    expect(testOf(doc, 'plain').attempts[0]!.steps[0]!).not.toHaveProperty('app')
    expect(testOf(doc, 'plain').status).toBe('passed')

    expect(doc.apps).toEqual({
      status: 'ran',
      reason: null,
      browser: BROWSER,
      visual_diff: 'review',
      visual_threshold: 0.01,
      renders: 4,
      failed: 3,
      findings: { 'app-initializes': { passed: 2 } }
    })
    expect(doc.passed).toBe(false)

    // What the journal holds gives the same document's section.
    const { state, skipped } = readJournal(p.options.journalPath)
    expect(skipped).toBe(0)
    expect(documentFromJournal(state).apps).toEqual(doc.apps)
  })

  test('no browser: one warning with the reason, every app step skipped saying why (never a pass of the view, never a failure), and the run completes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apps-nobrowser-'))
    const warnings: string[] = []
    let opened = 0
    const p = prepared(dir, { 'dashboard-shows': app(['Dashboard']), 'dashboard-wrong-text': app(['Weather']), 'log-has-no-view': app([]) })
    const doc = await evaluate(p, {
      openAppHost: async () => {
        opened++
        return { host: null, reason: NO_BROWSER }
      },
      onWarning: (m) => warnings.push(m)
    })
    expect(opened).toBe(1)
    expect(warnings.filter((w) => w.includes(NO_BROWSER))).toHaveLength(1)
    for (const id of ['dashboard-shows', 'dashboard-wrong-text']) {
      const t = testOf(doc, id)
      expect(t.status).toBe('passed')
      expect(t.attempts[0]!.steps[0]!.app).toMatchObject({ status: 'skipped', reason: NO_BROWSER, findings: [], screenshot: null })
    }
    // The tool without a view is still this test's error: no browser is needed to know it.
    expect(testOf(doc, 'log-has-no-view').attempts[0]!.steps[0]!.app).toMatchObject({ status: 'error', reason: expect.stringContaining('links no ui:// resource') })
    expect(doc.apps).toMatchObject({ status: 'skipped', reason: NO_BROWSER, browser: null, renders: 3, failed: 1, findings: {} })
    expect(doc.tool_tests).toMatchObject({ total: 5, passed: 4, failed: 1 })
    expect(documentFromJournal(readJournal(p.options.journalPath).state).apps).toEqual(doc.apps)
  })

  test('a cancel during a render closes the host: the render and its attempt are cancelled, the evaluation ends', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apps-cancel-'))
    const cancel = new AbortController()
    const { host, open } = fakeHost({ hang: () => setTimeout(() => cancel.abort(new CancelledError('SIGTERM', new Date().toISOString())), 50) })
    let closedAtCancel = -1
    cancel.signal.addEventListener('abort', () => setImmediate(() => (closedAtCancel = host.closed)))
    const p = prepared(dir, { 'dashboard-shows': app(['Dashboard']) }, SUITE.split('  - id: dashboard-wrong-text')[0])
    const doc = await evaluate(p, { openAppHost: open, cancel: cancel.signal })
    // Closed as the cancel came (not only at the end), and not again after.
    expect(closedAtCancel).toBe(1)
    expect(host.closed).toBe(1)
    const t = testOf(doc, 'dashboard-shows')
    expect(t.status).toBe('cancelled')
    expect(t.attempts[0]).toMatchObject({ status: 'cancelled', error: 'cancelled while rendering the app' })
    expect(t.attempts[0]!.steps[0]!.app).toMatchObject({ status: 'cancelled' })
    expect(doc.cancelled).toMatchObject({ signal: 'SIGTERM' })
    expect(doc.apps).toMatchObject({ status: 'ran', renders: 1, failed: 0 })
  }, 20_000)

  test('a suite without app tests neither opens a host nor has an apps section', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apps-none-'))
    let opened = 0
    const doc = await evaluate(prepared(dir, {}), {
      openAppHost: async () => {
        opened++
        return { host: null, reason: NO_BROWSER }
      }
    })
    expect(opened).toBe(0)
    expect(doc).not.toHaveProperty('apps')
    expect(doc.tool_tests!.tests.flatMap((t) => t.attempts.flatMap((a) => a.steps)).some((s) => 'app' in s)).toBe(false)
  })
})
