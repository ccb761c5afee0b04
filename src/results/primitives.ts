/**
 * The small shapes the implementation and the record share: a run's error, token usage, the
 * response cache's counts, the conformance gate's choice, a cancel signal. They live here so that
 * the results schema depends on nothing above it.
 */

export type RunErrorStage = 'server' | 'llm' | 'timeout' | 'judge'

export interface RunError {
  stage: RunErrorStage
  message: string
  stderr_tail?: string
}

export interface TokenUsage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
  /** What the provider charged, in USD, when it says (OpenRouter does when asked). */
  cost_usd?: number
}

export type CacheMode = 'read-write' | 'read-only' | 'off'

export interface CacheStats {
  mode: CacheMode
  hits: number
  misses: number
  /** Tokens the hits would have cost (what the stored answers reported). */
  saved_tokens: number
  /** Money the hits would have cost, when the provider reported costs; else null. */
  saved_cost_usd: number | null
}

export type FailOn = 'error' | 'warning' | 'never'

/** SIGHUP: the terminal closed (servers in their own process groups no longer get it themselves). */
export type CancelSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP'
