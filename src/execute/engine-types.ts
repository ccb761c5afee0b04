import type { ServerReuse } from '../config/options.js'
import type { ChatClient, TokenUsage } from '../llm/chat.js'
import type { SessionFactory } from '../mcp/session.js'
import type { RunSpec } from '../plan/expand.js'
import type { Shard } from '../plan/shard.js'
import type { RunResult } from '../results/types.js'
import type { WidgetScreens } from '../scoring/evals-v1-turn.js'
import type { Judge } from '../scoring/geval.js'
import type { SemanticMatcher } from '../scoring/golden.js'
import type { Tracing } from '../telemetry/tracing.js'
import type { RunLayer } from './run-layer.js'

export interface EngineSettings {
  filter?: string
  maxSteps: number
  concurrency: number
  timeoutSeconds: number
  baseUrl: string
  /** The date `{today}` stands for (YYYY-MM-DD). */
  today: string
  /** `roots` under server_config: the client's roots for every case that sets none of its own. Absent: none. */
  serverRoots?: string[] | null
  /**
   * `${RUN_DIR}`: where each run's directory is made, whether the server config uses it (a case's
   * roots may too), and whether a failed run's directory is kept. Absent: no run directories.
   */
  runDirs?: { base: string; serverUses: boolean; keepFailed: boolean; cwd?: string }
  /** One shard of the plan (planOf takes its groups' runs only, at their plan index); absent or null: the whole plan. */
  shard?: Shard | null
  /** `run` (absent): a fresh server process per run; `worker`: one stdio server process per pool slot, reused by its runs. */
  serverReuse?: ServerReuse
}

export interface EngineDeps {
  llm: ChatClient
  judge: Judge
  /** For `arg_match: semantic`; its tokens count as judge tokens. */
  semantic: { match: SemanticMatcher; usage: TokenUsage }
  sessions: SessionFactory
  /**
   * Called as each run starts, once it has its server and a pool slot (a run that never starts —
   * its server failed, a cancel came first, an earlier attempt's run is reused — is not).
   */
  onRunStarted?: (spec: RunSpec) => void
  /** Called as each run is finished (judged), in completion order. */
  onRunFinished?: (run: RunResult, finished: number, total: number) => void
  /** Called first with each run the moment it is finished, reused runs excepted (the journal appends it). */
  record?: (run: RunResult) => void
  /** Aborted with a CancelledError when the job is cancelled: no run starts after it, in-flight ones stop. */
  cancel?: AbortSignal
  /** Runs finished by an earlier, interrupted attempt, by `runKey`; they are taken as they are. */
  reuse?: ReadonlyMap<string, RunResult>
  /** Secrets out of a text, applied before anything is cut short (a cut secret is no longer found whole). */
  redact?: (text: string) => string
  /**
   * max_cost_usd, enforced while running: why no new run may start (the spend reached the
   * budget), or null. Asked before a run's server starts and again when it gets its slot.
   */
  budget?: { reached(): string | null }
  /**
   * A W3C trace per run (src/telemetry/tracing.ts): its id in the record, `traceparent` in every
   * MCP request, spans for the run, its LLM calls, tool calls and judge call. Absent: no traces.
   */
  tracing?: Tracing
  /** MCP Apps: the rendered views' screenshots and the vision judge, for evals/v1 widget screenshots; absent: none. */
  appScreens?: Omit<WidgetScreens, 'signal'>
  /** The run layers, innermost first; absent: every layer (RUN_LAYERS). Tests add their own. */
  layers?: readonly RunLayer[]
}

/** What the behaviour layer produced, before it is assembled into a document. */
export interface ExecutedRuns {
  started_at: string
  duration_s: number
  planned: number
  /** How many runs finished with anything but cancelled (reused ones too); the runs themselves went to `record` and `onRunFinished`, not kept here. */
  finished: number
  /** Judge work not owned by one run: evaluation steps and semantic matches. */
  overhead: TokenUsage
}
