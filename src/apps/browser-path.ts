import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import type { BrowserChoice } from './types.js'

/**
 * Where the browser is: the chrome_path input / --chrome-path flag first, then CHROME_PATH, then
 * the usual names on PATH and the usual install places. A path that is given but does not exist
 * is an error naming where it came from, never a silent fall back to the search.
 */

/** Names searched on PATH, in order (Google Chrome first: GitHub-hosted runners have it). */
export const BROWSER_NAMES = ['google-chrome', 'google-chrome-stable', 'chromium', 'chromium-browser']

/** Install places outside PATH, by platform. */
export const BROWSER_PLACES: Record<string, string[]> = {
  linux: ['/usr/bin/chromium', '/usr/bin/google-chrome', '/opt/google/chrome/chrome', '/snap/bin/chromium'],
  darwin: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium'],
  win32: ['C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', 'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe']
}

export const NO_BROWSER_REASON =
  'no Chrome or Chromium was found: install one (on Debian/Ubuntu `apt-get install -y chromium`), or set chrome_path / --chrome-path / CHROME_PATH; the app layer was skipped'

export interface BrowserLookup {
  chromePath: string
  env: Record<string, string | undefined>
  platform?: string
  /** Whether `path` is an executable file (injected by tests). */
  isExecutable?: (path: string) => boolean
}

export type BrowserFound = { choice: BrowserChoice } | { choice: null; reason: string }

export function findBrowser(lookup: BrowserLookup): BrowserFound {
  const isExecutable = lookup.isExecutable ?? executableFile
  const given = lookup.chromePath.trim()
  if (given) {
    return isExecutable(given)
      ? { choice: { path: given, source: 'input' } }
      : { choice: null, reason: `chrome_path / --chrome-path ${JSON.stringify(given)} is not an executable file; the app layer was skipped` }
  }
  const fromEnv = (lookup.env.CHROME_PATH ?? '').trim()
  if (fromEnv) {
    return isExecutable(fromEnv)
      ? { choice: { path: fromEnv, source: 'env' } }
      : { choice: null, reason: `CHROME_PATH ${JSON.stringify(fromEnv)} is not an executable file; the app layer was skipped` }
  }
  const platform = lookup.platform ?? process.platform
  const dirs = (lookup.env.PATH ?? '').split(platform === 'win32' ? ';' : delimiter).filter(Boolean)
  const names = platform === 'win32' ? BROWSER_NAMES.map((n) => `${n}.exe`) : BROWSER_NAMES
  for (const name of names) {
    for (const dir of dirs) {
      const path = join(dir, name)
      if (isExecutable(path)) return { choice: { path, source: 'search' } }
    }
  }
  for (const path of BROWSER_PLACES[platform] ?? []) {
    if (isExecutable(path)) return { choice: { path, source: 'search' } }
  }
  return { choice: null, reason: NO_BROWSER_REASON }
}

function executableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}
