import type { TokenUsage } from './primitives.js'

export function addUsage(total: TokenUsage, usage: TokenUsage | null): void {
  if (!usage) return
  total.prompt_tokens += usage.prompt_tokens
  total.completion_tokens += usage.completion_tokens
  total.total_tokens += usage.total_tokens
  if (usage.cost_usd !== undefined) total.cost_usd = Math.round(((total.cost_usd ?? 0) + usage.cost_usd) * 1e8) / 1e8
}

export const emptyUsage = (): TokenUsage => ({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 })
