import { emptyRender } from './render-record.js'
import type { Browser } from 'playwright-core'
import type { AppActionRecord, AppAssertionCheck, AppRender } from '../results/types.js'
import { redactDeep, redactText } from '../util/redact.js'
import { fieldAssertions, judgeAssertion, selectorAssertions, textAssertions, type ViewText } from './assertions.js'
import { createBridge, type BridgeLog } from './bridge.js'
import { renderFindings } from './findings.js'
import { FrameRelay } from './relay.js'
import { viewResourceOf } from './resource.js'
import { flatness, saveScreenshot } from './screenshot.js'
import type { AppHostOptions, RenderRequest } from './types.js'
import { openViewPage, VIEWPORT, type ViewPage } from './view-page.js'

/**
 * One render, start to end: read the view's resource, open its page, speak the protocol (the
 * bridge in Node, relayed to the frame), wait until it initialises and settles, act and assert
 * for an app test, take the screenshot, and judge what was seen. Never throws: what went wrong is
 * the render's status (`error`, `cancelled`) or its findings. The render's timeout bounds it all;
 * the view gets half of it to initialise, the rest is for settling, the actions and the screenshot.
 */

/** No message either way for this long (and no request unanswered): the view is settled. */
const QUIET_MS = 250
const MAX_SETTLE_MS = 4000

class RenderAborted extends Error {}

export async function renderView(browser: Browser, options: AppHostOptions, request: RenderRequest): Promise<AppRender> {
  const start = Date.now()
  const render = blankRender(request)
  // Everything kept passes through the redaction once more: the view's texts, the call's structuredContent in a fields assertion.
  const finish = (status: AppRender['status'], reason: string | null): AppRender => redactDeep({ ...render, status, reason, duration_ms: Date.now() - start }, options.secrets)
  if (request.signal.aborted) return finish('cancelled', 'the job was cancelled before the render')
  const uri = request.tool.ui?.resource_uri ?? null
  if (!uri) return finish('error', `${request.tool.name} links no ui:// resource`)

  const deadline = start + Math.max(1000, options.renderTimeoutMs)
  const stop = new AbortController()
  const onAbort = () => stop.abort()
  request.signal.addEventListener('abort', onAbort, { once: true })
  const timer = setTimeout(() => stop.abort(), deadline - Date.now())
  let view: ViewPage | null = null
  try {
    const read = await abortable(request.session.readResource(uri, stop.signal), stop.signal)
    if (read.isError || !read.result) return finish('error', `resources/read ${uri} failed: ${read.text}`)
    const resource = viewResourceOf(uri, read.result)
    if ('error' in resource) return finish('error', resource.error)
    render.csp = resource.csp
    render.permissions = resource.permissions

    const log: BridgeLog = { start, tool_calls: render.tool_calls, resource_reads: render.resource_reads, host_requests: render.host_requests }
    let page: ViewPage | null = null
    const relay = new FrameRelay(async (m) => {
      if (page) await page.post(m)
    })
    let initialized: () => void = () => undefined
    const initializedOnce = new Promise<void>((resolve) => (initialized = resolve))
    const bridge = createBridge({
      request,
      resource,
      log,
      secrets: options.secrets,
      viewport: VIEWPORT,
      onSize: (h) => void page?.resize(h),
      onInitialized: () => {
        render.initialized_ms ??= Date.now() - start
        initialized()
      }
    })
    await bridge.connect(relay)
    view = page = await abortable(openViewPage(browser, resource, options.secrets, (m) => relay.deliver(m)), stop.signal)
    stop.signal.addEventListener('abort', () => void view?.close(), { once: true })
    const initBudget = Math.max(500, Math.floor(options.renderTimeoutMs / 2))
    await abortable(page.goto(Math.max(500, start + initBudget - Date.now())), stop.signal)
    await waitFor(initializedOnce, start + initBudget - Date.now(), stop.signal)
    await settle(page, relay, render.initialized_ms !== null, deadline, stop.signal)

    if (request.test) {
      render.actions = await act(page, request.test.actions, deadline, stop.signal)
      await settle(page, relay, render.initialized_ms !== null, deadline, stop.signal)
    }
    let png: Buffer | null = null
    let screenshotError: string | null = null
    try {
      png = await abortable(page.page.locator('#view').screenshot({ animations: 'disabled', timeout: Math.max(500, deadline - Date.now()) }), stop.signal)
    } catch (error) {
      if (stop.signal.aborted) throw error
      screenshotError = messageOf(error)
    }
    if (png) {
      const saved = await saveScreenshot(options.outputDir, request.id, png)
      render.screenshot = saved.path
      render.screenshot_sha256 = saved.sha256
    }
    if (request.test) render.assertions = await assertions(page, request, png, options, stop.signal)
    if (page.reports.crashed) return finish('error', 'the browser page crashed while rendering the view')
    render.viewport = { width: VIEWPORT.width, height: page.height() }
    render.console_errors = [...page.reports.page_errors, ...page.reports.console_errors].slice(0, 50)
    render.blocked_requests = [...new Set(page.reports.blocked.map((b) => b.url))].slice(0, 50)
    render.findings = renderFindings({
      initialized_ms: render.initialized_ms,
      init_timeout_ms: initBudget,
      page_errors: page.reports.page_errors,
      console_errors: page.reports.console_errors,
      csp_console: page.reports.csp_console,
      blocked: page.reports.blocked,
      screenshot: png ? flatness(png) : null,
      screenshot_error: screenshotError,
      tool_calls: render.tool_calls,
      csp_declared: resource.csp !== null
    })
    await bridge.close().catch(() => undefined)
    return finish('rendered', null)
  } catch (error) {
    if (request.signal.aborted) return finish('cancelled', 'the job was cancelled during the render')
    if (stop.signal.aborted) return finish('error', `the render did not finish within its timeout (${options.renderTimeoutMs} ms)`)
    if (view?.reports.crashed) return finish('error', 'the browser page crashed while rendering the view')
    return finish('error', `the host could not render the view: ${messageOf(error)}`)
  } finally {
    clearTimeout(timer)
    request.signal.removeEventListener('abort', onAbort)
    await view?.close()
  }
}

function blankRender(request: RenderRequest): AppRender {
  return emptyRender(request, 'error', null, VIEWPORT)
}

/** Until no request of the view is unanswered and nothing moved for QUIET_MS, then fonts and two frames. */
async function settle(page: ViewPage, relay: FrameRelay, initialized: boolean, deadline: number, signal: AbortSignal): Promise<void> {
  const until = Math.min(deadline - 500, Date.now() + MAX_SETTLE_MS)
  while (initialized && Date.now() < until) {
    if (signal.aborted) throw new RenderAborted('aborted')
    if (relay.pendingRequests === 0 && Date.now() - relay.lastTraffic >= QUIET_MS) break
    await sleep(50)
  }
  const frame = page.frame()
  if (!frame) return
  await abortable(
    frame
      .evaluate(async () => {
        await Promise.race([document.fonts.ready, new Promise((r) => setTimeout(r, 1000))])
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
      })
      .catch(() => undefined),
    signal
  )
}

async function act(page: ViewPage, actions: NonNullable<RenderRequest['test']>['actions'], deadline: number, signal: AbortSignal): Promise<AppActionRecord[]> {
  const records: AppActionRecord[] = []
  let failed = false
  for (const action of actions) {
    const record: AppActionRecord = { action: action.action, selector: action.selector, ...(action.action === 'fill' ? { value: action.value } : {}), passed: false, error: null }
    records.push(record)
    if (failed) {
      record.error = 'not done: an earlier action failed'
      continue
    }
    const timeout = Math.max(200, deadline - Date.now() - 1000)
    const target = page.page.frameLocator('#view').locator(action.selector).first()
    try {
      if (action.action === 'click') await abortable(target.click({ timeout }), signal)
      else await abortable(target.fill(action.value, { timeout }), signal)
      record.passed = true
    } catch (error) {
      if (signal.aborted) throw error
      failed = true
      record.error = /Timeout/i.test(messageOf(error)) ? `no element matched ${action.selector} within ${timeout} ms` : messageOf(error).split('\n')[0]
    }
  }
  return records
}

async function assertions(page: ViewPage, request: RenderRequest, png: Buffer | null, options: AppHostOptions, signal: AbortSignal): Promise<AppAssertionCheck[]> {
  const test = request.test
  if (!test) return []
  const selectors = test.selector.map((s) => s.selector)
  const frame = page.frame()
  const seen: ViewText = frame
    ? await abortable(
        frame.evaluate((sels: string[]) => {
          const texts: Record<string, string[]> = {}
          for (const s of sels) {
            try {
              texts[s] = Array.from(document.querySelectorAll(s)).map((e) => (e as HTMLElement).innerText ?? e.textContent ?? '')
            } catch {
              texts[s] = []
            }
          }
          return { text: document.body?.innerText ?? '', selectors: texts }
        }, selectors),
        signal
      )
    : { text: '', selectors: {} }
  const redacted: ViewText = { text: redactText(seen.text, options.secrets), selectors: Object.fromEntries(Object.entries(seen.selectors).map(([k, v]) => [k, v.map((t) => redactText(t, options.secrets))])) }
  const checks = [...textAssertions(test, redacted), ...selectorAssertions(test, redacted), ...fieldAssertions(test, request.result)]
  const judged = await judgeAssertion(test, png, options.judge, `the view of ${request.tool.name} (${request.tool.ui?.resource_uri ?? ''})`, signal)
  if (judged) checks.push(judged)
  return checks
}

/** Resolves true when `promise` did not settle within `ms` (it is left running), false when it did; rejects on abort. */
async function waitFor(promise: Promise<void>, ms: number, signal: AbortSignal): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), Math.max(0, ms))))
  try {
    return await abortable(Promise.race([promise.then(() => false), timedOut]), signal)
  } finally {
    clearTimeout(timer)
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined)
    return Promise.reject(new RenderAborted('aborted'))
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new RenderAborted('aborted'))
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort)
        resolve(v)
      },
      (e) => {
        signal.removeEventListener('abort', onAbort)
        reject(e)
      }
    )
  })
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
