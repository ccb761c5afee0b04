import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { runOptions } from '../__fixtures__/options.js'
import { scriptedBrain, startScriptedLlm, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { BROKEN_ERROR, GOOD_URI } from '../__fixtures__/servers/apps-server.mjs'
import { openAppHost } from '../src/apps/host.js'
import { prepare } from '../src/config/prepare.js'
import { evaluate } from '../src/evaluate.js'
import { documentFromJournal, readJournal } from '../src/execute/journal.js'
import { createChatClient } from '../src/llm/chat.js'
import { renderMarkdownReport } from '../src/report/markdown.js'
import type { ResultsDocument, RunResult } from '../src/results/types.js'

// `apps: render` in behaviour runs and conversations, end to end: a scripted model calls the apps
// fixture's tools over stdio, and each view its calls return is rendered in headless Chromium on
// the run's own session. Skipped, saying why, where no browser is found (CI installs one).

const probe = await openAppHost({ chromePath: '', env: process.env, outputDir: tmpdir(), renderTimeoutMs: 1000, concurrency: 1, secrets: [] })
await probe.host?.close()
const describeWithBrowser = probe.host ? describe : describe.skip
if (!probe.host) console.warn(`apps-runs-browser: skipped: ${probe.reason}`)

let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm(
    scriptedBrain(
      {
        groceries: { turns: [[{ name: 'echo', args: { text: 'first' } }], [{ name: 'show_list', args: { title: 'Groceries', items: ['apples', 'bread'] } }]], answer: 'Your list is shown.' },
        broken: { turns: [[{ name: 'show_broken', args: {} }]], answer: 'Here it is.' },
        quiet: { turns: [[{ name: 'show_list', args: { title: 'Quiet', items: [] } }]], answer: 'Shown.' }
      },
      () => 9
    )
  )
})
afterAll(async () => llm?.close())

const SUITE = `models: [openai/gpt-4o-mini]
system_prompts: { d: "You help." }
apps: render
cases:
  - id: groceries
    prompt: Show my groceries list.
    rubric: The answer says the list is shown.
  - id: broken
    prompt: Show the broken view.
    rubric: The answer says it is shown.
  - id: quiet
    prompt: Show the quiet list.
    rubric: The answer says it is shown.
    apps: off
`

const runOf = (doc: ResultsDocument, id: string): RunResult => doc.runs.find((r) => r.case_id === id)!

describeWithBrowser('apps: render in behaviour runs', () => {
  test('each call whose tool links a view is rendered next to it; a broken view fails its run; a case with apps: off renders nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apps-runs-'))
    writeFileSync(join(dir, 'evals.yaml'), SUITE)
    const server = JSON.stringify({ command: process.execPath, args: [fixturePath('servers/apps-server.mjs')] })
    const p = prepare(runOptions(dir, { serverConfig: server, conformance: 'off', baseUrl: llm.url, outputDir: join(dir, 'out') }), {})
    const doc = await evaluate(p, { llm: createChatClient({ baseURL: llm.url, apiKey: 'k', maxRetries: 0 }) })

    const good = runOf(doc, 'groceries')
    // The echo call links no view: only the second call is rendered, and says so on its record.
    expect(good.tool_calls.map((c) => [c.name, c.app_render ?? null])).toEqual([
      ['echo', null],
      ['show_list', `run-${good.index}.view-1`]
    ])
    expect(good.app_renders).toHaveLength(1)
    const render = good.app_renders![0]!
    expect(render).toMatchObject({ id: `run-${good.index}.view-1`, tool: 'show_list', call_index: 2, status: 'rendered', resource_uri: GOOD_URI })
    expect(render.findings.find((f) => f.id === 'app-initializes')?.status).toBe('passed')
    expect(render.findings.find((f) => f.id === 'app-renders')?.status).toBe('passed')
    expect(existsSync(join(dir, 'out', render.screenshot!))).toBe(true)
    expect(good.success).toBe(true)

    const broken = runOf(doc, 'broken')
    expect(broken.app_renders![0]!.findings.find((f) => f.id === 'app-no-errors')).toMatchObject({ status: 'failed' })
    expect(broken.app_renders![0]!.console_errors.join('\n')).toContain(BROKEN_ERROR)
    // The answer was judged good: the view is what failed the run.
    expect(broken.success).toBe(false)

    const quiet = runOf(doc, 'quiet')
    expect(quiet.tool_calls.map((c) => c.name)).toEqual(['show_list'])
    expect(quiet).not.toHaveProperty('app_renders')
    expect(quiet.tool_calls[0]).not.toHaveProperty('app_render')

    expect(doc.apps).toMatchObject({ status: 'ran' })
    expect(doc.apps!.renders).toBeGreaterThanOrEqual(2)

    // The journal gives the same runs, and the report names the render next to its call.
    const { state } = readJournal(join(dir, 'eval-runs.jsonl'))
    expect(documentFromJournal(state).runs.find((r) => r.case_id === 'groceries')!.app_renders).toEqual(good.app_renders)
    const report = renderMarkdownReport(doc)
    expect(report).toContain(render.screenshot!)
    expect(report).toContain('app-no-errors')
  }, 120_000)
})
