import { afterAll, beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as core from '../__fixtures__/core.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { answer, kindOf, startScriptedLlm, steps, verdict, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { telemetryShape } from '../__fixtures__/report-shapes.js'

// The real module, with the functions under test replaced (the toolkit's other modules use the rest).
const realCore = await import('@actions/core')
jest.unstable_mockModule('@actions/core', () => ({ ...realCore, ...core }))
const { run } = await import('../src/main.js')
const { setActionOutputs } = await import('../src/github/publish.js')

describe('run() glues inputs, engine and outputs', () => {
  let llm: ScriptedLlm
  let cwd: string
  const startDir = process.cwd()

  beforeAll(async () => {
    llm = await startScriptedLlm((req) => (kindOf(req) === 'steps' ? steps(req.model) : kindOf(req) === 'score' ? verdict(req.model, 3, 'weak') : answer(req.model, `I was told: ${req.messages[0].content}`)))
  })
  afterAll(async () => llm.close())
  beforeEach(() => {
    cwd = mkdtempSync(join(tmpdir(), 'main-'))
    process.chdir(cwd)
    process.env.RUNNER_TEMP = cwd
    for (const key of Object.keys(core.inputs)) delete core.inputs[key]
    core.summaryText.length = 0
    Object.assign(core.inputs, {
      server_config: JSON.stringify({ command: process.execPath, args: [fixturePath('../examples/server/server.mjs')], env: { DB_PASSWORD: 'hunter2-very-secret' } }),
      eval_cases: 'evals.yaml',
      openrouter_api_key: 'sk-or-v1-abcdef',
      base_url: llm.url
    })
    writeFileSync('evals.yaml', 'system_prompts: {d: "Say hunter2-very-secret"}\ncases:\n  - {id: one, prompt: hello, rubric: greets}\n')
  })
  afterAll(() => process.chdir(startDir))

  test('a failing eval: outputs first, then one setFailed; secrets masked', async () => {
    expect(await run()).toBe(1)
    expect(core.setSecret).toHaveBeenCalledWith('hunter2-very-secret')
    expect(core.setSecret).toHaveBeenCalledWith('sk-or-v1-abcdef')
    expect(Object.fromEntries(core.setOutput.mock.calls)).toEqual({
      results_json: 'eval-results.json',
      report_md: 'eval-report.md',
      report_html: 'eval-report.html',
      sarif: 'eval-results.sarif',
      passed: 'false',
      pass_rate: '0',
      tool_tests_total: '0',
      tool_tests_failed: '0',
      cost_usd: expect.stringMatching(/^0\.\d+$/),
      total: '1',
      failed: '1',
      junit_xml: 'eval-junit.xml',
      badge_json: 'eval-badge.json',
      cancelled: 'false',
      journal: 'eval-runs.jsonl',
      run_dirs: ''
    })
    // The failed run is an annotation too; no artifact service here is a warning, not a failure.
    expect(core.error).toHaveBeenCalledWith(expect.stringContaining('judge 30% < threshold 70%'), { title: 'Eval failed: one · openai/gpt-4o-mini · d' })
    expect(core.warning).toHaveBeenCalledWith(expect.stringContaining('The artifact service is not available here'))
    expect(core.setFailed).toHaveBeenCalledTimes(1)
    expect(core.setFailed).toHaveBeenCalledWith('1 of 1 eval did not pass; not passing: one · openai/gpt-4o-mini · d')
    expect(core.setOutput.mock.invocationCallOrder[0]).toBeLessThan(core.setFailed.mock.invocationCallOrder[0])
    const results = readFileSync(join(cwd, 'eval-results.json'), 'utf8')
    expect(results).not.toContain('hunter2-very-secret')
    expect(results).toContain('Say ***')
    // The HTML report is rendered from the same redacted document.
    const html = readFileSync(join(cwd, 'eval-report.html'), 'utf8')
    expect(html).not.toContain('hunter2-very-secret')
    expect(html).toContain('Say ***')
    expect(core.summaryText.join('')).toContain('# Eval Report')
  })

  test('job_summary: false writes no summary; a summary failure is only a warning', async () => {
    core.inputs.job_summary = 'false'
    await run()
    expect(core.summaryText).toEqual([])
    core.inputs.job_summary = 'true'
    core.summaryWrite.mockRejectedValueOnce(new Error('Unable to find environment variable for $GITHUB_STEP_SUMMARY'))
    await run()
    expect(core.warning).toHaveBeenCalledWith(expect.stringContaining('Could not write the job summary'))
  })

  test('bad input: the error names it and outputs are still set', async () => {
    core.inputs.max_steps = 'lots'
    // The exit code of bad configuration; run() leaves process.exitCode alone.
    expect(await run()).toBe(2)
    expect(process.exitCode ?? 0).toBe(0)
    expect(core.setFailed).toHaveBeenCalledWith("input 'max_steps': must be a whole number, got 'lots'")
    expect(core.setOutput).toHaveBeenCalledWith('passed', 'false')
    expect(readFileSync(join(cwd, 'eval-report.md'), 'utf8')).toContain('Evals failed to produce results')
  })

  test('a bad publishing input is named, and the summary is still written', async () => {
    core.inputs.retention_days = '200'
    await run()
    expect(core.setFailed).toHaveBeenCalledWith("input 'retention_days': must be between 1 and 90, got 200")
    expect(core.summaryText.join('')).toContain('Evals failed to produce results')
  })

  test('comment: true outside a pull request is one warning', async () => {
    core.inputs.comment = 'true'
    await run()
    expect(core.warning).toHaveBeenCalledWith(expect.stringMatching(/^No PR comment: comment is "true" but this .*event is not a pull request\.$/))
  })

  test('no requests reach the model when the configuration is invalid', async () => {
    const before = llm.requests.length
    writeFileSync('evals.yaml', 'system_prompts: {d: x}\ncases:\n  - {id: one, prompt: hello, rubric: r, required_tools: [{name: t, args: {q: {pattern: "(["}}}]}\n')
    await run()
    expect(llm.requests.length).toBe(before)
    expect(core.error).toHaveBeenCalledWith(expect.stringContaining('invalid regular expression'), expect.objectContaining({ file: 'evals.yaml', startLine: 3 }))
  })
})

describe('the cost_usd output', () => {
  const costOutput = (spent: number | null) => {
    core.setOutput.mockClear()
    const doc = telemetryShape()
    setActionOutputs({ ...doc, telemetry: { ...doc.telemetry!, overall: { ...doc.telemetry!.overall, spent_usd: spent } } }, { resultsPath: 'r.json', reportPath: 'r.md' })
    return core.setOutput.mock.calls.find(([name]) => name === 'cost_usd')?.[1]
  }

  test('is what was spent, and empty (never 0) when a cost is unknown', () => {
    expect(costOutput(0.0123)).toBe('0.0123')
    expect(costOutput(0)).toBe('0')
    expect(costOutput(null)).toBe('')
  })
})

describe('the run_dirs output', () => {
  const runDirsOutput = (dirs: (string | null)[]) => {
    core.setOutput.mockClear()
    const doc = telemetryShape()
    const runs = dirs.map((run_dir, i) => ({ ...doc.runs[i % doc.runs.length], run_dir }))
    setActionOutputs({ ...doc, runs }, { resultsPath: 'r.json', reportPath: 'r.md' })
    return core.setOutput.mock.calls.find(([name]) => name === 'run_dirs')?.[1]
  }

  test('names the directory holding the kept run directories of failed runs, and is empty when none was kept', () => {
    expect(runDirsOutput([null, '/runner/tmp/mcp-server-evals-run-dirs/002-crash-AbC123', '/runner/tmp/mcp-server-evals-run-dirs/004-crash-XyZ789'])).toBe('/runner/tmp/mcp-server-evals-run-dirs')
    expect(runDirsOutput([null, null])).toBe('')
  })
})
