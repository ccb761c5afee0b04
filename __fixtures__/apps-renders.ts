import { emptyRender } from '../src/apps/render-record.js'
import { APP_FINDING_IDS, appRenderFailed, type AppFinding, type AppFindingId, type AppFindingStatus, type AppRender, type AppsSection } from '../src/results/types.js'

/**
 * MCP Apps renders as the browser host records them, written by hand for the report's golden
 * shapes: one that passes (an app test that clicks, fills and asserts, an app-initiated tool call
 * and the host requests a view makes), one failing each finding, an app test whose action and
 * assertions fail, a render the host could not do, one whose screenshot changed since the
 * baseline, and renders skipped for want of a browser. The hostile text is a server's or a view's:
 * console lines, blocked URLs, tool results and ids carry markup, mentions, fences and links.
 */

/** Markup, a mention, a reference, a link, backticks, a fence and a way out of <details>, as a view might print them. */
export const VIEW_HOSTILE = '<img src=x onerror=alert(1)> </details> @octocat #123 https://evil.example `tick` ```'

const passed = (id: AppFindingId, message: string): AppFinding => ({ id, status: 'passed', message, evidence: [] })

/** The findings of a view that did everything right, with `changes` in their place. */
function findings(changes: Partial<Record<AppFindingId, Omit<AppFinding, 'id'>>> = {}): AppFinding[] {
  const held: Record<AppFindingId, string> = {
    'app-initializes': 'ui/initialize completed in 182 ms',
    'app-no-errors': 'no uncaught error, no console.error',
    'app-csp-respected': 'no request blocked by the CSP',
    'app-renders': 'the screenshot is not one flat colour',
    'app-tool-calls': 'no tools/call from the view',
    'app-csp-declared': 'the resource declares _meta.ui.csp',
    'app-visual-change': ''
  }
  return APP_FINDING_IDS.filter((id) => id !== 'app-visual-change' || changes[id]).map((id) => (changes[id] ? { id, ...changes[id]! } : passed(id, held[id])))
}

const SHA = (n: number) => n.toString(16).padStart(2, '0').repeat(32)

/** A render with the defaults of a good view; `over` changes what the case is about. */
export function appRender(id: string, tool: string, over: Partial<AppRender> = {}): AppRender {
  return {
    ...emptyRender({ id, tool: { name: tool, inputSchema: {} }, call_index: 1 }, 'rendered', null, { width: 800, height: 320 }),
    resource_uri: `ui://${tool}/view.html`,
    screenshot: `apps/${id}.png`,
    screenshot_sha256: SHA(id.length),
    csp: { connect_domains: [], resource_domains: [], frame_domains: [], base_uri_domains: [] },
    initialized_ms: 182,
    duration_ms: 640,
    findings: findings(),
    ...over
  }
}

/** An app test that passes: it fills and clicks, the view calls a second tool, and every assertion holds. */
export function goodAppTest(id: string): AppRender {
  return appRender(id, 'show_weather', {
    findings: findings({ 'app-tool-calls': { status: 'passed', message: '1 tools/call from the view, to a tool visible to the app, answered', evidence: [] } }),
    tool_calls: [{ name: 'refresh_forecast', args: { city: 'Paris' }, at_ms: 402, latency_ms: 12, refused: null, is_error: false, result: '{"temp":21}' }],
    resource_reads: [{ uri: 'ui://show_weather/icons.json', at_ms: 210, error: null }],
    host_requests: [
      { method: 'ui/notifications/size-changed', at_ms: 230, params: { width: 800, height: 320 } },
      { method: 'ui/open-link', at_ms: 500, params: { url: 'https://evil.example/@octocat' } }
    ],
    actions: [
      { action: 'fill', selector: '#city', value: 'Paris', passed: true, error: null },
      { action: 'click', selector: 'button.refresh', passed: true, error: null }
    ],
    assertions: [
      { check: 'text_contains', target: null, passed: true, expected: 'Paris', actual: 'Paris 21 °C', reason: 'the view shows "Paris"' },
      { check: 'selector', target: '.temp', passed: true, expected: { text: '21 °C' }, actual: { count: 1, text: '21 °C' }, reason: '.temp has the text "21 °C"' },
      { check: 'judge', target: null, passed: true, expected: 0.7, actual: 0.9, reason: 'A clear card with the city and the temperature.', score: 9 }
    ]
  })
}

/** A view that threw on load: the console's lines are the view's own (hostile) text. */
export function throwingView(id: string): AppRender {
  const thrown = `Uncaught TypeError: Cannot read properties of undefined (reading 'temp') ${VIEW_HOSTILE}`
  return appRender(id, 'show_weather', {
    findings: findings({ 'app-no-errors': { status: 'failed', message: `the view threw: ${thrown}`, evidence: [thrown, `console.error: render failed ${VIEW_HOSTILE}`] } }),
    console_errors: [thrown, `console.error: render failed ${VIEW_HOSTILE}`]
  })
}

/** A view that never sent ui/initialize: nothing after it could be judged. */
export function silentView(id: string): AppRender {
  return appRender(id, 'show_page', {
    initialized_ms: null,
    duration_ms: 15_000,
    findings: findings({
      'app-initializes': { status: 'failed', message: 'the view never completed ui/initialize within 15,000 ms', evidence: ['no ui/initialize request from the view'] },
      'app-tool-calls': { status: 'skipped', message: 'the view never initialised, so its tool calls could not be judged', evidence: [] }
    })
  })
}

/** A view that fetched a domain its resource never declared, and declares no CSP at all (the default: no network). */
export function undeclaredFetch(id: string): AppRender {
  const url = `https://tracker.evil.example/collect?u=${encodeURIComponent('</details>@octocat')}`
  return appRender(id, 'show_page', {
    csp: null,
    findings: findings({
      'app-csp-respected': { status: 'failed', message: `1 request blocked by the CSP: ${url}`, evidence: [url] },
      'app-csp-declared': { status: 'warning', message: 'the resource declares no _meta.ui.csp: it relies on the default (no network)', evidence: [] }
    }),
    blocked_requests: [url],
    // Chrome logs a blocked fetch as two console errors: the CSP finding owns them, not app-no-errors.
    console_errors: [`Connecting to '${url}' violates the following Content Security Policy directive: "connect-src 'none'".`, `Fetch API cannot load ${url}. Refused to connect because it violates the document's Content Security Policy.`]
  })
}

/** A blank view: the screenshot is one flat colour. */
export function blankView(id: string): AppRender {
  return appRender(id, 'show_page', { findings: findings({ 'app-renders': { status: 'failed', message: 'the screenshot is one flat colour (#ffffff)', evidence: [] } }) })
}

/** A view that called a tool hidden from apps, and one that answered an error. */
export function hiddenToolCall(id: string): AppRender {
  return appRender(id, 'show_page', {
    findings: findings({
      'app-tool-calls': {
        status: 'failed',
        message: '2 tools/call from the view did not succeed: delete_all (not visible to the app), get_page (isError)',
        evidence: ['delete_all {} → refused: the tool is not visible to the app (_meta.ui.visibility is ["model"])', `get_page {"path":"/x"} → isError: ${VIEW_HOSTILE}`]
      }
    }),
    tool_calls: [
      { name: 'delete_all', args: {}, at_ms: 300, latency_ms: 0, refused: 'the tool is not visible to the app (_meta.ui.visibility is ["model"])', is_error: true, result: '' },
      { name: 'get_page', args: { path: '/x' }, at_ms: 320, latency_ms: 7, refused: null, is_error: true, result: VIEW_HOSTILE }
    ]
  })
}

/** An app test whose fill found no element and whose assertions failed. */
export function failedAssertions(id: string): AppRender {
  return appRender(id, 'show_weather', {
    actions: [
      { action: 'fill', selector: '#missing', value: 'Paris', passed: false, error: 'no element matched #missing within 15,000 ms' },
      { action: 'click', selector: 'button.refresh', passed: true, error: null }
    ],
    assertions: [
      { check: 'text_contains', target: null, passed: false, expected: 'Paris', actual: `Loading… ${VIEW_HOSTILE}`, reason: 'the view\'s text does not contain "Paris"' },
      { check: 'selector', target: '.temp', passed: false, expected: { count: 1 }, actual: { count: 0 }, reason: '.temp matched 0 elements, not 1' },
      { check: 'fields', target: '$.temp', passed: true, expected: { gte: -40 }, actual: 21, reason: 'matches' },
      { check: 'judge', target: null, passed: false, expected: 0.7, actual: 0.3, reason: `An empty card. ${VIEW_HOSTILE}`, score: 3 }
    ]
  })
}

/** The host could not render the view: its resource is not HTML. */
export function unrenderable(id: string): AppRender {
  return appRender(id, 'show_page', {
    status: 'error',
    reason: 'the resource ui://show_page/view.html is text/plain, not text/html;profile=mcp-app',
    screenshot: null,
    screenshot_sha256: null,
    initialized_ms: null,
    findings: []
  })
}

/** A good view whose screenshot changed since the baseline's: for review. */
export function changedView(id: string, status: AppFindingStatus = 'review'): AppRender {
  return appRender(id, 'show_weather', {
    findings: findings({ 'app-visual-change': { status, message: '4.2% of the pixels differ from the baseline\'s screenshot (threshold 1%)', evidence: [`apps/baseline/${id}.png`, `apps/diff/${id}.png`] } }),
    visual_diff: { baseline: `apps/baseline/${id}.png`, changed_ratio: 0.042, changed: true, diff: `apps/diff/${id}.png` }
  })
}

/** A good view whose screenshot is the baseline's. */
export function unchangedView(id: string): AppRender {
  return appRender(id, 'show_weather', { visual_diff: { baseline: `apps/baseline/${id}.png`, changed_ratio: 0, changed: false, diff: null } })
}

/** A render not done: no browser was found. */
export function skippedRender(id: string, tool: string): AppRender {
  return appRender(id, tool, { status: 'skipped', reason: NO_BROWSER, screenshot: null, screenshot_sha256: null, initialized_ms: null, duration_ms: 0, findings: [] })
}

export const NO_BROWSER = 'no Chrome or Chromium found (searched google-chrome, chromium, chromium-browser): install one (apt-get install chromium), or give its path in the chrome_path input or CHROME_PATH'

/** The document's section, counted from its renders. */
export function appsSection(renders: AppRender[], over: Partial<AppsSection> = {}): AppsSection {
  const counts: AppsSection['findings'] = {}
  for (const f of renders.flatMap((r) => r.findings)) {
    const byStatus = (counts[f.id] ??= {})
    byStatus[f.status] = (byStatus[f.status] ?? 0) + 1
  }
  return {
    status: 'ran',
    reason: null,
    browser: { path: '/usr/bin/chromium', version: 'Chromium 156.0.8078.73', source: 'search' },
    visual_diff: 'review',
    visual_threshold: 0.01,
    renders: renders.length,
    failed: renders.filter(appRenderFailed).length,
    findings: counts,
    ...over
  }
}
