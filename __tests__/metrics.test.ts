import { describe, expect, test } from '@jest/globals'
import { computeMetrics } from '../src/aggregate/metrics.js'
import { parseSuite } from '../src/config/suite.js'
import type { RunResult } from '../src/results/types.js'

const suite = parseSuite(
  `system_prompts: {d: x}
cases:
  - {id: pos, prompt: p, rubric: r, expect_tool: get_weather, expect_args: {city: Paris}, tags: [weather]}
  - {id: neg, prompt: p, rubric: r, expect_tool: null}
  - {id: seq, prompt: p, rubric: r, required_tools: [plan_trip], expect_sequence: [plan_trip, get_weather]}
`,
  'm.yaml'
)

function run(case_id: string, model: string, calls: { name: string; schema_valid?: boolean | null; is_error?: boolean }[], extra: Partial<RunResult> = {}): RunResult {
  return {
    case_id,
    model,
    prompt_name: 'd',
    status: 'passed',
    tags: suite.cases.find((c) => c.id === case_id)!.tags,
    rubric_passed: true,
    judge: { score: 0.9 },
    golden_assertions: null,
    tool_calls: calls.map((c) => ({ name: c.name, args: {}, result: '', is_error: c.is_error ?? false, latency_ms: 1, schema_valid: c.schema_valid ?? true })),
    ...extra
  } as unknown as RunResult
}

describe('computeMetrics', () => {
  const golden = (checks: [string, boolean][]) => ({ passed: checks.every(([, p]) => p), checks: checks.map(([check, passed]) => ({ check, passed, reason: '' })) })
  const runs = [
    run('pos', 'a', [{ name: 'get_weather' }], { golden_assertions: golden([['expect_tool', true], ['expect_args', true]]) } as Partial<RunResult>),
    run('pos', 'b', [{ name: 'get_local_time' }, { name: 'get_weather', schema_valid: false }], {
      golden_assertions: golden([['expect_tool', false], ['expect_args', true]]),
      rubric_passed: false
    } as Partial<RunResult>),
    run('neg', 'a', []),
    run('neg', 'b', [{ name: 'get_weather', is_error: true }]),
    run('seq', 'a', [{ name: 'plan_trip' }, { name: 'get_weather' }], { golden_assertions: golden([['expect_sequence', true]]) } as Partial<RunResult>),
    run('seq', 'b', [{ name: 'get_weather' }], { status: 'error', judge: null } as Partial<RunResult>)
  ]
  const metrics = computeMetrics(runs, suite.cases)

  test('overall', () => {
    expect(metrics.overall).toEqual({
      runs: 6,
      tool_selection_accuracy: 0.5,
      over_trigger_rate: 0.5,
      // Only on correct selections: run b picked the wrong tool first, so it does not count.
      argument_correctness: 1,
      sequence_correctness: 1,
      task_completion: 0.8,
      schema_invalid_call_rate: 0.1429, // 1 of 7 calls
      tool_error_rate: 0.1429,
      // pos/a {get_weather}: P1 R1; pos/b {get_local_time, get_weather}: P.5 R1; seq/a: P1 R1 (errored runs are left out).
      tool_set_precision: 0.8333,
      tool_set_recall: 1,
      tool_set_f1: 0.8889
    })
  })

  test('per model and per tag; a metric with no run is null, not 0', () => {
    expect(metrics.by_model.a).toMatchObject({ runs: 3, tool_selection_accuracy: 1, over_trigger_rate: 0 })
    expect(metrics.by_model.b).toMatchObject({ runs: 3, tool_selection_accuracy: 0, over_trigger_rate: 1, sequence_correctness: null })
    expect(metrics.by_tag.weather).toMatchObject({ runs: 2, over_trigger_rate: null })
    expect(Object.keys(metrics.by_prompt)).toEqual(['d'])
  })
})
