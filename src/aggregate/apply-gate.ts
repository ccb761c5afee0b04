import type { ResultsDocument } from '../results/types.js'
import { compareWithBaseline } from './changes.js'
import { evaluateGate, type Baseline, type GateMode } from './gate.js'
import { gatedPassed } from './verdict.js'

/** How the gate is applied: its mode (null: delta with a baseline, else absolute) and the drop a delta allows. */
export interface GateSettings {
  mode: GateMode | null
  max_drop: number
}

/**
 * Whether the document is gated at all, so that a baseline is worth loading: a shard's verdict is
 * the merge's, and a cancelled or incomplete evaluation gets no gate (its unfinished runs would
 * read as regressions).
 */
export function gateApplies(doc: ResultsDocument): boolean {
  return doc.behaviour.status === 'ran' && !doc.shard && doc.cancelled === null && (doc.journal?.missing ?? 0) === 0
}

/**
 * The verdict: the gate (floors and/or deltas) and conformance, against a baseline already loaded
 * (null: none). A cancelled or incomplete evaluation gets no gate at all (its unfinished runs
 * would read as regressions) and never passes.
 */
export function gateDocument(doc: ResultsDocument, settings: GateSettings, baseline: Baseline | null): ResultsDocument {
  // A shard's verdict is the merge's.
  if (doc.behaviour.status !== 'ran' || doc.shard) return doc
  if (doc.cancelled !== null || (doc.journal?.missing ?? 0) > 0) return { ...doc, gate: null, passed: false }
  const gate = evaluateGate(doc, baseline, settings.mode, settings.max_drop)
  const changes = baseline ? compareWithBaseline(doc, gate, baseline) : null
  return { ...doc, gate, changes, passed: gatedPassed(doc, gate) }
}
