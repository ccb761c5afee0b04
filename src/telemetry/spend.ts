import type { Pricing } from '../config/types.js'
import type { ChatClient, ChatResponse } from '../llm/chat.js'
import type { RunResult } from '../results/types.js'
import { callCost, roundUsd } from './cost.js'
import { judgeSideUsage } from '../aggregate/summarize.js'
import { usd } from './budgets.js'

/** What the evaluation has spent so far, for max_cost_usd enforced while running. */
export interface SpendMeter {
  /** Count one LLM answer (agent, judge or semantic match) of `model`. */
  observe(model: string, response: ChatResponse): void
  /** USD spent on answers whose cost is known. */
  spent(): number
  /** Answers whose cost is unknown (no provider cost, no pricing): they spend nothing on the meter. */
  unknownCalls(): number
  /** Why no new run may start ("the spend reached max_cost_usd ($0.50 of $0.50)"), or null. */
  reached(): string | null
}

/**
 * A meter of the spend against `limit` (null: no limit, it only counts), starting from
 * `alreadySpent` (a resumed attempt: what the runs it reuses cost, see `spentBy`). A replayed (cached)
 * answer spends nothing; an answer of unknown cost is counted apart and spends nothing either, so
 * an evaluation without prices is never stopped (its max_cost_usd check fails at the end instead).
 */
export function createSpendMeter(pricing: Pricing, limit: number | null, alreadySpent = 0): SpendMeter {
  let spent = roundUsd(alreadySpent)
  let unknown = 0
  return {
    observe(model, response) {
      if (response.cached) return
      const cost = callCost(model, response.usage, pricing)
      if (cost.usd === null) unknown++
      else spent = roundUsd(spent + cost.usd)
    },
    spent: () => spent,
    unknownCalls: () => unknown,
    reached: () => (limit !== null && spent >= limit ? `the spend reached max_cost_usd (${usd(spent)} of ${usd(limit)})` : null)
  }
}

/** `client`, with every answer it gives counted on `meter` (wrap it outside the cache, so replays are seen as such). */
export function meteredClient(client: ChatClient, meter: Pick<SpendMeter, 'observe'>): ChatClient {
  return {
    async complete(request, signal) {
      const response = await client.complete(request, signal)
      meter.observe(request.model, response)
      return response
    }
  }
}

/**
 * What some finished runs spent, as the meter would have counted it: each agent call's known cost
 * (a replayed one spends nothing) and the judge side's (turn judges and a simulated user included), each priced at its model. A resumed attempt starts
 * its meter from the runs it reuses, since the document's max_cost_usd check counts them too.
 */
export function spentBy(runs: readonly RunResult[], pricing: Pricing, judgeModel: string): number {
  let spent = 0
  for (const run of runs) {
    for (const call of run.llm_calls) if (!call.cached) spent += callCost(run.model, call.usage, pricing).usd ?? 0
    for (const side of judgeSideUsage(run, judgeModel)) spent += callCost(side.model, side.usage, pricing).usd ?? 0
  }
  return roundUsd(spent)
}
