import { describe, expect, test } from '@jest/globals'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import schema from '../schema/results.schema.json' with { type: 'json' }
import { evaluateWith, fixturePath, suiteOf } from '../__fixtures__/harness.js'
import { answer, kindOf, steps, toolCalls, verdict, type ChatRequestBody, type Reply, type Responder } from '../__fixtures__/scripted-llm.js'
import { dialogueUpTo } from '../src/agent/conversation.js'
import type { ServerConfig } from '../src/config/types.js'
import { failureReasons } from '../src/report/reasons.js'

const ajv = new Ajv2020({ allErrors: true, strict: false })
addFormats.default(ajv)
const validate = ajv.compile(schema)
/** What the results schema says of a document (nothing, when it is valid). */
const schemaErrors = (doc: unknown) => (validate(JSON.parse(JSON.stringify(doc))) ? [] : validate.errors)

// book_slot counts its executions in its process: "booking #2" in turn 2 proves turn 1 ran in the same one.
const BOOKING_SERVER: ServerConfig = { kind: 'stdio', command: process.execPath, args: [fixturePath('servers/resilience-server.mjs')], env: {} }

/** What one judge call was asked. */
interface JudgeCall {
  rubric: string
  input: string
  output: string
}

/** An agent's behaviour for one user message: the tool turns it takes after it, then its answer. */
interface TurnScript {
  calls: { name: string; args: unknown }[][]
  answer: (results: string[]) => string
}

const between = (text: string, start: string, end: string) => {
  const a = text.indexOf(start) + start.length
  return text.slice(a, text.indexOf(end, a))
}

/**
 * The agent plays a script per user message (keyed by a substring of the latest user message,
 * counting only what came after it); the judge scores with `score` and its calls are kept.
 */
function dialogueBrain(scripts: Record<string, TurnScript>, score: (call: JudgeCall) => number) {
  const judged: JudgeCall[] = []
  const responder: Responder = (request: ChatRequestBody): Reply => {
    const kind = kindOf(request)
    if (kind === 'steps') return steps(request.model)
    if (kind === 'score') {
      const text = request.messages[0].content ?? ''
      const call = { rubric: between(text, 'Evaluation Criteria:\n', '\n\nEvaluation Steps:'), input: between(text, '\nInput:\n', '\n\nActual Output:\n'), output: between(text, '\n\nActual Output:\n', '\n\nParameters:') }
      judged.push(call)
      const s = score(call)
      return verdict(request.model, s, `scored ${s} for ${call.rubric}`)
    }
    const last = request.messages.map((m) => m.role).lastIndexOf('user')
    const user = request.messages[last].content ?? ''
    const since = request.messages.slice(last + 1)
    const key = Object.keys(scripts).find((k) => user.includes(k))
    if (!key) return answer(request.model, 'I cannot help with that.')
    const script = scripts[key]
    const taken = since.filter((m) => m.role === 'assistant').length
    if (taken < script.calls.length) return toolCalls(request.model, script.calls[taken])
    return answer(request.model, script.answer(since.filter((m) => m.role === 'tool').map((m) => m.content ?? '')))
  }
  return { responder, judged }
}

const book = (slot: string) => [{ name: 'book_slot', args: { slot } }]
const BOOKING_SCRIPTS: Record<string, TurnScript> = {
  'Book the 09:00 slot': { calls: [book('09:00')], answer: (r) => `Booked: ${r[0]}` },
  'book 10:00 too': { calls: [book('10:00')], answer: (r) => `Also booked: ${r[0]}` }
}

describe('a scripted conversation through the real engine', () => {
  const twoTurns = `  - id: book-twice
    turns:
      - user: Book the 09:00 slot.
        expect_tool: book_slot
        rubric: Confirms the 09:00 booking.
      - user: Now book 10:00 too.
        required_tools: [{ name: book_slot, args: { slot: "10:00" } }]
        rubric: Confirms the 10:00 booking.
    rubric: Both slots end up booked.
`

  test('two turns in one server process, max_steps per turn, each turn judged on the dialogue up to it, the overall rubric on all of it', async () => {
    const brain = dialogueBrain(BOOKING_SCRIPTS, (call) => (call.rubric.startsWith('Both') ? 9 : 8))
    // Each turn takes two LLM calls: with max_steps 2 for the whole run, turn 2 would run out.
    const { doc, llm } = await evaluateWith({ suite: suiteOf(twoTurns), server: BOOKING_SERVER, responder: brain.responder, settings: { maxSteps: 2 } })
    const run = doc.runs[0]
    expect(run).toMatchObject({ status: 'passed', success: true, rubric_passed: true, tools_passed: true, input: 'Book the 09:00 slot.', stop_reason: 'final_answer' })
    // One process for the whole conversation: its booking counter went on from turn 1.
    expect(run.tool_calls.map((c) => c.result)).toEqual(['booked 09:00 (booking #1)', 'booked 10:00 (booking #2)'])
    expect(run.final_output).toBe('Also booked: booked 10:00 (booking #2)')
    expect(run.actual_output).toBe(run.final_output)
    expect(run.dialogue).toMatchObject({ kind: 'turns', ended: 'script_done', turns_passed: true, user_model: null, user_usage: null })
    expect(run.dialogue!.turns).toMatchObject([
      { index: 1, user: 'Book the 09:00 slot.', simulated: false, final_output: 'Booked: booked 09:00 (booking #1)', stop_reason: 'final_answer', first_call: 0, calls: 1, llm_calls: 2, tool_assertions: null, golden_assertions: { passed: true }, judge: { score: 0.8 }, passed: true },
      { index: 2, first_call: 1, calls: 1, llm_calls: 2, tool_assertions: { passed: true }, golden_assertions: null, judge: { score: 0.8 }, passed: true }
    ])

    // The judge of turn 2 saw turn 1's exchange; the overall rubric saw the whole dialogue.
    const turn1 = 'User: Book the 09:00 slot.'
    const upToTurn2 = `${turn1}\n\nAssistant: Booked: booked 09:00 (booking #1)\n\nUser: Now book 10:00 too.`
    expect(brain.judged).toEqual(
      expect.arrayContaining([
        { rubric: 'Confirms the 09:00 booking.', input: turn1, output: 'Booked: booked 09:00 (booking #1)' },
        { rubric: 'Confirms the 10:00 booking.', input: upToTurn2, output: 'Also booked: booked 10:00 (booking #2)' },
        { rubric: 'Both slots end up booked.', input: upToTurn2, output: 'Also booked: booked 10:00 (booking #2)' }
      ])
    )
    expect(brain.judged).toHaveLength(3)
    // metrics[0] is the overall rubric's verdict.
    expect(run.metrics[0]).toMatchObject({ score: 0.9, success: true, reason: 'scored 9 for Both slots end up booked.' })
    expect(run.judge).toMatchObject({ score: 0.9 })

    // Turn 2's first request carries turn 1 as history.
    const agentRequests = llm.requests.filter((r) => kindOf(r) === 'agent')
    expect(agentRequests).toHaveLength(4)
    expect(agentRequests[2].messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user'])
    expect(run.conversation.map((e) => [e.role, e.turn])).toEqual([
      ['user', 1],
      ['assistant', 1],
      ['tool', 1],
      ['assistant', 1],
      ['user', 2],
      ['assistant', 2],
      ['tool', 2],
      ['assistant', 2]
    ])
    expect(run.conversation.some((e) => e.simulated)).toBe(false)
    // Every judge's tokens are judge tokens: three verdicts, three rubrics' evaluation steps.
    expect(doc.summary.tokens.judge.total_tokens).toBe(6 * 120)
    expect(run.usage.total_tokens).toBe(4 * 120)
    expect(schemaErrors(doc)).toEqual([])
  })

  test("per-turn assertions hold on that turn's calls only; case-level ones on the whole conversation; a failed turn fails the run and is named", async () => {
    const brain = dialogueBrain(
      { 'Book the 09:00 slot': BOOKING_SCRIPTS['Book the 09:00 slot'], 'book 10:00 too': { calls: [], answer: () => 'Sure, consider it done.' } },
      () => 9
    )
    const suite = suiteOf(`  - id: turn-scope
    required_tools: [book_slot]
    turns:
      - user: Book the 09:00 slot.
      - user: Now book 10:00 too.
        required_tools: [book_slot]
        expect_tool: book_slot
    rubric: Both slots end up booked.
`)
    const { doc } = await evaluateWith({ suite, server: BOOKING_SERVER, responder: brain.responder })
    const run = doc.runs[0]
    // Turn 1's call does not satisfy turn 2.
    expect(run.dialogue!.turns[1]).toMatchObject({
      passed: false,
      calls: 0,
      tool_assertions: { passed: false, checks: [{ tool: 'book_slot', passed: false, reason: 'not called' }] },
      golden_assertions: { passed: false, checks: [{ check: 'expect_tool', passed: false }] }
    })
    expect(run.dialogue!.turns[0]).toMatchObject({ passed: true, calls: 1, tool_assertions: null, golden_assertions: null })
    // The case-level requirement is met over the whole conversation.
    expect(run.tool_assertions).toMatchObject({ passed: true, checks: [{ tool: 'book_slot', passed: true }] })
    expect(run).toMatchObject({ status: 'failed', success: false, rubric_passed: true, tools_passed: false })
    expect(run.dialogue!.turns_passed).toBe(false)
    expect(failureReasons(run)).toEqual(expect.arrayContaining([expect.stringMatching(/^turn 2: book_slot: not called/)]))
  })

  test('a turn that runs out of steps ends the dialogue: later turns never run, nothing after it is judged, the reason names the turn', async () => {
    const brain = dialogueBrain(
      {
        'Book the 09:00 slot': BOOKING_SCRIPTS['Book the 09:00 slot'],
        'book 10:00 too': { calls: [book('10:00'), book('10:00'), book('10:00')], answer: () => 'never' },
        'third turn': { calls: [], answer: () => 'never asked' }
      },
      () => 9
    )
    const suite = suiteOf(`  - id: runs-out
    turns:
      - user: Book the 09:00 slot.
        rubric: Confirms the 09:00 booking.
      - user: Now book 10:00 too.
        rubric: Confirms the 10:00 booking.
      - user: A third turn.
    rubric: Both slots end up booked.
`)
    const { doc, llm } = await evaluateWith({ suite, server: BOOKING_SERVER, responder: brain.responder, settings: { maxSteps: 2 } })
    const run = doc.runs[0]
    expect(run.dialogue).toMatchObject({ ended: 'stopped', turns_passed: false })
    expect(run.dialogue!.turns.map((t) => [t.stop_reason, t.llm_calls, t.passed])).toEqual([
      ['final_answer', 2, true],
      ['max_steps', 2, false]
    ])
    expect(llm.requests.some((r) => r.messages.some((m) => m.content === 'A third turn.'))).toBe(false)
    // Turn 1 was judged; turn 2 and the whole dialogue could not be.
    expect(brain.judged.map((j) => j.rubric)).toEqual(['Confirms the 09:00 booking.'])
    expect(run).toMatchObject({ status: 'failed', stop_reason: 'max_steps', final_output: null, judge: null, rubric_passed: false })
    expect(run.metrics[0]).toMatchObject({ score: null, success: false, reason: 'Not judged: the model used all 2 LLM calls in turn 2 without a final answer.' })
    expect(run.actual_output).toBe('Model call limits exceeded: run limit (2/2)')
  })

  test('without an overall rubric, metrics[0] is the lowest-scoring judged turn, named', async () => {
    const brain = dialogueBrain(BOOKING_SCRIPTS, (call) => (call.rubric.includes('10:00') ? 4 : 9))
    const suite = suiteOf(`  - id: no-overall
    turns:
      - user: Book the 09:00 slot.
        rubric: Confirms the 09:00 booking.
      - user: Now book 10:00 too.
        rubric: Confirms the 10:00 booking.
        threshold: 0.5
`)
    const { doc } = await evaluateWith({ suite, server: BOOKING_SERVER, responder: brain.responder })
    const run = doc.runs[0]
    expect(run.metrics[0]).toEqual({ name: 'Response Quality [GEval]', score: 0.4, reason: 'Turn 2: scored 4 for Confirms the 10:00 booking.', success: false })
    expect(run).toMatchObject({ judge: null, rubric_passed: false, status: 'failed', threshold: 0.7 })
    expect(run.dialogue!.turns.map((t) => [t.judge?.score, t.judge?.threshold, t.passed])).toEqual([
      [0.9, 0.7, true],
      [0.4, 0.5, false]
    ])
    expect(failureReasons(run)).toEqual([expect.stringMatching(/^turn 2: judge 40% < threshold 50%/)])
    // The judge tokens of the turns are counted although the run has no judge of its own.
    expect(doc.summary.tokens.judge.total_tokens).toBe(4 * 120)
    expect(schemaErrors(doc)).toEqual([])
  })
})

describe('without an overall rubric, a turn with a rubric that was never judged fails metrics[0]', () => {
  const brain = () =>
    dialogueBrain(
      {
        'Book the 09:00 slot': BOOKING_SCRIPTS['Book the 09:00 slot'],
        'book 10:00 too': { calls: [book('10:00'), book('10:00'), book('10:00')], answer: () => 'never' },
        'third turn': { calls: [], answer: () => 'never asked' }
      },
      () => 9
    )

  test('the turn ran out of steps: its turn is named, the run fails although the judged turn passed', async () => {
    const suite = suiteOf(`  - id: unjudged-turn
    turns:
      - user: Book the 09:00 slot.
        rubric: Confirms the 09:00 booking.
      - user: Now book 10:00 too.
        rubric: Confirms the 10:00 booking.
`)
    const { doc } = await evaluateWith({ suite, server: BOOKING_SERVER, responder: brain().responder, settings: { maxSteps: 2 } })
    const run = doc.runs[0]
    expect(run.dialogue!.turns.map((t) => [t.stop_reason, t.judge?.score ?? null])).toEqual([
      ['final_answer', 0.9],
      ['max_steps', null]
    ])
    expect(run.metrics[0]).toEqual({ name: 'Response Quality [GEval]', score: null, reason: 'Turn 2: not judged: the model used all 2 LLM calls without a final answer.', success: false })
    expect(run).toMatchObject({ rubric_passed: false, success: false, status: 'failed' })
  })

  test('the dialogue stopped before the turn: the reason says where', async () => {
    const suite = suiteOf(`  - id: never-reached
    turns:
      - user: Book the 09:00 slot.
        rubric: Confirms the 09:00 booking.
      - user: Now book 10:00 too.
      - user: A third turn.
        rubric: Says what was booked.
`)
    const { doc } = await evaluateWith({ suite, server: BOOKING_SERVER, responder: brain().responder, settings: { maxSteps: 2 } })
    const run = doc.runs[0]
    expect(run.dialogue!.turns).toHaveLength(2)
    expect(run.metrics[0]).toMatchObject({
      score: null,
      success: false,
      reason: 'Turn 3: not judged: the dialogue stopped before it (turn 2: the model used all 2 LLM calls without a final answer).'
    })
    expect(run.rubric_passed).toBe(false)
    expect(schemaErrors(doc)).toEqual([])
  })
})

describe('a conversation whose server asks for input (MRTR)', () => {
  const MRTR_SERVER: ServerConfig = { kind: 'stdio', command: process.execPath, args: [fixturePath('servers/mrtr-server.mjs')], env: {} }

  test("one session answers every turn's input requests; the sampling answer is an LLM call of the run, never a step", async () => {
    const brain = dialogueBrain(
      {
        'Order two skillets': { calls: [[{ name: 'order_item', args: { item: 'skillet', quantity: 2 } }]], answer: (r) => `Done: ${r[0]}` },
        'Summarize my order': { calls: [[{ name: 'summarize_text', args: { text: 'two skillets to Springfield' } }]], answer: (r) => `Here: ${r[0]}` },
        'Summarize in one sentence': { calls: [], answer: () => 'Two skillets go to Springfield.' }
      },
      () => 9
    )
    const suite = suiteOf(`  - id: order-then-summarize
    turns:
      - user: Order two skillets.
        required_tools: [order_item]
      - user: Summarize my order.
        required_tools: [summarize_text]
    rubric: The order is placed and summarized.
    elicitation:
      - match: address
        action: accept
        content: { street: "1 Main St", city: Springfield }
    sampling: agent
    expect_input_requests: [elicitation, sampling]
`)
    // max_steps 2: each turn's tool call and answer; the sampling answer must not count.
    const { doc } = await evaluateWith({ suite, server: MRTR_SERVER, responder: brain.responder, settings: { maxSteps: 2 } })
    const run = doc.runs[0]
    expect(run.tool_calls.map((c) => c.result)).toEqual([expect.stringMatching(/^Ordered 2 skillet to 1 Main St, Springfield/), 'Summary: Two skillets go to Springfield.'])
    expect(run.tool_calls.map((c) => c.input_rounds?.map((r) => [r.via, r.exchanges.map((e) => e.method)]))).toEqual([
      [['input_required', ['elicitation/create']]],
      [['input_required', ['sampling/createMessage']]]
    ])
    expect(run.inputs).toMatchObject({ passed: true, asked: ['elicitation', 'sampling'], rounds: 2 })
    // Four agent steps and the sampling answer, in the order they came.
    expect(run.llm_calls.map((c) => c.purpose ?? 'step')).toEqual(['step', 'step', 'step', 'sampling', 'step'])
    expect(run.dialogue!.turns.map((t) => [t.llm_calls, t.stop_reason, t.passed])).toEqual([
      [2, 'final_answer', true],
      [2, 'final_answer', true]
    ])
    expect(run.status).toBe('passed')
    expect(schemaErrors(doc)).toEqual([])
  })
})

describe('dialogueUpTo', () => {
  const turns = [
    { user: 'one', final_output: 'first answer' },
    { user: 'two', final_output: 'second answer' },
    { user: 'three', final_output: null }
  ]
  test("every earlier exchange, then this turn's message; its answer is left out", () => {
    expect(dialogueUpTo(turns, 1)).toBe('User: one')
    expect(dialogueUpTo(turns, 3)).toBe('User: one\n\nAssistant: first answer\n\nUser: two\n\nAssistant: second answer\n\nUser: three')
  })
})
