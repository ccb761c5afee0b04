import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import type { Browser, BrowserServer } from 'playwright-core'
import { adoptGroup, terminateGroup } from '../mcp/process-group.js'

/**
 * The browser of one host: headless Chromium launched by playwright-core as a server (so its pid
 * is ours to know), driven over its own connection, and closed with its whole process tree:
 * playwright's close, then the process group (playwright starts the browser `detached`, a group
 * leader), every descendant seen at close, and every process carrying the host's tag in its
 * environment (the crash handler leaves the group and is reparented to init). The group is registered with
 * src/mcp/process-group.ts, whose exit hook SIGKILLs it synchronously when Node exits.
 */

/** Flags that keep a headless Chromium quiet and offline on a closed network. */
export const BROWSER_ARGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-extensions',
  '--disable-default-apps',
  '--disable-domain-reliability',
  '--metrics-recording-only',
  '--mute-audio',
  '--hide-scrollbars',
  '--font-render-hinting=none',
  '--force-color-profile=srgb',
  '--disable-crash-reporter'
]

export interface LaunchedBrowser {
  browser: Browser
  /** "Chromium 156.0.8078.73" (or "Google Chrome …" when the executable is Chrome). */
  version: string
  pid: number
  /** Every process of the browser still running (the launched pid and its descendants). */
  processes(): number[]
  close(): Promise<void>
}

export async function launchBrowser(executablePath: string, timeoutMs = 30_000): Promise<LaunchedBrowser> {
  const tag = randomUUID()
  const root = typeof process.getuid === 'function' && process.getuid() === 0
  // Loaded only when a suite renders an app: playwright-core's own files cost ~0.5 s to load,
  // which every other run of the action would pay before its first server spawn. Left to Node
  // (webpackIgnore): the bundles keep it external, and webpack hoists an external's import to a
  // static one at the top of the bundle, which would load it at start all the same.
  const { chromium } = await import(/* webpackIgnore: true */ 'playwright-core')
  const server: BrowserServer = await chromium.launchServer({
    executablePath,
    headless: true,
    args: [...(root ? ['--no-sandbox'] : []), ...BROWSER_ARGS],
    timeout: timeoutMs,
    // We end the tree ourselves (and on exit through the process-group hook).
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    // Inherited by every process the browser starts, also those that leave its group (the crash
    // handler is double-forked to init): how close finds them.
    env: { ...process.env, [TAG_VARIABLE]: tag }
  })
  const child = server.process()
  const pid = child.pid ?? -1
  if (pid > 0) adoptGroup(pid, child)
  let browser: Browser
  try {
    browser = await chromium.connect(server.wsEndpoint(), { timeout: timeoutMs })
  } catch (error) {
    await killTree(pid, server)
    throw error
  }
  const version = versionText(executablePath, browser.version())
  let closing: Promise<void> | undefined
  return {
    browser,
    version,
    pid,
    processes: () => [...new Set([...(pid > 0 ? [pid, ...descendantsOf(pid)] : []), ...taggedWith(tag)])].filter(alive),
    close() {
      closing ??= (async () => {
        const seen = pid > 0 ? descendantsOf(pid) : []
        await within(browser.close(), 3000)
        await killTree(pid, server, seen)
        await sleep(100)
        killAll(taggedWith(tag))
      })()
      return closing
    }
  }
}

async function killTree(pid: number, server: BrowserServer, seen: number[] = []): Promise<void> {
  const more = pid > 0 ? descendantsOf(pid) : []
  await within(server.close(), 3000)
  if (pid > 0) await terminateGroup(pid, 1000)
  killAll([...new Set([...seen, ...more])])
}

function killAll(pids: number[]): void {
  for (const p of pids) {
    try {
      process.kill(p, 'SIGKILL')
    } catch {
      // gone already
    }
  }
}

const TAG_VARIABLE = 'MCP_SERVER_EVALS_APP_HOST'

/** The running processes whose environment carries this host's tag (Linux /proc; empty elsewhere). */
function taggedWith(tag: string): number[] {
  if (process.platform !== 'linux') return []
  const needle = `${TAG_VARIABLE}=${tag}`
  const found: number[] = []
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return found
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(needle)) found.push(Number(entry))
    } catch {
      // not ours to read, or gone
    }
  }
  return found.filter(alive)
}

/** "Chromium 156.0.8078.73": the product from the executable's name, the version from the browser. */
export function versionText(executablePath: string, version: string): string {
  return `${/chrome/i.test(executablePath.split(/[\\/]/).pop() ?? '') && !/chromium/i.test(executablePath) ? 'Google Chrome' : 'Chromium'} ${version}`
}

/** Every descendant of `pid` (Linux /proc; empty elsewhere), children before grandchildren. */
export function descendantsOf(pid: number): number[] {
  const parents = processParents()
  const out: number[] = []
  let frontier = [pid]
  while (frontier.length > 0) {
    const next: number[] = []
    for (const [child, parent] of parents) if (frontier.includes(parent) && !out.includes(child)) next.push(child)
    out.push(...next)
    frontier = next
  }
  return out
}

function processParents(): Map<number, number> {
  const parents = new Map<number, number>()
  if (process.platform !== 'linux') return parents
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return parents
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (fields[0] === 'Z') continue
      parents.set(Number(entry), Number(fields[1]))
    } catch {
      // the process ended while we read
    }
  }
  return parents
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** Waits for `promise` (its failure ignored) at most `ms`, leaving no timer behind. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([promise.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, ms)))])
  clearTimeout(timer)
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
