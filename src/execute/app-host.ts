import type { AppHost, AppHostOpening, AppHostOptions, RenderRequest } from '../apps/types.js'
import type { AppsOpened } from '../apps/section.js'
import { emptyRender } from '../apps/render-record.js'
import type { AppRender } from '../results/apps.js'

/** What a tool test or a run is lent to render a view: never throws, what went wrong is the render's. */
export interface AppRenderer {
  render(request: RenderRequest): Promise<AppRender>
}

/** The MCP Apps layer of one evaluation: the browser host opened on the first render, closed once. */
export interface AppsLayer extends AppRenderer {
  /** Closes the host (and its browser's process tree) once its opening is done; idempotent, never throws. */
  close(): Promise<void>
}

export interface AppsLayerOptions {
  host: AppHostOptions
  /** Aborted when the job is cancelled: the host is closed at once, and no render starts after. */
  cancel?: AbortSignal
  /** Said once: why there is no browser (and how to get one). */
  warn: (message: string) => void
  /** Called once, when the host's opening is done, with how it went (the journal's `apps` record). */
  onOpened: (opened: AppsOpened) => void
  /** Opens the host; absent: src/apps/host.ts, imported on first use (a suite without apps never loads playwright). */
  open?: (options: AppHostOptions) => Promise<AppHostOpening>
}

/**
 * The apps layer: the host is opened on the first render (not at all when nothing reaches one),
 * every render after shares it, and a render that cannot be done is a record of its own —
 * `skipped` when there is no browser (the reason, said once as a warning), `cancelled` after a
 * cancel, `error` when the host failed — so no render's failure loses another's.
 */
export function createAppsLayer(options: AppsLayerOptions): AppsLayer {
  let opening: Promise<AppHostOpening> | null = null
  let closing: Promise<void> | null = null
  let hostClosed: Promise<void> | null = null
  const closeHost = (host: AppHost) => (hostClosed ??= closeQuietly(host))
  const onCancel = () => void close()
  options.cancel?.addEventListener('abort', onCancel, { once: true })

  const open = (): Promise<AppHostOpening> =>
    (opening ??= (async () => {
      let result: AppHostOpening
      try {
        result = await (options.open ?? openRealHost)(options.host)
      } catch (error) {
        result = { host: null, reason: `the browser host could not start: ${error instanceof Error ? error.message : String(error)}` }
      }
      if (!result.host) options.warn(`MCP Apps: the views are not rendered: ${result.reason}`)
      options.onOpened(result.host ? { status: 'ran', reason: null, browser: result.host.browser } : { status: 'skipped', reason: result.reason, browser: null })
      // Cancelled while the browser started: closed as soon as it is up.
      if (closing && result.host) await closeHost(result.host)
      return result
    })())

  async function close(): Promise<void> {
    closing ??= (async () => {
      options.cancel?.removeEventListener('abort', onCancel)
      const opened = opening ? await opening : null
      if (opened?.host) await closeHost(opened.host)
    })()
    return closing
  }

  return {
    async render(request) {
      if (closing || request.signal.aborted) return renderNotDone(request, 'cancelled', 'cancelled before the view was rendered')
      const opened = await open()
      if (!opened.host) return renderNotDone(request, 'skipped', opened.reason)
      if (closing || request.signal.aborted) return renderNotDone(request, 'cancelled', 'cancelled before the view was rendered')
      return renderOn(opened.host, request)
    },
    close
  }
}

async function openRealHost(options: AppHostOptions): Promise<AppHostOpening> {
  const { openAppHost } = await import('../apps/host.js')
  return openAppHost(options)
}

async function closeQuietly(host: AppHost): Promise<void> {
  try {
    await host.close()
  } catch {
    // Closing is best effort: the host kills the browser's process tree itself.
  }
}

/**
 * One render on the host, which keeps the render's own timeout (a render waiting for a page of the
 * host's pool is not yet timed, so none is added here); a host that throws (it should not) is
 * that render's error.
 */
async function renderOn(host: AppHost, request: RenderRequest): Promise<AppRender> {
  try {
    return await host.render(request)
  } catch (error) {
    return renderNotDone(request, request.signal.aborted ? 'cancelled' : 'error', `the browser host failed: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** The record of a view that was not rendered (no browser, a cancel, a failure before the page): nothing found, nothing shown. */
export function renderNotDone(request: Pick<RenderRequest, 'id' | 'tool' | 'call_index'>, status: 'skipped' | 'cancelled' | 'error', reason: string): AppRender {
  return emptyRender(request, status, reason)
}
