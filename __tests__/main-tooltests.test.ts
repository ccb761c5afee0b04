import { afterAll, beforeEach, describe, expect, jest, test } from '@jest/globals'
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as core from '../__fixtures__/core.js'
import { fixturePath } from '../__fixtures__/harness.js'

// The action's glue for tool tests: outputs, annotations, and the snapshots it wrote in the artifact.
const realCore = await import('@actions/core')
jest.unstable_mockModule('@actions/core', () => ({ ...realCore, ...core }))
const uploaded: string[][] = []
jest.unstable_mockModule('../src/github/artifact.js', () => ({
  uploadResultsArtifact: async (_name: string, files: string[]) => {
    uploaded.push(files)
    return 7
  },
  uploadHtmlArtifact: async () => 8
}))
const { run } = await import('../src/main.js')
const { openAppHost } = await import('../src/apps/host.js')
const probe = await openAppHost({ chromePath: '', env: process.env, outputDir: tmpdir(), renderTimeoutMs: 1000, concurrency: 1, secrets: [] })
await probe.host?.close()

describe('run() with tool tests', () => {
  const startDir = process.cwd()
  let cwd = ''
  beforeEach(() => {
    cwd = realpathSync(mkdtempSync(join(tmpdir(), 'main-tooltests-')))
    process.chdir(cwd)
    process.env.RUNNER_TEMP = cwd
    uploaded.length = 0
    for (const key of Object.keys(core.inputs)) delete core.inputs[key]
    Object.assign(core.inputs, {
      server_config: JSON.stringify({ command: process.execPath, args: [fixturePath('servers/inventory-server.mjs')] }),
      eval_cases: 'evals.yaml',
      conformance: 'off',
      update_snapshots: 'true'
    })
    writeFileSync(
      'evals.yaml',
      'tool_tests:\n  - { id: new-order, tool: create_order, args: { item_id: ITM-005, quantity: 1 }, expect: { snapshot: { ignore: ["$.created_at"] } } }\n  - { id: wrong-bin, tool: get_item, args: { id: ITM-005 }, expect: { json: { "$.bin": Z-00 } } }\n'
    )
  })
  afterAll(() => process.chdir(startDir))

  test('no key needed; a failing tool test is an annotation and counts in the outputs; written snapshots go into the artifact', async () => {
    process.env.ACTIONS_RUNTIME_TOKEN = 'x'
    process.env.ACTIONS_RESULTS_URL = 'http://127.0.0.1:9/'
    try {
      expect(await run()).toBe(1)
    } finally {
      delete process.env.ACTIONS_RUNTIME_TOKEN
      delete process.env.ACTIONS_RESULTS_URL
    }
    const outputs = Object.fromEntries(core.setOutput.mock.calls)
    expect(outputs).toMatchObject({ passed: 'false', tool_tests_total: '2', tool_tests_failed: '1', total: '0' })
    expect(core.error).toHaveBeenCalledWith(expect.stringContaining('$.bin'), { title: 'Tool test failed: wrong-bin' })
    expect(uploaded).toHaveLength(1)
    expect(uploaded[0]).toContain(join(cwd, '__snapshots__', 'new-order.json'))
  })

  // Skipped where no browser is found (CI installs one).
  ;(probe.host ? test : test.skip)('an app test’s screenshot goes into the artifact beside the report', async () => {
    core.inputs.server_config = JSON.stringify({ command: process.execPath, args: [fixturePath('../examples/server/server.mjs')] })
    core.inputs.update_snapshots = 'false'
    writeFileSync('evals.yaml', 'tool_tests:\n  - { id: cards, tool: search_destinations, args: { query: tokyo }, app: { text_contains: Tokyo } }\n')
    process.env.ACTIONS_RUNTIME_TOKEN = 'x'
    process.env.ACTIONS_RESULTS_URL = 'http://127.0.0.1:9/'
    try {
      expect(await run()).toBe(0)
    } finally {
      delete process.env.ACTIONS_RUNTIME_TOKEN
      delete process.env.ACTIONS_RESULTS_URL
    }
    expect(uploaded).toHaveLength(1)
    expect(uploaded[0]).toContain(join(cwd, 'apps', 'tool-test.cards.1.step-1.png'))
  }, 60_000)
})
