import type { Json } from './suite.js'

/**
 * MCP Apps rendered in a real browser (issue 30): what one rendered view did and what was found.
 * A render is kept where its call is (a tool test step's `app`, a run's `app_renders`), and the
 * document's `apps` section says whether the layer ran at all, in which browser, and what it found.
 */

/**
 * The stable ids of the app findings. `app-initializes`: the view completed `ui/initialize` within
 * the render's timeout; `app-no-errors`: no uncaught error, no `console.error`; `app-csp-respected`:
 * no request blocked by the resource's CSP; `app-renders`: the screenshot is not one flat colour;
 * `app-tool-calls`: every tools/call the view made was to a tool visible to the app and succeeded;
 * `app-csp-declared`: the resource declares `_meta.ui.csp` (a warning when it relies on the
 * default); `app-visual-change`: the screenshot differs from the baseline's beyond the threshold
 * (for review, a failure only with `app_visual_diff: fail`).
 */
export type AppFindingId = 'app-initializes' | 'app-no-errors' | 'app-csp-respected' | 'app-renders' | 'app-tool-calls' | 'app-csp-declared' | 'app-visual-change'

/** Every finding id, in the order a report lists them. */
export const APP_FINDING_IDS: readonly AppFindingId[] = ['app-initializes', 'app-no-errors', 'app-csp-respected', 'app-renders', 'app-tool-calls', 'app-csp-declared', 'app-visual-change']

/**
 * `failed`: the finding fails its tool test or run; `warning`: shown, never fails; `review`: a
 * reviewer should look (a visual change), never fails unless app_visual_diff is `fail` (then the
 * finding is `failed`); `passed`; `skipped` with its reason in `message` (e.g. the view never
 * initialised, so its tool calls could not be judged).
 */
export type AppFindingStatus = 'passed' | 'failed' | 'warning' | 'review' | 'skipped'

export interface AppFinding {
  id: AppFindingId
  status: AppFindingStatus
  /** One line: what was found ("the view threw: TypeError: x is undefined"), or what held. Untrusted text inside is redacted, not escaped (renderers escape). */
  message: string
  /** The lines that show it (console text, blocked URLs, the call and its answer), at most 20, each cut at 500 characters. */
  evidence: string[]
}

/** A tools/call the view made through the host. */
export interface AppToolCall {
  name: string
  args: Record<string, Json>
  /** When it was asked, from the render's start. */
  at_ms: number
  latency_ms: number
  /** Why the host did not forward it (the tool is not visible to the app, it does not exist); null when forwarded. */
  refused: string | null
  /** The answer: an isError result or a JSON-RPC error counts as an error. */
  is_error: boolean
  /** The result's text (cut at 2,000 characters), or the error's message. */
  result: string
}

/** A resources/read the view made through the host. */
export interface AppResourceRead {
  uri: string
  at_ms: number
  /** Null when it was answered; the error otherwise. */
  error: string | null
}

/**
 * What else the view asked of the host, recorded and answered as a host does (links never
 * opened): `ui/message`, `ui/open-link`, `ui/update-model-context`, `ui/request-display-mode`,
 * `ui/notifications/size-changed`, `notifications/message` (logging), `ui/notifications/request-teardown`.
 */
export interface AppHostRequest {
  method: string
  at_ms: number
  /** The params as sent (redacted, strings cut at 500 characters). */
  params: Json
}

/** A step of an app test, done on the view before its assertions. */
export interface AppActionRecord {
  action: 'click' | 'fill'
  selector: string
  /** fill only. */
  value?: string
  passed: boolean
  /** Why it failed (no element matched the selector within the timeout); null when it passed. */
  error: string | null
}

/** One assertion on the rendered view: `app.text_contains`, `app.selector`, `app.fields`, `app.judge`. */
export interface AppAssertionCheck {
  check: 'text_contains' | 'selector' | 'fields' | 'judge'
  /** The selector, the field path, or null. */
  target: string | null
  passed: boolean
  expected: Json
  actual: Json
  reason: string
  /** app.judge: the vision judge's score (0–10) and the threshold it had to reach (0–1, as the judge's); absent otherwise. */
  score?: number | null
}

/** The visual comparison with the baseline's screenshot of the same render id. */
export interface AppVisualDiff {
  /** The baseline's screenshot, relative to the output directory (`apps/baseline/<id>.png`). */
  baseline: string
  /** Share of pixels that differ (pixelmatch, anti-aliasing ignored), 0–1; 1 when the sizes differ. */
  changed_ratio: number
  /** Over the threshold. */
  changed: boolean
  /** The diff image, relative to the output directory; null when nothing changed. */
  diff: string | null
}

/** One view rendered in the browser: the app a tool call returned. */
export interface AppRender {
  /**
   * Stable across runs of the same suite, names the screenshot: `tool-test.<test id>.<attempt>.step-<n>`,
   * `run-<run index>.call-<n>` (n: the 1-based index of the tool call in the run's tool_calls), `evals-v1…` likewise.
   */
  id: string
  /** The tool whose call opened the view, and the call's index in its record (1-based). */
  tool: string
  call_index: number
  /** The `ui://` resource rendered. */
  resource_uri: string
  /**
   * `rendered`: the view was loaded and checked (its findings say how it went); `error`: the host
   * could not render it (the resource could not be read, is not HTML, the browser crashed: `reason`
   * says); `cancelled`: the job was cancelled during it; `skipped`: no browser (the section's reason).
   */
  status: 'rendered' | 'error' | 'cancelled' | 'skipped'
  reason: string | null
  /** The PNG, relative to the output directory (`apps/<id>.png`); null when none was taken. */
  screenshot: string | null
  /** sha256 of the PNG, hex; null when none was taken. */
  screenshot_sha256: string | null
  /** The viewport the view was shown in (CSS pixels) and the frame's height after its size changes. */
  viewport: { width: number; height: number }
  /** The resource's `_meta.ui.csp` as read (null when it declares none: the default, no network) and `permissions`. */
  csp: { connect_domains: string[]; resource_domains: string[]; frame_domains: string[]; base_uri_domains: string[] } | null
  permissions: Json | null
  /** From the render's start to the view's `ui/notifications/initialized`; null when it never came. */
  initialized_ms: number | null
  duration_ms: number
  findings: AppFinding[]
  /** Console errors and uncaught errors, in order (redacted, cut at 500 characters, at most 50). */
  console_errors: string[]
  /** URLs the CSP blocked (at most 50). */
  blocked_requests: string[]
  tool_calls: AppToolCall[]
  resource_reads: AppResourceRead[]
  host_requests: AppHostRequest[]
  /** App tests: the actions done and the assertions checked; empty elsewhere. */
  actions: AppActionRecord[]
  assertions: AppAssertionCheck[]
  /** Set when a baseline had a screenshot of this id. */
  visual_diff: AppVisualDiff | null
}

/** Whether a render counts against its tool test or run: a failed finding, a failed action or assertion, or an error. */
export function appRenderFailed(render: AppRender): boolean {
  if (render.status === 'error') return true
  return render.findings.some((f) => f.status === 'failed') || render.actions.some((a) => !a.passed) || render.assertions.some((a) => !a.passed)
}

/** The document's `apps` section: present when the suite asked for any render (apps: render, an `app:` tool test, an evals/v1 screenshot). */
export interface AppsSection {
  /** `ran`: a browser was found and views were rendered; `skipped`: no browser (or the layer was not reached), `reason` says how to get one. */
  status: 'ran' | 'skipped'
  reason: string | null
  /** The browser used: its path and version ("Chromium 156.0.8078.73"), and what found it (`chrome_path` input/flag, `CHROME_PATH`, or the search). */
  browser: { path: string; version: string; source: 'input' | 'env' | 'search' } | null
  /** app_visual_diff: `review` (a change is a finding for review) or `fail`. */
  visual_diff: 'review' | 'fail'
  /** The threshold of changed_ratio over which a screenshot counts as changed. */
  visual_threshold: number
  /** Renders in the document (tool tests, runs), how many had a failed finding, assertion or error. */
  renders: number
  failed: number
  /** Counts by finding id and status, over every render. */
  findings: Partial<Record<AppFindingId, Partial<Record<AppFindingStatus, number>>>>
}
