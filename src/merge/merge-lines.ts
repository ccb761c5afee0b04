import { count } from '../util/words.js'
import type { ShardFile } from './read-shards.js'

/**
 * What a merge read, said before its verdict: the plan as a whole, then one line per shard with its
 * file, its runs and what else it brought (shard 1: conformance and the tool tests).
 */
export function formatMergeLines(shards: readonly ShardFile[]): string[] {
  const { count: total, planned_total, groups_total } = shards[0]!.document.shard
  const lines = [`Merging ${count(total, 'shard')}: ${count(planned_total, 'planned run')} in ${count(groups_total, 'group')} (case × model × prompt)`]
  for (const { path, document } of shards) {
    const extras = [document.conformance ? 'conformance' : '', document.tool_tests?.total ? count(document.tool_tests.total, 'tool test') : ''].filter(Boolean)
    const runs = `${document.runs.length}/${document.shard.planned} runs`
    const state = document.cancelled ? ', cancelled' : (document.journal?.missing ?? 0) > 0 ? `, ${document.journal!.missing} missing` : ''
    lines.push(`  shard ${document.shard.index}: ${[runs, ...extras].join(', ')}${state} (${path})`)
  }
  return lines
}
