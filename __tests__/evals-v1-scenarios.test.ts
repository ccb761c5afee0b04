import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import schema from '../schema/results.schema.json' with { type: 'json' }
import { fixturePath, suiteOf } from '../__fixtures__/harness.js'
import { journalHeader } from '../__fixtures__/journal.js'
import { answer, kindOf, startScriptedLlm, steps, toolCalls, verdict, type ChatRequestBody, type Reply, type Responder } from '../__fixtures__/scripted-llm.js'
import { parseEvalsV1Suite } from '../src/config/evals-v1-suite.js'
import { parseSuite } from '../src/config/suite.js'
import type { ConversationTurn, EvalsV1TurnExpect, GoldenExpectations, ServerConfig, Suite } from '../src/config/types.js'
import { runEvaluation, type EngineSettings } from '../src/engine.js'
import { JournalWriter } from '../src/execute/journal.js'
import { createChatClient } from '../src/llm/chat.js'
import { createSessionFactory } from '../src/mcp/session.js'
import { renderJUnit } from '../src/report/junit.js'
import { renderMarkdownReport } from '../src/report/markdown.js'
import { failureReasons } from '../src/report/reasons.js'
import type { ResultsDocument } from '../src/results/types.js'
import { createGEvalJudge } from '../src/scoring/geval.js'
import { createSemanticMatcher } from '../src/scoring/semantic.js'

// evals/v1 scenarios (translated into conversation cases whose turns carry `evals_v1`) on the
// real engine: a real MCP server with structuredContent and a resource, the scripted model.
const FRUIT_SHOP: ServerConfig = { kind: 'stdio', command: process.execPath, args: [fixturePath('servers/scenario-server.mjs')], env: {} }
const AGENT = 'scripted/agent'
const OTHER = 'scripted/other'

const ajv = new Ajv2020({ allErrors: true, strict: false })
addFormats.default(ajv)
const validate = ajv.compile(schema)
const schemaErrors = (doc: unknown) => (validate(JSON.parse(JSON.stringify(doc))) ? [] : validate.errors)

/** A turn's expect as A's loader writes it, the keys it leaves out empty. */
const expectOf = (partial: Partial<EvalsV1TurnExpect>): EvalsV1TurnExpect => ({ tools: [], result: null, widget_fields: null, widget_screenshot: null, ...partial })

/** A scenario, built by hand as the evals/v1 loader translates one: a conversation case of scripted turns, its judge the case rubric, `forbidden` its golden key. */
function scenarioSuite(scenario: { turns: { user: string; expect?: EvalsV1TurnExpect }[]; judge?: { rubric: string; threshold: number }; forbidden?: string[] }, extra: Partial<Suite> = {}): Suite {
  const base = parseSuite(suiteOf('  - id: placeholder\n    prompt: unused\n    rubric: unused\n'), 'test.yaml')
  const turns: ConversationTurn[] = scenario.turns.map((turn) => ({ user: turn.user, rubric: null, threshold: 0.7, required_tools: [], golden: null, ...(turn.expect ? { evals_v1: turn.expect } : {}) }))
  const golden: GoldenExpectations | null = scenario.forbidden ? { forbidden_tools: scenario.forbidden } : null
  const evalCase = {
    ...base.cases[0],
    id: 'fruit-search',
    prompt: turns[0].user,
    rubric: scenario.judge?.rubric ?? '',
    threshold: scenario.judge?.threshold ?? 0.7,
    golden,
    kind: 'hard' as const,
    conversation: { kind: 'turns' as const, turns }
  }
  return { ...base, models: [AGENT], cases: [evalCase], ...extra }
}

/** An agent's calls after one user message (one list per step), then its answer. */
type TurnScript = { calls: { name: string; args: unknown }[][]; answer: string }

/** The agent plays the script of the latest user message (keyed by a substring); the judge scores `score` (0-10) and says the rubric it saw. */
function brain(scripts: Record<string, TurnScript>, score = 8): { responder: Responder; agentRequests: ChatRequestBody[] } {
  const agentRequests: ChatRequestBody[] = []
  const responder: Responder = (request): Reply => {
    const kind = kindOf(request)
    if (kind === 'steps') return steps(request.model)
    if (kind === 'score') return verdict(request.model, score, `scored ${score}`)
    agentRequests.push(request)
    const last = request.messages.map((m) => m.role).lastIndexOf('user')
    const user = request.messages[last].content ?? ''
    const script = Object.entries(scripts).find(([key]) => user.includes(key))?.[1]
    if (!script) return answer(request.model, 'I cannot help with that.')
    const taken = request.messages.slice(last + 1).filter((m) => m.role === 'assistant').length
    return taken < script.calls.length ? toolCalls(request.model, script.calls[taken]) : answer(request.model, script.answer)
  }
  return { responder, agentRequests }
}

async function evaluate(suite: Suite, responder: Responder, settings: Partial<EngineSettings> = {}): Promise<ResultsDocument> {
  const llm = await startScriptedLlm(responder)
  try {
    const chat = createChatClient({ baseURL: llm.url, apiKey: 'sk-test', maxRetries: 0 })
    const all: EngineSettings = { maxSteps: 5, concurrency: 2, timeoutSeconds: 30, baseUrl: llm.url, today: '2026-12-03', ...settings }
    return await runEvaluation(suite, FRUIT_SHOP, all, {
      llm: chat,
      judge: createGEvalJudge(chat, suite.judge_model),
      semantic: createSemanticMatcher(chat, suite.judge_model),
      sessions: createSessionFactory(FRUIT_SHOP, { probeTimeoutMs: 3000, requestTimeoutMs: 30_000 })
    })
  } finally {
    await llm.close()
  }
}

const search = (args: Record<string, unknown>) => [{ name: 'search_fruit', args }]

const THREE_TURNS = [
  {
    user: 'Find mango for me.',
    expect: expectOf({
      tools: [{ name: 'search_fruit', args: { query: 'mango' }, after_turn: null }],
      result: {
        tool: 'search_fruit',
        assert: [
          { kind: 'outputSchemaValid' },
          { kind: 'jsonpath', path: '$.structuredContent.total', equals: 1 },
          // Read through the run's own session, its URI taken from the result.
          { kind: 'resource', uri: '${fromResult:$.structuredContent.details_uri}', assert: [{ kind: 'contains', contains: 'TROPICAL' }] }
        ]
      },
      widget_fields: { query: 'Mango', total: 1 }
    })
  },
  {
    user: 'Now one kiwi.',
    expect: expectOf({
      tools: [{ name: 'search_fruit', args: { query: { contains: 'KI' }, limit: 1 }, after_turn: 1 }],
      // Key order aside, the same value.
      widget_fields: { results: [{ price: 0.6, color: 'green', name: 'Kiwi' }] }
    })
  },
  {
    user: 'Thanks, that is all.',
    expect: expectOf({
      // Any call so far: turn 1's matches.
      tools: [{ name: 'search_fruit', args: { query: { pattern: '^man' } }, after_turn: null }],
      // The last call of the tool in the scenario so far: turn 2's.
      result: { tool: 'search_fruit', assert: [{ kind: 'equals', path: '$.structuredContent.query', equals: 'kiwi' }] }
    })
  }
]

describe('evals/v1 scenario turns on the conversation engine', () => {
  test('every expectation kind passes: tools (any call so far, afterTurn), result (last call so far, nested resource read), widget fields, forbidden, the judge at its threshold', async () => {
    const { responder } = brain({
      'Find mango': { calls: [search({ query: 'Mango' })], answer: 'Mango costs 2.5.' },
      'one kiwi': { calls: [search({ query: 'kiwi', limit: 1 })], answer: 'Kiwi costs 0.6.' },
      Thanks: { calls: [], answer: 'You are welcome.' }
    }, 7)
    const doc = await evaluate(scenarioSuite({ turns: THREE_TURNS, judge: { rubric: 'Finds the fruit asked for.', threshold: 0.7 }, forbidden: ['delete_catalog'] }), responder)
    const run = doc.runs[0]
    expect(schemaErrors(doc)).toEqual([])
    expect(failureReasons(run)).toEqual([])
    expect(run).toMatchObject({ status: 'passed', success: true })
    // Upstream's judge passes at score >= threshold: 7/10 against 0.7.
    expect(run.judge).toMatchObject({ score: 0.7, threshold: 0.7 })
    expect(run.golden_assertions).toEqual({ passed: true, checks: [{ check: 'forbidden_tools', passed: true, reason: 'none of delete_catalog called' }] })
    const turns = run.dialogue!.turns
    expect(turns.map((t) => t.passed)).toEqual([true, true, true])
    expect(turns[0].golden_assertions!.passed).toBe(true)
    expect(turns[0].golden_assertions!.checks.map((c) => [c.check, c.passed, c.reason])).toEqual([
      ['tools', true, 'search_fruit called with matching arguments (call 1, turn 1)'],
      ['result', true, 'search_fruit, call 1, turn 1: 3 assertions passed'],
      ['widget', true, 'search_fruit, call 1, turn 1: 2 widget fields match structuredContent']
    ])
    expect(turns[0].golden_assertions!.checks[1].assertions!.map((a) => [a.check, a.passed])).toEqual([
      ['output_schema', true],
      ['jsonpath', true],
      ['resource', true]
    ])
    expect(turns[1].golden_assertions!.checks.map((c) => [c.check, c.passed, c.reason])).toEqual([
      ['tools', true, 'search_fruit called with matching arguments (call 2, turn 2)'],
      ['widget', true, 'search_fruit, call 2, turn 2: the widget field matches structuredContent']
    ])
    expect(turns[2].golden_assertions!.checks.map((c) => [c.check, c.passed, c.reason])).toEqual([
      ['tools', true, 'search_fruit called with matching arguments (call 1, turn 1)'],
      ['result', true, 'search_fruit, call 2, turn 2: 1 assertion passed']
    ])
    // The record keeps each call's structuredContent in an evals/v1 run.
    expect(run.tool_calls.map((c) => c.structured_content)).toEqual([
      { query: 'Mango', results: [{ name: 'Mango', color: 'orange', price: 2.5 }], total: 1, details_uri: 'fruit://mango' },
      { query: 'kiwi', results: [{ name: 'Kiwi', color: 'green', price: 0.6 }], total: 1, details_uri: 'fruit://kiwi' }
    ])
  })

  test('every expectation kind fails with its reason, and fails the run: the turn, the report, JUnit', async () => {
    const { responder } = brain({
      'Find mango': { calls: [search({ query: 'durian' })], answer: 'No durian.' },
      'one kiwi': { calls: [[{ name: 'delete_catalog', args: {} }]], answer: 'Done.' },
      Thanks: { calls: [], answer: 'Bye.' }
    }, 6)
    const doc = await evaluate(scenarioSuite({ turns: THREE_TURNS, judge: { rubric: 'Finds the fruit asked for.', threshold: 0.7 }, forbidden: ['delete_catalog'] }), responder)
    const run = doc.runs[0]
    expect(schemaErrors(doc)).toEqual([])
    expect(run).toMatchObject({ status: 'failed', success: false, rubric_passed: false })
    // Below the threshold: 6/10 against 0.7.
    expect(run.judge).toMatchObject({ score: 0.6, threshold: 0.7 })
    expect(run.golden_assertions).toEqual({ passed: false, checks: [{ check: 'forbidden_tools', passed: false, reason: 'called forbidden delete_catalog' }] })
    const [first, second, third] = run.dialogue!.turns
    expect(run.dialogue!.turns.map((t) => t.passed)).toEqual([false, false, false])
    expect(first.golden_assertions!.checks.map((c) => [c.check, c.passed])).toEqual([
      ['tools', false],
      ['result', false],
      ['widget', false]
    ])
    expect(first.golden_assertions!.checks[0].reason).toBe('no call of search_fruit matched its arguments; closest (call 1, turn 1): query="durian" (expected "mango", any case)')
    // The total and the resource (fruit://none, read through the session) fail; the schema holds.
    expect(first.golden_assertions!.checks[1].reason).toBe(
      'search_fruit, call 1, turn 1: 2 of 3 assertions failed: jsonpath: $.structuredContent.total: 0 does not equal 1; ' +
        'resource $.structuredContent.details_uri: read fruit://none; 1 of 1 nested assertion failed: contains $: $ does not contain "TROPICAL" (case-insensitive)'
    )
    expect(first.golden_assertions!.checks[2].reason).toBe(
      'search_fruit, call 1, turn 1: 2 widget fields differ from structuredContent: query: expected "Mango", got "durian"; total: expected 1, got 0'
    )
    expect(second.golden_assertions!.checks).toEqual([
      { check: 'tools', passed: false, reason: 'search_fruit was not called at or after turn 2 (afterTurn 1)' },
      { check: 'widget', passed: false, reason: 'delete_catalog, call 2, turn 2: the call returned no structuredContent object' }
    ])
    expect(third.golden_assertions!.checks.map((c) => [c.check, c.passed])).toEqual([
      ['tools', false],
      ['result', false]
    ])
    expect(third.golden_assertions!.checks[0].reason).toBe('no call of search_fruit matched its arguments; closest (call 1, turn 1): query="durian" (expected to match /^man/i)')
    expect(third.golden_assertions!.checks[1].reason).toMatch(/^search_fruit, call 1, turn 1: 1 of 1 assertion failed: equals: \$\.structuredContent\.query: .*durian/)
    const reasons = failureReasons(run)
    expect(reasons).toEqual(expect.arrayContaining([expect.stringMatching(/^turn 1: tools: no call of search_fruit matched/), expect.stringMatching(/^turn 2: tools: search_fruit was not called at or after turn 2/)]))
    expect(renderMarkdownReport(doc)).toContain('❌ `widget` — search\\_fruit, call 1, turn 1: 2 widget fields differ from structuredContent')
    expect(renderJUnit(doc)).toContain('turn 3: result: search_fruit, call 1, turn 1: 1 of 1 assertion failed')
    // The journal redacts the new fields as all of a record: a secret in the server's answer, in a reason, in an assertion's record.
    expect(JSON.stringify(run)).toMatch(/durian/)
    const path = join(mkdtempSync(join(tmpdir(), 'evals-v1-journal-')), 'eval-runs.jsonl')
    const writer = new JournalWriter(path, journalHeader(1, { config: doc.config!, cases: [] }), [], ['durian'])
    writer.append({ type: 'run', run })
    writer.close()
    const line = readFileSync(path, 'utf8').trim().split('\n')[1]
    expect(line).not.toMatch(/durian/i)
    const kept = JSON.parse(line) as { run: typeof run }
    expect(kept.run.tool_calls[0].structured_content).toMatchObject({ query: '***' })
    expect(kept.run.dialogue!.turns[0].golden_assertions!.checks[0].reason).toContain('query="***"')
  })
})

describe('evals/v1 disallowedTools and unfinished turns', () => {
  test('a disallowed tool is not offered to that model (the other model gets it), and a call to it anyway is answered as a tool that does not exist', async () => {
    const { responder, agentRequests } = brain({ 'Wipe it': { calls: [[{ name: 'delete_catalog', args: {} }]], answer: 'I could not.' } })
    const turns = [{ user: 'Wipe it all.', expect: expectOf({ tools: [{ name: 'delete_catalog', args: null, after_turn: null }], result: { tool: 'delete_catalog', assert: [{ kind: 'executionError', equals: false }] } }) }]
    const suite = scenarioSuite({ turns }, { models: [AGENT, OTHER], disallowed_tools: { [AGENT]: ['delete_catalog'] } })
    const doc = await evaluate(suite, responder)
    const offered = (model: string) => agentRequests.find((r) => r.model === model)!.tools!.map((t) => t.function.name)
    expect(offered(AGENT)).toEqual(['search_fruit'])
    expect(offered(OTHER)).toEqual(['search_fruit', 'delete_catalog'])
    const refused = doc.runs.find((r) => r.model === AGENT)!
    const offeredRun = doc.runs.find((r) => r.model === OTHER)!
    expect(refused.tool_calls).toMatchObject([{ name: 'delete_catalog', is_error: true, result: "Error: there is no tool named 'delete_catalog'." }])
    // What the model was not shown says so.
    expect(refused.model_view!.notes).toContain('1 tool was not offered to this model (disallowedTools): delete_catalog.')
    expect(offeredRun.model_view!.notes.some((n) => n.includes('disallowedTools'))).toBe(false)
    expect(offeredRun.tool_calls).toMatchObject([{ name: 'delete_catalog', is_error: false, result: 'catalog deleted' }])
    // The call was requested (tools[] sees it), but never sent: its result cannot be checked.
    expect(refused.dialogue!.turns[0].golden_assertions!.checks).toEqual([
      { check: 'tools', passed: true, reason: 'delete_catalog called (1x)' },
      { check: 'result', passed: false, reason: "delete_catalog, call 1, turn 1: the call was not sent to the server (Error: there is no tool named 'delete_catalog'.)" }
    ])
    expect(refused.status).toBe('failed')
    expect(offeredRun.dialogue!.turns[0].golden_assertions).toMatchObject({ passed: true })
    expect(offeredRun.status).toBe('passed')
  })

  test('a turn that never reached its final answer has its expectations unchecked: no golden checks, the turn and the run failed, the dialogue stopped', async () => {
    const { responder } = brain({ 'Find mango': { calls: [search({ query: 'mango' }), search({ query: 'mango' })], answer: 'never' } })
    const turns = [THREE_TURNS[0], THREE_TURNS[1]]
    const doc = await evaluate(scenarioSuite({ turns }), responder, { maxSteps: 2 })
    const run = doc.runs[0]
    expect(run.dialogue).toMatchObject({ ended: 'stopped', turns_passed: false })
    expect(run.dialogue!.turns).toHaveLength(1)
    expect(run.dialogue!.turns[0]).toMatchObject({ stop_reason: 'max_steps', golden_assertions: null, passed: false })
    expect(run.status).toBe('failed')
    expect(failureReasons(run)).toEqual(expect.arrayContaining([expect.stringMatching(/^turn 1: no final answer/)]))
  })
})

describe('an evals/v1 suite through its loader onto the engine', () => {
  const SUITE = `apiVersion: mcp-use.com/evals/v1
kind: EvalSuite
name: fruit
flows:
  - id: main
    type: agent
    clients:
      - target: mcp-use
        models: [${AGENT}]
      - target: mcp-use
        models: [${OTHER}]
        disallowedTools: [delete_catalog]
    systemPrompts: {default: You shop for fruit.}
    scenarios:
      - id: mango-then-kiwi
        turns:
          - user: Find mango for me.
            expect:
              tools: [{name: search_fruit, args: {query: mango}}]
              result:
                tool: search_fruit
                assert:
                  - {kind: outputSchemaValid}
                  - {kind: resource, uri: "\${fromResult:$.structuredContent.details_uri}", assert: [{kind: contains, contains: tropical}]}
              widget: {fields: {total: 1}}
          - user: Now one kiwi.
            expect:
              tools: [{name: search_fruit, args: {query: {contains: KI}, limit: 1}, afterTurn: 1}]
        expect:
          judge: {rubric: Finds the fruit asked for., threshold: 0.7}
          tools: {forbidden: [delete_catalog]}
`

  test('the same scenario passes for the model that follows it and fails, with reasons, for the one that does not (its client’s disallowedTools applied)', async () => {
    const { suite } = parseEvalsV1Suite(SUITE, 'fruit.suite.yaml', { context: 'ci' })
    const good = { 'Find mango': { calls: [search({ query: 'Mango' })], answer: 'Mango.' }, 'one kiwi': { calls: [search({ query: 'kiwi', limit: 1 })], answer: 'Kiwi.' } }
    const bad = { 'Find mango': { calls: [search({ query: 'kiwi' })], answer: 'Kiwi.' }, 'one kiwi': { calls: [[{ name: 'delete_catalog', args: {} }]], answer: 'Deleted.' } }
    const agent = brain(good, 8)
    const other = brain(bad, 8)
    const doc = await evaluate(suite, (request, index) => (request.model === OTHER ? other : agent).responder(request, index))
    expect(schemaErrors(doc)).toEqual([])
    const byModel = (model: string) => doc.runs.find((r) => r.model === model)!
    expect(byModel(AGENT)).toMatchObject({ status: 'passed', case_id: 'mango-then-kiwi' })
    expect(byModel(AGENT).dialogue!.turns.map((t) => t.golden_assertions!.checks.map((c) => `${c.check}:${c.passed}`))).toEqual([['tools:true', 'result:true', 'widget:true'], ['tools:true']])
    expect(byModel(OTHER).status).toBe('failed')
    // Its client keeps delete_catalog from it: not offered, and the call it made anyway was not sent (still a forbidden call).
    expect(other.agentRequests.every((r) => !r.tools!.some((t) => t.function.name === 'delete_catalog'))).toBe(true)
    expect(agent.agentRequests[0].tools!.map((t) => t.function.name)).toContain('delete_catalog')
    expect(byModel(OTHER).tool_calls[1]).toMatchObject({ name: 'delete_catalog', result: "Error: there is no tool named 'delete_catalog'." })
    expect(failureReasons(byModel(OTHER))).toEqual([
      'turn 1: tools: no call of search_fruit matched its arguments; closest (call 1, turn 1): query="kiwi" (expected "mango", any case)',
      'turn 1: result: search_fruit, call 1, turn 1: 1 of 2 assertions failed: resource $.structuredContent.details_uri: read fruit://kiwi; 1 of 1 nested assertion failed: contains $: $ does not contain "tropical" (case-insensitive)',
      'turn 2: tools: search_fruit was not called at or after turn 2 (afterTurn 1)',
      'forbidden_tools: called forbidden delete_catalog'
    ])
  })
})
