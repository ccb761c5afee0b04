import { describe, expect, test } from '@jest/globals'
import type { BudgetCheck, TelemetrySection } from '../src/results/types.js'
import { budgetReasons, checkBudgets, checkTrends, P95_MIN_SAMPLES, TREND_FLOORS, usd } from '../src/telemetry/budgets.js'
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
  // Every p95 here rests on 20 samples, all equal, unless a test says otherwise: enough to be compared.
  const many = (p95: number, n = P95_MIN_SAMPLES) => Array<number>(n).fill(p95)
  const runs = (s: number, cost: number | null, n = P95_MIN_SAMPLES) => Array.from({ length: n }, () => ({ s, tokens: 100, usd: cost }))
  const before = section({
    tools: [toolRow('search', many(400)), toolRow('quick', many(10)), toolRow('gone', many(5))],
    // Binary fractions: a mean of 20 equal costs is exact.
    models: [modelRow('a', runs(10, 0.5)), modelRow('b', runs(1, null)), modelRow('old', runs(1, 1))]
  })
  const trend = (tools: [string, number][], models: [string, number, number | null][], set: Parameters<typeof budgets>[0], n = P95_MIN_SAMPLES) =>
    checkTrends(
      section({ tools: tools.map(([name, p95]) => toolRow(name, many(p95, n))), models: models.map(([model, s, cost]) => modelRow(model, runs(s, cost, n))) }),
      before,
      budgets(set)
    )

  test('off unless set', () => {
    expect(trend([['search', 10_000]], [['a', 100, 1]], { max_p95_tool_ms: 1 })).toEqual([])
  })

  test('max_p95_increase: a rise up to the ratio passes, past it (and past the floor) fails, naming both figures, the rise and the budget', () => {
    const equal = trend([['search', 600]], [], { max_p95_increase: 0.5 })
    expect(equal).toEqual([{ budget: 'max_p95_increase', subject: 'search', limit: 0.5, actual: 600, baseline: 400, passed: true, reason: "tool 'search': p95 latency 400 ms → 600 ms (+50%), within max_p95_increase (+50%)" }])
    const over = trend([['search', 601]], [], { max_p95_increase: 0.5 })
    expect(over[0]).toMatchObject({
      passed: false,
      reason: "tool 'search': p95 latency rose from 400 ms to 601 ms (+50.2%, +201 ms over 20 and 20 calls), more than max_p95_increase (+50%) and its 200 ms floor"
    })
  })

  test('a fall always passes', () => {
    expect(trend([['search', 100]], [['a', 5, 0.001]], { max_p95_increase: 0, max_cost_increase: 0 }).every((c) => c.passed)).toBe(true)
  })

  test('the floors: a rise past the ratio but of at most 200 ms (tools) or 2 s (runs) passes and says so; just over fails', () => {
    expect(TREND_FLOORS).toEqual({ tool_p95_ms: 200, run_p95_s: 2, cost_per_run_usd: 0.0001 })
    // The case: 40 ms → 70 ms on an unchanged server.
    const jitter = checkTrends(section({ tools: [toolRow('quick', many(70))] }), section({ tools: [toolRow('quick', many(40))] }), budgets({ max_p95_increase: 0.5 }))
    expect(jitter[0]).toMatchObject({ passed: true, reason: "tool 'quick': p95 latency 40 ms → 70 ms (+75%): +30 ms is under the 200 ms floor of max_p95_increase (+50%)" })
    const noisy = trend([['quick', 210]], [['a', 12, 0.01]], { max_p95_increase: 0.01 })
    expect(brief(noisy)).toEqual([
      ['max_p95_increase', 'quick', 210, true],
      ['max_p95_increase', 'a', 12, true]
    ])
    expect(noisy[1].reason).toBe("model 'a': p95 run time 10 s → 12 s (+20%): +2 s is under the 2 s floor of max_p95_increase (+1%)")
    const real = trend([['quick', 211]], [['a', 12.01, 0.01]], { max_p95_increase: 0.01 })
    expect(brief(real)).toEqual([
      ['max_p95_increase', 'quick', 211, false],
      ['max_p95_increase', 'a', 12.01, false]
    ])
    expect(real[1].reason).toBe("model 'a': p95 run time rose from 10 s to 12.01 s (+20.1%, +2.01 s over 20 and 20 runs), more than max_p95_increase (+1%) and its 2 s floor")
  })

  test('samples: a p95 of fewer than 20 on either side is its slowest sample, so a rise past ratio and floor still passes, saying how many there were', () => {
    const few = trend([['search', 4000]], [['a', 100, 0.01]], { max_p95_increase: 0.5 }, P95_MIN_SAMPLES - 1)
    expect(few.map((c) => [c.subject, c.passed, c.reason])).toEqual([
      ['search', true, "tool 'search': p95 latency 400 ms → 4,000 ms (+900%): too few calls to compare (20 in the baseline, 19 now; a p95 of fewer than 20 is the slowest one), so max_p95_increase (+50%) does not apply"],
      ['a', true, "model 'a': p95 run time 10 s → 100 s (+900%): too few runs to compare (20 in the baseline, 19 now; a p95 of fewer than 20 is the slowest one), so max_p95_increase (+50%) does not apply"]
    ])
    expect(brief(trend([['search', 4000]], [['a', 100, 0.01]], { max_p95_increase: 0.5 }, P95_MIN_SAMPLES)).map((c) => c[3])).toEqual([false, false])
  })

  test('max_cost_increase: per model, the mean cost per run, past the ratio and its $0.0001 floor', () => {
    expect(brief(trend([], [['a', 10, 0.625]], { max_cost_increase: 0.25 }))).toEqual([['max_cost_increase', 'a', 0.625, true]])
    const over = trend([], [['a', 10, 0.625 + 2 ** -20]], { max_cost_increase: 0.25 })
    expect(over[0]).toMatchObject({ passed: false, baseline: 0.5 })
    expect(over[0].reason).toBe("model 'a': cost per run rose from $0.50 to $0.625 (+25%, +$0.125), more than max_cost_increase (+25%) and its $0.0001 floor")
    // The cost is a mean over every run: one run is enough, but not a rise of a hundredth of a cent.
    const cheap = checkTrends(section({ models: [modelRow('c', [{ s: 1, tokens: 1, usd: 0.0002 }])] }), section({ models: [modelRow('c', [{ s: 1, tokens: 1, usd: 0.0001 }])] }), budgets({ max_cost_increase: 0.5 }))
    expect(cheap[0]).toMatchObject({ passed: true, reason: "model 'c': cost per run $0.0001 → $0.0002 (+100%): +$0.0001 is under the $0.0001 floor of max_cost_increase (+50%)" })
    const dearer = checkTrends(section({ models: [modelRow('c', [{ s: 1, tokens: 1, usd: 0.00021 }])] }), section({ models: [modelRow('c', [{ s: 1, tokens: 1, usd: 0.0001 }])] }), budgets({ max_cost_increase: 0.5 }))
    expect(dearer[0].passed).toBe(false)
  })

  test('an unknown cost on either side is not compared: the check passes and says so', () => {
    const checks = trend([], [['a', 10, null], ['b', 1, 0.5]], { max_cost_increase: 0 })
    expect(checks.map((c) => [c.subject, c.passed, c.reason])).toEqual([
      ['a', true, "model 'a': cost per run is unknown now; max_cost_increase (+0%) was not checked"],
      ['b', true, "model 'b': cost per run is unknown in the baseline; max_cost_increase (+0%) was not checked"]
    ])
  })

  test('subjects on one side only are not compared', () => {
    const checks = trend([['new-tool', 9999]], [['new-model', 999, 9]], { max_p95_increase: 0, max_cost_increase: 0 })
    expect(checks).toEqual([])
  })

  test('a p95 that rose from 0 fails past the floor', () => {
    const zero = section({ tools: [toolRow('instant', many(0))] })
    const checks = checkTrends(section({ tools: [toolRow('instant', many(300))] }), zero, budgets({ max_p95_increase: 10 }))
    expect(checks[0]).toMatchObject({ passed: false, reason: "tool 'instant': p95 latency rose from 0 ms to 300 ms (+300 ms over 20 and 20 calls), more than max_p95_increase (+1000%) and its 200 ms floor" })
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
