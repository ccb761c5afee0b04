import { JOURNAL_VERSION, type JournalHeader } from '../src/execute/journal.js'

/** A run journal's header for `planned` runs of a behaviour evaluation with no baseline. */
export function journalHeader(planned: number, parts: Pick<JournalHeader, 'config' | 'cases'>): JournalHeader {
  return {
    type: 'header',
    version: JOURNAL_VERSION,
    suite_hash: 'abc',
    started_at: '2026-12-01T10:00:00.000Z',
    planned,
    reused: 0,
    ...parts,
    behaviour: { status: 'ran', reason: null },
    gate: { mode: null, max_drop: 0.02, baseline: '' }
  }
}
