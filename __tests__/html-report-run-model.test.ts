import { describe, expect, test } from '@jest/globals'
import { conversationShape, resilienceShape, telemetryShape } from '../__fixtures__/report-shapes.js'
import type { RunResult } from '../src/results/types.js'
import { timelineOf } from '../src/report/html/viewer/run-timeline-model.js'
import { dialogueItems, unshownCalls } from '../src/report/html/viewer/run-dialogue-model.js'
import { cutWords, roundWords } from '../src/report/html/viewer/run-words.js'

const runOf = (runs: RunResult[], index: number) => runs.find((r) => r.index === index)!
const brief = (run: RunResult) => timelineOf(run).items.map((i) => `${i.kind}:${i.label}@${i.start_ms}+${i.duration_ms}`)

describe('timelineOf: a run laid out from its recorded durations, in order', () => {
  test('the server start, each LLM call followed by the calls it asked for, the judge last', () => {
    const run = runOf(resilienceShape().runs, 11)
    expect(brief(run)).toEqual([
      'server:connect@0+300',
      'server:list tools@300+5',
      'llm:LLM call 1@305+200',
      'tool:get_attractions@505+12',
      'llm:LLM call 2@517+200',
      'tool:send_email@717+12',
      'judge:judge@729+600'
    ])
    const timeline = timelineOf(run)
    expect(timeline.total_ms).toBe(1329)
    expect(timeline.items.find((i) => i.label === 'get_attractions')).toMatchObject({ call_index: 0, notes: ['attack: exfiltrate'] })
    expect(timeline.unplaced).toBeNull()
  })

  test('a fault is noted and a tool error is the item status', () => {
    const run = runOf(resilienceShape().runs, 2)
    const tool = timelineOf(run).items.find((i) => i.kind === 'tool')!
    expect(tool.notes).toContain('fault: is_error')
    expect(tool.status).toBe(run.tool_calls[0].is_error ? 'error' : 'ok')
  })

  test("a sampling LLM call is drawn inside the tool call whose rounds asked the model under test, not after the agent's steps", () => {
    const run = runOf(conversationShape().runs, 3)
    const items = timelineOf(run).items
    const tool = items.find((i) => i.kind === 'tool')!
    const sampling = items.find((i) => i.notes.includes('sampling'))!
    expect(sampling.start_ms).toBe(tool.start_ms)
    expect(sampling.label).toBe('sampling (LLM call 3)')
    // The next agent LLM call starts after the tool call, which outlasts its sampling.
    const second = items.find((i) => i.label === 'LLM call 2')!
    expect(second.start_ms).toBe(tool.start_ms + Math.max(tool.duration_ms, sampling.duration_ms))
    expect(items.filter((i) => i.kind === 'llm')).toHaveLength(run.llm_calls.length)
  })

  test('a multi-turn run: turn by turn (each turn its LLM calls and its slice of the calls), the simulated user said to be off the axis', () => {
    const run = runOf(conversationShape().runs, 2)
    const timeline = timelineOf(run)
    const order = timeline.items.filter((i) => i.kind !== 'server').map((i) => `${i.turn ?? '-'}:${i.kind}:${i.label}`)
    expect(order).toEqual(['1:llm:LLM call 1', '1:tool:get_order', '1:llm:LLM call 2', '2:llm:LLM call 3', '3:llm:LLM call 4', '3:tool:refund_order', '3:llm:LLM call 5', '-:judge:judge (whole dialogue)'])
    expect(timeline.unplaced).toMatch(/simulated user's LLM calls \(2,140 ms in all\)/)
    // End to end: every item starts where the one before it ended.
    const items = timeline.items
    for (let k = 1; k < items.length; k++) expect(items[k].start_ms).toBe(items[k - 1].start_ms + items[k - 1].duration_ms)
  })

  test("turn judges after their turn's steps; an LLM error marks the last agent call", () => {
    const base = runOf(conversationShape().runs, 1)
    const judge = { ...base.judge!, latency_ms: 111 }
    const run: RunResult = { ...base, error: { stage: 'llm', message: 'rate limited' }, dialogue: { ...base.dialogue!, turns: base.dialogue!.turns.map((t) => ({ ...t, judge })) } }
    const items = timelineOf(run).items
    const judges = items.filter((i) => i.kind === 'judge').map((i) => i.label)
    expect(judges).toEqual([...run.dialogue!.turns.map((t) => `judge (turn ${t.index})`), 'judge (whole dialogue)'])
    const firstTurnJudge = items.findIndex((i) => i.label === 'judge (turn 1)')
    expect(items.slice(0, firstTurnJudge).every((i) => i.turn === undefined || i.turn === 1)).toBe(true)
    const llms = items.filter((i) => i.kind === 'llm')
    expect(llms.at(-1)!.status).toBe('error')
    expect(llms.slice(0, -1).every((i) => i.status === 'ok')).toBe(true)
  })

  test('calls no conversation entry asks for still get a place, and a run with no records has an empty timeline', () => {
    const base = runOf(telemetryShape().runs, 1)
    const run: RunResult = { ...base, conversation: [] }
    expect(timelineOf(run).items.filter((i) => i.kind === 'tool')).toHaveLength(run.tool_calls.length)
    const bare: RunResult = { ...base, conversation: [], tool_calls: [], llm_calls: [], judge: null, server: { ...base.server, connect_ms: null, list_ms: null } }
    expect(timelineOf(bare)).toEqual({ items: [], total_ms: 0, unplaced: null })
  })
})

describe('dialogueItems: the conversation with each call paired with its record', () => {
  test("each assistant entry's calls are the next records, with the next tool message as the conversation's text", () => {
    const run = runOf(resilienceShape().runs, 11)
    const items = dialogueItems(run)
    expect(items.map((i) => (i.type === 'call' ? `call:${i.name}:${i.call_index}` : i.type))).toEqual(['user', 'call:get_attractions:0', 'call:send_email:1', 'assistant'])
    expect(unshownCalls(run, items)).toEqual([])
  })

  test('records the conversation does not show are listed, so none is lost', () => {
    const run = runOf(resilienceShape().runs, 11)
    const short = { ...run, conversation: run.conversation.slice(0, 3) }
    expect(unshownCalls(short, dialogueItems(short))).toEqual([1])
  })
})

describe('the run page words', () => {
  test('a cut result says what the server sent, what the model saw and what the record keeps', () => {
    expect(cutWords({ total_chars: 12345, total_bytes: 12345, shown_chars: 4000, kept_chars: 2000 })).toBe('the server sent 12,345 characters (12.1 KiB); the model saw 4,000; the record keeps 2,000')
    expect(cutWords({ total_chars: 10, total_bytes: 10, shown_chars: 10, kept_chars: 10 })).toBeNull()
  })

  test('an input_required round says its ids and whether requestState came back', () => {
    const round = runOf(conversationShape().runs, 3).tool_calls[0].input_rounds![0]
    expect(roundWords(round)).toBe('round 1: input_required (request id 7) → retry id 8, requestState echoed ✓')
    expect(roundWords({ ...round, request_state_echoed: false })).toBe('round 1: input_required (request id 7) → retry id 8, requestState not echoed byte for byte ✗')
  })
})
