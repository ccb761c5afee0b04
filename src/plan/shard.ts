import type { Shard } from '../config/shard.js'
import type { RunSpec } from './expand.js'

// The shard option (parsed with the other options, and its file names) lives in config.
export { parseShard, shardFileName, shardLabel, type Shard } from '../config/shard.js'

/** The plan's groups (case × model × prompt), in plan order (the order of each group's first run). */
export function planGroups(plan: readonly RunSpec[]): RunSpec[][] {
  const groups = new Map<string, RunSpec[]>()
  for (const spec of plan) {
    const key = JSON.stringify([spec.case.id, spec.model, spec.prompt_name])
    const group = groups.get(key)
    if (group) group.push(spec)
    else groups.set(key, [spec])
  }
  return [...groups.values()]
}

/**
 * Split a plan into `count` shards: every repeat of a group lands in the same shard (so pass rates
 * stay whole), and the shards' numbers of runs are balanced — the largest groups are placed first,
 * each in the shard with the fewest runs so far (the lowest-numbered on a tie), so no two shards
 * differ by more than the largest group. Deterministic: the same plan always splits the same way.
 * Each shard's runs are in plan order and keep their plan index.
 */
export function splitPlan(plan: readonly RunSpec[], count: number): RunSpec[][] {
  const shards: RunSpec[][] = Array.from({ length: count }, () => [])
  const loads = new Array<number>(count).fill(0)
  // Sorted by size, largest first; among equal sizes, plan order (sort is stable).
  const groups = planGroups(plan).sort((a, b) => b.length - a.length)
  for (const group of groups) {
    let lightest = 0
    for (let i = 1; i < count; i++) if (loads[i]! < loads[lightest]!) lightest = i
    shards[lightest]!.push(...group)
    loads[lightest]! += group.length
  }
  return shards.map((runs) => runs.sort((a, b) => a.index - b.index))
}

/**
 * What a shard may spend of `max_cost_usd` while running: its share by planned runs (the merge
 * checks the whole suite's spend against the whole budget). No budget, no shard, or an empty plan:
 * the budget as it is.
 */
export function shareOfBudget(budget: number | null, shardRuns: number, planRuns: number, shard: Shard | null): number | null {
  return budget !== null && shard && planRuns > 0 ? (budget * shardRuns) / planRuns : budget
}

/** The runs of one shard of the plan; the whole plan without a shard. */
export function shardOf(plan: RunSpec[], shard: Shard | null): RunSpec[] {
  if (!shard || shard.count === 1) return plan
  return splitPlan(plan, shard.count)[shard.index - 1]!
}
