import { RESULTS_VERSION, type ResultsDocument } from './types.js'

/** The versions a baseline or `report --from` may be: the current one and the one before. */
export const READABLE_VERSIONS: readonly number[] = [1, RESULTS_VERSION]

/**
 * A saved results document as the current version holds it, or null when it is not one we can
 * read. Version 1 had no `changes` and no `conformance.tools`, and a `pass_rate` of 1 for nothing.
 */
export function upgradeDocument(data: unknown): ResultsDocument | null {
  const doc = data as Partial<ResultsDocument> | null
  if (!doc || typeof doc !== 'object' || !READABLE_VERSIONS.includes(doc.version as number) || !Array.isArray(doc.runs) || !Array.isArray(doc.groups) || !doc.summary) return null
  if (doc.version === RESULTS_VERSION) return doc as ResultsDocument
  const summary = { ...doc.summary, pass_rate: doc.summary.total === 0 ? null : doc.summary.pass_rate }
  return {
    ...(doc as ResultsDocument),
    version: RESULTS_VERSION,
    summary,
    conformance: doc.conformance ? { ...doc.conformance, tools: doc.conformance.tools ?? null } : (doc.conformance ?? null),
    changes: null
  }
}
