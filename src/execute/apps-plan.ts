import { dirname } from 'node:path'
import { suiteRendersApps } from '../apps/needs.js'
import type { AppsOpened, AppsSectionSettings } from '../apps/section.js'
import type { AppHostOpening, AppHostOptions, AppJudgeFn } from '../apps/types.js'
import type { Prepared } from '../config/prepare.js'
import type { RunOptions } from '../config/options.js'
import { DEFAULT_APPS_SETTINGS } from '../config/types.js'
import { createAppsLayer, type AppsLayer } from './app-host.js'

/** The MCP Apps options of a run (the chrome_path and app_visual_diff inputs), read as optional. */
type AppsOptions = Partial<{ chromePath: string; appVisualDiff: 'review' | 'fail' | null | '' }>

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
  const given = options as RunOptions & AppsOptions
  const apps = suite.apps ?? DEFAULT_APPS_SETTINGS
  const visualDiff = given.appVisualDiff === 'review' || given.appVisualDiff === 'fail' ? given.appVisualDiff : apps.visual_diff
  const host: AppHostOptions = {
    chromePath: given.chromePath ?? '',
    env: process.env,
    outputDir: options.outputDir || dirname(options.resultsPath),
    renderTimeoutMs: apps.render_timeout_ms,
    concurrency: options.concurrency,
    secrets: prepared.secrets,
    ...(deps.judge ? { judge: deps.judge } : {})
  }
  return {
    settings: { visual_diff: visualDiff, visual_threshold: apps.visual_threshold },
    open: (onOpened) => createAppsLayer({ host, cancel: deps.cancel, warn: deps.warn, onOpened, ...(deps.open ? { open: deps.open } : {}) })
  }
}
