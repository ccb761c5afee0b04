import type { AppFinding, AppToolCall } from '../results/types.js'

/**
 * The host's findings on one render, from what was observed (pure): every finding id but
 * app-visual-change (the baseline comparison adds that one). A finding that cannot be judged is
 * `skipped` with its reason. CSP console lines belong to app-csp-respected, not app-no-errors.
 */

export interface RenderObservation {
  /** ms from the render's start to ui/notifications/initialized; null when it never came. */
  initialized_ms: number | null
  /** How long the view was given to initialise. */
  init_timeout_ms: number
  /** Uncaught errors (pageerror), redacted. */
  page_errors: string[]
  /** console.error lines that are not the browser's CSP reports. */
  console_errors: string[]
  /** The browser's console lines about a CSP violation. */
  csp_console: string[]
  /** URLs the CSP blocked (securitypolicyviolation with a URL blockedURI), with the directive. */
  blocked: { url: string; directive: string }[]
  /** The screenshot's pixels: null when none was taken (`screenshot_error` says why). */
  screenshot: { flat: boolean; colour: string } | null
  screenshot_error: string | null
  tool_calls: AppToolCall[]
  /** The resource declares `_meta.ui.csp`. */
  csp_declared: boolean
}

const MAX_EVIDENCE = 20
const MAX_LINE = 500

export function renderFindings(o: RenderObservation): AppFinding[] {
  return [initializes(o), noErrors(o), cspRespected(o), renders(o), toolCalls(o), cspDeclared(o)]
}

function finding(id: AppFinding['id'], status: AppFinding['status'], message: string, evidence: string[] = []): AppFinding {
  return { id, status, message: cut(message), evidence: evidence.slice(0, MAX_EVIDENCE).map((line) => cut(line)) }
}

export function cut(text: string, max = MAX_LINE): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

function initializes(o: RenderObservation): AppFinding {
  if (o.initialized_ms !== null) return finding('app-initializes', 'passed', `the view completed ui/initialize in ${o.initialized_ms} ms`)
  const why = o.page_errors.length ? `; it threw first: ${o.page_errors[0]}` : ''
  return finding('app-initializes', 'failed', `the view did not complete ui/initialize within ${o.init_timeout_ms} ms${why}`, o.page_errors.map((e) => `uncaught: ${e}`))
}

function noErrors(o: RenderObservation): AppFinding {
  const lines = [...o.page_errors.map((e) => `uncaught: ${e}`), ...o.console_errors.map((e) => `console.error: ${e}`)]
  if (lines.length === 0) return finding('app-no-errors', 'passed', 'no uncaught error and no console.error')
  // One line: a stack's line breaks and indentation read as one space.
  const first = (o.page_errors.length ? `the view threw: ${o.page_errors[0]}` : `the view logged an error: ${o.console_errors[0]}`).replace(/\s+/g, ' ')
  const more = lines.length > 1 ? ` (${lines.length} errors in all)` : ''
  return finding('app-no-errors', 'failed', `${first}${more}`, lines)
}

function cspRespected(o: RenderObservation): AppFinding {
  if (o.blocked.length === 0) return finding('app-csp-respected', 'passed', 'no request was blocked by the resource’s CSP')
  const urls = [...new Set(o.blocked.map((b) => b.url))]
  const message = `the CSP blocked ${urls.length === 1 ? `a request to ${urls[0]}` : `${urls.length} requests (first ${urls[0]})`}: not in the resource’s _meta.ui.csp`
  return finding('app-csp-respected', 'failed', message, [...o.blocked.map((b) => `blocked ${b.url} (${b.directive})`), ...o.csp_console])
}

function renders(o: RenderObservation): AppFinding {
  if (o.screenshot === null) return finding('app-renders', 'skipped', `no screenshot was taken${o.screenshot_error ? `: ${o.screenshot_error}` : ''}`)
  if (o.screenshot.flat) return finding('app-renders', 'failed', `the view is blank: the screenshot is one flat colour (${o.screenshot.colour})`)
  return finding('app-renders', 'passed', 'the screenshot is not one flat colour')
}

function toolCalls(o: RenderObservation): AppFinding {
  if (o.tool_calls.length === 0) {
    return o.initialized_ms === null
      ? finding('app-tool-calls', 'skipped', 'the view never initialised, so its tool calls could not be judged')
      : finding('app-tool-calls', 'passed', 'the view made no tool call')
  }
  const bad = o.tool_calls.filter((c) => c.refused !== null || c.is_error)
  const evidence = o.tool_calls.map((c) => `${c.name} ${JSON.stringify(c.args)} → ${c.refused !== null ? `refused: ${c.refused}` : c.is_error ? `error: ${c.result}` : 'ok'}`)
  if (bad.length === 0) return finding('app-tool-calls', 'passed', `${count(o.tool_calls.length, 'tool call')} by the view, all to tools visible to the app and all succeeded`, evidence)
  const first = bad[0]
  const what = first.refused !== null ? `refused ${first.name}: ${first.refused}` : `${first.name} failed: ${first.result}`
  return finding('app-tool-calls', 'failed', `${bad.length} of ${count(o.tool_calls.length, 'tool call')} by the view went wrong; ${what}`, evidence)
}

function cspDeclared(o: RenderObservation): AppFinding {
  return o.csp_declared
    ? finding('app-csp-declared', 'passed', 'the resource declares _meta.ui.csp')
    : finding('app-csp-declared', 'warning', 'the resource declares no _meta.ui.csp: it relies on the default (no network at all)')
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}
