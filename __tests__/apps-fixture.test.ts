// The MCP Apps fixture server (__fixtures__/servers/apps-server.mjs): what it lists and serves over
// our own session, and, in a real Chromium, that each view does what it is there for, driven by a
// minimal host: the official AppBridge in Node, relayed to the view's sandboxed iframe through the
// browser driver (it answers ui/initialize, sends the call's input and result, and forwards the
// view's tools/call to the server only for tools the app may see).
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client'
import { chromium, type Browser, type Page } from 'playwright-core'
import { fixturePath } from '../__fixtures__/harness.js'
import {
  BLANK_URI,
  BROKEN_CONSOLE,
  BROKEN_ERROR,
  BROKEN_URI,
  DECLARED_DOMAIN,
  DEFAULT_ITEMS,
  DEFAULT_TITLE,
  FETCHER_URI,
  GOOD_URI,
  HIDDEN_CALLER_URI,
  NOCSP_URI,
  RESOURCE_MIME_TYPE,
  SILENT_URI,
  UNDECLARED_URL
} from '../__fixtures__/servers/apps-server.mjs'
import type { ServerConfig } from '../src/config/types.js'
import { createSessionFactory, type McpSession } from '../src/mcp/session.js'

const FIXTURE = fixturePath('servers/apps-server.mjs')
const STDIO: ServerConfig = { kind: 'stdio', command: process.execPath, args: [FIXTURE], env: {} }
const signal = () => AbortSignal.timeout(20_000)

/** The browser the tests drive: CHROME_PATH, else a Chrome or Chromium on PATH (as .ci/run looks); none skips the browser tests. */
const onPath = ['google-chrome', 'google-chrome-stable', 'chromium', 'chromium-browser'].flatMap((name) => (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, name)))
const CHROME = [process.env.CHROME_PATH, ...onPath].find((path): path is string => Boolean(path && existsSync(path)))
if (!CHROME) console.warn('apps-fixture: no Chromium (set CHROME_PATH or install the chromium package): the browser tests are skipped')
const describeBrowser = CHROME ? describe : describe.skip

const VIEWS: Record<string, { uri: string; csp: Record<string, string[]> | undefined }> = {
  show_list: { uri: GOOD_URI, csp: { connectDomains: [], resourceDomains: [] } },
  show_broken: { uri: BROKEN_URI, csp: { connectDomains: [], resourceDomains: [] } },
  show_silent: { uri: SILENT_URI, csp: { connectDomains: [], resourceDomains: [] } },
  show_fetcher: { uri: FETCHER_URI, csp: { connectDomains: [DECLARED_DOMAIN], resourceDomains: [] } },
  show_blank: { uri: BLANK_URI, csp: { connectDomains: [], resourceDomains: [] } },
  show_hidden_caller: { uri: HIDDEN_CALLER_URI, csp: { connectDomains: [], resourceDomains: [] } },
  show_nocsp: { uri: NOCSP_URI, csp: undefined }
}

async function withSession<T>(config: ServerConfig, use: (session: McpSession) => Promise<T>): Promise<T> {
  const session = await createSessionFactory(config, { probeTimeoutMs: 5000 }).open(signal())
  try {
    return await use(session)
  } finally {
    await session.close()
  }
}

/** One resources/read's first content item. */
async function readView(session: McpSession, uri: string): Promise<{ mimeType?: string; text?: string; _meta?: { ui?: { csp?: unknown } } }> {
  const outcome = await session.readResource(uri, signal())
  expect(outcome.isError).toBe(false)
  const contents = (outcome.result as { contents: { mimeType?: string; text?: string }[] }).contents
  expect(contents).toHaveLength(1)
  return contents[0]
}

describe('the apps fixture over our session', () => {
  test('over stdio: every view tool links its ui:// resource; add_item is app-only, model_only_tool model-only, echo has no UI', async () => {
    await withSession(STDIO, async (session) => {
      const uiOf = Object.fromEntries(session.tools.map((t) => [t.name, t.ui ?? null]))
      for (const [tool, view] of Object.entries(VIEWS)) expect(uiOf[tool]).toEqual({ resource_uri: view.uri, visibility: null })
      expect(uiOf.add_item).toEqual({ resource_uri: null, visibility: ['app'] })
      expect(uiOf.model_only_tool).toEqual({ resource_uri: null, visibility: ['model'] })
      expect(uiOf.echo).toBeNull()
      expect(session.resources.map((r) => [r.uri, r.mime_type]).sort()).toEqual(Object.values(VIEWS).map((v) => [v.uri, RESOURCE_MIME_TYPE]).sort())

      for (const view of Object.values(VIEWS)) {
        const content = await readView(session, view.uri)
        expect(content.mimeType).toBe(RESOURCE_MIME_TYPE)
        expect(content.text).toMatch(/^<!doctype html>/)
        expect(content._meta?.ui?.csp).toEqual(view.csp)
      }
      // The App SDK's bundle is inlined (its `export` rewritten), except in the view that never connects.
      const good = (await readView(session, GOOD_URI)).text!
      expect(good.length).toBeGreaterThan(400_000)
      expect(good).not.toMatch(/export\s*\{/)
      expect((await readView(session, SILENT_URI)).text!.length).toBeLessThan(2000)

      const list = await session.callToolRaw('show_list', { title: 'Chores', items: ['dishes'] }, signal())
      expect(list.response).toMatchObject({ kind: 'result', result: { content: [{ type: 'text', text: 'Chores: dishes' }], structuredContent: { title: 'Chores', items: ['dishes'] } } })
      const added = await session.callToolRaw('add_item', { item: 'kiwi' }, signal())
      expect(added.response).toMatchObject({ kind: 'result', result: { content: [{ type: 'text', text: 'Added kiwi' }], structuredContent: { item: 'kiwi', added: true } } })
    })
  })

  test('over Streamable HTTP (--http prints the URL; APPS_HTTP=1 does the same)', async () => {
    for (const [args, env] of [[['--http'], {}], [[], { APPS_HTTP: '1' }]] as const) {
      const child: ChildProcess = spawn(process.execPath, [FIXTURE, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
      try {
        const [url] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string]
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
        await withSession({ kind: 'http', url, headers: {} }, async (session) => {
          expect(session.tools.find((t) => t.name === 'show_list')?.ui).toEqual({ resource_uri: GOOD_URI, visibility: null })
          expect((await readView(session, GOOD_URI)).mimeType).toBe(RESOURCE_MIME_TYPE)
        })
      } finally {
        child.kill()
      }
    }
  })
})

/** What a view did under the minimal host. */
interface Rendered {
  page: Page
  initialized: boolean
  pageErrors: string[]
  consoleErrors: string[]
  /** URLs a CSP blocked (not zod's `eval` probe, which every App-SDK view trips). */
  blocked: string[]
  /** The view's tools/call requests and how the host answered: 'forwarded' or 'refused'. */
  calls: { name: string; answer: 'forwarded' | 'refused' }[]
  /** Waits for the call's input and result to reach the view (a view may throw before they do), then closes the bridge and the page. */
  close(): Promise<void>
}

/** The Content-Security-Policy a host builds from a resource's `_meta.ui.csp` (none declared: no network). */
function cspHeader(csp: { connectDomains?: string[]; resourceDomains?: string[] } | undefined): string {
  const connect = csp?.connectDomains?.length ? csp.connectDomains.join(' ') : "'none'"
  const resources = csp?.resourceDomains?.join(' ') ?? ''
  return `default-src 'none'; script-src 'unsafe-inline' ${resources}; style-src 'unsafe-inline' ${resources}; img-src data: ${resources}; connect-src ${connect}`
}

const HOST_PAGE = `<!doctype html><html><body style="margin:0">
<iframe id="view" sandbox="allow-scripts" src="/view.html" style="width:480px;height:360px;border:0"></iframe>
<script>
const frame = document.getElementById('view')
addEventListener('message', (e) => { if (e.source === frame.contentWindow) window.__toHost(e.data) })
</script></body></html>`

/** The host's end of the view's postMessage channel, carried by the browser driver. */
class RelayTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void
  onclose?: () => void
  onerror?: (error: Error) => void
  constructor(private readonly page: Page) {}
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    await this.page.evaluate((m) => (document.getElementById('view') as HTMLIFrameElement).contentWindow!.postMessage(m, '*'), message)
  }
  async close(): Promise<void> {
    this.onclose?.()
  }
}

/** Call `tool` on the session and render its view in a new page as a minimal host would; resolves once `settled(page)` holds or after `waitMs`. */
async function render(browser: Browser, session: McpSession, tool: string, args: Record<string, unknown>, settle: (r: Rendered) => Promise<unknown>): Promise<Rendered> {
  const call = await session.callToolRaw(tool, args, signal())
  if (call.response.kind !== 'result') throw new Error(`${tool} failed: ${call.response.error.message}`)
  const result = call.response.result
  const uri = session.tools.find((t) => t.name === tool)!.ui!.resource_uri!
  const content = await readView(session, uri)
  const page = await browser.newPage({ viewport: { width: 480, height: 360 } })
  let delivered: Promise<unknown> = Promise.resolve()
  const rendered: Rendered = {
    page,
    initialized: false,
    pageErrors: [],
    consoleErrors: [],
    blocked: [],
    calls: [],
    close: async () => {
      await delivered
      await bridge.close()
      await page.close()
    }
  }
  page.on('pageerror', (error) => rendered.pageErrors.push(error.message))
  page.on('console', (message) => message.type() === 'error' && rendered.consoleErrors.push(message.text()))
  const transport = new RelayTransport(page)
  await page.exposeBinding('__toHost', (_source, message: JSONRPCMessage) => transport.onmessage?.(message))
  await page.exposeBinding('__violation', (_source, uri: string) => /^[a-z]+:\/\//.test(uri) && rendered.blocked.push(uri))
  await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { __violation(u: string): void }).__violation(e.blockedURI)))
  await page.route('http://apps-host.test/**', (route) =>
    route.request().url().endsWith('/view.html')
      ? route.fulfill({ contentType: 'text/html', headers: { 'content-security-policy': cspHeader(content._meta?.ui?.csp as never) }, body: content.text! })
      : route.fulfill({ contentType: 'text/html', body: HOST_PAGE })
  )
  const bridge = new AppBridge(null, { name: 'apps-fixture-test-host', version: '1.0.0' }, { serverTools: {} }, {
    hostContext: { theme: 'light', displayMode: 'inline', containerDimensions: { width: 480, maxHeight: 360 } }
  })
  bridge.oncalltool = async (params) => {
    const visibility = session.tools.find((t) => t.name === params.name)?.ui?.visibility ?? ['model', 'app']
    if (!visibility.includes('app')) {
      rendered.calls.push({ name: params.name, answer: 'refused' })
      throw new Error(`tool ${params.name} is not visible to the app`)
    }
    rendered.calls.push({ name: params.name, answer: 'forwarded' })
    const forwarded = await session.callToolRaw(params.name, params.arguments ?? {}, signal())
    if (forwarded.response.kind !== 'result') throw new Error(forwarded.response.error.message)
    return forwarded.response.result as never
  }
  bridge.oninitialized = () => {
    rendered.initialized = true
    delivered = bridge.sendToolInput({ arguments: args }).then(() => bridge.sendToolResult(result as never))
  }
  await bridge.connect(transport)
  await page.goto('http://apps-host.test/host.html')
  await settle(rendered)
  return rendered
}

const view = (r: Rendered) => r.page.frameLocator('#view')
const until = async (check: () => boolean, ms = 10_000) => {
  for (const end = Date.now() + ms; !check(); await new Promise((resolve) => setTimeout(resolve, 50))) if (Date.now() > end) throw new Error('timed out waiting')
}
/** Quiet time after the page loads, for what a view does late (or never does). */
const quiet = (ms: number) => async (r: Rendered) => {
  await r.page.waitForLoadState('load')
  await new Promise((resolve) => setTimeout(resolve, ms))
}

describeBrowser('the apps fixture views in a real Chromium, under a minimal host', () => {
  let browser: Browser
  let session: McpSession
  // playwright launches it with a fresh profile of its own (a temporary user-data-dir).
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROME,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
    })
    session = await createSessionFactory(STDIO, { probeTimeoutMs: 5000 }).open(signal())
  })
  afterAll(async () => {
    await session?.close()
    await browser?.close()
  })

  test('show_list: the view initializes, renders the result, and a click calls add_item through the host', async () => {
    const r = await render(browser, session, 'show_list', {}, async (r) => view(r).locator('li.item').nth(DEFAULT_ITEMS.length - 1).waitFor())
    expect(r.initialized).toBe(true)
    await expect(view(r).locator('#title').textContent()).resolves.toBe(DEFAULT_TITLE)
    await expect(view(r).locator('li.item').allTextContents()).resolves.toEqual(DEFAULT_ITEMS)
    await view(r).locator('#new-item').fill('kiwi')
    await view(r).locator('#add').click()
    await view(r).locator('#status', { hasText: 'Added kiwi' }).waitFor()
    await expect(view(r).locator('li.item').count()).resolves.toBe(DEFAULT_ITEMS.length + 1)
    expect(r.calls).toEqual([{ name: 'add_item', answer: 'forwarded' }])
    expect({ pageErrors: r.pageErrors, consoleErrors: r.consoleErrors, blocked: r.blocked }).toEqual({ pageErrors: [], consoleErrors: [], blocked: [] })
    await r.close()
  })

  test('show_nocsp: the same view, rendering the call\'s own title', async () => {
    const r = await render(browser, session, 'show_nocsp', { title: 'Chores', items: ['dishes'] }, async (r) => view(r).locator('li.item').waitFor())
    await expect(view(r).locator('#title').textContent()).resolves.toBe('Chores')
    expect([r.initialized, r.pageErrors, r.consoleErrors]).toEqual([true, [], []])
    await r.close()
  })

  test('show_broken: initializes, then logs a console.error and throws uncaught', async () => {
    const r = await render(browser, session, 'show_broken', {}, async (r) => until(() => r.initialized && r.pageErrors.length > 0))
    expect(r.initialized).toBe(true)
    expect(r.pageErrors).toEqual([BROKEN_ERROR])
    expect(r.consoleErrors).toEqual([BROKEN_CONSOLE])
    await r.close()
  })

  test('show_silent: draws its text and never sends ui/initialize', async () => {
    const r = await render(browser, session, 'show_silent', {}, quiet(1500))
    await expect(view(r).locator('#title').textContent()).resolves.toBe('Silent view')
    expect(r.initialized).toBe(false)
    await r.close()
  })

  test('show_fetcher: initializes, and its fetch of an undeclared domain is blocked by the CSP', async () => {
    const r = await render(browser, session, 'show_fetcher', {}, async (r) => view(r).locator('#status', { hasText: 'fetch failed' }).waitFor())
    expect(r.initialized).toBe(true)
    await until(() => r.blocked.length > 0)
    expect(r.blocked).toEqual([UNDECLARED_URL])
    expect(r.pageErrors).toEqual([])
    await r.close()
  })

  test('show_blank: initializes and draws nothing (its frame photographs as an empty white frame does)', async () => {
    const r = await render(browser, session, 'show_blank', {}, async (r) => until(() => r.initialized))
    await quiet(300)(r)
    const blank = await r.page.locator('#view').screenshot()
    await r.page.evaluate(() => ((document.getElementById('view') as HTMLIFrameElement).srcdoc = '<body style="margin:0;background:#fff"></body>'))
    await r.page.waitForTimeout(300)
    const white = await r.page.locator('#view').screenshot()
    expect(blank.equals(white)).toBe(true)
    await expect(view(r).locator('body').innerText()).resolves.toBe('')
    expect([r.pageErrors, r.consoleErrors]).toEqual([[], []])
    await r.close()
  })

  test('show_hidden_caller: its call to the model-only tool is refused by the host, and the view says so', async () => {
    const r = await render(browser, session, 'show_hidden_caller', {}, async (r) => view(r).locator('#status', { hasText: 'refused' }).waitFor())
    expect(r.initialized).toBe(true)
    expect(r.calls).toEqual([{ name: 'model_only_tool', answer: 'refused' }])
    await expect(view(r).locator('#status').textContent()).resolves.toContain('not visible to the app')
    expect(r.pageErrors).toEqual([])
    await r.close()
  })
})
