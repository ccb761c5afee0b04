import type { TokenUsage } from './primitives.js'
import type { EvalCase } from './suite.js'
import type { ToolTestsPlan } from './tool-tests.js'

/** One shard of a suite split across jobs: what its document and its journal header hold for the merge. */

/** Which shard of how many, and the plan as a whole: what the journal header of a shard holds. */
export interface ShardPlan {
  /** 1-based. */
  index: number
  count: number
  /** Runs and groups (case × model × prompt) in the whole plan, all shards together. */
  planned_total: number
  groups_total: number
  /** Groups in this shard (its runs are the journal header's `planned`). */
  groups: number
}

/**
 * A shard's document is not a verdict: it has no gate, and `passed` says only that the shard ran
 * completely. The merge (`merge:` / `mcp-server-evals merge`) reads the shards' documents and gives
 * the verdict of the whole suite, as one unsharded run would.
 */
export interface ShardSection extends ShardPlan {
  /** What every shard of one suite shares (the journal hash): shards with another are refused by the merge. */
  suite_hash: string
  /** Runs planned in this shard. */
  planned: number
  /** The cases as configured: the merged document's metrics need their expectations. */
  cases: EvalCase[]
  /** The tool tests this shard planned (shard 1 runs them); null when it planned none. */
  tool_tests_plan: ToolTestsPlan | null
  /** LLM tokens spent outside any run (the judge's evaluation steps, semantic matches). */
  overhead: TokenUsage
}
