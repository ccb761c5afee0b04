import { describe, expect, test } from '@jest/globals'
import type { Pricing } from '../src/config/types.js'
import type { TokenUsage } from '../src/llm/chat.js'
import { callCost, sumCosts } from '../src/telemetry/cost.js'

const pricing: Pricing = { 'openai/gpt-4o-mini': { input_per_mtok: 0.15, output_per_mtok: 0.6 } }
const usage = (prompt: number, completion: number, cost_usd?: number): TokenUsage => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  ...(cost_usd === undefined ? {} : { cost_usd })
})

describe('callCost', () => {
  test.each([
    ['the provider reported it (OpenRouter)', 'openai/gpt-4o-mini', usage(1000, 100, 0.00042), { usd: 0.00042, source: 'provider' }],
    ['the provider cost wins over pricing', 'openai/gpt-4o-mini', usage(1_000_000, 0, 1), { usd: 1, source: 'provider' }],
    ['a provider cost of 0 is a cost (a free model)', 'free/model', usage(10, 10, 0), { usd: 0, source: 'provider' }],
    // 2000 × 0.15 / 1e6 + 500 × 0.6 / 1e6 = 0.0003 + 0.0003
    ['priced from pricing, per million tokens', 'openai/gpt-4o-mini', usage(2000, 500), { usd: 0.0006, source: 'pricing' }],
    ['fractions of a cent', 'openai/gpt-4o-mini', usage(1, 1), { usd: 0.00000075, source: 'pricing' }],
    ['neither: unknown, never 0', 'anthropic/claude-sonnet-4.5', usage(2000, 500), { usd: null, source: 'unknown' }],
    ['no usage reported: unknown even with pricing', 'openai/gpt-4o-mini', null, { usd: null, source: 'unknown' }],
    ['a model named like an Object property is not priced by it', 'constructor', usage(10, 10), { usd: null, source: 'unknown' }]
  ])('%s', (_name, model, used, expected) => {
    expect(callCost(model, used, pricing)).toEqual(expected)
  })

  test('1 prompt and 1 completion token of an expensive model', () => {
    expect(callCost('big', usage(1, 1), { big: { input_per_mtok: 15, output_per_mtok: 75 } })).toEqual({ usd: 0.00009, source: 'pricing' })
  })

  test('rounded to 1e-8 USD, as addUsage rounds', () => {
    // 3 × 0.004 / 1e6 = 1.2e-8
    expect(callCost('tiny', usage(3, 0), { tiny: { input_per_mtok: 0.004, output_per_mtok: 0 } }).usd).toBe(0.00000001)
    expect(callCost('m', usage(1, 0, 0.123456789), {}).usd).toBe(0.12345679)
  })
})

describe('sumCosts', () => {
  test.each([
    ['nothing costs 0', [], 0],
    ['known parts add up, rounded to 1e-8', [0.1, 0.2], 0.3],
    ['one unknown part makes the sum unknown', [0.1, null, 0.2], null],
    ['mixed provider and pricing figures', [callCost('m', usage(0, 0, 0.5), {}).usd, callCost('m', usage(1_000_000, 0), { m: { input_per_mtok: 2, output_per_mtok: 0 } }).usd], 2.5]
  ])('%s', (_name, costs, expected) => {
    expect(sumCosts(costs)).toBe(expected)
  })
})
