import { describe, expect, test } from '@jest/globals'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { runOptions } from '../__fixtures__/options.js'
import { BROKEN_ERROR, GOOD_URI } from '../__fixtures__/servers/apps-server.mjs'
import { openAppHost } from '../src/apps/host.js'
import { prepare } from '../src/config/prepare.js'
import type { AppTest } from '../src/config/types.js'
import { evaluate } from '../src/evaluate.js'
import { CancelledError } from '../src/execute/cancellation.js'
import { formatToolTestLine } from '../src/report/tool-test-line.js'
import type { ResultsDocument, ToolTestResult } from '../src/results/types.js'

// App tests end to end: evaluate() with the real browser host (headless Chromium), the apps
// fixture server over stdio, and the tool tests' `app:` steps. Skipped, saying why, where no
// browser is found (CI installs one).

const probe = await openAppHost({ chromePath: '', env: process.env, outputDir: tmpdir(), renderTimeoutMs: 1000, concurrency: 1, secrets: [] })
await probe.host?.close()
const describeWithBrowser = probe.host ? describe : describe.skip
if (!probe.host) console.warn(`apps-tool-tests-browser: skipped: ${probe.reason}`)

const app = (test: Partial<AppTest>): AppTest => ({ actions: [], text_contains: [], selector: [], fields: {}, judge: null, ...test })

const SUITE = `tool_tests:
  - id: list-adds-an-item
    tool: show_list
    args: { title: Groceries, items: [apples, bread] }
  - id: broken-view
    tool: show_broken
    args: {}
  - id: echo-has-no-view
    tool: echo
    args: { text: hi }
`

const testOf = (doc: ResultsDocument, id: string): ToolTestResult => doc.tool_tests!.tests.find((t) => t.id === id)!

describeWithBrowser('app tests in a real browser', () => {
  test('a good view acted on passes, a broken one fails by app-no-errors, a tool without a view errs; screenshots in the output directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apps-e2e-'))
    writeFileSync(join(dir, 'evals.yaml'), SUITE)
    const server = JSON.stringify({ command: process.execPath, args: [fixturePath('servers/apps-server.mjs')] })
    const p = prepare(runOptions(dir, { serverConfig: server, conformance: 'off', baseUrl: 'http://127.0.0.1:9', outputDir: join(dir, 'out') }), {})
    const apps: Record<string, AppTest> = {
      'list-adds-an-item': app({
        actions: [
          { action: 'fill', selector: '#new-item', value: 'milk' },
          { action: 'click', selector: '#add' }
        ],
        text_contains: ['Groceries', 'Added milk'],
        selector: [{ selector: 'li.item', count: 3 }]
      }),
      'broken-view': app({}),
      'echo-has-no-view': app({})
    }
    for (const t of p.suite.tool_tests) t.steps[0]!.app = apps[t.id]
    const warnings: string[] = []
    const doc = await evaluate(p, { onWarning: (m) => warnings.push(m) })

    const good = testOf(doc, 'list-adds-an-item')
    const render = good.attempts[0]!.steps[0]!.app!
    expect(render).toMatchObject({ id: 'tool-test.list-adds-an-item.1.step-1', status: 'rendered', resource_uri: GOOD_URI, screenshot: 'apps/tool-test.list-adds-an-item.1.step-1.png' })
    expect(render.tool_calls.map((c) => [c.name, c.refused, c.is_error])).toEqual([['add_item', null, false]])
    expect(render.assertions.map((a) => [a.check, a.passed])).toEqual([
      ['text_contains', true],
      ['text_contains', true],
      ['selector', true]
    ])
    expect(good.status).toBe('passed')
    expect(existsSync(join(dir, 'out', render.screenshot!))).toBe(true)

    const broken = testOf(doc, 'broken-view')
    expect(broken.status).toBe('failed')
    expect(broken.attempts[0]!.steps[0]!.app!.findings.find((f) => f.id === 'app-no-errors')).toMatchObject({ status: 'failed' })
    expect(broken.attempts[0]!.steps[0]!.app!.console_errors.join('\n')).toContain(BROKEN_ERROR)
    expect(formatToolTestLine(broken, 2, 3)).toContain('app-no-errors')

    expect(testOf(doc, 'echo-has-no-view').attempts[0]!.steps[0]!.app).toMatchObject({ status: 'error', reason: "tool 'echo' links no ui:// resource (its _meta.ui.resourceUri)" })
    expect(doc.apps).toMatchObject({ status: 'ran', reason: null, browser: { path: probe.host!.browser.path }, renders: 3, failed: 2 })
    expect(warnings).toEqual([])
  }, 120_000)

  test('a cancel during a render ends the evaluation and leaves no browser process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apps-e2e-cancel-'))
    writeFileSync(join(dir, 'evals.yaml'), 'tool_tests:\n  - { id: silent, tool: show_silent, args: {} }\n')
    const server = JSON.stringify({ command: process.execPath, args: [fixturePath('servers/apps-server.mjs')] })
    const p = prepare(runOptions(dir, { serverConfig: server, conformance: 'off', baseUrl: 'http://127.0.0.1:9', outputDir: join(dir, 'out') }), {})
    p.suite.tool_tests[0]!.steps[0]!.app = app({})
    const cancel = new AbortController()
    // The silent view never initializes: its render waits (15 s by default) until the cancel.
    const timer = setTimeout(() => cancel.abort(new CancelledError('SIGTERM', new Date().toISOString())), 3000)
    const started = performance.now()
    let browsersDuring = 0
    const watch = setInterval(() => (browsersDuring = Math.max(browsersDuring, chromiumDescendants().length)), 200)
    const doc = await evaluate(p, { cancel: cancel.signal })
    clearInterval(watch)
    clearTimeout(timer)
    expect(performance.now() - started).toBeLessThan(12_000)
    expect(browsersDuring).toBeGreaterThan(0)
    expect(chromiumDescendants()).toEqual([])
    expect(testOf(doc, 'silent')).toMatchObject({ status: 'cancelled' })
    expect(testOf(doc, 'silent').attempts[0]!.steps[0]!.app).toMatchObject({ status: 'cancelled' })
    expect(doc.cancelled).toMatchObject({ signal: 'SIGTERM' })
  }, 60_000)
})

/** This process's descendants whose command line names chrom(e|ium): the browser's process tree. */
function chromiumDescendants(): string[] {
  const parents = new Map<number, number>()
  const cmd = new Map<number, string>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
      cmd.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' '))
    } catch {
      // Gone meanwhile.
    }
  }
  const mine = (pid: number): boolean => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) if (at === process.pid) return true
    return false
  }
  return [...cmd].filter(([pid, line]) => /chrom/i.test(line) && mine(pid)).map(([pid, line]) => `${pid} ${line.slice(0, 80)}`)
}
