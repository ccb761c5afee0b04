import { readFileSync } from 'node:fs'
import { gateApplies, gateDocument } from '../aggregate/apply-gate.js'
import type { Baseline } from '../aggregate/gate.js'
import { upgradeDocument } from '../aggregate/upgrade-document.js'
import { READABLE_VERSIONS_TEXT } from '../results/upgrade.js'
import type { ResultsDocument } from '../results/types.js'
import type { JournalGate } from './journal.js'

/**
 * The verdict of a run, a report or a merge: the baseline named by the gate settings is read
 * (only when the document is gated at all, so a shard or a cancelled run warns of nothing), then
 * the pure gate decides.
 */
export function applyGate(doc: ResultsDocument, settings: JournalGate, warn: (message: string) => void = () => undefined): ResultsDocument {
  const baseline = gateApplies(doc) ? loadBaseline(settings.baseline, warn) : null
  return gateDocument(doc, settings, baseline)
}

/** An earlier results document to compare with; a missing or unreadable one is a warning, not an error. */
export function loadBaseline(path: string, warn: (message: string) => void = () => undefined): Baseline | null {
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
