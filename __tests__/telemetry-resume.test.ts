import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { scriptedBrain, startScriptedLlm, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { prepare } from '../src/config/prepare.js'
import { evaluate } from '../src/evaluate.js'
import { runOptions } from '../__fixtures__/options.js'

// max_cost_usd across a resume: the runs an earlier attempt finished are in the document's
// spend, so they are on the meter that stops new runs too. The scripted model reports
// OpenRouter-style costs ($0.00015 per call).
let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm(scriptedBrain({ 'fast thing': { turns: [[{ name: 'fast', args: {} }]], answer: 'Done fast.' } }, () => 9))
})
afterAll(async () => llm.close())

function optionsFor(dir: string, values: Record<string, string>) {
  const serverConfig = JSON.stringify({ command: process.execPath, args: [fixturePath('servers/telemetry-server.mjs')] })
  return runOptions(dir, { serverConfig, baseUrl: llm.url, conformance: 'off', parallel: 'false', ...values })
}

describe('max_cost_usd on a resumed attempt', () => {
  test('the reused runs count on the meter: over the budget already, no new run starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'layer3-resume-'))
    const cases = ['one', 'two', 'three'].map((id) => `  - id: ${id}\n    prompt: Do the fast thing (${id}).\n    rubric: Says it is done.\n    required_tools: [fast]\n`).join('')
    writeFileSync(join(dir, 'evals.yaml'), `models: [m/one]\nsystem_prompts: {d: "You help."}\nbudgets:\n  max_cost_usd: 0.0004\ncases:\n${cases}`)
    // Attempt 1 runs case `one` only: 2 agent calls + its score ($0.00045) + the steps, over the budget.
    const first = await evaluate(prepare(optionsFor(dir, { filter: 'one' }), {}))
    expect(first.runs.map((r) => [r.case_id, r.status])).toEqual([['one', 'passed']])
    // Attempt 2 reuses it: the spend is over max_cost_usd before any new run, so none starts.
    const second = await evaluate(prepare(optionsFor(dir, { resume: 'true' }), {}))
    expect(second.runs.map((r) => [r.case_id, r.status])).toEqual([
      ['one', 'passed'],
      ['two', 'skipped'],
      ['three', 'skipped']
    ])
    expect(second.telemetry!.skipped_runs).toBe(2)
    expect(second.passed).toBe(false)
  })
})
