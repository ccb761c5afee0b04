import type { Json } from './suite.js'

/**
 * What an evals/v1 suite (`apiVersion: mcp-use.com/evals/v1`, eval-action's newer format) said
 * beyond the cases and tool tests it became: its name and intent, its flows' ids, its clients
 * (run here, or listed as not run with why), its gates and CI settings, and every part not run
 * here. The document's `evals_v1`; absent (or null) for an eval_cases suite.
 */
export interface EvalsV1Section {
  api_version: 'mcp-use.com/evals/v1'
  name: string
  intent: string | null
  /** Recorded as written; a workflow's `on:` decides when the suite runs. */
  triggers: Json | null
  /** Each flow's check ids (tool tests) and scenario ids (cases), in suite order. */
  flows: { id: string; checks: string[]; scenarios: string[] }[]
  /** Every client of every flow, in suite order (a flow without clients has one: mcp-use with the default model). */
  clients: EvalsV1Client[]
  /** What `runOn` was matched against: this job's event (pull_request and push: ci, workflow_dispatch: manual, release, schedule: cron); manual outside GitHub Actions. */
  context: EvalsV1Context
  /** `metrics.gates` as written; null where not set. They are gated as the budgets max_tool_error_rate, max_agent_steps_p95, max_tokens_per_success_p95. */
  gates: { toolErrorRateMax: number | null; agentStepsP95Max: number | null; tokensPerSuccessP95Max: number | null }
  /** `ci.failOn` as written (recorded: the gate decides, as @mcp-use/evals does not read it either). */
  fail_on: string[]
  /** `ci.parallelCases`; null: not set. false runs one at a time unless concurrency is given. */
  parallel_cases: boolean | null
  /** Parts of the suite not run here, each with why, in suite order. */
  not_run: EvalsV1NotRun[]
}

export type EvalsV1Context = 'ci' | 'manual' | 'release' | 'cron'

/** The one client target that runs outside mcp-use's hosted service: the client every run here is. */
export const LOCAL_TARGET = 'mcp-use'

export interface EvalsV1Client {
  flow: string
  target: 'mcp-use' | 'inspector' | 'chatgpt' | 'ai-sdk' | 'claude-agent-sdk'
  /** The models it runs (the models input replaces every client's). */
  models: string[]
  disallowed_tools: string[]
  run_on: EvalsV1Context[] | null
  /** False: a hosted client target, or runOn does not include this context. */
  run: boolean
  /** Why it did not run; null when it ran. */
  reason: string | null
}

export interface EvalsV1NotRun {
  what: 'client' | 'widget_screenshot' | 'judge_screenshot'
  /** Where in the suite (`flows[0].clients[1]`, `flows[0].scenarios[2].turns[0].expect.widget.screenshot`). */
  where: string
  reason: string
}

/** evals/v1's gates (`metrics.gates`), in order: the budget each is gated as, and the figure of metrics.json it limits. */
export const EVALS_V1_GATES = [
  { gate: 'toolErrorRateMax', budget: 'max_tool_error_rate', figure: 'toolErrorRate' },
  { gate: 'agentStepsP95Max', budget: 'max_agent_steps_p95', figure: 'agentStepsP95' },
  { gate: 'tokensPerSuccessP95Max', budget: 'max_tokens_per_success_p95', figure: 'tokensPerSuccessP95' }
] as const

export type EvalsV1Gate = (typeof EVALS_V1_GATES)[number]
