import type { Browser, BrowserContext, Frame, Page } from 'playwright-core'
import { buildAllowAttribute } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { JSONRPCMessage } from '@modelcontextprotocol/client'
import { redactText } from '../util/redact.js'
import { CSP_BINDING, FRAME_INIT_SCRIPT, HOST_ORIGIN, HOST_URL, TO_HOST_BINDING, VIEW_URL, frameHeight, hostPageHtml } from './host-page.js'
import { cspHeaderOf, type ViewResource } from './resource.js'

/**
 * One render's page: its own browser context (fixed viewport, light, reduced motion, no service
 * workers), the host page and the view routed on the fake origin (the view with its real CSP
 * header), and what the page reports: uncaught errors, console errors (the browser's CSP lines
 * apart), the URLs the CSP blocked, a crash.
 */

export const VIEWPORT = { width: 800, height: 600 }
const MAX_LINES = 50
const MAX_LINE = 500
const CSP_CONSOLE = /Content Security Policy|Fetch API cannot load|Refused to (?:load|connect|frame|execute|apply|evaluate)/i

export interface PageReports {
  page_errors: string[]
  console_errors: string[]
  csp_console: string[]
  blocked: { url: string; directive: string }[]
  crashed: boolean
}

export interface ViewPage {
  context: BrowserContext
  page: Page
  reports: PageReports
  /** The view's frame once loaded. */
  frame(): Frame | null
  /** Sends one message to the view (`frame.postMessage` from the host page). */
  post(message: JSONRPCMessage): Promise<void>
  /** The frame's height now (after the view's size changes, within the minimum and maximum). */
  height(): number
  resize(reported: number | undefined): Promise<void>
  goto(timeoutMs: number): Promise<void>
  close(): Promise<void>
}

export async function openViewPage(browser: Browser, resource: ViewResource, secrets: readonly string[], deliver: (message: unknown) => void): Promise<ViewPage> {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    deviceScaleFactor: 1,
    colorScheme: 'light',
    reducedMotion: 'reduce',
    locale: 'en-US',
    timezoneId: 'UTC',
    serviceWorkers: 'block',
    acceptDownloads: false
  })
  const reports: PageReports = { page_errors: [], console_errors: [], csp_console: [], blocked: [], crashed: false }
  const keep = (list: string[], text: string) => {
    if (list.length < MAX_LINES) list.push(cut(redactText(text, secrets)))
  }
  let height = frameHeight(undefined)
  let closed = false
  try {
    const allow = buildAllowAttribute((resource.permissions ?? undefined) as Parameters<typeof buildAllowAttribute>[0])
    await context.route(`${HOST_ORIGIN}/**`, async (route) => {
      const url = route.request().url()
      if (url === HOST_URL) return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: hostPageHtml(allow) })
      if (url === VIEW_URL) {
        return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', headers: { 'content-security-policy': cspHeaderOf(resource.csp), 'cache-control': 'no-store' }, body: resource.html })
      }
      return route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' })
    })
    // Bindings are visible in every frame: the relay is the host page's (the view posts to it), the CSP report the view frame's init script's.
    await context.exposeBinding(TO_HOST_BINDING, (source, message: unknown) => {
      if (source.frame.parentFrame() === null) deliver(message)
    })
    await context.exposeBinding(CSP_BINDING, (source, v: { blockedURI?: unknown; directive?: unknown }) => {
      if (source.frame.url() !== VIEW_URL) return
      const url = typeof v?.blockedURI === 'string' ? v.blockedURI : ''
      // The App SDK's zod probe reports `eval` on every load (no request): only URLs count.
      if (!/^[a-z][a-z0-9+.-]*:/i.test(url) || /^(?:eval|inline|data|blob):?$/i.test(url)) return
      if (reports.blocked.length < MAX_LINES) reports.blocked.push({ url: cut(redactText(url, secrets)), directive: cut(String(v.directive ?? ''), 100) })
    })
    await context.addInitScript({ content: FRAME_INIT_SCRIPT })
  } catch (error) {
    await context.close().catch(() => undefined)
    throw error
  }
  const page = await context.newPage()
  page.on('pageerror', (error) => keep(reports.page_errors, error.stack?.split('\n').slice(0, 3).join(' ') || `${error.name}: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    const text = message.text()
    keep(CSP_CONSOLE.test(text) ? reports.csp_console : reports.console_errors, text)
  })
  page.on('crash', () => {
    reports.crashed = true
  })
  const frame = () => page.frames().find((f) => f.url() === VIEW_URL) ?? null
  return {
    context,
    page,
    reports,
    frame,
    async post(message) {
      if (closed) return
      await page.evaluate((m) => (document.getElementById('view') as HTMLIFrameElement | null)?.contentWindow?.postMessage(m, '*'), message as unknown as Record<string, unknown>)
    },
    height: () => height,
    async resize(reported) {
      const next = frameHeight(reported)
      if (next === height || closed) return
      height = next
      await page.evaluate((h) => {
        const el = document.getElementById('view')
        if (el) el.style.height = `${h}px`
      }, next).catch(() => undefined)
    },
    async goto(timeoutMs) {
      await page.goto(HOST_URL, { waitUntil: 'domcontentloaded', timeout: timeoutMs })
    },
    async close() {
      closed = true
      await context.close().catch(() => undefined)
    }
  }
}

function cut(text: string, max = MAX_LINE): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}
