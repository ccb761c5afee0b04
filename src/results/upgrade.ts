import { RESULTS_VERSION, type ResultsDocument, type RunResult } from './types.js'

/** The versions a baseline or `report --from` may be: the current one and every one before. */
export const READABLE_VERSIONS: readonly number[] = [1, 2, 3, RESULTS_VERSION]

/**
 * A saved results document as the current version holds it, or null when it is not one we can
 * read. Version 1 had no `changes` and no `conformance.tools`, and a `pass_rate` of 1 for nothing;
 * versions 1 and 2 had no tool tests, no `observed` on runs and no `conformance.unreachable`;
 * versions 1 to 3 had no Layer 2 (faults, attacks, their verdicts and summary).
 */
export function upgradeDocument(data: unknown): ResultsDocument | null {
  const doc = data as Partial<ResultsDocument> | null
  if (!doc || typeof doc !== 'object' || !READABLE_VERSIONS.includes(doc.version as number) || !Array.isArray(doc.runs) || !Array.isArray(doc.groups) || !doc.summary) return null
  if (doc.version === RESULTS_VERSION) return doc as ResultsDocument
  const version = doc.version as unknown as number
  const summary = version === 1 ? { ...doc.summary, pass_rate: doc.summary.total === 0 ? null : doc.summary.pass_rate } : doc.summary
  const conformance = doc.conformance ? { ...doc.conformance, tools: doc.conformance.tools ?? null, unreachable: doc.conformance.unreachable ?? null } : null
  return {
    ...(doc as ResultsDocument),
    version: RESULTS_VERSION,
    summary: { ...summary, resilience: summary.resilience ?? null },
    config: doc.config ? { ...doc.config, resilience_floors: doc.config.resilience_floors ?? { min_recovery_rate: null, min_attack_resistance: null } } : null,
    conformance,
    runs: (doc.runs as RunResult[]).map((run) => ({
      ...run,
      observed: run.observed ?? { calls: 0, findings: [] },
      recovery: run.recovery ?? null,
      answer_check: run.answer_check ?? null,
      security: run.security ?? null
    })),
    changes: version === 1 ? null : doc.changes ? { ...doc.changes, resilience: doc.changes.resilience ?? null, tools: doc.changes.tools ? { ...doc.changes.tools, renamed: doc.changes.tools.renamed ?? [] } : null } : null,
    tool_tests: version >= 3 ? (doc.tool_tests ?? null) : null
  }
}

/** "1, 2, 3 or 4", for messages. */
export const READABLE_VERSIONS_TEXT = `${READABLE_VERSIONS.slice(0, -1).join(', ')} or ${READABLE_VERSIONS.at(-1)}`
