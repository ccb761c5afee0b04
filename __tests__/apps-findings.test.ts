import { describe, expect, test } from '@jest/globals'
import { paintPng } from '../__fixtures__/png.js'
import { fieldAssertions, judgeAssertion, selectorAssertions, textAssertions } from '../src/apps/assertions.js'
import { renderFindings, type RenderObservation } from '../src/apps/findings.js'
import { frameHeight, MIN_FRAME_HEIGHT } from '../src/apps/host-page.js'
import { cspHeaderOf, viewResourceOf } from '../src/apps/resource.js'
import { FrameRelay } from '../src/apps/relay.js'
import { flatness, screenshotPath } from '../src/apps/screenshot.js'
import type { AppTest } from '../src/config/types.js'
import type { AppFinding } from '../src/results/types.js'

/** The host's findings, CSP, screenshot and assertion logic, judged from observations without a browser. */

const good: RenderObservation = {
  initialized_ms: 420,
  init_timeout_ms: 7500,
  page_errors: [],
  console_errors: [],
  csp_console: [],
  blocked: [],
  screenshot: { flat: false, colour: '#ffffff' },
  screenshot_error: null,
  tool_calls: [],
  csp_declared: true
}

const statuses = (findings: AppFinding[]) => Object.fromEntries(findings.map((f) => [f.id, f.status]))

describe('app findings', () => {
  test('a good view passes every finding but the visual change, which another step adds', () => {
    const findings = renderFindings(good)
    expect(findings.map((f) => f.id)).toEqual(['app-initializes', 'app-no-errors', 'app-csp-respected', 'app-renders', 'app-tool-calls', 'app-csp-declared'])
    expect(findings.every((f) => f.status === 'passed')).toBe(true)
    expect(findings[0].message).toBe('the view completed ui/initialize in 420 ms')
  })

  test('each fault fails its own finding only', () => {
    const cases: [Partial<RenderObservation>, string, AppFinding['status']][] = [
      [{ initialized_ms: null }, 'app-initializes', 'failed'],
      [{ page_errors: ['TypeError: x is undefined'] }, 'app-no-errors', 'failed'],
      [{ console_errors: ['boom'] }, 'app-no-errors', 'failed'],
      [{ blocked: [{ url: 'https://undeclared.example/data', directive: 'connect-src' }], csp_console: ['Fetch API cannot load https://undeclared.example/data'] }, 'app-csp-respected', 'failed'],
      [{ screenshot: { flat: true, colour: '#ffffff' } }, 'app-renders', 'failed'],
      [{ tool_calls: [{ name: 'model_only_tool', args: {}, at_ms: 5, latency_ms: 0, refused: 'not visible to the app', is_error: true, result: 'not visible to the app' }] }, 'app-tool-calls', 'failed'],
      [{ csp_declared: false }, 'app-csp-declared', 'warning']
    ]
    for (const [change, id, status] of cases) {
      const s = statuses(renderFindings({ ...good, ...change }))
      const others = Object.entries(s).filter(([k]) => k !== id && !(id === 'app-initializes' && k === 'app-tool-calls'))
      expect([id, s[id]]).toEqual([id, status])
      expect(others.filter(([, v]) => v !== 'passed')).toEqual([])
    }
  })

  test('messages and evidence say what was found, evidence capped at 20 lines of 500 characters', () => {
    const blocked = Array.from({ length: 30 }, (_, i) => ({ url: `https://x${i}.example/${'a'.repeat(600)}`, directive: 'connect-src' }))
    const csp = renderFindings({ ...good, blocked }).find((f) => f.id === 'app-csp-respected')!
    expect(csp.message).toMatch(/^the CSP blocked 30 requests \(first https:\/\/x0\.example/)
    expect(csp.evidence).toHaveLength(20)
    expect(csp.evidence.every((e) => e.length <= 500)).toBe(true)
    const broken = renderFindings({ ...good, page_errors: ['Error: broken'], console_errors: ['oops'] }).find((f) => f.id === 'app-no-errors')!
    expect(broken.message).toBe('the view threw: Error: broken (2 errors in all)')
    expect(broken.evidence).toEqual(['uncaught: Error: broken', 'console.error: oops'])
    // A stack reads as one line in the message; the evidence keeps it as it came.
    const stack = 'Error: broken view\n    at http://mcp-apps-host.invalid/view.html:114:26'
    const thrown = renderFindings({ ...good, page_errors: [stack] }).find((f) => f.id === 'app-no-errors')!
    expect(thrown.message).toBe('the view threw: Error: broken view at http://mcp-apps-host.invalid/view.html:114:26')
    expect(thrown.evidence).toEqual([`uncaught: ${stack}`])
  })

  test('what cannot be judged is skipped with its reason', () => {
    const silent = statuses(renderFindings({ ...good, initialized_ms: null }))
    expect(silent['app-tool-calls']).toBe('skipped')
    const noShot = renderFindings({ ...good, screenshot: null, screenshot_error: 'the page closed' }).find((f) => f.id === 'app-renders')!
    expect(noShot).toMatchObject({ status: 'skipped', message: 'no screenshot was taken: the page closed' })
    // A view that called tools and then never initialised is still judged on those calls.
    const ok = { name: 'add_item', args: {}, at_ms: 1, latency_ms: 2, refused: null, is_error: false, result: 'Added' }
    expect(statuses(renderFindings({ ...good, initialized_ms: null, tool_calls: [ok] }))['app-tool-calls']).toBe('passed')
  })
})

describe('the view resource and its CSP', () => {
  test('the HTML and _meta.ui of resources/read; no HTML is an error naming the resource', () => {
    const read = { contents: [{ uri: 'ui://a', mimeType: 'text/html;profile=mcp-app', text: '<p>hi</p>', _meta: { ui: { csp: { connectDomains: ['https://api.example'] }, permissions: { camera: {} } } } }] }
    expect(viewResourceOf('ui://a', read)).toEqual({
      html: '<p>hi</p>',
      csp: { connect_domains: ['https://api.example'], resource_domains: [], frame_domains: [], base_uri_domains: [] },
      permissions: { camera: {} }
    })
    expect(viewResourceOf('ui://a', { contents: [{ uri: 'ui://a', mimeType: 'text/html', blob: Buffer.from('<b>x</b>').toString('base64') }] })).toMatchObject({ html: '<b>x</b>', csp: null })
    expect(viewResourceOf('ui://a', { contents: [] })).toEqual({ error: 'resources/read ui://a answered no contents' })
    expect(viewResourceOf('ui://a', { contents: [{ uri: 'ui://a', mimeType: 'application/json', text: '{}' }] })).toEqual({ error: 'resources/read ui://a answered application/json, not HTML (text/html;profile=mcp-app)' })
  })

  test('empty means no network; declared domains open their directives; a token that could inject a directive is dropped', () => {
    const none = cspHeaderOf(null)
    expect(none).toContain("default-src 'none'")
    expect(none).toContain("connect-src 'none'")
    expect(none).toContain("frame-src 'none'")
    expect(none).toContain("script-src 'self' 'unsafe-inline'")
    const some = cspHeaderOf({ connect_domains: ['https://api.example', "x; script-src 'unsafe-eval'"], resource_domains: ['https://*.cdn.example'], frame_domains: [], base_uri_domains: [] })
    expect(some).toContain('connect-src https://api.example;')
    expect(some).toContain("script-src 'self' 'unsafe-inline' https://*.cdn.example;")
    expect(some).toContain("img-src 'self' data: blob: https://*.cdn.example;")
    expect(some).not.toContain('unsafe-eval')
  })
})

describe('screenshots', () => {
  const png = (paint: (x: number, y: number) => [number, number, number]) => paintPng(20, 10, paint)

  test('one flat colour (within a tiny tolerance) is blank; a single dark pixel is not', () => {
    expect(flatness(png(() => [255, 255, 255]))).toEqual({ flat: true, colour: '#ffffff' })
    expect(flatness(png((x) => (x % 2 ? [255, 255, 255] : [254, 254, 255]))).flat).toBe(true)
    expect(flatness(png((x, y) => (x === 7 && y === 3 ? [0, 0, 0] : [255, 255, 255]))).flat).toBe(false)
  })

  test('the file name is the render id made safe, the frame keeps a minimum height', () => {
    expect(screenshotPath('tool-test.list/../x.1.step-1')).toBe('apps/tool-test.list_.._x.1.step-1.png')
    expect(screenshotPath('..hidden')).toBe('apps/_hidden.png')
    expect(frameHeight(87)).toBe(MIN_FRAME_HEIGHT)
    expect(frameHeight(612.2)).toBe(613)
    expect(frameHeight(undefined)).toBe(MIN_FRAME_HEIGHT)
  })
})

describe('app test assertions', () => {
  const test0: AppTest = { actions: [], text_contains: ['added PEARS', 'missing'], selector: [{ selector: 'li.item' }, { selector: '#status', text: 'Added pears' }, { selector: 'li.item', count: 2 }, { selector: '#none' }], fields: {}, judge: null }
  const view = { text: 'Groceries\nAdded pears', selectors: { 'li.item': ['apples', 'bread', 'pears'], '#status': [' Added pears '], '#none': [] } }

  test('text_contains is case-insensitive; selector exists, text equals (trimmed), count', () => {
    expect(textAssertions(test0, view).map((a) => a.passed)).toEqual([true, false])
    const sel = selectorAssertions(test0, view)
    expect(sel.map((a) => a.passed)).toEqual([true, true, false, false])
    expect(sel[2].reason).toBe('expected 2 elements to match, found 3')
    expect(sel[3].reason).toBe('no element matches')
  })

  test('fields: a JSONPath or a key of structuredContent against a matcher; no structuredContent fails', () => {
    const t = { ...test0, fields: { title: 'Groceries', '$.items.length': 3, '$.items[0]': { contains: 'app' }, count: { gte: 9 } } }
    const checks = fieldAssertions(t, { structuredContent: { title: 'Groceries', items: ['apples', 'bread', 'cheese'], count: 3 } })
    expect(checks.map((c) => [c.target, c.passed])).toEqual([
      ['title', true],
      ['$.items.length', false],
      ['$.items[0]', true],
      ['count', false]
    ])
    expect(fieldAssertions(t, { content: [] })[0]).toMatchObject({ passed: false, reason: 'the call returned no structuredContent object' })
  })

  test('judge: no judge fails saying so; score / 10 against the threshold', async () => {
    const t = { ...test0, judge: { rubric: 'shows a list', threshold: 0.7, model: null } }
    const signal = new AbortController().signal
    expect(await judgeAssertion(t, Buffer.from('png'), undefined, 'ctx', signal)).toMatchObject({ passed: false, reason: 'app.judge needs a vision judge, and none is configured' })
    let seen: { rubric: string; png: Buffer } | undefined
    const judge = async (input: { rubric: string; png: Buffer }) => {
      seen = input
      return { score: 7, reason: 'a list' }
    }
    expect(await judgeAssertion(t, Buffer.from('png'), judge, 'ctx', signal)).toMatchObject({ passed: true, score: 7 })
    expect(seen?.rubric).toBe('shows a list')
    expect(await judgeAssertion(t, Buffer.from('png'), async () => ({ score: 6, reason: 'meh' }), 'ctx', signal)).toMatchObject({ passed: false, score: 6 })
  })
})

describe('the frame relay', () => {
  test('the view’s messages reach the bridge, the bridge’s reach the frame, and unanswered requests are counted', async () => {
    const posted: unknown[] = []
    const relay = new FrameRelay(async (m) => {
      posted.push(m)
    })
    const got: unknown[] = []
    relay.onmessage = (m) => got.push(m)
    relay.deliver({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} })
    relay.deliver({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 10 } })
    relay.deliver('not json-rpc')
    relay.deliver({ id: 2, method: 'x' })
    expect(got).toHaveLength(2)
    expect(relay.pendingRequests).toBe(1)
    await relay.send({ jsonrpc: '2.0', id: 1, result: {} })
    expect(relay.pendingRequests).toBe(0)
    expect(posted).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }])
    let closed = false
    relay.onclose = () => (closed = true)
    await relay.close()
    await relay.send({ jsonrpc: '2.0', method: 'late' })
    relay.deliver({ jsonrpc: '2.0', id: 3, method: 'late' })
    expect([closed, posted.length, got.length]).toEqual([true, 1, 2])
  })
})
