import type { Pricing } from '../config/types.js'
import type { TokenUsage } from '../llm/chat.js'

/** Where a cost came from: the provider's report (OpenRouter), the YAML `pricing:` map, or neither. */
export type CostSource = 'provider' | 'pricing' | 'unknown'

/** The cost of one LLM call, in USD; null (never 0) when it is unknown. */
export interface CallCost {
  usd: number | null
  source: CostSource
}

/** Money is kept to 1e-8 USD, as addUsage keeps the provider's figures. */
export const roundUsd = (usd: number): number => Math.round(usd * 1e8) / 1e8

/**
 * What one LLM call cost: the provider's `usage.cost_usd` where it reported one, else the
 * model's `pricing` entry (USD per million prompt and completion tokens), else unknown. A call
 * whose provider reported no usage at all costs an unknown amount, whatever the pricing says.
 */
export function callCost(model: string, usage: TokenUsage | null, pricing: Pricing): CallCost {
  if (!usage) return { usd: null, source: 'unknown' }
  if (usage.cost_usd !== undefined) return { usd: roundUsd(usage.cost_usd), source: 'provider' }
  const price = Object.hasOwn(pricing, model) ? pricing[model] : undefined
  if (!price) return { usd: null, source: 'unknown' }
  return { usd: roundUsd((usage.prompt_tokens * price.input_per_mtok + usage.completion_tokens * price.output_per_mtok) / 1e6), source: 'pricing' }
}

/** The sum of some costs, rounded; null as soon as one of them is unknown (0 for none). */
export function sumCosts(costs: Iterable<number | null>): number | null {
  let total = 0
  for (const cost of costs) {
    if (cost === null) return null
    total += cost
  }
  return roundUsd(total)
}
