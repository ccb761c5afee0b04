import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { runOptions } from '../__fixtures__/options.js'
import { answer, imagesOf, kindOf, scriptedBrain, startScriptedLlm, type Reply, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { openAppHost } from '../src/apps/host.js'
import { prepare } from '../src/config/prepare.js'
import { evaluate } from '../src/evaluate.js'

// An evals/v1 scenario's `widget.screenshot`, end to end: the scripted model calls the apps
// fixture's show_list, the view is rendered in headless Chromium, and its screenshot is sent to
// the vision judge (the same scripted server) as a PNG image part. Skipped where no browser is found.

const probe = await openAppHost({ chromePath: '', env: process.env, outputDir: tmpdir(), renderTimeoutMs: 1000, concurrency: 1, secrets: [] })
await probe.host?.close()
const describeWithBrowser = probe.host ? describe : describe.skip
if (!probe.host) console.warn(`apps-evals-v1-browser: skipped: ${probe.reason}`)

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
let llm: ScriptedLlm
const brain = scriptedBrain(
  {
    groceries: { turns: [[{ name: 'show_list', args: { title: 'Groceries', items: ['apples', 'bread'] } }]], answer: 'Your list is shown.' },
    chores: { turns: [[{ name: 'show_list', args: { title: 'Chores', items: ['dishes'] } }]], answer: 'Shown.' },
    errands: { turns: [[{ name: 'show_list', args: { title: 'Errands', items: ['post office'] } }]], answer: 'Your errands are shown.' },
    plain: { turns: [[{ name: 'echo', args: { text: 'hi' } }]], answer: 'Done.' }
  },
  () => 9
)
beforeAll(async () => {
  llm = await startScriptedLlm((request, index): Reply | Promise<Reply> => {
    // The scenario judge (GEval: one user message), shown a screenshot or not, is the brain's: 9 of 10.
    if (imagesOf(request).length === 0 || request.messages[0]?.role !== 'system') return brain(request, index)
    // The vision judge: 8 for the groceries rubric, 2 for the chores one.
    const text = JSON.stringify(request.messages)
    const score = text.includes('Groceries heading') ? 8 : 2
    return answer(request.model, JSON.stringify({ score, reason: `scored ${score}` }))
  })
})
afterAll(async () => llm?.close())

const suiteFor = (server: string) => `apiVersion: mcp-use.com/evals/v1
kind: EvalSuite
name: apps
server: ${server}
defaults: { rubricThreshold: 0.7 }
flows:
  - id: main
    type: agent
    checks: []
    scenarios:
      - id: groceries
        turns:
          - user: Show my groceries list.
            expect:
              widget:
                fields: { title: Groceries }
                screenshot: { rubric: "A Groceries heading above two items.", tool: show_list, args: { title: Groceries } }
      - id: chores
        turns:
          - user: Show my chores list.
            expect:
              widget:
                screenshot: { rubric: "A Chores heading.", threshold: 0.5 }
      - id: errands
        turns:
          - user: Show my errands list.
        expect:
          judge: { rubric: "The answer and the view show the errands.", screenshot: true }
      - id: plain
        turns:
          - user: Say plain hi.
        expect:
          judge: { rubric: "Says it is done.", screenshot: true }
`

describeWithBrowser('an evals/v1 widget screenshot', () => {
  test('the rendered view is judged by the vision judge as a PNG image part; the score against the threshold decides the widget check', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apps-v1-'))
    const server = JSON.stringify({ command: process.execPath, args: [fixturePath('servers/apps-server.mjs')] })
    writeFileSync(join(dir, 'suite.yaml'), suiteFor(server))
    const p = prepare(runOptions(dir, { evalCases: join(dir, 'suite.yaml'), serverConfig: '', conformance: 'off', baseUrl: llm.url, outputDir: join(dir, 'out') }), {})
    expect(p.suite.evals_v1?.not_run).toEqual([])
    expect(p.suite.cases.map((c) => [c.id, c.apps ?? null, c.judge_screenshot ?? null])).toEqual([
      ['groceries', 'render', null],
      ['chores', 'render', null],
      ['errands', 'render', true],
      ['plain', 'render', true]
    ])
    const doc = await evaluate(p)

    const run = (id: string) => doc.runs.find((r) => r.case_id === id)!
    const widgetChecks = (id: string) => run(id).dialogue!.turns[0]!.golden_assertions!.checks.filter((c) => c.check === 'widget')
    expect(widgetChecks('groceries').map((c) => c.passed)).toEqual([true, true])
    expect(widgetChecks('groceries')[1]!.reason).toContain('scored 8/10 against the threshold 0.7')
    expect(run('groceries').app_renders?.[0]).toMatchObject({ tool: 'show_list', status: 'rendered', call_index: 1 })
    // 2/10 under 0.5: the check fails, and the run with it.
    expect(widgetChecks('chores')).toEqual([expect.objectContaining({ passed: false, reason: expect.stringContaining('scored 2/10 against the threshold 0.5') })])
    expect(run('chores').success).toBe(false)

    // judge.screenshot: the scenario judge's scoring request carries the view's screenshot; with no view rendered, it is not asked.
    expect(run('errands').judge).toMatchObject({ score: 0.9, error: null })
    expect(run('errands').success).toBe(true)
    expect(run('plain').judge?.error).toContain('judge.screenshot: the run rendered no MCP Apps view')
    expect(run('plain').success).toBe(false)
    const scored = llm.requests.filter((r) => kindOf(r) === 'score' && r.messages[0]?.role === 'user')
    expect(scored.filter((r) => imagesOf(r).length === 1).map((r) => JSON.stringify(r.messages))).toEqual([expect.stringContaining('Show my errands list.')])

    const judged = llm.requests.flatMap(imagesOf)
    expect(judged).toHaveLength(3)
    for (const url of judged) {
      expect(url.startsWith('data:image/png;base64,')).toBe(true)
      expect(Buffer.from(url.slice('data:image/png;base64,'.length), 'base64').subarray(0, 8)).toEqual(PNG_SIGNATURE)
    }
    expect(llm.requests.filter((r) => imagesOf(r).length === 0 && kindOf(r) === 'agent').length).toBeGreaterThanOrEqual(8)
  }, 120_000)
})
