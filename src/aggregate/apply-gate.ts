import { readFileSync } from 'node:fs'
import type { JournalGate } from '../execute/journal.js'
import { READABLE_VERSIONS_TEXT } from '../results/upgrade.js'
import { upgradeDocument } from './upgrade-document.js'
import type { ResultsDocument } from '../results/types.js'
import { compareWithBaseline } from './changes.js'
import { freeLayersPassed } from './document.js'
import { evaluateGate } from './gate.js'

/**
 * The verdict: the gate (floors and/or deltas) and conformance. A cancelled or incomplete
 * evaluation gets no gate at all (its unfinished runs would read as regressions) and never passes.
 */
export function applyGate(doc: ResultsDocument, settings: JournalGate, warn: (message: string) => void = () => undefined): ResultsDocument {
  // A shard's verdict is the merge's.
  if (doc.behaviour.status !== 'ran' || doc.shard) return doc
  if (doc.cancelled !== null || (doc.journal?.missing ?? 0) > 0) return { ...doc, gate: null, passed: false }
  const baseline = loadBaseline(settings.baseline, warn)
  const gate = evaluateGate(doc, baseline, settings.mode, settings.max_drop)
  const changes = baseline ? compareWithBaseline(doc, gate, baseline) : null
  return { ...doc, gate, changes, passed: gate.passed && freeLayersPassed(doc) }
}

/** An earlier results document to compare with; a missing or unreadable one is a warning, not an error. */
export function loadBaseline(path: string, warn: (message: string) => void = () => undefined): { document: ResultsDocument; source: string } | null {
  if (!path) return null
  if (path === 'auto') {
    warn('baseline: auto restores the last green results from the Actions cache, which only the action has; gating on the pass floors alone.')
    return null
  }
  try {
    const document = upgradeDocument(JSON.parse(readFileSync(path, 'utf8')))
    if (!document) throw new Error(`not a results document of version ${READABLE_VERSIONS_TEXT}`)
    return { document, source: path }
  } catch (error) {
    warn(`No baseline: cannot use ${path} (${(error as Error).message}); gating on the pass floors alone.`)
    return null
  }
}
