import { describe, expect, test } from '@jest/globals'
import { suiteJudgesApps, suiteRendersApps } from '../src/apps/needs.js'
import { appsSection, NOT_REACHED, rendersOf, type AppsOpened } from '../src/apps/section.js'
import type { AppHost, AppHostOpening, AppHostOptions, RenderRequest } from '../src/apps/types.js'
import type { AppTest, ToolTest } from '../src/config/types.js'
import { createAppsLayer, renderNotDone } from '../src/execute/app-host.js'
import type { JournalRecord } from '../src/execute/journal.js'
import type { McpTool } from '../src/mcp/session.js'
import { mergedJournal } from '../src/merge/merge-shards.js'
import type { ShardDocument } from '../src/merge/read-shards.js'
import type { AppFinding, AppRender, AppsSection, RunResult, ToolTestsSection } from '../src/results/types.js'
import { heldTimer } from '../src/util/held-timer.js'

// The apps layer's pure parts and its lifecycle against a host double: the section computed from
// renders, the host opened once and closed once, a render that cannot be done a record of its own.

const BROWSER = { path: '/usr/bin/chromium', version: 'Chromium 1', source: 'env' as const }
const TOOL: McpTool = { name: 'show', inputSchema: {}, ui: { resource_uri: 'ui://show/view.html', visibility: null } }
const HOST_OPTIONS: AppHostOptions = { chromePath: '', env: {}, outputDir: '/tmp/out', renderTimeoutMs: 50, concurrency: 2, secrets: [] }

function render(id: string, findings: [AppFinding['id'], AppFinding['status']][], status: AppRender['status'] = 'rendered'): AppRender {
  return { ...renderNotDone({ id, tool: TOOL, call_index: 1 }, 'skipped', null as unknown as string), status, reason: null, findings: findings.map(([fid, s]) => ({ id: fid, status: s, message: '', evidence: [] })) }
}

const request = (id: string, signal = new AbortController().signal): RenderRequest => ({
  id,
  tool: TOOL,
  call_index: 1,
  args: {},
  result: { content: [] },
  session: { tools: [TOOL], readResource: async () => ({}) as never, callToolRaw: async () => ({}) as never },
  signal
})

describe('the apps section', () => {
  const settings = { visual_diff: 'review' as const, visual_threshold: 0.02 }
  test('counts every render, the failed ones, and the findings by id and status', () => {
    const renders = [
      render('a', [
        ['app-initializes', 'passed'],
        ['app-no-errors', 'failed'],
        ['app-csp-declared', 'warning']
      ]),
      render('b', [
        ['app-initializes', 'passed'],
        ['app-no-errors', 'passed'],
        ['app-csp-declared', 'warning']
      ]),
      render('c', [], 'error')
    ]
    const opened: AppsOpened = { status: 'ran', reason: null, browser: BROWSER }
    expect(appsSection(settings, opened, renders)).toEqual({
      status: 'ran',
      reason: null,
      browser: BROWSER,
      visual_diff: 'review',
      visual_threshold: 0.02,
      renders: 3,
      failed: 2,
      findings: { 'app-initializes': { passed: 2 }, 'app-no-errors': { failed: 1, passed: 1 }, 'app-csp-declared': { warning: 2 } }
    } satisfies AppsSection)
  })

  test('a host never opened is skipped, saying nothing reached a render; one without a browser says why', () => {
    expect(appsSection(settings, null, [])).toMatchObject({ status: 'skipped', reason: NOT_REACHED, browser: null, renders: 0, failed: 0, findings: {} })
    expect(appsSection(settings, { status: 'skipped', reason: 'no browser', browser: null }, [render('a', [], 'skipped')])).toMatchObject({ status: 'skipped', reason: 'no browser', renders: 1, failed: 0 })
  })

  test("the renders are the tool tests' steps in order, then the runs'", () => {
    const step = (app?: AppRender) => ({ ...(app ? { app } : {}) }) as ToolTestsSection['tests'][number]['attempts'][number]['steps'][number]
    const toolTests = { tests: [{ attempts: [{ steps: [step(render('t1', [])), step()] }, { steps: [step(render('t2', []))] }] }] } as unknown as ToolTestsSection
    const runs = [{ app_renders: [render('r1', []), render('r2', [])] }, {}] as unknown as RunResult[]
    expect(rendersOf(toolTests, runs).map((r) => r.id)).toEqual(['t1', 't2', 'r1', 'r2'])
    expect(rendersOf(null, [])).toEqual([])
  })

  test('a suite renders apps when the suite, a case or a tool test step asks', () => {
    const app: AppTest = { actions: [], text_contains: [], selector: [], fields: {}, judge: null }
    const testWith = (withApp: boolean) => ({ id: 't', runs: 1, tags: [], steps: [{ tool: 'x', args: {}, expect: {}, capture: {}, ...(withApp ? { app } : {}) }] }) as unknown as ToolTest
    const none = { cases: [], tool_tests: [testWith(false)] }
    expect(suiteRendersApps(none)).toBe(false)
    expect(suiteRendersApps({ ...none, tool_tests: [testWith(false), testWith(true)] })).toBe(true)
    expect(suiteRendersApps({ ...none, apps: { render: true, render_timeout_ms: 1, visual_diff: 'review', visual_threshold: 0 } })).toBe(true)
    expect(suiteRendersApps({ ...none, apps: { render: false, render_timeout_ms: 1, visual_diff: 'review', visual_threshold: 0 } })).toBe(false)
    expect(suiteRendersApps({ ...none, cases: [{ apps: 'off' }, { apps: 'render' }] as never })).toBe(true)
    expect(suiteRendersApps({ ...none, cases: [{ apps: 'off' }] as never })).toBe(false)
  })

  test('a suite needs a vision judge only when an app test has app.judge', () => {
    const app: AppTest = { actions: [], text_contains: [], selector: [], fields: {}, judge: null }
    const testWith = (step: AppTest | undefined) => ({ id: 't', runs: 1, tags: [], steps: [{ tool: 'x', args: {}, expect: {}, capture: {}, ...(step ? { app: step } : {}) }] }) as unknown as ToolTest
    expect(suiteJudgesApps({ tool_tests: [testWith(undefined), testWith(app)] })).toBe(false)
    expect(suiteJudgesApps({ tool_tests: [testWith(app), testWith({ ...app, judge: { rubric: 'A list.', threshold: 0.5, model: null } })] })).toBe(true)
  })
})

/** A host double: renders by the request (an id with "bad" fails app-no-errors), counts its closes. */
function host(overrides: Partial<AppHost> = {}): AppHost & { closed: number; rendered: string[] } {
  const h = {
    browser: BROWSER,
    closed: 0,
    rendered: [] as string[],
    async render(r: RenderRequest): Promise<AppRender> {
      h.rendered.push(r.id)
      return render(r.id, [['app-no-errors', r.id.includes('bad') ? 'failed' : 'passed']])
    },
    async close() {
      h.closed++
    },
    ...overrides
  }
  return h
}

describe('the apps layer', () => {
  test('opens the host once for every render, journals how once, closes it once', async () => {
    const h = host()
    const opened: AppsOpened[] = []
    let opens = 0
    const layer = createAppsLayer({ host: HOST_OPTIONS, warn: () => undefined, onOpened: (o) => opened.push(o), open: async () => (opens++, { host: h }) })
    const renders = await Promise.all([layer.render(request('one')), layer.render(request('bad-two')), layer.render(request('three'))])
    expect(renders.map((r) => [r.id, r.findings[0]!.status])).toEqual([
      ['one', 'passed'],
      ['bad-two', 'failed'],
      ['three', 'passed']
    ])
    expect(opens).toBe(1)
    expect(opened).toEqual([{ status: 'ran', reason: null, browser: BROWSER }])
    await layer.close()
    await layer.close()
    expect(h.closed).toBe(1)
    // After close, nothing renders: the record says cancelled.
    expect(await layer.render(request('late'))).toMatchObject({ id: 'late', status: 'cancelled', resource_uri: TOOL.ui!.resource_uri })
    expect(h.rendered).toEqual(['one', 'bad-two', 'three'])
  })

  test('never opened when nothing renders: close does nothing, nothing is journaled', async () => {
    const opened: AppsOpened[] = []
    let opens = 0
    const layer = createAppsLayer({ host: HOST_OPTIONS, warn: () => undefined, onOpened: (o) => opened.push(o), open: async () => (opens++, { host: host() }) })
    await layer.close()
    expect([opens, opened.length]).toEqual([0, 0])
  })

  test('no browser, or an opener that throws: one warning, every render skipped with the reason', async () => {
    for (const [open, reason] of [
      [async (): Promise<AppHostOpening> => ({ host: null, reason: 'no Chrome found' }), 'no Chrome found'],
      [
        async (): Promise<AppHostOpening> => {
          throw new Error('playwright-core is missing')
        },
        'the browser host could not start: playwright-core is missing'
      ]
    ] as const) {
      const warnings: string[] = []
      const opened: AppsOpened[] = []
      const layer = createAppsLayer({ host: HOST_OPTIONS, warn: (m) => warnings.push(m), onOpened: (o) => opened.push(o), open })
      const renders = await Promise.all([layer.render(request('a')), layer.render(request('b'))])
      expect(renders.map((r) => [r.status, r.reason, r.findings])).toEqual([
        ['skipped', reason, []],
        ['skipped', reason, []]
      ])
      expect(warnings).toEqual([`MCP Apps: the views are not rendered: ${reason}`])
      expect(opened).toEqual([{ status: 'skipped', reason, browser: null }])
      await layer.close()
    }
  })

  test('a host whose render throws errs in that render only', async () => {
    const h = host({
      async render(r) {
        if (r.id === 'throws') throw new Error('page crashed')
        return render(r.id, [])
      }
    })
    const layer = createAppsLayer({ host: HOST_OPTIONS, warn: () => undefined, onOpened: () => undefined, open: async () => ({ host: h }) })
    const [thrown, fine] = await Promise.all([layer.render(request('throws')), layer.render(request('fine'))])
    expect(thrown).toMatchObject({ status: 'error', reason: 'the browser host failed: page crashed' })
    expect(fine).toMatchObject({ status: 'rendered' })
    await layer.close()
  })

  test('a cancel while the browser starts closes it as soon as it is up; later renders are cancelled', async () => {
    const h = host()
    const cancel = new AbortController()
    let up: (o: AppHostOpening) => void = () => undefined
    const layer = createAppsLayer({ host: HOST_OPTIONS, cancel: cancel.signal, warn: () => undefined, onOpened: () => undefined, open: () => new Promise((resolve) => (up = resolve)) })
    const pending = layer.render(request('first', cancel.signal))
    await new Promise((resolve) => setImmediate(resolve))
    cancel.abort(new Error('SIGTERM'))
    up({ host: h })
    expect(await pending).toMatchObject({ status: 'cancelled' })
    // Closed by the cancel itself, once the browser was up; not again.
    expect(h.closed).toBe(1)
    await layer.close()
    expect(h.closed).toBe(1)
    expect(h.rendered).toEqual([])
  })
})

describe('the merge keeps the apps section', () => {
  const shard = (index: number, apps: AppsSection | undefined): ShardDocument =>
    ({
      started_at: '2026-01-01T00:00:00.000Z',
      duration_s: 1,
      config: {},
      behaviour: { status: 'ran', reason: null },
      conformance: null,
      runs: [],
      tool_tests: null,
      summary: { cache: null },
      cancelled: null,
      journal: null,
      shard: { index, count: 2, suite_hash: 'h', planned: 0, planned_total: 0, groups_total: 0, groups: 0, cases: [], tool_tests_plan: null, overhead: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } },
      ...(apps ? { apps } : {})
    }) as unknown as ShardDocument
  const section = (opened: AppsOpened): AppsSection => ({ ...opened, visual_diff: 'fail', visual_threshold: 0.05, renders: 1, failed: 0, findings: {} })
  const gate = { mode: null, max_drop: 0.02, baseline: '' }
  const appsOf = (records: JournalRecord[]) => ({ header: (records[0] as { apps?: unknown }).apps, record: records.find((r) => r.type === 'apps') ?? null })

  test("the header's settings from shard 1, the browser from the first shard that had one", () => {
    const merged = mergedJournal([shard(1, section({ status: 'skipped', reason: NOT_REACHED, browser: null })), shard(2, section({ status: 'ran', reason: null, browser: BROWSER }))], gate)
    expect(appsOf(merged)).toEqual({ header: { visual_diff: 'fail', visual_threshold: 0.05 }, record: { type: 'apps', status: 'ran', reason: null, browser: BROWSER } })
  })

  test('no browser in any shard: the first reason; no shard rendered: no record; no section: no key', () => {
    const none = section({ status: 'skipped', reason: 'no Chrome found', browser: null })
    expect(appsOf(mergedJournal([shard(1, section({ status: 'skipped', reason: NOT_REACHED, browser: null })), shard(2, none)], gate)).record).toEqual({ type: 'apps', status: 'skipped', reason: 'no Chrome found', browser: null })
    expect(appsOf(mergedJournal([shard(1, section({ status: 'skipped', reason: NOT_REACHED, browser: null }))], gate)).record).toBeNull()
    expect(appsOf(mergedJournal([shard(1, undefined), shard(2, undefined)], gate))).toEqual({ header: undefined, record: null })
  })
})

describe('the held timer', () => {
  test('the time held aside does not count; it still expires after', async () => {
    let expired = 0
    const started = performance.now()
    const timer = heldTimer(60, () => expired++)
    await timer.aside(() => new Promise((resolve) => setTimeout(resolve, 120)))
    expect(expired).toBe(0)
    await new Promise((resolve) => setTimeout(resolve, 120))
    expect(expired).toBe(1)
    expect(performance.now() - started).toBeGreaterThanOrEqual(170)
    timer.clear()
  })

  test('cleared, it never expires, also after an aside', async () => {
    let expired = 0
    const timer = heldTimer(20, () => expired++)
    const aside = timer.aside(() => new Promise((resolve) => setTimeout(resolve, 30)))
    timer.clear()
    await aside
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(expired).toBe(0)
  })
})
