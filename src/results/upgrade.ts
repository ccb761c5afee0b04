import type { TokenUsage } from './primitives.js'
import { NO_BUDGETS } from './suite.js'
import { addUsage, emptyUsage } from './usage.js'
import { summarizeTelemetry } from '../telemetry/summarize.js'
import { RESULTS_VERSION, type ResultsConfig, type ResultsDocument, type RunResult, type Summary, type TelemetrySection } from './types.js'

/** The versions a baseline or `report --from` may be: the current one and every one before. */
export const READABLE_VERSIONS: readonly number[] = [1, 2, 3, 4, 5, 6, 7, RESULTS_VERSION]

/**
 * A saved results document as the current version holds it, or null when it is not one we can
 * read. Version 1 had no `changes` and no `conformance.tools`, and a `pass_rate` of 1 for nothing;
 * versions 1 and 2 had no tool tests, no `observed` on runs and no `conformance.unreachable`;
 * versions 1 to 3 had no Layer 2 (faults, attacks, their verdicts and summary); versions 1 to 4
 * had no Layer 3: their telemetry is computed here from their runs (no budgets, no pricing), so an
 * older baseline still serves the trend budgets; versions 1 to 5 had no conversations and no
 * server input (their runs get `dialogue` and `inputs` null; versions 5 and 6 keep their telemetry);
 * versions 1 to 6 had no record of what the model was shown (`model_view` and `run_dir` null);
 * versions 1 to 7 had no shards (`shard` null).
 */
export function upgradeDocument(data: unknown): ResultsDocument | null {
  const doc = data as Partial<ResultsDocument> | null
  if (!doc || typeof doc !== 'object' || !READABLE_VERSIONS.includes(doc.version as number) || !Array.isArray(doc.runs) || !Array.isArray(doc.groups) || !doc.summary) return null
  if (doc.version === RESULTS_VERSION) return doc as ResultsDocument
  const version = doc.version as unknown as number
  const summary = version === 1 ? { ...doc.summary, pass_rate: doc.summary.total === 0 ? null : doc.summary.pass_rate } : doc.summary
  const conformance = doc.conformance ? { ...doc.conformance, tools: doc.conformance.tools ?? null, unreachable: doc.conformance.unreachable ?? null } : null
  const config = doc.config ? upgradeConfig(doc.config) : null
  const runs = (doc.runs as RunResult[]).map(upgradeRun)
  const tool_tests = version >= 3 ? (doc.tool_tests ?? null) : null
  const upgraded: ResultsDocument = {
    ...(doc as ResultsDocument),
    version: RESULTS_VERSION,
    summary: { ...summary, skipped: summary.skipped ?? 0, resilience: summary.resilience ?? null },
    config,
    conformance,
    runs,
    gate: doc.gate ? { ...doc.gate, trends: doc.gate.trends ?? [] } : (doc.gate ?? null),
    changes:
      version === 1
        ? null
        : doc.changes
          ? {
              ...doc.changes,
              resilience: doc.changes.resilience ?? null,
              tools: doc.changes.tools ? { ...doc.changes.tools, renamed: doc.changes.tools.renamed ?? [] } : null,
              models: doc.changes.models ?? [],
              tool_latency: doc.changes.tool_latency ?? []
            }
          : null,
    tool_tests,
    telemetry: null,
    shard: null
  }
  if (version >= 5) return { ...upgraded, telemetry: doc.telemetry ?? null }
  return { ...upgraded, telemetry: doc.fatal_error ? null : telemetryOf(upgraded) }
}

/** The configuration as this version holds it: one written before Layer 2, Layer 3 or server_reuse (a document or a journal) lacks their keys. */
export function upgradeConfig(config: ResultsConfig): ResultsConfig {
  return {
    ...config,
    server_reuse: config.server_reuse ?? 'run',
    resilience_floors: config.resilience_floors ?? { min_recovery_rate: null, min_attack_resistance: null },
    budgets: config.budgets ?? NO_BUDGETS,
    pricing: config.pricing ?? {}
  }
}

/** A run as this version holds it: what later versions added, empty (also for runs read from an older journal). */
export function upgradeRun(run: RunResult): RunResult {
  return {
    ...run,
    observed: run.observed ?? { calls: 0, findings: [] },
    recovery: run.recovery ?? null,
    answer_check: run.answer_check ?? null,
    security: run.security ?? null,
    // The earliest version-1 documents held a count here, not the calls.
    llm_calls: Array.isArray(run.llm_calls) ? run.llm_calls : [],
    judge: run.judge ? { ...run.judge, latency_ms: run.judge.latency_ms ?? null } : null,
    trace_id: run.trace_id ?? null,
    skipped: run.skipped ?? null,
    dialogue: run.dialogue ?? null,
    inputs: run.inputs ?? null,
    model_view: run.model_view ?? null,
    run_dir: run.run_dir ?? null
  }
}

/** An older document's telemetry, from its runs; the judge's overhead is its judge tokens not owned by a run. */
function telemetryOf(doc: ResultsDocument): TelemetrySection {
  return summarizeTelemetry({
    runs: doc.runs,
    tool_tests: doc.tool_tests,
    wall_s: doc.duration_s,
    overhead: judgeOverhead(doc.summary, doc.runs),
    cache: doc.summary.cache ?? null,
    judge_model: doc.config?.judge_model ?? '',
    pricing: {},
    budgets: NO_BUDGETS
  })
}

/** The summary's judge tokens less the runs' own: the evaluation steps and semantic matches. */
function judgeOverhead(summary: Summary, runs: RunResult[]): TokenUsage {
  const judge = summary.tokens?.judge ?? emptyUsage()
  const owned = emptyUsage()
  for (const run of runs) addUsage(owned, run.judge?.usage ?? null)
  const overhead: TokenUsage = {
    prompt_tokens: Math.max(0, judge.prompt_tokens - owned.prompt_tokens),
    completion_tokens: Math.max(0, judge.completion_tokens - owned.completion_tokens),
    total_tokens: Math.max(0, judge.total_tokens - owned.total_tokens)
  }
  if (judge.cost_usd !== undefined && overhead.total_tokens > 0) overhead.cost_usd = Math.max(0, Math.round((judge.cost_usd - (owned.cost_usd ?? 0)) * 1e8) / 1e8)
  return overhead
}

/** "1, 2, 3, 4, 5, 6, 7 or 8", for messages. */
export const READABLE_VERSIONS_TEXT = `${READABLE_VERSIONS.slice(0, -1).join(', ')} or ${READABLE_VERSIONS.at(-1)}`
