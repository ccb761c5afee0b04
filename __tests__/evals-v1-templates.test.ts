import { afterAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCliProcess } from '../__fixtures__/cli.js'
import { answer, scriptedBrain, startScriptedLlm, type ChatRequestBody } from '../__fixtures__/scripted-llm.js'
import { openAppHost } from '../src/apps/host.js'
import type { ResultsDocument } from '../src/results/types.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { parseEvalsV1Suite } from '../src/config/evals-v1-suite.js'
import { createSessionFactory } from '../src/mcp/session.js'

// The evals/v1 templates of examples/evals-v1/, written for the example server: they load, and
// what they expect is what the server answers.
const DIR = fixturePath('../examples/evals-v1')
const SERVER = fixturePath('../examples/server/server.mjs')
const REPO = fixturePath('..')
const templates = readdirSync(DIR).filter((f) => f.endsWith('.suite.yaml'))
const work = mkdtempSync(join(tmpdir(), 'v1-templates-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))
// The mcp-apps template's widget screenshot is judged on the view rendered in a browser: where none is found, it fails, saying so.
const probe = await openAppHost({ chromePath: '', env: process.env, outputDir: tmpdir(), renderTimeoutMs: 1000, concurrency: 1, secrets: [] })
await probe.host?.close()
const hasImage = (request: ChatRequestBody) => request.messages.some((m) => Array.isArray(m.content) && (m.content as { type: string }[]).some((p) => p.type === 'image_url'))

describe('examples/evals-v1', () => {
  test('the three templates are there, and each loads', () => {
    expect(templates.sort()).toEqual(['blank.suite.yaml', 'mcp-apps.suite.yaml', 'starter.suite.yaml'])
    for (const file of templates) {
      const loaded = parseEvalsV1Suite(readFileSync(join(DIR, file), 'utf8'), file, { context: 'manual' })
      expect(loaded.server?.data).toEqual({ command: 'node', args: ['examples/server/server.mjs'] })
    }
  })

  test.each([
    ['blank.suite.yaml', ['list-tools']],
    ['starter.suite.yaml', ['cities-resource', 'forecast-paris']],
    ['mcp-apps.suite.yaml', ['search-tokyo-direct']]
  ])("%s: every check passes against the example server (the suite's own server block, from the repository root)", async (file, checks) => {
    const r = await runCliProcess(['--eval-suite', join(DIR, file), '--only-tool-tests', '--conformance', 'off', '--output-dir', join(work, file)], REPO)
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
    for (const check of checks) expect(r.stdout).toMatch(new RegExp(`^✓ tool test ${check} `, 'm'))
  })

  describe('the mcp-apps scenario, with a scripted model', () => {
    const search = { name: 'search_destinations', args: { query: 'Tokyo' } }
    const scenario = async (calls: { name: string; args: unknown }[], dir: string) => {
      const brain = scriptedBrain({ 'Find destinations for tokyo': { turns: [calls], answer: (results) => `Here they are: ${results[0]}` } }, () => 9)
      // The vision judge, shown the rendered widget: 9 of 10.
      const llm = await startScriptedLlm((request, index) => (hasImage(request) ? answer(request.model, '{"score": 9, "reason": "the destination cards show Tokyo"}') : brain(request, index)))
      try {
        const r = await runCliProcess(['--eval-suite', join(DIR, 'mcp-apps.suite.yaml'), '--base-url', llm.url, '--api-key', 'sk-test', '--conformance', 'off', '--output-dir', join(work, dir)], REPO)
        const doc = JSON.parse(readFileSync(join(work, dir, 'eval-results.json'), 'utf8')) as ResultsDocument
        return { code: r.code, doc }
      } finally {
        await llm.close()
      }
    }

    test("a model that searches passes the turn's tools, result and widget checks, the widget's screenshot judged on the rendered view", async () => {
      const { code, doc } = await scenario([search], 'apps-pass')
      const checks = doc.runs[0].dialogue?.turns?.[0]?.golden_assertions?.checks ?? []
      expect(checks.map((c) => [c.check, c.passed])).toEqual([
        ['tools', true],
        ['result', true],
        ['widget', true],
        ['widget', Boolean(probe.host)]
      ])
      expect(doc.evals_v1?.not_run).toEqual([])
      if (probe.host) {
        expect(code).toBe(0)
        expect(checks[3]!.reason).toContain('scored 9/10')
        expect(doc.runs[0].app_renders?.[0]).toMatchObject({ tool: 'search_destinations', status: 'rendered', resource_uri: 'ui://travel/destination-cards.html' })
      } else {
        expect(code).toBe(1)
        expect(checks[3]!.reason).toContain('has no screenshot')
      }
    })

    test('a model that also books a hotel fails on the forbidden tool', async () => {
      const { code, doc } = await scenario([search, { name: 'book_hotel', args: { city: 'Tokyo', nights: 1 } }], 'apps-forbidden')
      expect(code).toBe(1)
      expect(doc.runs[0].success).toBe(false)
    })
  })

  test('what the list and resource checks read is what the server says', async () => {
    const session = await createSessionFactory({ kind: 'stdio', command: process.execPath, args: [SERVER], env: {} }).open(AbortSignal.timeout(30_000))
    try {
      // blank: $[0].name and $[7].name of tools/list.
      expect([session.tools[0].name, session.tools[7].name]).toEqual(['get_weather', 'search_destinations'])
      // mcp-apps: the tool links its MCP Apps view, which the server lists.
      expect(session.tools[7].ui?.resource_uri).toBe('ui://travel/destination-cards.html')
      expect(session.resources.find((r) => r.uri === 'ui://travel/destination-cards.html')?.mime_type).toBe('text/html;profile=mcp-app')
      // starter: $.contents[0].text of travel://cities contains tokyo.
      expect((await session.readResource('travel://cities', AbortSignal.timeout(30_000))).text).toContain('tokyo')
    } finally {
      await session.close()
    }
  })
})
