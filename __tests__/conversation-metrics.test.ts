import { describe, expect, test } from '@jest/globals'
import { judged, llmCall, telemetryRun, toolCall, usage } from '../__fixtures__/telemetry-sections.js'
import { computeMetrics } from '../src/aggregate/metrics.js'
import { judgeSideUsage, summarize } from '../src/aggregate/summarize.js'
import { parseSuite } from '../src/config/suite.js'
import { NO_BUDGETS } from '../src/config/types.js'
import { emptyUsage } from '../src/llm/chat.js'
import type { DialogueResult, JudgeDetails, TurnResult } from '../src/results/types.js'
import type { GoldenAssertions } from '../src/scoring/golden.js'
import { summarizeTelemetry } from '../src/telemetry/summarize.js'

const suite = parseSuite(
  `system_prompts: {d: x}
cases:
  - id: conv
    required_tools: [search]
    rubric: The user gets what they asked for.
    turns:
      - user: Find x.
        expect_tool: search
        expect_args: { q: x }
        rubric: Finds x.
      - user: Thanks, that is all.
        expect_tool: null
      - user: Book it.
        expect_tool: book
        required_tools: [book]
        rubric: Books it.
  - id: single
    prompt: p
    rubric: r
    expect_tool: search
`,
  'm.yaml'
)

const golden = (checks: [string, boolean][]): GoldenAssertions =>
  ({ passed: checks.every(([, p]) => p), checks: checks.map(([check, passed]) => ({ check, passed, reason: '' })) }) as GoldenAssertions
const verdict = (score: number, used = usage(100, 10)): JudgeDetails => ({ ...judged(used), score, raw_score: score * 10 })

function turn(index: number, first_call: number, calls: number, extra: Partial<TurnResult> = {}): TurnResult {
  return { index, user: '', simulated: false, final_output: 'a', stop_reason: 'final_answer', first_call, calls, llm_calls: calls + 1, tool_assertions: null, golden_assertions: null, judge: null, passed: true, ...extra }
}

function dialogue(turns: TurnResult[], extra: Partial<DialogueResult> = {}): DialogueResult {
  return { kind: 'turns', turns, ended: 'script_done', user_model: null, user_usage: null, user_latency_ms: null, turns_passed: turns.every((t) => t.passed), ...extra }
}

// Turn 1: search(q=x) — right first call, right args, judged 0.9. Turn 2: search again — over-triggered.
// Turn 3: book then search — its first call is book (the run's first call is search), judged 0.5 (failed).
const conversationRun = telemetryRun({
  case_id: 'conv',
  tool_calls: [toolCall('search', 10, { args: { q: 'x' } }), toolCall('search', 10), toolCall('book', 10), toolCall('search', 10)],
  judge: verdict(0.8),
  rubric_passed: true,
  dialogue: dialogue([
    turn(1, 0, 1, { golden_assertions: golden([['expect_tool', true], ['expect_args', true]]), judge: verdict(0.9) }),
    turn(2, 1, 1, { golden_assertions: golden([['expect_tool', false]]), passed: false }),
    turn(3, 2, 2, { golden_assertions: golden([['expect_tool', true]]), judge: verdict(0.5), passed: false })
  ])
})

describe('metrics count a conversation per turn', () => {
  test("each turn with golden keys is one case, over that turn's calls; each judged turn one verdict", () => {
    const metrics = computeMetrics([conversationRun], suite.cases).overall
    expect(metrics).toMatchObject({
      runs: 1,
      // Turns 1 and 3, each on its own first call (over the whole run, turn 3's would be search).
      tool_selection_accuracy: 1,
      over_trigger_rate: 1,
      argument_correctness: 1,
      // The overall rubric (passed), turn 1 (0.9 ≥ 0.7) and turn 3 (0.5 < 0.7).
      task_completion: 0.6667,
      // Case-level {search} against {search, book}: P .5 R 1; turn 1 {search}: 1, 1; turn 3 {book} against {book, search}: .5, 1.
      tool_set_precision: 0.6667,
      tool_set_recall: 1,
      tool_set_f1: 0.7778,
      tool_error_rate: 0
    })
  })

  test('a single-turn run counts once, as before; an errored conversation counts no tool-use case', () => {
    const single = telemetryRun({ case_id: 'single', tool_calls: [toolCall('book', 10)], judge: verdict(0.9) })
    const errored = { ...conversationRun, status: 'error' as const, judge: null }
    const metrics = computeMetrics([single, errored], suite.cases).overall
    expect(metrics).toMatchObject({ tool_selection_accuracy: 0, over_trigger_rate: null, argument_correctness: null, task_completion: 0.6667 })
  })
})

describe('the judge side of a conversation: turn judges and the simulated user', () => {
  const simulated = telemetryRun({
    case_id: 'sim',
    model: 'agent/m',
    llm_calls: [llmCall(100, usage(1000, 0))],
    judge: judged(usage(1000, 0), 300, 'judge/m'),
    dialogue: dialogue([turn(1, 0, 0, { simulated: true })], { kind: 'simulated', ended: 'goal_reached', user_model: 'user/m', user_usage: usage(1000, 0) })
  })
  const scripted = telemetryRun({
    case_id: 'conv',
    model: 'agent/m',
    judge: null,
    dialogue: dialogue([turn(1, 0, 0, { judge: judged(usage(1000, 0), 200) }), turn(2, 0, 0, { judge: judged(usage(1000, 0), 100) })])
  })
  const pricing = { 'agent/m': { input_per_mtok: 1, output_per_mtok: 1 }, 'judge/m': { input_per_mtok: 2, output_per_mtok: 2 }, 'user/m': { input_per_mtok: 10, output_per_mtok: 10 } }

  test('one list of (model, usage) pairs: the run’s judge, each turn’s judge, then the simulated user', () => {
    expect(judgeSideUsage(simulated, 'judge/m').map((s) => [s.model, s.usage.total_tokens, s.latency_ms])).toEqual([
      ['judge/m', 1000, 300],
      ['user/m', 1000, null]
    ])
    // A judge that names no model is the suite's judge model's.
    expect(judgeSideUsage(scripted, 'judge/m').map((s) => s.model)).toEqual(['judge/m', 'judge/m'])
    expect(judgeSideUsage(telemetryRun(), 'judge/m')).toEqual([])
  })

  test('the summary counts them as judge tokens', () => {
    const summary = summarize([simulated, scripted], [])
    expect(summary.tokens.judge.total_tokens).toBe(4000)
    expect(summary.tokens.agent.total_tokens).toBe(1000)
  })

  test('telemetry prices each at its own model: the simulated user at user_model', () => {
    const section = summarizeTelemetry({ runs: [simulated, scripted], tool_tests: null, wall_s: 1, overhead: emptyUsage(), cache: null, judge_model: 'judge/m', pricing, budgets: NO_BUDGETS })
    // Judges: 3 × 1000 tokens at $2/Mtok; the simulated user: 1000 at $10/Mtok.
    expect(section.overall.cost_usd.judge).toBeCloseTo(0.006 + 0.01, 10)
    expect(section.overall.cost_usd.agent).toBeCloseTo(0.001, 10)
    expect(section.overall.tokens.judge.total).toBe(4000)
    // Turn judges' time is judge time; the simulated user's is the run's.
    expect(section.overall.judge_s).toBe(0.6)
    expect(section.cost_sources).toMatchObject({ pricing: 5, unknown: 0 })
    expect(section.models[0].judge).toEqual({ tokens: { input: 4000, output: 0, total: 4000 }, cost_usd: 0.016 })
  })
})

describe('where the time went, with sampling answers and a simulated user', () => {
  test("a sampling answer's time is its tool call's, never the model's too; the simulated user's time is the model's, not the harness's", () => {
    const sampling = { ...llmCall(400, usage(50, 10)), purpose: 'sampling' as const }
    const run = telemetryRun({
      duration_s: 3,
      // One agent step of 1 s, one tool call of 0.5 s during which the model wrote a sampling answer (0.4 s).
      llm_calls: [llmCall(1000, usage(100, 10)), sampling],
      tool_calls: [toolCall('search', 500)],
      dialogue: dialogue([turn(1, 0, 1, { simulated: true })], { kind: 'simulated', ended: 'goal_reached', user_model: 'user/m', user_usage: usage(10, 10), user_latency_ms: 700 })
    })
    const section = summarizeTelemetry({ runs: [run], tool_tests: null, wall_s: 3, overhead: emptyUsage(), cache: null, judge_model: 'judge/m', pricing: {}, budgets: NO_BUDGETS })
    // The model: the agent's step (1 s) and the simulated user (0.7 s); the sampling answer is inside the tool's 0.5 s.
    expect(section.overall).toMatchObject({ runs_s: 3, llm_s: 1.7, tool_s: 0.5, harness_s: 0.8 })
    expect(section.models[0].turn_ms).toMatchObject({ samples: 1, p50: 1000, max: 1000 })
    // Its tokens are still the agent's.
    expect(section.overall.tokens.agent.total).toBe(170)
  })
})
