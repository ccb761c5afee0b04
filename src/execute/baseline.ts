import { dirname, join } from 'node:path'
import { gateApplies, gateDocument } from '../aggregate/apply-gate.js'
import { applyVisualDiff } from '../apps/apply-visual-diff.js'
import type { Baseline } from '../aggregate/gate.js'
import { upgradeDocument } from '../aggregate/upgrade-document.js'
import { READABLE_VERSIONS_TEXT } from '../results/upgrade.js'
import type { ResultsDocument } from '../results/types.js'
import { FileLimits, readBoundedFile } from '../util/read-file.js'
import { baselineProblem } from './baseline-shape.js'
import type { JournalGate } from './journal.js'

/**
 * The verdict of a run, a report or a merge: the baseline named by the gate settings is read
 * (only when the document is gated at all, so a shard or a cancelled run warns of nothing), then
 * the pure gate decides. Given `apps` (where this evaluation's screenshots are), the MCP Apps
 * screenshots are compared with the baseline's first (applyVisualDiff).
 */
export function applyGate(doc: ResultsDocument, settings: JournalGate, warn: (message: string) => void = () => undefined, apps?: { outputDir: string }): ResultsDocument {
  const baseline = gateApplies(doc) ? loadBaseline(settings.baseline, warn) : null
  // MCP Apps: the screenshots against the baseline's, kept in the `apps/` directory beside its document (before the verdict: a change may fail it).
  const compared = apps && baseline && doc.apps ? applyVisualDiff(doc, apps.outputDir, join(dirname(baseline.source), 'apps')) : doc
  return gateDocument(compared, settings, baseline)
}

/**
 * An earlier results document to compare with; a missing or unreadable one is a warning naming the
 * file and what is wrong, not an error: not a regular file (a FIFO, /dev/zero), over
 * FileLimits.document, not JSON, not a results document, or lacking a field the gate reads.
 */
export function loadBaseline(path: string, warn: (message: string) => void = () => undefined): Baseline | null {
  if (!path) return null
  if (path === 'auto') {
    warn('baseline: auto restores the last green results from the Actions cache, which only the action has; gating on the pass floors alone.')
    return null
  }
  try {
    const document = upgradeDocument(JSON.parse(readBoundedFile(path, FileLimits.document)))
    if (!document) throw new Error(`not a results document of version ${READABLE_VERSIONS_TEXT}`)
    const problem = baselineProblem(document)
    if (problem) throw new Error(`${problem}, which the gate reads`)
    return { document, source: path }
  } catch (error) {
    warn(`No baseline: cannot use ${path} (${(error as Error).message}); gating on the pass floors alone.`)
    return null
  }
}
