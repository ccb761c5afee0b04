import { useMemo } from 'preact/hooks'
import type { RunResult } from '../../../results/types.js'
import { Section } from './common.js'
import { useReport } from './context.js'
import { RunFilters } from './filter-controls.js'
import { RunList } from './run-list.js'
import { filterOptions, filterRuns, searchableText } from './run-filter.js'

/**
 * The runs: the filters and the free-text search (the filter lives in the report's context, so
 * the matrix narrows the list too), how many runs they keep, and the list, rendered lazily.
 */
export function Runs() {
  const { doc, view, filter } = useReport()
  // Worked out once per document: the text each run is searched in, and what each filter offers.
  const texts = useMemo(() => doc.runs.map((run) => searchableText(run, view.run_reasons[String(run.index)])), [doc, view])
  const options = useMemo(() => filterOptions(doc), [doc])
  const shown: RunResult[] = useMemo(() => filterRuns(doc.runs, filter, texts), [doc, filter, texts])
  return (
    <Section id="runs" title="Runs">
      <RunFilters options={options} />
      <p id="runs-count" class="runs-count" role="status" aria-live="polite">
        {shown.length === doc.runs.length ? `${doc.runs.length.toLocaleString('en-US')} ${doc.runs.length === 1 ? 'run' : 'runs'}` : `${shown.length.toLocaleString('en-US')} of ${doc.runs.length.toLocaleString('en-US')} runs`}
      </p>
      {shown.length === 0 ? <p class="muted">No run matches these filters.</p> : <RunList runs={shown} />}
    </Section>
  )
}
