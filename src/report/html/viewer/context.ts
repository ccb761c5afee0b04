import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { ResultsDocument } from '../../../results/types.js'
import type { HtmlView } from '../view-types.js'

/** What the run list is narrowed to: each key unset means "any". The matrix sets case and model. */
export interface RunFilter {
  status?: string
  case_id?: string
  model?: string
  prompt?: string
  tag?: string
  /** A layer finding a run must have: `fault`, `attack`, `recovery-failed`, `attack-succeeded`, `app-failed`, `observed`, `judge-failed`, `assertion-failed`. */
  finding?: string
  /** Free text, matched case-insensitively against the run's case, model, prompt, input, answer and reasons. */
  text?: string
}

export interface Report {
  doc: ResultsDocument
  view: HtmlView
  filter: RunFilter
  /** Replace the run filter (the matrix's cells, the filter controls). */
  setFilter: (filter: RunFilter) => void
  /** Go to an anchor of the page (`run-17`, `runs`, `check-unknown-tool-error`): the address changes, so it can be shared. */
  go: (anchor: string) => void
  /** The anchor the address names, without `#` ('' for none). */
  route: string
}

export const ReportContext = createContext<Report | null>(null)

export function useReport(): Report {
  const report = useContext(ReportContext)
  if (!report) throw new Error('useReport outside the report')
  return report
}
