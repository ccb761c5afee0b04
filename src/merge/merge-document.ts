import { applyGate } from '../execute/baseline.js'
import { documentFromJournal, readJournal, type JournalGate } from '../execute/journal.js'
import type { ResultsDocument } from '../results/types.js'
import { writeFileReplacingWith } from '../util/write-file.js'
import { mergedJournal } from './merge-shards.js'
import type { ShardFile } from './read-shards.js'

/**
 * The results of the whole suite from its checked shards, built as a run builds its own: the
 * merged journal is written to `journalPath` (so `report --from` on it gives this document again),
 * read back, made a document and gated with the merge's own gate settings. Written in one go, not
 * through JournalWriter: there is no run in flight to protect, and its header counts the shards'
 * reused runs, which JournalWriter would count from runs it writes itself.
 */
export function mergeShards(shards: readonly ShardFile[], options: { gate: JournalGate; journalPath: string; warn?: (message: string) => void }): ResultsDocument {
  const records = mergedJournal(shards.map((s) => s.document), options.gate)
  // A line at a time: thousands of runs never become one string; replaced, never written through a planted link.
  writeFileReplacingWith(options.journalPath, (write) => {
    for (const record of records) write(`${JSON.stringify(record)}\n`)
  })
  const { state } = readJournal(options.journalPath)
  return applyGate(documentFromJournal(state), state.header.gate, options.warn)
}
