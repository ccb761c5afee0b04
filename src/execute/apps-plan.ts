import { suiteRendersApps } from '../apps/needs.js'
import type { AppsOpened, AppsSectionSettings } from '../apps/section.js'
import type { AppHostOpening, AppHostOptions, AppJudgeFn } from '../apps/types.js'
import type { Prepared } from '../config/prepare.js'
import { DEFAULT_APPS_SETTINGS } from '../config/types.js'
import { appsRootOf } from '../output/app-files.js'
import { createAppsLayer, type AppsLayer } from './app-host.js'

/** The MCP Apps layer an evaluation plans: the settings its document repeats, and the layer to open. */
export interface AppsPlan {
  settings: AppsSectionSettings
  /** The layer, its host opened on the first render; `onOpened` journals how that went. */
  open(onOpened: (opened: AppsOpened) => void): AppsLayer
}

/**
 * The apps layer of this evaluation, or null when the suite asks for no render (the document then
 * has no `apps` section and playwright is never loaded). Screenshots go under the output
 * directory, else beside the results document (their paths are relative to it).
 */
export function appsPlan(
  prepared: Prepared,
  deps: { cancel?: AbortSignal; warn: (message: string) => void; open?: (options: AppHostOptions) => Promise<AppHostOpening>; judge?: AppJudgeFn }
): AppsPlan | null {
  const { suite, options } = prepared
  if (!suiteRendersApps(suite)) return null
  const apps = suite.apps ?? DEFAULT_APPS_SETTINGS
  const host: AppHostOptions = {
    chromePath: options.chromePath,
    env: process.env,
    outputDir: appsRootOf(options.outputDir, options.resultsPath),
    renderTimeoutMs: apps.render_timeout_ms,
    concurrency: options.concurrency,
    secrets: prepared.secrets,
    ...(deps.judge ? { judge: deps.judge } : {})
  }
  return {
    settings: { visual_diff: apps.visual_diff, visual_threshold: apps.visual_threshold },
    open: (onOpened) => createAppsLayer({ host, cancel: deps.cancel, warn: deps.warn, onOpened, ...(deps.open ? { open: deps.open } : {}) })
  }
}
