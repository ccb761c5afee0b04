import { afterAll, beforeEach, describe, expect, jest, test } from '@jest/globals'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as core from '../__fixtures__/core.js'
import { fixturePath } from '../__fixtures__/harness.js'

// The action on an evals/v1 suite: eval_suite, the suite's own server, output_dir's default for the
// files and the outputs, and @mcp-use/evals' runner inputs accepted with one notice.

const realCore = await import('@actions/core')
jest.unstable_mockModule('@actions/core', () => ({ ...realCore, ...core }))
const { run } = await import('../src/main.js')

const SUITE = `apiVersion: mcp-use.com/evals/v1
kind: EvalSuite
name: action
server:
  command: '${process.execPath}'
  args: ['${fixturePath('../examples/server/server.mjs')}']
flows:
  - id: main
    type: agent
    scenarios: [{id: s1, turns: [{user: hi}]}]
`

describe('the action with eval_suite', () => {
  const startDir = process.cwd()
  beforeEach(() => {
    const cwd = mkdtempSync(join(tmpdir(), 'evals-v1-action-'))
    process.chdir(cwd)
    process.env.RUNNER_TEMP = cwd
    for (const key of Object.keys(core.inputs)) delete core.inputs[key]
    core.notice.mockClear()
    core.setOutput.mockClear()
    writeFileSync('suite.yaml', SUITE)
    Object.assign(core.inputs, { eval_suite: 'suite.yaml', conformance: 'only', upload_artifact: 'false', comment: 'false', job_summary: 'false', save_baseline: 'never', evals_version: 'latest', node_version: '20' })
  })
  afterAll(() => process.chdir(startDir))

  test('no server_config needed; the files and outputs in eval-results/; one notice for evals_version and node_version', async () => {
    expect(await run()).toBe(0)
    const ignored = core.notice.mock.calls.filter(([message]) => String(message).includes('accepted and ignored'))
    expect(ignored).toEqual([['evals_version and node_version: accepted and ignored: MCP Server Evals is the runner itself (it runs no @mcp-use/evals package and sets up no Node.js), so no version is read.', { title: 'MCP Server Evals' }]])
    const outputs = Object.fromEntries(core.setOutput.mock.calls)
    // results_json is eval-action's results.json (area D), beside our own document.
    expect([outputs.results_json, outputs.report_md, outputs.journal]).toEqual([join('eval-results', 'results.json'), join('eval-results', 'report.md'), join('eval-results', 'eval-runs.jsonl')])
    expect(existsSync(join('eval-results', 'eval-results.json'))).toBe(true)
    expect(existsSync(join('eval-results', 'report.md'))).toBe(true)
  })

  test('eval_cases and eval_suite together: a configuration error naming both, exit 2', async () => {
    core.inputs.eval_cases = 'suite.yaml'
    expect(await run()).toBe(2)
    expect(core.setFailed).toHaveBeenCalledWith(expect.stringContaining("input 'eval_suite': cannot be given together with the eval_cases input"))
  })
})
