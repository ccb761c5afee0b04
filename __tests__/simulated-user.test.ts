import { describe, expect, test } from '@jest/globals'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import schema from '../schema/results.schema.json' with { type: 'json' }
import { evaluateWith, fixturePath, suiteOf } from '../__fixtures__/harness.js'
import { answer, kindOf, steps, toolCalls, verdict, type ChatRequestBody, type Reply } from '../__fixtures__/scripted-llm.js'
import { GOAL_REACHED, readUserMove, userModelMessages } from '../src/agent/simulated-user.js'
import type { ServerConfig } from '../src/config/types.js'
import { ExportResultCode } from '@opentelemetry/core'
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { startScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { parseSuite } from '../src/config/suite.js'
import { runEvaluation } from '../src/engine.js'
import { createChatClient } from '../src/llm/chat.js'
import { createSessionFactory } from '../src/mcp/session.js'
import { createGEvalJudge } from '../src/scoring/geval.js'
import { createSemanticMatcher } from '../src/scoring/semantic.js'
import { createTracing } from '../src/telemetry/tracing.js'

const ajv = new Ajv2020({ allErrors: true, strict: false })
addFormats.default(ajv)
const validate = ajv.compile(schema)
/** What the results schema says of a document (nothing, when it is valid). */
const schemaErrors = (doc: unknown) => (validate(JSON.parse(JSON.stringify(doc))) ? [] : validate.errors)

// book_slot counts its executions in its process, so every answer names its booking.
const BOOKING_SERVER: ServerConfig = { kind: 'stdio', command: process.execPath, args: [fixturePath('servers/resilience-server.mjs')], env: {} }
const USER_MODEL = 'u/sim'

/**
 * The simulated user writes `messages` one after the other, then (when `reached`) GOAL_REACHED;
 * the agent books the slot a message names and says so; the judge gives 9.
 */
function simulatedBrain(messages: string[], reached: boolean) {
  const userRequests: ChatRequestBody[] = []
  const responder = (request: ChatRequestBody): Reply => {
    const kind = kindOf(request)
    if (kind === 'steps') return steps(request.model)
    if (kind === 'score') return verdict(request.model, 9, 'the slots were booked')
    if (request.model === USER_MODEL) {
      userRequests.push(request)
      // Its own earlier messages come back to it as assistant messages.
      const written = request.messages.filter((m) => m.role === 'assistant').length
      return answer(request.model, written < messages.length ? messages[written] : reached ? GOAL_REACHED : 'Anything else?')
    }
    const last = request.messages.map((m) => m.role).lastIndexOf('user')
    const since = request.messages.slice(last + 1)
    const slot = /\d\d:\d\d/.exec(request.messages[last].content ?? '')?.[0]
    if (slot && since.length === 0) return toolCalls(request.model, [{ name: 'book_slot', args: { slot } }])
    return answer(request.model, since.length ? `Done: ${since.at(-1)?.content}` : 'How can I help?')
  }
  return { responder, userRequests }
}

const simulatedCase = (extra = '') => `  - id: sim
    simulated_user:
      goal: Get the 09:00 and the 10:00 slots booked.
      persona: A busy office manager who writes tersely.
${extra}    rubric: Both slots end up booked.
`
const withUserModel = (cases: string) => suiteOf(cases).concat(`user_model: ${USER_MODEL}\n`)

describe('a simulated user through the real engine', () => {
  test('it writes the messages, stops at GOAL_REACHED, and its tokens count on the judge side', async () => {
    const brain = simulatedBrain(['Book 09:00.', 'Now 10:00.'], true)
    const { doc } = await evaluateWith({ suite: withUserModel(simulatedCase('      max_turns: 5\n')), server: BOOKING_SERVER, responder: brain.responder })
    const run = doc.runs[0]
    expect(run).toMatchObject({ status: 'passed', input: 'Get the 09:00 and the 10:00 slots booked.', final_output: 'Done: booked 10:00 (booking #2)' })
    expect(run.dialogue).toMatchObject({ kind: 'simulated', ended: 'goal_reached', user_model: USER_MODEL, turns_passed: true })
    expect(run.dialogue!.turns.map((t) => [t.user, t.simulated, t.passed])).toEqual([
      ['Book 09:00.', true, true],
      ['Now 10:00.', true, true]
    ])
    // Asked three times: the opening, after answer 1, after answer 2 (GOAL_REACHED).
    expect(brain.userRequests).toHaveLength(3)
    expect(run.dialogue!.user_usage).toMatchObject({ total_tokens: 3 * 120 })
    const [opening, , last] = brain.userRequests
    expect(opening.temperature).toBe(0)
    expect(opening.messages[0].content).toContain('Your goal: Get the 09:00 and the 10:00 slots booked.')
    expect(opening.messages[0].content).toContain('Your persona: A busy office manager who writes tersely.')
    expect(opening.messages[0].content).toContain(GOAL_REACHED)
    expect(opening.messages.map((m) => m.role)).toEqual(['system', 'user'])
    // The roles flipped: what it wrote is the assistant's, what the assistant answered is the user's.
    expect(last.messages.slice(2)).toEqual([
      { role: 'assistant', content: 'Book 09:00.' },
      { role: 'user', content: 'Done: booked 09:00 (booking #1)' },
      { role: 'assistant', content: 'Now 10:00.' },
      { role: 'user', content: 'Done: booked 10:00 (booking #2)' }
    ])
    // The transcript marks its messages.
    expect(run.conversation.filter((e) => e.role === 'user')).toEqual([
      { role: 'user', content: 'Book 09:00.', turn: 1, simulated: true },
      { role: 'user', content: 'Now 10:00.', turn: 2, simulated: true }
    ])
    expect(run.conversation.filter((e) => e.role !== 'user').every((e) => e.simulated === undefined)).toBe(true)
    // Judge side: the verdict, its evaluation steps and the simulated user's three calls.
    expect(doc.summary.tokens.judge.total_tokens).toBe(5 * 120)
    expect(doc.summary.tokens.agent.total_tokens).toBe(4 * 120)
    expect(doc.telemetry!.overall.tokens.judge.total).toBe(5 * 120)
    expect(doc.telemetry!.overall.cost_usd.judge).toBeCloseTo(5 * 0.00015, 8)
    expect(schemaErrors(doc)).toEqual([])
  })

  test('max_turns bounds its messages: it is not asked again after the last', async () => {
    const brain = simulatedBrain(['Book 09:00.', 'Now 10:00.', 'And 11:00.'], false)
    const { doc } = await evaluateWith({ suite: withUserModel(simulatedCase('      max_turns: 2\n')), server: BOOKING_SERVER, responder: brain.responder })
    const run = doc.runs[0]
    expect(run.dialogue).toMatchObject({ ended: 'max_turns', turns_passed: true })
    expect(run.dialogue!.turns).toHaveLength(2)
    expect(brain.userRequests).toHaveLength(2)
    expect(run.status).toBe('passed')
  })

  test('stop_when on the latest answer ends it', async () => {
    const brain = simulatedBrain(['Book 09:00.', 'Now 10:00.'], true)
    const { doc } = await evaluateWith({ suite: withUserModel(simulatedCase('      max_turns: 5\n      stop_when: "BOOKING #\\\\d"\n')), server: BOOKING_SERVER, responder: brain.responder })
    const run = doc.runs[0]
    expect(run.dialogue).toMatchObject({ ended: 'stop_when' })
    expect(run.dialogue!.turns).toHaveLength(1)
    expect(brain.userRequests).toHaveLength(1)
  })

  test('its failure is the run’s error, stage llm, naming the simulated user', async () => {
    const { doc } = await evaluateWith({
      suite: withUserModel(simulatedCase('      max_turns: 3\n')),
      server: BOOKING_SERVER,
      maxRetries: 0,
      responder: (request) => (request.model === USER_MODEL ? { status: 400, body: { error: { message: 'no such model' } } } : steps(request.model))
    })
    const run = doc.runs[0]
    expect(run.status).toBe('error')
    expect(run.error).toMatchObject({ stage: 'llm' })
    expect(run.error!.message).toMatch(/^the simulated user \(u\/sim\) failed: .*no such model/)
    expect(run.dialogue).toMatchObject({ ended: 'stopped', turns: [], turns_passed: false })
    expect(run.judge).toBeNull()
    expect(schemaErrors(doc)).toEqual([])
  })

  test('GOAL_REACHED before its first message is a failure of the simulated user', async () => {
    const brain = simulatedBrain([], true)
    const { doc } = await evaluateWith({ suite: withUserModel(simulatedCase('      max_turns: 3\n')), server: BOOKING_SERVER, responder: brain.responder })
    expect(doc.runs[0].error).toEqual({ stage: 'llm', message: `the simulated user (u/sim) failed: it answered ${GOAL_REACHED} before writing its first message` })
  })
})

describe('the simulated user’s time and trace', () => {
  test('its calls are timed (user_latency_ms) and each is a chat span of the run’s trace', async () => {
    const brain = simulatedBrain(['Book 09:00.'], true)
    // Its two calls take at least 150 ms each; nothing else is slow.
    const llm = await startScriptedLlm((request) => ({ ...brain.responder(request), ...(request.model === USER_MODEL ? { delayMs: 150 } : {}) }))
    const spans: ReadableSpan[] = []
    const tracing = createTracing({
      otlp: null,
      serviceVersion: '9.9.9',
      exporter: { export: (batch, done) => (spans.push(...batch), done({ code: ExportResultCode.SUCCESS })), shutdown: async () => undefined }
    })
    try {
      const suite = parseSuite(withUserModel(simulatedCase('      max_turns: 3\n')), 'test.yaml')
      const chat = createChatClient({ baseURL: llm.url, apiKey: 'sk-test', maxRetries: 0 })
      const doc = await runEvaluation(suite, BOOKING_SERVER, { maxSteps: 5, concurrency: 1, timeoutSeconds: 30, baseUrl: llm.url, today: '2026-11-30' }, {
        llm: chat,
        judge: createGEvalJudge(chat, suite.judge_model),
        semantic: createSemanticMatcher(chat, suite.judge_model),
        sessions: createSessionFactory(BOOKING_SERVER, { probeTimeoutMs: 3000, requestTimeoutMs: 30_000 }),
        tracing
      })
      await tracing.shutdown()
      const [run] = doc.runs
      expect(run.dialogue).toMatchObject({ ended: 'goal_reached', user_model: USER_MODEL })
      expect(brain.userRequests).toHaveLength(2)
      expect(run.dialogue!.user_latency_ms).toBeGreaterThanOrEqual(2 * 150)
      // The model's share of the time holds the simulated user's.
      expect(doc.telemetry!.overall.llm_s).toBeGreaterThanOrEqual(0.3)
      const root = spans.find((s) => s.name === 'invoke_agent sim')!
      const userSpans = spans.filter((s) => s.name === `chat ${USER_MODEL}`)
      expect(userSpans).toHaveLength(2)
      for (const span of userSpans) {
        expect(span.spanContext().traceId).toBe(run.trace_id)
        expect(span.parentSpanContext?.spanId).toBe(root.spanContext().spanId)
        expect(span.attributes).toMatchObject({ 'gen_ai.request.model': USER_MODEL, 'gen_ai.usage.input_tokens': 100 })
      }
    } finally {
      await llm.close()
    }
  })
})

describe('the user model’s request and answer', () => {
  test('GOAL_REACHED alone (spaces, quotes, emphasis and a closing full stop aside) ends; anything else is the next message', () => {
    expect(readUserMove(`  ${GOAL_REACHED}\n`, false)).toEqual({ kind: 'goal_reached' })
    for (const dressed of [`${GOAL_REACHED}.`, `**${GOAL_REACHED}**`, `"${GOAL_REACHED}"`, `\`${GOAL_REACHED}\``, `“${GOAL_REACHED}!”`, `_${GOAL_REACHED}_.`]) {
      expect([dressed, readUserMove(dressed, false)]).toEqual([dressed, { kind: 'goal_reached' }])
    }
    expect(readUserMove(`**${GOAL_REACHED}**`, true)).toBeInstanceOf(Error)
    expect(readUserMove(`Not ${GOAL_REACHED}`, false)).toEqual({ kind: 'message', text: `Not ${GOAL_REACHED}` })
    expect(readUserMove(`${GOAL_REACHED}?`, false)).toEqual({ kind: 'message', text: `${GOAL_REACHED}?` })
    expect(readUserMove(`${GOAL_REACHED}, thanks!`, false)).toEqual({ kind: 'message', text: `${GOAL_REACHED}, thanks!` })
    expect(readUserMove(' Book it. ', false)).toEqual({ kind: 'message', text: 'Book it.' })
    expect(readUserMove('', false)).toBeInstanceOf(Error)
    expect(readUserMove(null, true)).toBeInstanceOf(Error)
    expect(readUserMove(GOAL_REACHED, true)).toBeInstanceOf(Error)
  })

  test('no persona, no persona line', () => {
    const [system, opening] = userModelMessages({ goal: 'Find a flight.', persona: null }, [])
    expect(system.content).toContain('Your goal: Find a flight.')
    expect(system.content).not.toContain('persona')
    expect(opening.role).toBe('user')
  })
})
