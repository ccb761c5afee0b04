import type { Suite } from '../config/types.js'
import { expandMatrix, selectCases, type RunSpec } from '../plan/expand.js'
import { planGroups, shardOf, type Shard } from '../plan/shard.js'
import { count as plural } from '../util/words.js'

/**
 * What is about to run, in one line, as the action and the CLI print it first:
 * "Evaluating 5 cases × 2 models × 1 system prompt = 10 runs, judge openai/gpt-4o-mini, concurrency 4".
 * The run count is the plan's (repeats included, "(with repeats)" when they add runs); a filter
 * shows how many of the suite's cases it kept; a shard, its share ("; shard 2 of 4: 10 runs (3 groups)").
 */
export function formatPlanLine(suite: Suite, options: { filter?: string; concurrency: number; shard?: Shard | null }): string {
  const filter = options.filter ?? ''
  const plan = expandMatrix(suite, { filter, today: '' })
  const planned = plan.length
  const cases = selectCases(suite, filter).length
  const caseText = filter ? `${cases} of ${plural(suite.cases.length, 'case')} (filter ${JSON.stringify(filter)})` : plural(cases, 'case')
  const product = cases * suite.models.length * suite.system_prompts.length
  const runs = `${plural(planned, 'run')}${planned !== product ? ' (with repeats)' : ''}`
  const shard = options.shard ? `; shard ${options.shard.index} of ${options.shard.count}: ${shardShare(plan, options.shard)}` : ''
  return `Evaluating ${caseText} × ${plural(suite.models.length, 'model')} × ${plural(suite.system_prompts.length, 'system prompt')} = ${runs}${shard}, judge ${suite.judge_model}, concurrency ${options.concurrency}`
}

/** "10 runs (3 groups)": a shard's share of the plan. */
function shardShare(plan: RunSpec[], shard: Shard): string {
  const mine = shardOf(plan, shard)
  return `${plural(mine.length, 'run')} (${plural(planGroups(mine).length, 'group')})`
}
