import type { ResultsDocument } from '../results/types.js'
import { count } from '../util/words.js'
import { formatTimestamp } from './timestamp.js'

/** A cancelled evaluation: no verdict, what had finished, and how to pick up the rest. */
export function renderCancelled(doc: ResultsDocument): string[] {
  const c = doc.cancelled
  if (!c) return []
  return [
    `> **Cancelled by ${c.signal}** at ${formatTimestamp(c.at)}: ${
      c.finished === 0
        ? `none of the ${count(c.planned, 'planned run')} had finished`
        : `${c.finished} of ${count(c.planned, 'planned run')} had finished and ${c.finished === 1 ? 'is' : 'are'} shown below; the others are marked cancelled`
    }. No gate was applied: this is not a verdict.`,
    '>',
    '> With `resume: true` in the workflow, **Re-run failed jobs** runs only the missing runs (CLI: `--resume`).',
    ''
  ]
}
