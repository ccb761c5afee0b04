import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { evalsV1Section } from '../__fixtures__/evals-v1.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { runOptions } from '../__fixtures__/options.js'
import { scriptedBrain, startScriptedLlm, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { reportCommand } from '../src/cli/report.js'
import { prepare } from '../src/config/prepare.js'
import { evaluate } from '../src/evaluate.js'
import { readJournal } from '../src/execute/journal.js'

// An evals/v1 suite's section and gates through the real evaluation: the example server as a
// child process, the scripted model over HTTP, the journal on disk, `report --from` on it.

let llm: ScriptedLlm
const dirs: string[] = []
beforeAll(async () => {
  llm = await startScriptedLlm(scriptedBrain({ 'weather in Paris': { turns: [[{ name: 'get_weather', args: { city: 'Paris' } }]], answer: 'Light rain, 14 °C.' } }, () => 9))
})
afterAll(async () => {
  await llm.close()
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }))
})

const SUITE = `models: [m/one]
system_prompts: {default: "You help."}
budgets:
  max_agent_steps_p95: 2
  max_tool_error_rate: 0
cases:
  - id: weather
    prompt: What's the weather in Paris?
    rubric: Gives the weather in Paris.
    required_tools: [get_weather]
`

describe('an evals/v1 suite evaluated', () => {
  test('its section is in the document and the journal; its gates fail as @mcp-use/evals’ do; report --from writes results.json and metrics.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evals-v1-evaluate-'))
    dirs.push(dir)
    writeFileSync(join(dir, 'evals.yaml'), SUITE)
    const serverConfig = JSON.stringify({ command: process.execPath, args: [fixturePath('../examples/server/server.mjs')] })
    const prepared = prepare(runOptions(dir, { serverConfig, baseUrl: llm.url, conformance: 'off' }), {})
    const section = evalsV1Section({ flows: [{ id: 'main', checks: [], scenarios: ['weather'] }], gates: { toolErrorRateMax: 0, agentStepsP95Max: 2, tokensPerSuccessP95Max: null } })
    const doc = await evaluate({ ...prepared, suite: { ...prepared.suite, evals_v1: section } })

    expect(doc.evals_v1).toEqual(section)
    expect(doc.runs.map((r) => [r.case_id, r.status])).toEqual([['weather', 'passed']])
    // Two model answers and one tool call: 3 steps, over 2; no error: within 0.
    expect(doc.telemetry?.budgets.map((c) => [c.budget, c.actual, c.passed])).toEqual([
      ['max_tool_error_rate', 0, true],
      ['max_agent_steps_p95', 3, false]
    ])
    expect(doc.passed).toBe(false)
    expect(readJournal(join(dir, 'eval-runs.jsonl')).state.header.evals_v1).toEqual(section)

    // From the journal: beside it, where the run would have written them.
    const io = { stdout: { write: () => true }, stderr: { write: () => true } }
    expect(reportCommand(['--from', join(dir, 'eval-runs.jsonl'), '--output', join(dir, 'eval-results.json'), '--report', join(dir, 'report.md')], io)).toBe(1)
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'))
    expect(results).toMatchObject({ suite: 'smoke', passed: false, document: join(dir, 'eval-results.json'), checks: [], metrics: { gates: { passed: false, violations: ['agentStepsP95 3 > 2'] } } })
    expect(results.scenarios.map((s: { scenarioId: string; agentSteps: number; success: boolean; toolCalls: { tool: string }[] }) => [s.scenarioId, s.agentSteps, s.success, s.toolCalls.map((c) => c.tool)])).toEqual([['weather', 3, true, ['get_weather']]])
    expect(JSON.parse(readFileSync(join(dir, 'metrics.json'), 'utf8'))).toEqual(results.metrics)
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain('## evals/v1 suite smoke')
    // --output-dir puts them elsewhere; from the saved document too (its results not written again).
    const elsewhere = join(dir, 'elsewhere')
    expect(reportCommand(['--from', join(dir, 'eval-results.json'), '--report', join(dir, 'again.md'), '--output-dir', elsewhere], io)).toBe(1)
    expect(JSON.parse(readFileSync(join(elsewhere, 'results.json'), 'utf8'))).toEqual({ ...results, document: null })
  })
})
