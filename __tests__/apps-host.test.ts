import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { launchBrowser, type LaunchedBrowser } from '../src/apps/browser.js'
import { findBrowser } from '../src/apps/browser-path.js'
import { openAppHost } from '../src/apps/host.js'
import { flatness } from '../src/apps/screenshot.js'
import type { AppHost, AppHostOptions, RenderRequest } from '../src/apps/types.js'
import type { AppTest } from '../src/config/types.js'
import { createSessionFactory, type McpSession } from '../src/mcp/session.js'
import type { AppRender } from '../src/results/types.js'

/**
 * The browser host on a real Chromium and the fixture's App-SDK views over stdio: a good view
 * passes every finding and takes an app test's click through to the server; each bad view fails
 * its own finding and only that one; a cancelled render leaves no browser process.
 */

const found = findBrowser({ chromePath: '', env: process.env })
const browserPath = found.choice?.path
if (!browserPath) console.warn(`apps-host tests skipped: ${found.choice === null ? found.reason : ''}`)
const describeWithBrowser = browserPath ? describe : describe.skip

const run = promisify(execFile)

const APPS_SERVER = { kind: 'stdio' as const, command: process.execPath, args: [fixturePath('servers/apps-server.mjs')], env: {} }

/** Whether a process runs (not a zombie), from /proc. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

describeWithBrowser('the MCP Apps browser host', () => {
  let session: McpSession
  let host: AppHost
  let launched: LaunchedBrowser | undefined
  const outputDir = mkdtempSync(join(tmpdir(), 'apps-host-'))
  const options = (over: Partial<AppHostOptions> = {}): AppHostOptions => ({ chromePath: '', env: process.env, outputDir, renderTimeoutMs: 10_000, concurrency: 3, secrets: ['s3cret-token'], ...over })

  beforeAll(async () => {
    session = await createSessionFactory(APPS_SERVER, { probeTimeoutMs: 5000 }).open(new AbortController().signal)
    const opening = await openAppHost(options(), async (path) => (launched = await launchBrowser(path)))
    if (!opening.host) throw new Error(opening.reason)
    host = opening.host
  }, 60_000)

  afterAll(async () => {
    await host?.close()
    await session?.close()
    rmSync(outputDir, { recursive: true, force: true })
  }, 30_000)

  /** The tool's call, then its render. A session makes one call at a time: parallel renders get their calls made first. */
  async function requestOf(tool: string, args: Record<string, string> = {}, extra: Partial<RenderRequest> = {}): Promise<RenderRequest> {
    const listed = session.tools.find((t) => t.name === tool)
    if (!listed) throw new Error(`the fixture lists no ${tool}`)
    const call = await session.callToolRaw(tool, args, new AbortController().signal)
    if (call.response.kind !== 'result') throw new Error(`${tool} failed`)
    return { id: `test.${tool}`, tool: listed, call_index: 1, args, result: call.response.result, session, signal: new AbortController().signal, ...extra }
  }

  async function render(tool: string, args: Record<string, string> = {}, extra: Partial<RenderRequest> = {}, on: AppHost = host): Promise<AppRender> {
    return on.render(await requestOf(tool, args, extra))
  }

  const statuses = (r: AppRender) => Object.fromEntries(r.findings.map((f) => [f.id, f.status]))

  test('the browser is named with its version and where it was found', () => {
    expect(host.browser).toEqual({ path: browserPath, version: expect.stringMatching(/^(Chromium|Google Chrome) \d+\.\d+/), source: 'search' })
  })

  test('a good view: every finding passes, the screenshot is kept and not flat, an app test fills and clicks through to the server', async () => {
    const test: AppTest = {
      actions: [
        { action: 'fill', selector: '#new-item', value: 'pears' },
        { action: 'click', selector: '#add' }
      ],
      text_contains: ['added PEARS', 'Groceries'],
      selector: [{ selector: '#status', text: 'Added pears' }, { selector: 'li.item', count: 4 }, { selector: '#title' }],
      fields: { title: { contains: 'groceries' }, '$.items[0]': 'apples' },
      judge: null
    }
    const r = await render('show_list', { title: 'Groceries s3cret-token' }, { test })
    expect(r.status).toBe('rendered')
    // The view shows the secret; what is kept of it is redacted.
    expect(JSON.stringify(r)).not.toContain('s3cret-token')
    expect(r.assertions[0].actual).toMatch(/^Groceries \*\*\*/)
    expect(r.findings.map((f) => [f.id, f.status])).toEqual([
      ['app-initializes', 'passed'],
      ['app-no-errors', 'passed'],
      ['app-csp-respected', 'passed'],
      ['app-renders', 'passed'],
      ['app-tool-calls', 'passed'],
      ['app-csp-declared', 'passed']
    ])
    expect(r.initialized_ms).toBeGreaterThan(0)
    expect(r.csp).toEqual({ connect_domains: [], resource_domains: [], frame_domains: [], base_uri_domains: [] })
    expect(r.screenshot).toBe('apps/test.show_list.png')
    const png = readFileSync(join(outputDir, r.screenshot!))
    expect(flatness(png).flat).toBe(false)
    expect(r.screenshot_sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(r.actions.map((a) => [a.action, a.passed])).toEqual([
      ['fill', true],
      ['click', true]
    ])
    expect(r.tool_calls).toEqual([expect.objectContaining({ name: 'add_item', args: { item: 'pears' }, refused: null, is_error: false, result: 'Added pears' })])
    expect(r.assertions.map((a) => [a.check, a.target, a.passed])).toEqual([
      ['text_contains', null, true],
      ['text_contains', null, true],
      ['selector', '#status', true],
      ['selector', 'li.item', true],
      ['selector', '#title', true],
      ['fields', 'title', true],
      ['fields', '$.items[0]', true]
    ])
    expect(r.host_requests.some((h) => h.method === 'ui/notifications/size-changed')).toBe(true)
    expect(r.viewport.width).toBe(800)
    expect(r.viewport.height).toBeGreaterThanOrEqual(300)
  }, 30_000)

  test('an action whose element never comes fails within the render timeout, and a judge assertion without a judge fails saying so', async () => {
    const test: AppTest = { actions: [{ action: 'click', selector: '#nope' }, { action: 'click', selector: '#add' }], text_contains: [], selector: [], fields: {}, judge: { rubric: 'a list', threshold: 0.5, model: null } }
    // A host of its own with a short render timeout, so the wait for the element is short.
    const opening = await openAppHost(options({ renderTimeoutMs: 4000 }))
    if (!opening.host) throw new Error(opening.reason)
    const r = await render('show_list', {}, { test, id: 'test.missing-element' }, opening.host).finally(() => opening.host.close())
    expect(r.status).toBe('rendered')
    expect(r.actions).toEqual([
      { action: 'click', selector: '#nope', passed: false, error: expect.stringMatching(/^no element matched #nope within \d+ ms$/) },
      { action: 'click', selector: '#add', passed: false, error: 'not done: an earlier action failed' }
    ])
    expect(r.assertions).toEqual([expect.objectContaining({ check: 'judge', passed: false, reason: 'app.judge needs a vision judge, and none is configured' })])
    expect(r.duration_ms).toBeLessThan(4000 + 1500)
  }, 30_000)

  test('each bad view fails its own finding, and only that one', async () => {
    const requests: RenderRequest[] = []
    for (const tool of ['show_broken', 'show_silent', 'show_fetcher', 'show_blank', 'show_nocsp']) requests.push(await requestOf(tool))
    const [broken, silent, fetcher, blank, nocsp] = await Promise.all(requests.map((r) => host.render(r)))
    const notPassed = (r: AppRender) => r.findings.filter((f) => f.status !== 'passed').map((f) => [f.id, f.status])
    expect(notPassed(broken)).toEqual([['app-no-errors', 'failed']])
    expect(broken.console_errors.some((e) => /broken view/i.test(e))).toBe(true)
    expect(notPassed(silent)).toEqual([
      ['app-initializes', 'failed'],
      ['app-tool-calls', 'skipped']
    ])
    expect(silent.initialized_ms).toBeNull()
    expect(notPassed(fetcher)).toEqual([['app-csp-respected', 'failed']])
    expect(fetcher.blocked_requests).toEqual([expect.stringMatching(/^https:\/\/undeclared\.example\//)])
    expect(fetcher.console_errors).toEqual([])
    expect(notPassed(blank)).toEqual([['app-renders', 'failed']])
    expect(notPassed(nocsp)).toEqual([['app-csp-declared', 'warning']])
    expect(nocsp.csp).toBeNull()
    for (const r of [broken, silent, fetcher, blank, nocsp]) expect(r.status).toBe('rendered')
  }, 60_000)

  test('a view calling a model-only tool: refused, never forwarded, and app-tool-calls fails', async () => {
    const r = await render('show_hidden_caller')
    expect(r.tool_calls).toEqual([expect.objectContaining({ name: 'model_only_tool', refused: expect.stringContaining('not visible to the app'), is_error: true })])
    expect(statuses(r)['app-tool-calls']).toBe('failed')
    expect(r.findings.filter((f) => f.status !== 'passed').map((f) => f.id)).toEqual(['app-tool-calls'])
  }, 30_000)

  test('cancelled during a render: the render is cancelled, and after close no browser process is left', async () => {
    const pids = launched!.processes()
    expect(pids.length).toBeGreaterThan(1)
    const cancel = new AbortController()
    const pending = render('show_silent', {}, { id: 'test.cancelled', signal: cancel.signal })
    setTimeout(() => cancel.abort(), 700)
    const r = await pending
    expect(r).toMatchObject({ status: 'cancelled', reason: 'the job was cancelled during the render' })
    const all = launched!.processes()
    await host.close()
    await host.close()
    expect([...new Set([...pids, ...all])].filter(running)).toEqual([])
    const after = await host.render({ id: 'late', tool: session.tools[0], call_index: 1, args: {}, result: {}, session, signal: new AbortController().signal })
    expect(after.status).toBe('cancelled')
    expect(existsSync(join(outputDir, 'apps', 'test.cancelled.png'))).toBe(false)
  }, 30_000)
})

describeWithBrowser('the browser and the Node process', () => {
  test('Node exiting without closing the host leaves no browser process (the exit hook kills the group)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apps-exit-'))
    const script = join(dir, 'exit.mts')
    writeFileSync(
      script,
      `import { launchBrowser } from ${JSON.stringify(fixturePath('../src/apps/browser.js'))}\n` +
        `const b = await launchBrowser(${JSON.stringify(browserPath)})\n` +
        'console.log(JSON.stringify(b.processes()))\nprocess.exit(0)\n'
    )
    try {
      const { stdout } = await run(fixturePath('../node_modules/.bin/tsx'), [script])
      const pids = JSON.parse(stdout.trim().split('\n').pop() ?? '[]') as number[]
      expect(pids.length).toBeGreaterThan(1)
      await new Promise((r) => setTimeout(r, 300))
      expect(pids.filter(running)).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})

describe('no browser', () => {
  test('a chrome_path that does not exist: no host, the reason names chrome_path', async () => {
    const opening = await openAppHost({ chromePath: '/no/such/chrome', env: {}, outputDir: tmpdir(), renderTimeoutMs: 1000, concurrency: 1, secrets: [] })
    expect(opening).toEqual({ host: null, reason: 'chrome_path / --chrome-path "/no/such/chrome" is not an executable file; the app layer was skipped' })
  })

  test('a CHROME_PATH that is not a browser: launching fails and says which one', async () => {
    const opening = await openAppHost({ chromePath: '', env: { CHROME_PATH: '/bin/true' }, outputDir: tmpdir(), renderTimeoutMs: 1000, concurrency: 1, secrets: [] })
    expect(opening.host).toBeNull()
    expect('reason' in opening && opening.reason).toMatch(/^CHROME_PATH \/bin\/true could not be launched \(.*\); the app layer was skipped$/)
  }, 30_000)
})
