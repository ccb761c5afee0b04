import type { TokenUsage } from './primitives.js'
import type { Json } from './suite.js'
import type { AssertionCheck } from './tool-tests.js'

/** What the scorers return as the record keeps it: required_tools checks, golden-set checks, the judge's verdict. */

export type ScoringMode = 'logprob' | 'integer'

/** One required_tools check, field for field (and in key order) as eval-action writes it. */
export interface ToolCheck {
  tool: string
  passed: boolean
  reason: string
  expected_args: Record<string, Json> | null
  actual_args?: Record<string, Json>[]
}

export interface ToolAssertions {
  passed: boolean
  checks: ToolCheck[]
}

/** eval_cases' golden keys, and an evals/v1 turn's `expect.tools`, `expect.result` and `expect.widget` (fields). */
export type GoldenCheckName = 'expect_tool' | 'expect_args' | 'expect_sequence' | 'forbidden_tools' | 'max_tool_calls' | 'tools' | 'result' | 'widget'

export interface GoldenCheck {
  check: GoldenCheckName
  passed: boolean
  reason: string
  /** `result` (an evals/v1 turn's): each assertion's own check, in order, as a tool test records them; absent on the other checks. */
  assertions?: AssertionCheck[]
}

export interface GoldenAssertions {
  passed: boolean
  checks: GoldenCheck[]
}

export interface JudgeDetails {
  model: string
  score: number | null
  raw_score: number | null
  reason: string
  threshold: number
  scoring_mode: ScoringMode | null
  scoring_note: string
  evaluation_steps: string[]
  usage: TokenUsage
  error: string | null
  /** How long the judge took (its one or two LLM calls); null when it was not asked. */
  latency_ms: number | null
}
