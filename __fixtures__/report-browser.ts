import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'playwright-core'
import { findBrowser } from '../src/apps/browser-path.js'
import { launchBrowser, type LaunchedBrowser } from '../src/apps/browser.js'

/**
 * The HTML report opened as a reader opens it: the file written to disk and loaded from file://
 * in the system Chromium (the same set-up as the MCP Apps layer), with every console error, page
 * error and request that is not the file itself recorded.
 */

const found = findBrowser({ chromePath: '', env: process.env })
/** The browser, or undefined (the browser tests skip, saying why). */
export const reportBrowserPath = found.choice?.path
export const noBrowserReason = found.choice === null ? found.reason : ''

export interface OpenedReport {
  page: Page
  url: string
  path: string
  /** Console errors (a CSP violation is one), uncaught page errors. */
  errors: string[]
  /** Every request the page made other than its own file (there must be none). */
  requests: string[]
}

export class ReportBrowser {
  private launched: LaunchedBrowser | null = null
  private readonly dir = mkdtempSync(join(tmpdir(), 'html-report-'))
  private files = 0

  async start(): Promise<void> {
    if (!reportBrowserPath) throw new Error(noBrowserReason)
    this.launched = await launchBrowser(reportBrowserPath)
  }

  /** Write the report and open it (at `#hash` when given); resolves once the page says it is ready. */
  async open(html: string, options: { hash?: string; viewport?: { width: number; height: number }; bypassCsp?: boolean } = {}): Promise<OpenedReport> {
    if (!this.launched) throw new Error('ReportBrowser.start() first')
    const path = join(this.dir, `report-${++this.files}.html`)
    writeFileSync(path, html)
    const file = pathToFileURL(path).href
    const context = await this.launched.browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 900 }, bypassCSP: options.bypassCsp ?? false, colorScheme: 'light', reducedMotion: 'reduce' })
    const page = await context.newPage()
    const errors: string[] = []
    const requests: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text())
    })
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`))
    page.on('request', (r) => {
      if (r.url().split('#')[0] !== file) requests.push(r.url())
    })
    const url = options.hash ? `${file}#${options.hash}` : file
    await page.goto(url)
    await page.waitForSelector('html[data-ready="true"]', { timeout: 10_000 })
    return { page, url, path, errors, requests }
  }

  async close(): Promise<void> {
    await this.launched?.close()
    this.launched = null
    rmSync(this.dir, { recursive: true, force: true })
  }
}
