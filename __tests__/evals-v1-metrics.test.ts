import { describe, expect, test } from '@jest/globals'
import { evalsRun, evalsV1Document, failedEvalsRun, goldenCheck, turn } from '../__fixtures__/evals-v1.js'
import { agentStepsOf, evalsV1Figures, evalsV1Metrics, p95, runErrors, usageOf } from '../src/aggregate/evals-v1-metrics.js'
import { evaluateGate } from '../src/aggregate/gate.js'
import { nearestRank } from '../src/telemetry/percentiles.js'
import type { BudgetCheck, JudgeDetails, RunResult } from '../src/results/types.js'

const judge = (score: number | null, over: Partial<JudgeDetails> = {}): JudgeDetails => ({ ...evalsRun().judge!, score, ...over })
const usage = (total: number) => ({ prompt_tokens: total - 10, completion_tokens: 10, total_tokens: total })

describe("p95 as @mcp-use/evals takes it: the element at floor(n × 0.95) of the sorted values", () => {
  test.each([
    [[], 0],
    [[5], 5],
    [[3, 1, 2], 3],
    [[10, 9, 8, 7, 6, 5, 4, 3, 2, 1], 10],
    // 20 values: index 19 (the largest), where the nearest rank is the 19th.
    [Array.from({ length: 20 }, (_, i) => 20 - i), 20],
    // 40 values: index 38, the 39th.
    [Array.from({ length: 40 }, (_, i) => i + 1), 39]
  ])('%j → %d', (values, expected) => {
    expect(p95(values)).toBe(expected)
  })

  test('differs from the telemetry section’s nearest rank where they part', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => i + 1)
    expect([p95(twenty), nearestRank(twenty, 95)]).toEqual([20, 19])
  })
})

describe("a run's errors, as @mcp-use/evals counts them", () => {
  test('a run that passed has none', () => {
    expect(runErrors(evalsRun())).toEqual([])
  })

  test('one per failed expectation of the run and of each turn, one per failed judge, one for the run error', () => {
    const base = evalsRun()
    const run = failedEvalsRun({
      status: 'error',
      tool_assertions: { passed: false, checks: [{ ...base.tool_assertions.checks[0]!, passed: false, reason: 'get_weather was not called' }] },
      golden_assertions: { passed: false, checks: [goldenCheck('forbidden_tools', false, 'delete-all was called'), goldenCheck('expect_tool', true)] },
      judge: judge(null, { error: 'the judge answered no JSON' }),
      error: { stage: 'server', message: 'connection closed' },
      dialogue: {
        kind: 'turns',
        ended: 'script_done',
        user_model: null,
        user_usage: null,
        user_latency_ms: null,
        turns_passed: false,
        turns: [
          turn(1, { passed: false, golden_assertions: { passed: false, checks: [goldenCheck('tools', false, 'search-tools was not called with query mango'), goldenCheck('result', false, '$.structuredContent.city is berlin'), goldenCheck('widget', true)] } }),
          turn(2, { passed: false, judge: judge(0.4, { threshold: 0.7, reason: 'it did not answer' }) })
        ]
      }
    })
    expect(runErrors(run)).toEqual([
      'get_weather was not called',
      'turn 1: search-tools was not called with query mango',
      'turn 1: $.structuredContent.city is berlin',
      'turn 2: judge: it did not answer (score 0.4)',
      'delete-all was called',
      'judge: the judge answered no JSON',
      'connection closed'
    ])
  })

  test("a turn's failed result check counts each assertion that failed, as @mcp-use/evals counts its outcomes", () => {
    const assertions = [
      { check: 'jsonpath' as const, path: '$.structuredContent.city', passed: false, expected: 'paris', actual: 'berlin', reason: 'is "berlin", not "paris"' },
      { check: 'is_error' as const, path: null, passed: true, expected: false, actual: false, reason: 'not an error' },
      { check: 'contains' as const, path: '$.structuredContent', passed: false, expected: 'rain', actual: 'sun', reason: '$.structuredContent does not contain "rain"' }
    ]
    const result = { ...goldenCheck('result', false, 'fetch-weather, call 1, turn 1: 2 of 3 assertions failed'), assertions }
    const run = failedEvalsRun({ dialogue: { kind: 'turns', ended: 'script_done', user_model: null, user_usage: null, user_latency_ms: null, turns_passed: false, turns: [turn(1, { passed: false, golden_assertions: { passed: false, checks: [result, goldenCheck('result', false, 'fetch-weather was not called')] } })] } })
    expect(runErrors(run)).toEqual(['turn 1: jsonpath $.structuredContent.city: is "berlin", not "paris"', 'turn 1: contains: $.structuredContent does not contain "rain"', 'turn 1: fetch-weather was not called'])
  })

  test("a judge's error is counted once, as the judge's, not again as the run's error", () => {
    const run = failedEvalsRun({ status: 'error', judge: judge(null, { error: 'timed out' }), error: { stage: 'judge', message: 'timed out' } })
    expect(runErrors(run)).toEqual(['judge: timed out'])
  })

  test('a judge at its threshold passes; just under fails', () => {
    expect(runErrors(evalsRun({ judge: judge(0.7, { threshold: 0.7 }) }))).toEqual([])
    expect(runErrors(failedEvalsRun({ judge: judge(0.69, { threshold: 0.7, reason: 'thin' }) }))).toEqual(['judge: thin (score 0.69)'])
  })

  test('a run that failed for a reason no check names (max_steps) counts one error, so a run passes exactly when it has none', () => {
    const run = failedEvalsRun({ stop_reason: 'max_steps', metrics: [{ name: 'Response Quality [GEval]', score: null, reason: 'Model call limits exceeded: run limit (5/5)', success: false }] })
    expect(runErrors(run)).toEqual(['Model call limits exceeded: run limit (5/5)'])
  })
})

describe('agent steps and tokens', () => {
  test("steps: the agent's model answers plus its tool calls; a sampling answer is the server's", () => {
    const run = evalsRun()
    expect(agentStepsOf(run)).toBe(3)
    expect(agentStepsOf({ ...run, llm_calls: [...run.llm_calls, { latency_ms: 5, finish_reason: 'stop', usage: null, purpose: 'sampling' }] })).toBe(3)
  })

  test("tokens: the agent's and the judge side's (the run's judge and each turn's); costUsd only where the provider said", () => {
    const run = evalsRun()
    expect(usageOf(run)).toEqual({ promptTokens: 300, completionTokens: 60, totalTokens: 360 })
    const turns = { kind: 'turns' as const, ended: 'script_done' as const, user_model: null, user_usage: null, user_latency_ms: null, turns_passed: true, turns: [turn(1, { judge: judge(0.9, { usage: { ...usage(50), cost_usd: 0.001 } }) })] }
    expect(usageOf({ ...run, usage: { ...run.usage, cost_usd: 0.002 }, dialogue: turns })).toEqual({ promptTokens: 340, completionTokens: 70, totalTokens: 410, costUsd: 0.003 })
  })
})

/** Runs whose figures are known: steps 3, 5, 3, 9; tokens (agent and judge) 360, 900, 360, 2000; errors 0, 0, 1, 2; and one never started. */
function fourRuns(): RunResult[] {
  const base = evalsRun()
  const more = [...base.tool_calls, base.tool_calls[0]!, base.tool_calls[0]!]
  return [
    evalsRun(),
    evalsRun({ case_id: 'convert', tool_calls: more, usage: usage(780) }),
    failedEvalsRun({ attempt: 2, judge: judge(0.5, { reason: 'vague' }) }),
    failedEvalsRun({
      case_id: 'convert',
      attempt: 2,
      status: 'error',
      tool_calls: [...more, ...more.slice(0, 3)],
      llm_calls: [...base.llm_calls, base.llm_calls[0]!],
      usage: usage(1880),
      golden_assertions: { passed: false, checks: [goldenCheck('forbidden_tools', false)] },
      error: { stage: 'server', message: 'crashed' }
    }),
    // Never started: no verdict, in no figure.
    evalsRun({ case_id: 'convert', attempt: 3, status: 'skipped', success: false, skipped: { reason: 'budget', detail: 'the spend reached max_cost_usd ($0.01 of $0.01) before this run started' } })
  ]
}

describe('metrics.json: SuiteMetrics from the document', () => {
  test('every figure, over the runs that have a verdict', () => {
    const doc = evalsV1Document(fourRuns(), { budgets: { max_tool_error_rate: 0.5, max_agent_steps_p95: 8, max_tokens_per_success_p95: 1000 } })
    expect(evalsV1Metrics(doc)).toEqual({
      checks: { total: 0, passed: 0 },
      scenarios: { total: 4, passed: 2, passRate: 0.5, agentStepsP95: 9, toolErrorRate: 0.75 },
      tokens: { prompt: 3440, completion: 180, total: 3620, perSuccessP95: 900 },
      byClient: { 'mcp-use': { passRate: 0.5, count: 4 } },
      gates: { passed: false, violations: ['toolErrorRate 0.75 > 0.5', 'agentStepsP95 9 > 8'] }
    })
  })

  test('no gate set: the gates pass with no violation; no run: the figures are 0 and the pass rate 1, as there', () => {
    expect(evalsV1Metrics(evalsV1Document(fourRuns())).gates).toEqual({ passed: true, violations: [] })
    const none = evalsV1Metrics(evalsV1Document([]))
    expect(none.scenarios).toEqual({ total: 0, passed: 0, passRate: 1, agentStepsP95: 0, toolErrorRate: 0 })
    expect(none.tokens).toEqual({ prompt: 0, completion: 0, total: 0, perSuccessP95: 0 })
  })
})

describe('the three gates as budgets', () => {
  const checksOf = (budgets: NonNullable<Parameters<typeof evalsV1Document>[1]>['budgets']) => {
    const doc = evalsV1Document(fourRuns(), { budgets })
    return { doc, checks: (doc.telemetry?.budgets ?? []).map((c: BudgetCheck) => [c.budget, c.actual, c.passed]) }
  }

  test.each([
    ['max_tool_error_rate: equal passes', { max_tool_error_rate: 0.75 }, [['max_tool_error_rate', 0.75, true]]],
    ['max_tool_error_rate: just under fails', { max_tool_error_rate: 0.74 }, [['max_tool_error_rate', 0.75, false]]],
    ['max_agent_steps_p95: equal passes', { max_agent_steps_p95: 9 }, [['max_agent_steps_p95', 9, true]]],
    ['max_agent_steps_p95: one under fails', { max_agent_steps_p95: 8 }, [['max_agent_steps_p95', 9, false]]],
    ['max_tokens_per_success_p95: over the runs that passed only', { max_tokens_per_success_p95: 900 }, [['max_tokens_per_success_p95', 900, true]]],
    ['max_tokens_per_success_p95: one under fails', { max_tokens_per_success_p95: 899 }, [['max_tokens_per_success_p95', 900, false]]]
  ])('%s', (_name, budgets, expected) => {
    expect(checksOf(budgets).checks).toEqual(expected)
  })

  test("the gate fails exactly when @mcp-use/evals' metrics.gates would", () => {
    for (const rate of [0, 0.5, 0.74, 0.75, 1]) {
      for (const steps of [0, 8, 9, 30]) {
        for (const tokens of [0, 899, 900, 5000]) {
          const { doc } = checksOf({ max_tool_error_rate: rate, max_agent_steps_p95: steps, max_tokens_per_success_p95: tokens })
          const theirs = evalsV1Metrics(doc).gates
          const gate = evaluateGate(doc, null, 'absolute', 0.02)
          const budgetReasons = gate.reasons.filter((r) => /max_(tool_error_rate|agent_steps_p95|tokens_per_success_p95)/.test(r))
          expect([rate, steps, tokens, budgetReasons.length]).toEqual([rate, steps, tokens, theirs.violations.length])
        }
      }
    }
  })

  test('a failed gate fails the document and names its figure; nothing measured is not a failure', () => {
    const { doc } = checksOf({ max_agent_steps_p95: 8 })
    expect(doc.telemetry?.budgets[0]?.reason).toBe('the p95 of agent steps (model answers plus tool calls) over 4 behaviour runs is 9, over max_agent_steps_p95 (8)')
    const passing = evalsV1Document([evalsRun()], { budgets: { max_agent_steps_p95: 8 } })
    expect([doc.passed, passing.telemetry?.budgets[0]?.passed]).toEqual([false, true])
    const nothing = evalsV1Document([failedEvalsRun()], { budgets: { max_tokens_per_success_p95: 1, max_tool_error_rate: 0 } })
    expect(nothing.telemetry?.budgets.map((c) => [c.budget, c.actual, c.passed])).toEqual([
      ['max_tool_error_rate', 1, false],
      ['max_tokens_per_success_p95', null, true]
    ])
    expect(nothing.telemetry?.budgets[1]?.reason).toBe('no behaviour run passed; max_tokens_per_success_p95 (1) was not checked')
  })

  test('the figures come from the runs alone (the same for the budgets and metrics.json)', () => {
    expect(evalsV1Figures(fourRuns())).toEqual({ runs: 4, passed: 2, errors: 3, toolErrorRate: 0.75, agentStepsP95: 9, tokensPerSuccessP95: 900 })
  })
})
