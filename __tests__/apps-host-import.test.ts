import { describe, expect, jest, test } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { runOptions } from '../__fixtures__/options.js'
import type { AppHostOpening, AppHostOptions } from '../src/apps/types.js'
import type { AppTest } from '../src/config/types.js'

// The engine's default browser host is src/apps/host.ts, imported only when a render is asked for:
// mocked here, so that what the engine gives openAppHost is seen, and that a suite without apps
// never loads it (nor playwright behind it).

let loads = 0
const calls: AppHostOptions[] = []
jest.unstable_mockModule('../src/apps/host.js', () => {
  loads++
  return {
    openAppHost: async (options: AppHostOptions): Promise<AppHostOpening> => {
      calls.push(options)
      return { host: null, reason: 'the mocked host has no browser' }
    }
  }
})
const { prepare } = await import('../src/config/prepare.js')
const { evaluate } = await import('../src/evaluate.js')

const app: AppTest = { actions: [], text_contains: ['Dashboard'], selector: [], fields: {}, judge: null }

function prepared(withApp: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'apps-import-'))
  writeFileSync(join(dir, 'evals.yaml'), 'tool_tests:\n  - { id: dash, tool: show_dashboard, args: {} }\n')
  const server = JSON.stringify({ command: process.execPath, args: [fixturePath('servers/model-view-server.mjs'), `STATE_FILE=${join(dir, 'state.json')}`] })
  const p = prepare(runOptions(dir, { serverConfig: server, conformance: 'off', baseUrl: 'http://127.0.0.1:9', outputDir: join(dir, 'out'), concurrency: '3' }), {})
  if (withApp) p.suite.tool_tests[0]!.steps[0]!.app = app
  return { p, dir }
}

describe('the default browser host', () => {
  test('a suite without apps never imports it', async () => {
    const { p } = prepared(false)
    const doc = await evaluate(p)
    expect(loads).toBe(0)
    expect(doc).not.toHaveProperty('apps')
  })

  test('imported on the first render, given the run options (chrome_path, the output directory, the render timeout, concurrency, the secrets)', async () => {
    const { p, dir } = prepared(true)
    Object.assign(p.options, { chromePath: '/opt/chrome/chrome' })
    const warnings: string[] = []
    const doc = await evaluate(p, { onWarning: (m) => warnings.push(m) })
    expect(loads).toBe(1)
    expect(calls).toEqual([{ chromePath: '/opt/chrome/chrome', env: process.env, outputDir: join(dir, 'out'), renderTimeoutMs: 15_000, concurrency: 3, secrets: p.secrets }])
    expect(warnings).toEqual(['MCP Apps: the views are not rendered: the mocked host has no browser'])
    expect(doc.tool_tests!.tests[0]!.attempts[0]!.steps[0]!.app).toMatchObject({ id: 'tool-test.dash.1.step-1', status: 'skipped', reason: 'the mocked host has no browser' })
    expect(doc.apps).toMatchObject({ status: 'skipped', reason: 'the mocked host has no browser', renders: 1, failed: 0 })
  })
})
