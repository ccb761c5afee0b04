import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as core from '../__fixtures__/core.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { answer, kindOf, startScriptedLlm, steps, verdict, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'

// The action on an evals/v1 suite: its outputs point at eval-action's files in output_dir.
const realCore = await import('@actions/core')
jest.unstable_mockModule('@actions/core', () => ({ ...realCore, ...core }))
const { run } = await import('../src/main.js')

const SUITE = `apiVersion: mcp-use.com/evals/v1
kind: EvalSuite
name: smoke
metrics:
  gates:
    agentStepsP95Max: 0
flows:
  - id: main
    type: agent
    clients: [{target: mcp-use, models: [m/one]}]
    systemPrompts: {default: "You help."}
    scenarios:
      - id: hello
        turns: [{user: hello}]
        expect: {judge: {rubric: Greets back.}}
`

describe('the action on an evals/v1 suite', () => {
  let llm: ScriptedLlm
  const startDir = process.cwd()
  beforeAll(async () => {
    llm = await startScriptedLlm((req) => (kindOf(req) === 'steps' ? steps(req.model) : kindOf(req) === 'score' ? verdict(req.model, 9, 'greets') : answer(req.model, 'Hello!')))
  })
  afterAll(async () => {
    await llm.close()
    process.chdir(startDir)
  })

  test('results_json and report_md are results.json and report.md in output_dir; passed includes the gates', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'evals-v1-action-'))
    process.chdir(cwd)
    process.env.RUNNER_TEMP = cwd
    for (const key of Object.keys(core.inputs)) delete core.inputs[key]
    writeFileSync('smoke.suite.yaml', SUITE)
    Object.assign(core.inputs, {
      eval_suite: 'smoke.suite.yaml',
      server_config: JSON.stringify({ command: process.execPath, args: [fixturePath('../examples/server/server.mjs')] }),
      openrouter_api_key: 'sk-or-v1-abcdef',
      base_url: llm.url,
      conformance: 'off'
    })
    expect(await run()).toBe(1)
    const outputs = Object.fromEntries(core.setOutput.mock.calls)
    expect([outputs.results_json, outputs.report_md, outputs.passed]).toEqual(['eval-results/results.json', 'eval-results/report.md', 'false'])
    const results = JSON.parse(readFileSync(join(cwd, 'eval-results', 'results.json'), 'utf8'))
    expect([results.suite, results.passed, results.metrics.gates, results.document]).toEqual(['smoke', false, { passed: false, violations: ['agentStepsP95 1 > 0'] }, 'eval-results/eval-results.json'])
    expect(existsSync(join(cwd, 'eval-results', 'metrics.json'))).toBe(true)
    expect(core.setFailed).toHaveBeenCalledWith(expect.stringContaining('max_agent_steps_p95'))
  })
})
