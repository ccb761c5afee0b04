import type { RunStatus } from './run.js'
import type { Json } from './suite.js'
import type { BudgetCheck } from './telemetry.js'
import type { ToolTestStatus } from './tool-tests.js'

/** The verdict against floors and a baseline, and everything that changed since that baseline. */

/** The verdict on the behaviour runs: floors, and/or deltas against a baseline. */
export interface GateResult {
  mode: 'delta' | 'absolute' | 'both'
  max_drop: number
  baseline: { source: string; started_at: string } | null
  /** Why the gate is not what was asked (no baseline). */
  note: string | null
  metrics: { name: string; baseline: number; current: number; delta: number; lower_is_better: boolean; failed: boolean }[]
  /** Groups ("case · model · prompt") that went from passing to failing, the other way, appeared, disappeared. */
  regressed: string[]
  fixed: string[]
  added: string[]
  removed: string[]
  /** Which gate failed, on what, by how much. Empty when it passed. */
  reasons: string[]
  /** Layer 3 budgets against the baseline (max_p95_increase, max_cost_increase); empty without a baseline. */
  trends: BudgetCheck[]
  passed: boolean
}

/** One run as the baseline and this evaluation saw it, for a group that regressed. */
export interface RunSnapshot {
  status: RunStatus
  final_output: string | null
  tool_calls: { name: string; args: Record<string, Json> }[]
  score: number | null
}

/** A conformance finding (fail or warn) that the baseline did not have, or that went away. */
export interface FindingChange {
  id: string
  status: 'fail' | 'warn'
  message: string
}

/** The tools the server lists, against the baseline's. */
export interface ToolSurfaceDiff {
  added: string[]
  removed: string[]
  /** A removed and an added tool with the same description and schemas: the same tool under a new name. */
  renamed: { from: string; to: string }[]
  /** Tools whose description, input schema or output schema changed, and which of them. */
  changed: { name: string; what: ('description' | 'input schema' | 'output schema')[] }[]
}

/** A measured figure before and after (null where one side did not measure it). */
export interface FigureChange {
  baseline: number | null
  current: number | null
}

/**
 * Everything that differs from the baseline document, computed once when the gate is applied, so
 * a renderer (or `report --from`) never needs the baseline file again.
 */
export interface Changes {
  /** Conformance findings new since the baseline, and those that went away; null when either side has no conformance section. */
  conformance: { new: FindingChange[]; resolved: FindingChange[] } | null
  /** Null when either side did not list the tools (conformance off or failed to probe). */
  tools: ToolSurfaceDiff | null
  /** Total cost in USD as the provider reported it; null on a side that reported none. */
  cost_usd: FigureChange
  /** Median run duration in seconds over the runs that finished. */
  median_run_s: FigureChange
  /** Layer 2 cells (model × fault kind, model × payload) whose rate differs from the baseline's; null when neither side had Layer 2. */
  resilience: ResilienceChange[] | null
  /** Layer 3: each model's row of the Models table, before and after (models on one side only included). */
  models: ModelChange[]
  /** Layer 3: each tool's p95 latency (ms), before and after. */
  tool_latency: { name: string; p95_ms: FigureChange }[]
  /** For each regressed group ("case · model · prompt"): its first failing run now, and a passing run of the baseline. */
  regressions: { group: string; baseline: RunSnapshot | null; current: RunSnapshot | null }[]
  /** The tool tests against the baseline's, by id; null when either side has none that ran. Absent in documents before it was added. */
  tool_tests?: ToolTestChanges | null
  /** The absolute budgets that fail now and did not in the baseline (trend budgets compare with it already). Absent in documents before it was added. */
  budgets?: BudgetChange[]
}

/** Tool tests that moved: passed in the baseline and fail now, not in the baseline and failing, failed there and pass now. */
export interface ToolTestChanges {
  regressed: { id: string; status: ToolTestStatus }[]
  new_failing: { id: string; status: ToolTestStatus }[]
  fixed: string[]
}

/** A budget that fails now: what the baseline said of it (passed, or null: it was not checked there). */
export interface BudgetChange {
  budget: BudgetCheck['budget']
  subject: string | null
  baseline: 'passed' | null
  reason: string
}

/** A Layer 2 cell before and after (null on the side that did not have it). */
export interface ResilienceChange {
  model: string
  dimension: 'fault' | 'attack'
  /** The fault kind or the payload. */
  key: string
  baseline: number | null
  current: number | null
}

/** A model's row of the Models table, before and after. */
export interface ModelChange {
  model: string
  tool_selection_accuracy: FigureChange
  argument_correctness: FigureChange
  task_completion: FigureChange
  pass_rate: FigureChange
  p95_run_s: FigureChange
  tokens_per_run: FigureChange
  cost_per_run_usd: FigureChange
}
