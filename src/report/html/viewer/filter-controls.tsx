import type { RunFilter } from './context.js'
import { useReport } from './context.js'
import { filterIsSet, type FilterOptions } from './run-filter.js'

type SelectKey = Exclude<keyof RunFilter, 'text'>

/** The filter controls: one select per field (offering only the values the document has), the search box, "Clear filters". */
export function RunFilters({ options }: { options: FilterOptions }) {
  const { filter, setFilter } = useReport()
  const set = (key: keyof RunFilter, value: string) => setFilter({ ...filter, [key]: value === '' ? undefined : value })
  const selects: [SelectKey, string, [string, string][]][] = [
    ['status', 'Status', options.status.map((s) => [s, s])],
    ['case_id', 'Case', options.case_id.map((c) => [c, c])],
    ['model', 'Model', options.model.map((m) => [m, m])],
    ['prompt', 'System prompt', options.prompt.map((p) => [p, p])],
    ['tag', 'Tag', options.tag.map((t) => [t, t])],
    ['finding', 'Layer finding', options.finding.map((f) => [f.id, f.label])]
  ]
  return (
    <form class="run-filters" role="search" aria-label="Filter the runs" onSubmit={(e) => e.preventDefault()}>
      {selects
        // A control with nothing to offer is left out, unless the filter sets it (so it can be seen and changed).
        .filter(([key, , values]) => values.length > 0 || filter[key] !== undefined)
        .map(([key, label, values]) => {
          const current = filter[key]
          const offered = current !== undefined && !values.some(([v]) => v === current) ? [...values, [current, current] as [string, string]] : values
          return (
            <label key={key} class="run-filter">
              <span>{label}</span>
              <select name={key} value={current ?? ''} onChange={(e) => set(key, e.currentTarget.value)}>
                <option value="">any</option>
                {offered.map(([value, text]) => (
                  <option key={value} value={value}>
                    {text}
                  </option>
                ))}
              </select>
            </label>
          )
        })}
      <label class="run-filter run-search">
        <span>Search</span>
        <input type="search" name="text" value={filter.text ?? ''} placeholder="case, model, input, answer, reason" onInput={(e) => set('text', e.currentTarget.value)} />
      </label>
      <button type="button" class="clear-filters" onClick={() => setFilter({})} disabled={!filterIsSet(filter)}>
        Clear filters
      </button>
    </form>
  )
}
