import { describe, expect, test } from '@jest/globals'
import type { BudgetCheck, TelemetrySection } from '../src/results/types.js'
import { budgetReasons, checkBudgets, checkTrends, RUN_NOISE_S, TOOL_NOISE_MS, usd } from '../src/telemetry/budgets.js'
import { budgets, modelRow, section, toolRow } from '../__fixtures__/telemetry-sections.js'

const brief = (checks: BudgetCheck[]) => checks.map((c) => [c.budget, c.subject, c.actual, c.passed])

describe('checkBudgets: every budget at its boundary', () => {
  // search: p95 of 20 calls is the 19th: 800 ms; fetch: 801 ms.
  const tools = [toolRow('search', [...Array(18).fill(100), 800, 5000]), toolRow('fetch', [801])]
  const models = [modelRow('a', [{ s: 10, tokens: 1000, usd: 0.5 }]), modelRow('b', [{ s: 10.01, tokens: 1001, usd: 0.50000001 }])]
  const measured = section({ tools, models, spent: 1 })

  test.each([
    ['max_cost_usd: equal passes', { max_cost_usd: 1 }, [['max_cost_usd', null, 1, true]]],
    ['max_cost_usd: just over fails', { max_cost_usd: 0.99999999 }, [['max_cost_usd', null, 1, false]]],
    [
      'max_cost_per_run_usd: per model, the costliest run',
      { max_cost_per_run_usd: 0.5 },
      [
        ['max_cost_per_run_usd', 'a', 0.5, true],
        ['max_cost_per_run_usd', 'b', 0.50000001, false]
      ]
    ],
    [
      'max_tokens_per_run: per model, the largest run',
      { max_tokens_per_run: 1000 },
      [
        ['max_tokens_per_run', 'a', 1000, true],
        ['max_tokens_per_run', 'b', 1001, false]
      ]
    ],
    [
      'max_p95_tool_ms: each tool, at its p95 (not its max)',
      { max_p95_tool_ms: 800 },
      [
        ['max_p95_tool_ms', 'fetch', 801, false],
        ['max_p95_tool_ms', 'search', 800, true]
      ]
    ],
    [
      'tools.<name>.max_p95_ms replaces max_p95_tool_ms for that tool',
      { max_p95_tool_ms: 800, tools: { fetch: { max_p95_ms: 801 } } },
      [
        ['max_p95_tool_ms', 'search', 800, true],
        ['tools.max_p95_ms', 'fetch', 801, true]
      ]
    ],
    ['tools.<name>.max_p95_ms: just over fails', { tools: { search: { max_p95_ms: 799 } } }, [['tools.max_p95_ms', 'search', 800, false]]],
    [
      'max_p95_run_s: per model',
      { max_p95_run_s: 10 },
      [
        ['max_p95_run_s', 'a', 10, true],
        ['max_p95_run_s', 'b', 10.01, false]
      ]
    ],
    ['no budget set: no check', {}, []],
    ['trend budgets are not absolute checks', { max_p95_increase: 0, max_cost_increase: 0 }, []]
  ])('%s', (_name, set, expected) => {
    // The checks come in budget order, then subject order: sort tools the way the section lists them.
    const checks = checkBudgets({ ...measured, tools: [...measured.tools].sort((x, y) => (x.name < y.name ? -1 : 1)) }, budgets(set))
    expect(brief(checks)).toEqual(expected)
  })

  test('the reason names the subject, the figure and the budget', () => {
    const slow = section({ tools: [toolRow('search', [1240])] })
    expect(checkBudgets(slow, budgets({ max_p95_tool_ms: 800 }))[0].reason).toBe("tool 'search': p95 latency 1,240 ms is over max_p95_tool_ms (800 ms)")
    expect(checkBudgets(slow, budgets({ tools: { search: { max_p95_ms: 2000 } } }))[0].reason).toBe("tool 'search': p95 latency 1,240 ms is within its max_p95_ms (2,000 ms)")
    expect(checkBudgets(measured, budgets({ max_cost_usd: 0.5 }))[0].reason).toBe('the evaluation spent $1.00, over max_cost_usd ($0.50)')
    expect(checkBudgets(measured, budgets({ max_cost_per_run_usd: 0.4 }))[0].reason).toBe("model 'a': the costliest run cost $0.50, over max_cost_per_run_usd ($0.40)")
    expect(checkBudgets(measured, budgets({ max_tokens_per_run: 999 }))[0].reason).toBe("model 'a': the largest run used 1,000 tokens, over max_tokens_per_run (999)")
    expect(checkBudgets(measured, budgets({ max_p95_run_s: 12 }))[1].reason).toBe("model 'b': p95 run time 10.01 s is within max_p95_run_s (12 s)")
  })

  test('an unknown cost fails, naming the models and the pricing: key', () => {
    const unknown = section({ models: [modelRow('mystery', [{ s: 1, tokens: 1, usd: null }])], spent: null, unknown_models: ['mystery', 'judge-x'] })
    const [total, perRun] = checkBudgets(unknown, budgets({ max_cost_usd: 1, max_cost_per_run_usd: 0.1 }))
    expect(total).toMatchObject({ budget: 'max_cost_usd', actual: null, passed: false })
    expect(total.reason).toBe(
      "the evaluation's cost is unknown (the provider reported no cost and there is no price for mystery, judge-x): max_cost_usd ($1.00) cannot be checked; give the models their input_per_mtok and output_per_mtok under `pricing:` in the YAML"
    )
    expect(perRun).toMatchObject({ budget: 'max_cost_per_run_usd', subject: 'mystery', actual: null, passed: false })
    expect(perRun.reason).toContain('no price for mystery)')
  })

  test('max_cost_usd: runs skipped at the limit exactly fail the check too (the meter stops at ≥, the check allows ≤)', () => {
    const [atLimit] = checkBudgets(section({ spent: 0.5, skipped_runs: 2 }), budgets({ max_cost_usd: 0.5 }))
    expect(atLimit).toMatchObject({ budget: 'max_cost_usd', actual: 0.5, passed: false })
    expect(atLimit.reason).toBe('the evaluation spent $0.50 of max_cost_usd ($0.50), and 2 runs were skipped once the spend reached it')
    // Over it: the ordinary reason; no run skipped at the limit: passes.
    expect(checkBudgets(section({ spent: 0.6, skipped_runs: 1 }), budgets({ max_cost_usd: 0.5 }))[0]).toMatchObject({ passed: false, reason: 'the evaluation spent $0.60, over max_cost_usd ($0.50)' })
    expect(checkBudgets(section({ spent: 0.5 }), budgets({ max_cost_usd: 0.5 }))[0].passed).toBe(true)
  })

  test('what was not measured passes and says it was not checked', () => {
    const idle = section({ tools: [{ ...toolRow('flaky', []), faulted: 3 }], models: [modelRow('none', [])] })
    const checks = checkBudgets(idle, budgets({ max_p95_tool_ms: 1, max_p95_run_s: 1, max_tokens_per_run: 1, max_cost_per_run_usd: 1, tools: { ghost: { max_p95_ms: 10 } } }))
    expect(checks.every((c) => c.passed && c.actual === null)).toBe(true)
    expect(checks.map((c) => c.reason)).toEqual([
      "model 'none': no run started; max_cost_per_run_usd ($1.00) was not checked",
      "model 'none': no run started; max_tokens_per_run (1) was not checked",
      "tool 'flaky': no call was measured (3 faulted); max_p95_tool_ms (1 ms) was not checked",
      // A tool named under budgets.tools that nothing called (a filter, a typo): visible, not failing.
      "tool 'ghost' was never called; its max_p95_ms (10 ms) was not checked",
      "model 'none': no run started; max_p95_run_s (1 s) was not checked"
    ])
  })
})

describe('budgetReasons', () => {
  const withChecks = (telemetry: TelemetrySection, set: Parameters<typeof budgets>[0]): TelemetrySection => ({ ...telemetry, budgets: checkBudgets(telemetry, budgets(set)) })

  test('none without a section, none when every check passed', () => {
    expect(budgetReasons(null)).toEqual([])
    expect(budgetReasons(withChecks(section({ spent: 0.1 }), { max_cost_usd: 1 }))).toEqual([])
  })

  test("the failed checks' reasons", () => {
    const telemetry = withChecks(section({ tools: [toolRow('search', [900])], spent: 2 }), { max_cost_usd: 1, max_p95_tool_ms: 800 })
    expect(budgetReasons(telemetry)).toEqual(['the evaluation spent $2.00, over max_cost_usd ($1.00)', "tool 'search': p95 latency 900 ms is over max_p95_tool_ms (800 ms)"])
  })

  test('runs skipped by the budget fail the gate with that reason, in place of the cost check', () => {
    const telemetry = withChecks(section({ tools: [toolRow('search', [900])], spent: 0.5, skipped_runs: 3 }), { max_cost_usd: 0.5, max_p95_tool_ms: 800 })
    expect(budgetReasons(telemetry)).toEqual(["tool 'search': p95 latency 900 ms is over max_p95_tool_ms (800 ms)", 'max_cost_usd: the spend reached $0.50 of $0.50; 3 runs were skipped'])
    const over = withChecks(section({ spent: 0.52, skipped_runs: 1 }), { max_cost_usd: 0.5 })
    expect(budgetReasons(over)).toEqual(['max_cost_usd: the spend reached $0.52 of $0.50; 1 run was skipped'])
  })
})

describe('checkTrends against a baseline', () => {
  const before = section({
    tools: [toolRow('search', [400]), toolRow('quick', [10]), toolRow('gone', [5])],
    models: [modelRow('a', [{ s: 10, tokens: 100, usd: 0.01 }]), modelRow('b', [{ s: 1, tokens: 100, usd: null }]), modelRow('old', [{ s: 1, tokens: 1, usd: 1 }])]
  })
  const trend = (tools: [string, number][], models: [string, number, number | null][], set: Parameters<typeof budgets>[0]) =>
    checkTrends(
      section({ tools: tools.map(([name, p95]) => toolRow(name, [p95])), models: models.map(([model, s, cost]) => modelRow(model, [{ s, tokens: 100, usd: cost }])) }),
      before,
      budgets(set)
    )

  test('off unless set', () => {
    expect(trend([['search', 10_000]], [['a', 100, 1]], { max_p95_tool_ms: 1 })).toEqual([])
  })

  test('max_p95_increase: a rise up to the ratio passes, past it fails, naming both figures and the budget', () => {
    const equal = trend([['search', 500]], [], { max_p95_increase: 0.25 })
    expect(equal).toEqual([{ budget: 'max_p95_increase', subject: 'search', limit: 0.25, actual: 500, baseline: 400, passed: true, reason: "tool 'search': p95 latency 400 ms → 500 ms (+25%), within max_p95_increase (+25%)" }])
    const over = trend([['search', 501]], [], { max_p95_increase: 0.25 })
    expect(over[0]).toMatchObject({ passed: false, reason: "tool 'search': p95 latency rose from 400 ms to 501 ms (+25.2%), more than max_p95_increase (+25%)" })
  })

  test('a fall always passes', () => {
    expect(trend([['search', 100]], [['a', 5, 0.001]], { max_p95_increase: 0, max_cost_increase: 0 }).every((c) => c.passed)).toBe(true)
  })

  test('timer noise: a rise of at most 25 ms (tools) or 0.25 s (runs) never fails, one more does', () => {
    expect(TOOL_NOISE_MS).toBe(25)
    expect(RUN_NOISE_S).toBe(0.25)
    const noisy = trend([['quick', 35]], [['a', 10.25, 0.01]], { max_p95_increase: 0.01 })
    expect(brief(noisy)).toEqual([
      ['max_p95_increase', 'quick', 35, true],
      ['max_p95_increase', 'a', 10.25, true]
    ])
    expect(noisy[0].reason).toBe("tool 'quick': p95 latency 10 ms → 35 ms (+250%), a rise within the 25 ms timer noise of max_p95_increase (+1%)")
    const real = trend([['quick', 36]], [['a', 10.26, 0.01]], { max_p95_increase: 0.01 })
    expect(brief(real)).toEqual([
      ['max_p95_increase', 'quick', 36, false],
      ['max_p95_increase', 'a', 10.26, false]
    ])
    expect(real[1].reason).toBe("model 'a': p95 run time rose from 10 s to 10.26 s (+2.6%), more than max_p95_increase (+1%)")
  })

  test('max_cost_increase: per model, the mean cost per run', () => {
    expect(brief(trend([], [['a', 10, 0.0125]], { max_cost_increase: 0.25 }))).toEqual([['max_cost_increase', 'a', 0.0125, true]])
    const over = trend([], [['a', 10, 0.01250001]], { max_cost_increase: 0.25 })
    expect(over[0]).toMatchObject({ passed: false, baseline: 0.01 })
    expect(over[0].reason).toBe("model 'a': cost per run rose from $0.01 to $0.0125 (+25%), more than max_cost_increase (+25%)")
  })

  test('an unknown cost on either side is not compared: the check passes and says so', () => {
    const checks = trend([], [['a', 10, null], ['b', 1, 0.01]], { max_cost_increase: 0 })
    expect(checks.map((c) => [c.subject, c.passed, c.reason])).toEqual([
      ['a', true, "model 'a': cost per run is unknown now; max_cost_increase (+0%) was not checked"],
      ['b', true, "model 'b': cost per run is unknown in the baseline; max_cost_increase (+0%) was not checked"]
    ])
  })

  test('subjects on one side only are not compared', () => {
    const checks = trend([['new-tool', 9999]], [['new-model', 999, 9]], { max_p95_increase: 0, max_cost_increase: 0 })
    expect(checks).toEqual([])
  })

  test('a p95 that rose from 0 fails past the noise', () => {
    const zero = section({ tools: [toolRow('instant', [0])] })
    const checks = checkTrends(section({ tools: [toolRow('instant', [100])] }), zero, budgets({ max_p95_increase: 10 }))
    expect(checks[0]).toMatchObject({ passed: false, reason: "tool 'instant': p95 latency rose from 0 ms to 100 ms, more than max_p95_increase (+1000%)" })
  })
})

describe('usd', () => {
  test.each([
    [0, '$0.00'],
    [0.5, '$0.50'],
    [0.0123456, '$0.01235'],
    [0.00000123, '$0.00000123'],
    [1.5, '$1.50'],
    [1234.5, '$1,234.50']
  ])('%d → %s', (n, text) => {
    expect(usd(n)).toBe(text)
  })
})
