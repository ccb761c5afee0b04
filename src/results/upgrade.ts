import { NO_BUDGETS } from './suite.js'
import { RESULTS_VERSION, type ResultsConfig, type ResultsDocument, type RunResult } from './types.js'

/** The versions a baseline or `report --from` may be: the current one and every one before. */
export const READABLE_VERSIONS: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8, RESULTS_VERSION]

/**
 * A saved document's fields as the current version holds them, and the version it was written in;
 * null when it is not one we can read. Every missing field is filled here except the telemetry of
 * a document before version 5, which is computed from its runs (src/aggregate/upgrade-document.ts):
 * it is null here.
 */
export function upgradeFields(data: unknown): { document: ResultsDocument; version: number } | null {
  const doc = data as Partial<ResultsDocument> | null
  if (!doc || typeof doc !== 'object' || !READABLE_VERSIONS.includes(doc.version as number) || !Array.isArray(doc.runs) || !Array.isArray(doc.groups) || !doc.summary) return null
  if (doc.version === RESULTS_VERSION) return { document: doc as ResultsDocument, version: RESULTS_VERSION }
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
    telemetry: version >= 5 ? (doc.telemetry ?? null) : null,
    shard: null
  }
  return { document: upgraded, version }
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

/** "1, 2, 3, 4, 5, 6, 7 or 8", for messages. */
export const READABLE_VERSIONS_TEXT = `${READABLE_VERSIONS.slice(0, -1).join(', ')} or ${READABLE_VERSIONS.at(-1)}`
