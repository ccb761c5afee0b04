import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCliProcess } from '../__fixtures__/cli.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { scriptedBrain, startScriptedLlm, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'

// The CLI on an evals/v1 suite, as a real process in a directory of its own: the example server,
// the scripted model over HTTP. What it writes in output_dir, in @mcp-use/evals' shape.

let llm: ScriptedLlm
const dirs: string[] = []
beforeAll(async () => {
  llm = await startScriptedLlm(
    scriptedBrain(
      {
        'weather in Paris': { turns: [[{ name: 'get_weather', args: { city: 'Paris' } }]], answer: 'Light rain, 14 °C.' },
        'search for mango': { turns: [[{ name: 'search_fruit', args: { query: 'mango' } }]], answer: 'Found one mango.' }
      },
      () => 9
    )
  )
})
afterAll(async () => {
  await llm.close()
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }))
})

const SUITE = `apiVersion: mcp-use.com/evals/v1
kind: EvalSuite
name: travel-smoke
intent: The travel helper answers the weather.
metrics:
  gates:
    agentStepsP95Max: 2
flows:
  - id: main
    type: agent
    clients:
      - target: mcp-use
        models: [m/one]
      - target: chatgpt
        models: [gpt-4o]
    systemPrompts:
      default: You help with travel.
    scenarios:
      - id: weather-paris
        turns:
          - user: What's the weather in Paris?
        expect:
          judge:
            rubric: Gives the weather in Paris.
`

describe('the CLI on an evals/v1 suite', () => {
  test('writes results.json, metrics.json, report.md and our document in output_dir; the gate fails as there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evals-v1-cli-'))
    dirs.push(dir)
    writeFileSync(join(dir, 'smoke.suite.yaml'), SUITE)
    const server = JSON.stringify({ command: process.execPath, args: [fixturePath('../examples/server/server.mjs')] })
    const { code, stdout, stderr } = await runCliProcess(['--eval-suite', 'smoke.suite.yaml', '--server-config', server, '--base-url', llm.url, '--api-key', 'sk-test', '--conformance', 'off'], dir)
    expect([code, stderr]).toEqual([1, ''])
    expect(stdout).toContain('evals/v1: eval-results/results.json, eval-results/metrics.json')
    for (const file of ['results.json', 'metrics.json', 'report.md', 'eval-results.json']) expect([file, existsSync(join(dir, 'eval-results', file))]).toEqual([file, true])
    const results = JSON.parse(readFileSync(join(dir, 'eval-results', 'results.json'), 'utf8'))
    expect(results).toMatchObject({ suite: 'travel-smoke', passed: false, document: 'eval-results/eval-results.json', checks: [] })
    expect(results.scenarios.map((s: Record<string, unknown>) => [s.scenarioId, s.client, s.model, s.systemPrompt, s.success, s.judgePassed, s.agentSteps])).toEqual([['weather-paris', 'mcp-use', 'm/one', 'default', true, true, 3]])
    expect(results.metrics).toEqual(JSON.parse(readFileSync(join(dir, 'eval-results', 'metrics.json'), 'utf8')))
    expect(results.metrics.gates).toEqual({ passed: false, violations: ['agentStepsP95 3 > 2'] })
    expect(results.metrics.byClient).toEqual({ 'mcp-use': { passRate: 1, count: 1 } })
    const report = readFileSync(join(dir, 'eval-results', 'report.md'), 'utf8')
    expect(report).toContain('## evals/v1 suite travel\\-smoke')
    expect(report).toContain('⏭ chatgpt in flow main, not run:')
    expect(report).toContain('❌ `agentStepsP95Max: 2` (the budget `max_agent_steps_p95`): agent steps p95 3')
  })

  test('a scenario whose result check failed while its tools and widget held: each pass flag from its own checks, one error per failed assertion', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evals-v1-cli-'))
    dirs.push(dir)
    writeFileSync(
      join(dir, 'fruit.suite.yaml'),
      `apiVersion: mcp-use.com/evals/v1
kind: EvalSuite
name: fruit
flows:
  - id: main
    type: agent
    clients: [{target: mcp-use, models: [m/one]}]
    systemPrompts: {default: You sell fruit.}
    scenarios:
      - id: fruit-search
        turns:
          - user: search for mango
            expect:
              tools: [{name: search_fruit, args: {query: mango}}]
              result:
                tool: search_fruit
                assert:
                  - {kind: jsonpath, path: "$.structuredContent.total", equals: 2}
                  - {kind: contains, path: "$.structuredContent.query", contains: MANGO}
                  - {kind: jsonpath, path: "$.structuredContent.results[0].color", equals: green}
              widget: {fields: {query: mango}}
`
    )
    const server = JSON.stringify({ command: process.execPath, args: [fixturePath('servers/scenario-server.mjs')] })
    const { code, stderr } = await runCliProcess(['--eval-suite', 'fruit.suite.yaml', '--server-config', server, '--base-url', llm.url, '--api-key', 'sk-test', '--conformance', 'off'], dir)
    expect([code, stderr]).toEqual([1, ''])
    const results = JSON.parse(readFileSync(join(dir, 'eval-results', 'results.json'), 'utf8'))
    const [scenario] = results.scenarios
    expect([scenario.success, scenario.toolTracePassed, scenario.resultPassed, scenario.widgetPassed, scenario.judgePassed]).toEqual([false, true, false, true, null])
    expect(scenario.errors).toHaveLength(2)
    expect(scenario.errors.join('\n')).toMatch(/total[\s\S]*color/)
    expect(scenario.toolCalls).toEqual([{ tool: 'search_fruit', args: { query: 'mango' }, turnIndex: 0, result: expect.objectContaining({ structuredContent: expect.objectContaining({ query: 'mango', total: 1 }) }), structuredContent: expect.objectContaining({ total: 1 }) }])
    expect(results.metrics.scenarios).toEqual({ total: 1, passed: 0, passRate: 0, agentStepsP95: 3, toolErrorRate: 2 })
  })
})
