import { describe, expect, test } from '@jest/globals'
import { NO_BUDGETS, type Pricing } from '../src/config/types.js'
import { NOT_SENT } from '../src/agent/run-agent.js'
import type { CacheStats } from '../src/llm/cache.js'
import { emptyUsage } from '../src/llm/chat.js'
import type { ToolTestsSection, ToolTestStepResult } from '../src/results/types.js'
import { summarizeTelemetry, type TelemetryInput } from '../src/telemetry/summarize.js'
import { budgets, judged, llmCall, telemetryRun, toolCall, usage } from '../__fixtures__/telemetry-sections.js'

const pricing: Pricing = { priced: { input_per_mtok: 1, output_per_mtok: 2 }, judge: { input_per_mtok: 10, output_per_mtok: 10 } }
const input = (partial: Partial<TelemetryInput>): TelemetryInput => ({
  runs: [],
  tool_tests: null,
  wall_s: 10,
  overhead: emptyUsage(),
  cache: null,
  judge_model: 'judge',
  pricing,
  budgets: NO_BUDGETS,
  ...partial
})

function step(tool: string, latency_ms: number, response: ToolTestStepResult['response']): ToolTestStepResult {
  return { index: 1, tool, args: {}, latency_ms, response, checks: [], captured: {}, passed: true, observed: { calls: 0, findings: [] } }
}
function toolTests(steps: ToolTestStepResult[]): ToolTestsSection {
  return {
    status: 'ran',
    reason: null,
    snapshot_dir: 's',
    total: 1,
    passed: 1,
    failed: 0,
    errored: 0,
    cancelled: 0,
    tests: [{ id: 't', tags: [], status: 'passed', passed: true, runs: 1, duration_ms: 1, attempts: [{ attempt: 1, status: 'passed', error: null, stderr_tail: null, steps, duration_ms: 1 }] }]
  }
}

describe('summarizeTelemetry: tools', () => {
  const runs = [
    telemetryRun({
      tool_calls: [
        toolCall('search', 100, { result: 'héllo' }),
        toolCall('search', 300, { is_error: true, result: 'Error: boom' }),
        // Refused by the agent loop: never sent.
        toolCall('search', 0, { is_error: true, result: `${NOT_SENT.invalidArguments}: x` }),
        toolCall('nosuch', 0, { is_error: true, result: `${NOT_SENT.unknownTool} 'nosuch'` }),
        // A Layer 2 fault: counted apart, measured nowhere (not in errors either).
        toolCall('search', 30_000, { is_error: true, result: 'timed out', fault: { kind: 'timeout', call: 3, executions: 0, detail: 'x' } }),
        // The decoy of a shadow_tool attack is not the server's tool.
        toolCall('seach', 50, { injected: { attack: 'shadow_tool', payload: 'lure', position: null } }),
        // An attack rewrote the result: its latency is the server's, its bytes are not.
        toolCall('fetch', 40, { result: 'x'.repeat(5000), injected: { attack: 'tool_output', payload: 'exfiltrate', position: 'append' } })
      ]
    })
  ]

  test('every call that reached the server, by name; faults, refusals and decoys stay out', () => {
    const { tools } = summarizeTelemetry(input({ runs }))
    expect(tools.map((t) => t.name)).toEqual(['fetch', 'search'])
    expect(tools[1]).toEqual({
      name: 'search',
      calls: 2,
      errors: 1,
      faulted: 1,
      latency_ms: { samples: 2, p50: 100, p95: 300, max: 300 },
      // UTF-8 bytes: 'héllo' is 6, 'Error: boom' 11.
      result_bytes: { samples: 2, p50: 6, p95: 11, max: 11 }
    })
    expect(tools[0]).toMatchObject({ calls: 1, latency_ms: { samples: 1, p95: 40 }, result_bytes: { samples: 0, p95: null } })
  })

  test('tool test steps that got an answer count too: the JSON of the content, or the error message', () => {
    const tests = toolTests([
      step('search', 200, { kind: 'result', is_error: false, content: [{ type: 'text', text: 'hi' }], structured_content: null }),
      step('search', 400, { kind: 'error', code: -32602, message: 'bad args', data: null }),
      step('search', 900, null)
    ])
    const search = summarizeTelemetry(input({ runs, tool_tests: tests })).tools.find((t) => t.name === 'search')!
    expect(search.calls).toBe(4)
    expect(search.errors).toBe(2)
    expect(search.latency_ms).toEqual({ samples: 4, p50: 200, p95: 400, max: 400 })
    // [{"type":"text","text":"hi"}] is 29 bytes; "bad args" 8.
    expect(search.result_bytes).toEqual({ samples: 4, p50: 8, p95: 29, max: 29 })
  })

  test('a tool whose every call was faulted is listed, unmeasured', () => {
    const faulted = telemetryRun({ tool_calls: [toolCall('slow', 5000, { fault: { kind: 'latency', call: 1, executions: 1, detail: 'x' } })] })
    expect(summarizeTelemetry(input({ runs: [faulted] })).tools).toEqual([
      { name: 'slow', calls: 0, errors: 0, faulted: 1, latency_ms: { samples: 0, p50: null, p95: null, max: null }, result_bytes: { samples: 0, p50: null, p95: null, max: null } }
    ])
  })
})

describe('summarizeTelemetry: models', () => {
  const runs = [
    telemetryRun({
      model: 'priced',
      prompt_name: 'a',
      duration_s: 2,
      tool_calls: [toolCall('search', 10), toolCall('search', 10)],
      // 1000 in × $1 + 500 out × $2 per million = $0.002; the cached call is replayed, not timed.
      llm_calls: [llmCall(800, usage(600, 100)), llmCall(0, usage(400, 400), true)],
      judge: judged(usage(100, 10), 500)
    }),
    telemetryRun({ model: 'priced', prompt_name: 'b', duration_s: 4, llm_calls: [llmCall(1200, usage(100, 0))], judge: judged(usage(100, 10), 700) }),
    telemetryRun({ model: 'priced', prompt_name: 'a', status: 'skipped', stop_reason: 'skipped', duration_s: 0, server: { era: null, protocol_version: null, connect_ms: null, list_ms: null, tools: null } }),
    telemetryRun({ model: 'unpriced', duration_s: 3, llm_calls: [llmCall(300, usage(10, 10))] }),
    // Its server never came up: not measured.
    telemetryRun({ model: 'unpriced', status: 'error', duration_s: 0.5, server: { era: null, protocol_version: null, connect_ms: null, list_ms: null, tools: null } })
  ]
  const telemetry = summarizeTelemetry(input({ runs }))

  test('one per model in plan order, over the runs that started', () => {
    expect(telemetry.models.map((m) => [m.model, m.prompt_name, m.runs])).toEqual([
      ['priced', null, 2],
      ['unpriced', null, 1]
    ])
    const priced = telemetry.models[0]
    expect(priced.run_s).toEqual({ samples: 2, p50: 2, p95: 4, max: 4 })
    expect(priced.turn_ms).toEqual({ samples: 2, p50: 800, p95: 1200, max: 1200 })
    expect(priced.tool_calls_per_run).toBe(1)
    expect(priced.input_tokens).toEqual({ samples: 2, p50: 100, p95: 1000, max: 1000, total: 1100 })
    expect(priced.output_tokens).toEqual({ samples: 2, p50: 0, p95: 500, max: 500, total: 500 })
    expect(priced.tokens_per_run).toEqual({ samples: 2, p50: 100, p95: 1500, max: 1500, total: 1600 })
    // $0.002 and $0.0001.
    expect(priced.cost_usd).toEqual({ per_run: 0.00105, p95_per_run: 0.002, max_per_run: 0.002, total: 0.0021 })
    // Priced at the document's judge model: 2 × (110 × $10 per million).
    expect(priced.judge).toEqual({ tokens: { input: 200, output: 20, total: 220 }, cost_usd: 0.0022 })
  })

  test('an unknown cost is null, never 0', () => {
    expect(telemetry.models[1].cost_usd).toEqual({ per_run: null, p95_per_run: null, max_per_run: null, total: null })
    expect(telemetry.models[1].judge.cost_usd).toBe(0)
  })

  test('one per model × system prompt', () => {
    expect(telemetry.model_prompts.map((m) => [m.model, m.prompt_name, m.runs, m.run_s.p95])).toEqual([
      ['priced', 'a', 1, 2],
      ['priced', 'b', 1, 4],
      ['unpriced', 'default', 1, 3]
    ])
  })

  test('a model none of whose runs started is listed with nothing measured', () => {
    const only = summarizeTelemetry(input({ runs: [runs[2]] })).models[0]
    expect(only).toMatchObject({ model: 'priced', runs: 0, tool_calls_per_run: null, run_s: { samples: 0, p95: null }, cost_usd: { per_run: null, total: 0 } })
  })

  test('the judge is priced with its own model when the run records one', () => {
    const run = telemetryRun({ model: 'priced', judge: judged(usage(1000, 0), 100, 'priced') })
    expect(summarizeTelemetry(input({ runs: [run] })).models[0].judge.cost_usd).toBe(0.001)
  })
})

describe('summarizeTelemetry: overall, cost sources and budgets', () => {
  const runs = [
    telemetryRun({
      model: 'priced',
      duration_s: 5,
      tool_calls: [toolCall('search', 1500)],
      llm_calls: [llmCall(2000, usage(1_000_000, 0)), llmCall(0, usage(0, 500_000, 0.5), true)],
      judge: judged(usage(1000, 0, 0.25), 800)
    }),
    telemetryRun({ model: 'priced', duration_s: 1, llm_calls: [llmCall(700, usage(1000, 1000, 0.01))], server: { era: 'legacy', protocol_version: null, connect_ms: 300, list_ms: null, tools: 1 } })
  ]
  const cache: CacheStats = { mode: 'read-write', hits: 2, misses: 3, saved_tokens: 501_000, saved_cost_usd: 0.6 }

  test('where the time went, the tokens, the cost and what the replayed answers saved', () => {
    const { overall } = summarizeTelemetry(input({ runs, wall_s: 7.456, cache, overhead: usage(100, 0, 0.02) }))
    expect(overall).toEqual({
      wall_s: 7.46,
      runs_s: 6,
      llm_s: 2.7,
      tool_s: 1.5,
      harness_s: 1.8,
      // (100 + 20) + (300 + 0) ms
      server_start_s: 0.42,
      judge_s: 0.8,
      tokens: { agent: { input: 1_001_000, output: 501_000, total: 1_502_000 }, judge: { input: 1100, output: 0, total: 1100 }, total: 1_503_100 },
      // Agent: $1 (pricing) + $0.5 (provider, replayed) + $0.01; judge: $0.25 + $0.02 overhead.
      cost_usd: { agent: 1.51, judge: 0.27, total: 1.78 },
      // Less the replayed agent call ($0.5), and the judge's replayed share of what the cache saved ($0.6 − $0.5).
      spent_usd: 1.18,
      cache: { hits: 2, saved_tokens: 501_000, saved_cost_usd: 0.6 }
    })
  })

  test('harness time is never negative (durations are rounded apart from latencies)', () => {
    const tight = telemetryRun({ duration_s: 1, llm_calls: [llmCall(1004, usage(1, 1))] })
    expect(summarizeTelemetry(input({ runs: [tight] })).overall.harness_s).toBe(0)
  })

  test('one unknown call makes every total it is part of unknown, and the spend with it', () => {
    const unknown = telemetryRun({ model: 'mystery', llm_calls: [llmCall(10, usage(1, 1))] })
    const telemetry = summarizeTelemetry(input({ runs: [...runs, unknown], cache }))
    expect(telemetry.overall.cost_usd).toEqual({ agent: null, judge: 0.25, total: null })
    expect(telemetry.overall.spent_usd).toBeNull()
    expect(telemetry.cost_sources).toEqual({ provider: 3, pricing: 1, unknown: 1, unknown_models: ['mystery'] })
  })

  test('an unpriced judge is an unknown model too; a judge that used nothing is no call', () => {
    const run = telemetryRun({ model: 'priced', llm_calls: [llmCall(10, usage(1, 1))], judge: judged(usage(5, 5)) })
    const notAsked = telemetryRun({ model: 'priced', llm_calls: [], judge: judged(emptyUsage(), null) })
    const telemetry = summarizeTelemetry(input({ runs: [run, notAsked], judge_model: 'unpriced-judge' }))
    expect(telemetry.cost_sources).toEqual({ provider: 0, pricing: 1, unknown: 1, unknown_models: ['unpriced-judge'] })
    expect(telemetry.overall.cost_usd.judge).toBeNull()
    expect(telemetry.models[0].judge.cost_usd).toBeNull()
    expect(telemetry.overall.cost_usd.agent).not.toBeNull()
  })

  test('the absolute budgets and the runs the budget skipped', () => {
    const skipped = telemetryRun({ status: 'skipped', skipped: { reason: 'budget', detail: 'x' }, server: { era: null, protocol_version: null, connect_ms: null, list_ms: null, tools: null } })
    const telemetry = summarizeTelemetry(input({ runs: [...runs, skipped], budgets: budgets({ max_p95_tool_ms: 1000, max_cost_usd: 2 }) }))
    expect(telemetry.skipped_runs).toBe(1)
    expect(telemetry.budgets.map((b) => [b.budget, b.subject, b.actual, b.passed])).toEqual([
      // Under the limit, but a run was skipped for it: the budget is what stopped it, so it fails.
      ['max_cost_usd', null, 1.26, false],
      ['max_p95_tool_ms', 'search', 1500, false]
    ])
    expect(telemetry.percentile_method).toBe('nearest-rank')
  })

  test('nothing ran: an empty section, no cache', () => {
    const telemetry = summarizeTelemetry(input({}))
    expect(telemetry).toMatchObject({ tools: [], models: [], model_prompts: [], skipped_runs: 0, budgets: [] })
    expect(telemetry.overall).toMatchObject({ runs_s: 0, cost_usd: { agent: 0, judge: 0, total: 0 }, spent_usd: 0, cache: null })
  })
})
