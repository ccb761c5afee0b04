import { createPool } from '../util/pool.js'
import { launchBrowser, type LaunchedBrowser } from './browser.js'
import { findBrowser } from './browser-path.js'
import { renderView } from './render.js'
import { emptyRender } from './render-record.js'
import type { AppRender } from '../results/apps.js'
import type { AppHost, AppHostOpening, AppHostOptions } from './types.js'

/**
 * The MCP Apps host of one job: finds the browser (no browser: why, and how to get one), launches
 * it once, renders at most `concurrency` views at once (one context each), and closes it with its
 * process tree. A render never throws; a render asked after close is an `error`.
 */
export async function openAppHost(options: AppHostOptions, launch: (path: string) => Promise<LaunchedBrowser> = launchBrowser): Promise<AppHostOpening> {
  const found = findBrowser({ chromePath: options.chromePath, env: options.env })
  if (!found.choice) return { host: null, reason: found.reason }
  const choice = found.choice
  let launched: LaunchedBrowser
  try {
    launched = await launch(choice.path)
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]
    const from = choice.source === 'input' ? 'chrome_path / --chrome-path' : choice.source === 'env' ? 'CHROME_PATH' : 'the browser found'
    return { host: null, reason: `${from} ${choice.path} could not be launched (${message}); the app layer was skipped` }
  }
  const pool = createPool(Math.max(1, Math.floor(options.concurrency) || 1))
  let closed = false
  const inFlight = new Set<AbortController>()
  const host: AppHost = {
    browser: { path: choice.path, version: launched.version, source: choice.source },
    async render(request) {
      return pool.run(async () => {
        const own = new AbortController()
        const onAbort = () => own.abort()
        request.signal.addEventListener('abort', onAbort, { once: true })
        if (request.signal.aborted) own.abort()
        inFlight.add(own)
        try {
          if (closed) return closedRender(request)
          const render = await renderView(launched.browser, options, { ...request, signal: own.signal })
          // Closed under it: the job is ending, which is a cancel for the render.
          return closed && render.status === 'error' ? { ...render, status: 'cancelled', reason: 'the host closed during the render' } : render
        } finally {
          inFlight.delete(own)
          request.signal.removeEventListener('abort', onAbort)
        }
      })
    },
    async close() {
      closed = true
      for (const c of inFlight) c.abort()
      await launched.close()
    }
  }
  return { host }
}

function closedRender(request: Parameters<AppHost['render']>[0]): AppRender {
  return emptyRender(request, 'cancelled', 'the browser host was closed before the render', { width: 800, height: 600 })
}
