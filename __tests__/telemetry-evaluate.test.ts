import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { scriptedBrain, startScriptedLlm, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { prepare } from '../src/config/prepare.js'
import { evaluate } from '../src/evaluate.js'
import { writeResults } from '../src/output/write-results.js'
import { renderBadge } from '../src/report/badge.js'
import { renderJUnit } from '../src/report/junit.js'
import { formatSummaryLine } from '../src/report/progress.js'
import { runOptions } from '../__fixtures__/options.js'

// Layer 3 budgets through evaluate(): a real server whose `slow` tool really waits, and a scripted
// model that reports OpenRouter-style costs ($0.00015 per call).
let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm(
    scriptedBrain(
      {
        'slow thing': { turns: [[{ name: 'slow', args: { label: 'a' } }]], answer: 'Done slowly.' },
        'fast thing': { turns: [[{ name: 'fast', args: {} }]], answer: 'Done fast.' }
      },
      () => 9
    )
  )
})
afterAll(async () => llm.close())

const SERVER = fixturePath('servers/telemetry-server.mjs')

function optionsFor(dir: string, serverArgs: string[], values: Record<string, string> = {}) {
  return runOptions(dir, { serverConfig: JSON.stringify({ command: process.execPath, args: [SERVER, ...serverArgs] }), baseUrl: llm.url, conformance: 'off', ...values })
}

function suite(dir: string, extra: string, cases = 2): void {
  const entries = Array.from({ length: cases }, (_, i) => `  - id: slow-${i + 1}\n    prompt: Do the slow thing ${i + 1}.\n    rubric: Says it is done.\n    required_tools: [slow]\n`).join('')
  writeFileSync(
    join(dir, 'evals.yaml'),
    `models: [m/one]\nsystem_prompts: {d: "You help."}\n${extra}cases:\n${entries}  - id: fast\n    prompt: Do the fast thing.\n    rubric: Says it is done.\n    required_tools: [fast]\n`
  )
}

describe('Layer 3 budgets through evaluate()', () => {
  test('a slow tool fails max_p95_tool_ms, and the gate names the tool, its p95 and the budget', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'layer3-'))
    // Far apart: on a loaded runner the `fast` tool's single call alone can take a few hundred ms.
    suite(dir, 'budgets:\n  max_p95_tool_ms: 1000\n')
    const doc = await evaluate(prepare(optionsFor(dir, ['DELAY_MS=1500'], { concurrency: '3' }), {}))
    expect(doc.passed).toBe(false)
    const slow = doc.telemetry!.tools.find((t) => t.name === 'slow')!
    expect(slow.calls).toBe(2)
    expect(slow.latency_ms.p95).toBeGreaterThanOrEqual(1500)
    const failed = doc.telemetry!.budgets.filter((b) => !b.passed)
    expect(failed.map((b) => [b.budget, b.subject])).toEqual([['max_p95_tool_ms', 'slow']])
    expect(doc.telemetry!.budgets.find((b) => b.subject === 'fast')).toMatchObject({ passed: true })
    expect(doc.gate!.reasons.join('\n')).toMatch(/'slow'.*max_p95_tool_ms \(1,000 ms\)/)
    // Every run passed on its own: the budget alone fails the evaluation.
    expect(doc.summary.passed).toBe(3)
    const { report } = writeResults(doc, { resultsPath: undefined, reportPath: join(dir, 'r.md') }, [])
    expect(report).toContain('max_p95_tool_ms')
    // Every run passed, and still the badge does not say green.
    expect(renderBadge(doc)).toMatchObject({ message: '100% (3/3) · over budget', color: 'red' })
  })

  test("a tool's own budget in budgets.tools wins over max_p95_tool_ms", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'layer3-'))
    suite(dir, 'budgets:\n  max_p95_tool_ms: 1000\n  tools:\n    slow: { max_p95_ms: 5000 }\n', 1)
    const doc = await evaluate(prepare(optionsFor(dir, ['DELAY_MS=1500']), {}))
    expect(doc.telemetry!.budgets.filter((b) => !b.passed)).toEqual([])
    expect(doc.telemetry!.budgets.find((b) => b.subject === 'slow')).toMatchObject({ budget: 'tools.max_p95_ms', limit: 5000, passed: true })
    expect(doc.passed).toBe(true)
  })

  test('max_cost_usd is enforced while running: once the spend reaches it no new run starts, and the rest are recorded skipped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'layer3-'))
    // One at a time: run 1 spends 2 agent calls + the steps + its score = $0.0006; run 2 starts
    // under the budget and ends over it; runs 3 and 4 never start.
    suite(dir, 'budgets:\n  max_cost_usd: 0.0007\n', 3)
    const doc = await evaluate(prepare(optionsFor(dir, [], { parallel: 'false' }), {}))
    expect(doc.runs.map((r) => r.status)).toEqual(['passed', 'passed', 'skipped', 'skipped'])
    const skipped = doc.runs[2]
    expect(skipped.skipped).toEqual({ reason: 'budget', detail: expect.stringContaining('max_cost_usd') })
    expect(skipped.llm_calls).toEqual([])
    // Its server had started (one at a time, the next run's server starts ahead of its slot) and
    // was sent the trace context before the budget stopped it: the trace is kept.
    expect(skipped.trace_id).toMatch(/^[0-9a-f]{32}$/)
    expect(skipped.tool_calls).toEqual([])
    expect(doc.summary).toMatchObject({ total: 4, passed: 2, failed: 0, skipped: 2 })
    expect(doc.telemetry!.skipped_runs).toBe(2)
    // No call was made for the skipped runs: 2 runs × (2 agent + 1 score) + 1 steps.
    expect(doc.telemetry!.overall.spent_usd).toBeCloseTo(7 * 0.00015, 8)
    expect(doc.passed).toBe(false)
    // Said once, by the budget: the two groups it skipped are not also "did not pass".
    expect(doc.gate!.reasons).toEqual([expect.stringMatching(/^max_cost_usd: .*2 runs were skipped/)])
    expect(renderJUnit(doc)).toMatch(/<skipped message="[^"]*max_cost_usd/)
    expect(formatSummaryLine(doc)).toMatch(/, 2 skipped \(budget\) · 1 budget exceeded · [\d,]+ tokens · \$0\.00\d+ spent · /)
  })

  test('a run that started is never skipped: under the budget everything runs, and the check says how much was spent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'layer3-'))
    suite(dir, 'budgets:\n  max_cost_usd: 1\n', 1)
    const doc = await evaluate(prepare(optionsFor(dir, []), {}))
    expect(doc.summary.skipped).toBe(0)
    expect(doc.telemetry!.budgets.find((b) => b.budget === 'max_cost_usd')).toMatchObject({ passed: true, limit: 1 })
    expect(doc.runs.every((r) => /^[0-9a-f]{32}$/.test(r.trace_id ?? ''))).toBe(true)
    expect(doc.passed).toBe(true)
  })

  test('max_p95_increase against a baseline: the same suite with a slower tool fails, naming the tool and both figures', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'layer3-'))
    // 20 calls of `slow` a side, the fewest whose p95 is compared; a rise of a second or more, past the 200 ms floor (the 20 ms
    // tool's p95 alone can reach 500 ms on a loaded machine: fresh server processes, contended cores).
    suite(dir, 'budgets:\n  max_p95_increase: 0.5\n', 20)
    const before = await evaluate(prepare(optionsFor(dir, ['DELAY_MS=20']), {}))
    expect(before.passed).toBe(true)
    writeResults(before, { resultsPath: join(dir, 'baseline.json'), reportPath: join(dir, 'b.md') }, [])
    const after = await evaluate(prepare(optionsFor(dir, ['DELAY_MS=1500'], { baseline: join(dir, 'baseline.json') }), {}))
    const trend = after.gate!.trends.find((t) => t.subject === 'slow')!
    expect(trend).toMatchObject({ budget: 'max_p95_increase', passed: false, limit: 0.5 })
    expect(trend.actual).toBeGreaterThanOrEqual(1500)
    expect(trend.actual! - trend.baseline!).toBeGreaterThan(200)
    expect(trend.reason).toMatch(/over 20 and 20 calls\), more than max_p95_increase \(\+50%\) and its 200 ms floor$/)
    expect(after.gate!.reasons.join('\n')).toContain(trend.reason)
    expect(after.passed).toBe(false)
    expect(after.changes!.tool_latency.find((t) => t.name === 'slow')!.p95_ms.current).toBe(trend.actual)
  })
})
