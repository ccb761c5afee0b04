import type { AppTest } from '../config/types.js'
import type { McpSession, McpTool } from '../mcp/session.js'
import type { AppRender, AppsSection } from '../results/types.js'
import type { Json } from '../util/json.js'

/**
 * The MCP Apps host (issue 30): one headless Chromium per job, one page per render, speaking the
 * MCP Apps protocol through `@modelcontextprotocol/ext-apps`' AppBridge. The engine opens it once
 * (openAppHost in src/apps/host.ts) when the suite asks for any render, lends it to the tool tests
 * and runs, and closes it (with its process tree) at the end and on cancel.
 */

/** Where the browser came from: the chrome_path input / --chrome-path flag, CHROME_PATH, or the search of the usual places. */
export interface BrowserChoice {
  path: string
  source: 'input' | 'env' | 'search'
}

/** What one render is given: the call that returned the app, and the session it was made on. */
export interface RenderRequest {
  /** AppRender.id: names the screenshot (`apps/<id>.png`). */
  id: string
  /** The tool called (its `ui.resource_uri` is the view) and the call's index in its record (1-based). */
  tool: McpTool
  call_index: number
  /** The call's arguments and its result as the server sent it (a CallToolResult), given to the view as tool-input and tool-result. */
  args: Record<string, Json>
  result: Record<string, unknown>
  /**
   * The session the call was made on: the view's resource is read on it, and the view's own
   * tools/call and resources/read are forwarded on it (tools visible to the app only).
   */
  session: Pick<McpSession, 'tools' | 'readResource' | 'callToolRaw'>
  /** An app test's actions and assertions; absent for a render after a behaviour run's call. */
  test?: AppTest
  /** Aborted on cancel (the render ends `cancelled`) or by the caller's deadline. */
  signal: AbortSignal
}

/** A vision judge for `app.judge`: the rubric and the screenshot (a PNG) → a 0–10 score and a reason. */
export type AppJudgeFn = (input: { rubric: string; png: Buffer; model: string | null; context: string }, signal: AbortSignal) => Promise<{ score: number; reason: string }>

export interface AppHostOptions {
  /** The chrome_path input / --chrome-path flag ('' when not given); CHROME_PATH is read from `env`. */
  chromePath: string
  env: Record<string, string | undefined>
  /** The output directory: screenshots go under `<outputDir>/apps/`. */
  outputDir: string
  /** A render's own timeout (ms). */
  renderTimeoutMs: number
  /** Renders at once (one page each): the job's concurrency. */
  concurrency: number
  /** Values redacted out of every text kept (console, params, results). */
  secrets: readonly string[]
  /** For app.judge; absent: an app.judge assertion fails saying no judge is configured. */
  judge?: AppJudgeFn
}

/** The browser host of one job. Never throws from render: what went wrong is the render's status and findings. */
export interface AppHost {
  readonly browser: NonNullable<AppsSection['browser']>
  render(request: RenderRequest): Promise<AppRender>
  /** Closes every page and the browser, and kills its process tree; idempotent. */
  close(): Promise<void>
}

/** What openAppHost answers: a host, or why there is none (no browser found: says how to get one). */
export type AppHostOpening = { host: AppHost } | { host: null; reason: string }
