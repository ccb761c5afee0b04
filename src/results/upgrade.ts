import { RESULTS_VERSION, type ResultsDocument, type RunResult } from './types.js'

/** The versions a baseline or `report --from` may be: the current one and the two before. */
export const READABLE_VERSIONS: readonly number[] = [1, 2, RESULTS_VERSION]

/**
 * A saved results document as the current version holds it, or null when it is not one we can
 * read. Version 1 had no `changes` and no `conformance.tools`, and a `pass_rate` of 1 for nothing;
 * versions 1 and 2 had no tool tests, no `observed` on runs and no `conformance.unreachable`.
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
    summary,
    conformance,
    runs: (doc.runs as RunResult[]).map((run) => ({ ...run, observed: run.observed ?? { calls: 0, findings: [] } })),
    changes: version === 1 ? null : (doc.changes ?? null),
    tool_tests: null
  }
}

/** "1, 2 or 3", for messages. */
export const READABLE_VERSIONS_TEXT = `${READABLE_VERSIONS.slice(0, -1).join(', ')} or ${READABLE_VERSIONS.at(-1)}`
