import { describe, expect, test } from '@jest/globals'
import type { ChatClient, ChatRequest, ChatResponse, TokenUsage } from '../src/llm/chat.js'
import { createSpendMeter, meteredClient, spentBy } from '../src/telemetry/spend.js'
import { judged, llmCall, telemetryRun, usage } from '../__fixtures__/telemetry-sections.js'

const pricing = { priced: { input_per_mtok: 1_000_000, output_per_mtok: 0 } }
const answer = (usage: TokenUsage | null, cached = false): ChatResponse => ({ content: 'ok', tool_calls: [], finish_reason: 'stop', usage, logprobs: null, latency_ms: 1, ...(cached ? { cached: true } : {}) })
const costing = (usd: number): TokenUsage => ({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, cost_usd: usd })
// With $1,000,000 per million input tokens, each prompt token costs $1.
const tokens = (prompt: number): TokenUsage => ({ prompt_tokens: prompt, completion_tokens: 0, total_tokens: prompt })

describe('createSpendMeter', () => {
  test('counts the provider cost, else the pricing; nothing reached below the limit', () => {
    const meter = createSpendMeter(pricing, 0.5)
    meter.observe('any', answer(costing(0.2)))
    expect(meter.reached()).toBeNull()
    meter.observe('priced', answer(tokens(0)))
    meter.observe('any', answer(costing(0.29999999)))
    expect(meter.spent()).toBe(0.49999999)
    expect(meter.reached()).toBeNull()
  })

  test('reached at the limit exactly, and past it', () => {
    const meter = createSpendMeter(pricing, 0.5)
    meter.observe('any', answer(costing(0.2)))
    meter.observe('any', answer(costing(0.3)))
    expect(meter.reached()).toBe('the spend reached max_cost_usd ($0.50 of $0.50)')
    meter.observe('priced', answer(tokens(1)))
    expect(meter.reached()).toBe('the spend reached max_cost_usd ($1.50 of $0.50)')
  })

  test('a replayed answer spends nothing; an unknown cost is counted apart and spends nothing', () => {
    const meter = createSpendMeter(pricing, 1)
    meter.observe('any', answer(costing(5), true))
    meter.observe('mystery', answer(tokens(1000)))
    meter.observe('priced', answer(null))
    expect(meter.spent()).toBe(0)
    expect(meter.unknownCalls()).toBe(2)
    expect(meter.reached()).toBeNull()
  })

  test('without a limit it only counts', () => {
    const meter = createSpendMeter(pricing, null)
    meter.observe('priced', answer(tokens(1000)))
    expect(meter.spent()).toBe(1000)
    expect(meter.reached()).toBeNull()
  })
})

describe('meteredClient', () => {
  test('every answer is observed under the model asked for, and passed through unchanged', async () => {
    const asked: ChatRequest[] = []
    const replies: Record<string, ChatResponse> = { agent: answer(costing(0.1)), judge: answer(costing(0.2)), semantic: answer(costing(0.3), true) }
    const inner: ChatClient = {
      async complete(request) {
        asked.push(request)
        return replies[request.model]
      }
    }
    const meter = createSpendMeter({}, 0.3)
    const client = meteredClient(inner, meter)
    expect(await client.complete({ model: 'agent', messages: [] })).toBe(replies.agent)
    expect(meter.reached()).toBeNull()
    await client.complete({ model: 'judge', messages: [] })
    await client.complete({ model: 'semantic', messages: [] })
    expect(asked.map((r) => r.model)).toEqual(['agent', 'judge', 'semantic'])
    expect(meter.spent()).toBe(0.3)
    expect(meter.reached()).toBe('the spend reached max_cost_usd ($0.30 of $0.30)')
  })

  test('a failed call spends nothing and the error reaches the caller', async () => {
    const meter = createSpendMeter({}, 1)
    const client = meteredClient({ complete: async () => Promise.reject(new Error('429')) }, meter)
    await expect(client.complete({ model: 'x', messages: [] })).rejects.toThrow('429')
    expect(meter.spent()).toBe(0)
  })
})

describe('spentBy: what reused runs spent, for a resumed attempt', () => {
  test('known agent and judge costs; a replayed agent answer and an unknown cost spend nothing', () => {
    const runs = [
      telemetryRun({ model: 'priced', llm_calls: [llmCall(1, tokens(2)), llmCall(0, tokens(100), true)], judge: judged(usage(1, 1, 0.25), 10, 'judge-x') }),
      telemetryRun({ model: 'mystery', llm_calls: [llmCall(1, costing(0.5)), llmCall(1, tokens(7))], judge: judged(tokens(3), 10) })
    ]
    // priced: $2 (the replay $0) + its judge $0.25 (reported); mystery: $0.50 + unknown ($0), its judge $3 priced at the default judge model ('priced').
    expect(spentBy(runs, pricing, 'priced')).toBe(5.75)
    expect(spentBy([], pricing, 'priced')).toBe(0)
  })

  test('a meter started from it is reached before any new answer', () => {
    const meter = createSpendMeter(pricing, 1, 1)
    expect(meter.spent()).toBe(1)
    expect(meter.reached()).toBe('the spend reached max_cost_usd ($1.00 of $1.00)')
  })
})
