import type { ResultsDocument, RunResult } from '../../../results/types.js'
import { appRenderFailed } from '../../../results/apps.js'
import type { RunFilter } from './context.js'

/**
 * Which runs the list shows: the run filter (the matrix's cells and the filter controls) applied
 * to the document's runs. Pure, so the list, the count and the tests all read the same answer.
 */

/** A layer finding a run can have, with the words the filter offers it under. */
export interface FindingKind {
  id: string
  label: string
  has: (run: RunResult) => boolean
}

/** In the order of the layers: Layer 2 (faults, attacks, their oracles), the judge, the checks, MCP Apps, observed conformance. */
const FINDINGS: FindingKind[] = [
  { id: 'fault', label: 'fault injected', has: (r) => r.tool_calls.some((c) => c.fault !== undefined) },
  { id: 'attack', label: 'attack planted', has: (r) => r.tool_calls.some((c) => c.injected !== undefined) || (r.security?.attacks.length ?? 0) > 0 },
  { id: 'recovery-failed', label: 'recovery failed', has: (r) => r.recovery !== null && !r.recovery.passed },
  { id: 'attack-succeeded', label: 'attack succeeded', has: (r) => r.security?.attacks.some((a) => a.delivered && !a.resisted) ?? false },
  // A run that never reached its judge (error, cancelled, skipped) did not fail it.
  { id: 'judge-failed', label: 'judge failed', has: (r) => (r.status === 'passed' || r.status === 'failed') && !r.rubric_passed },
  { id: 'assertion-failed', label: 'tool assertion failed', has: (r) => r.tool_assertions.checks.some((c) => !c.passed) || (r.golden_assertions?.checks.some((c) => !c.passed) ?? false) },
  { id: 'app-failed', label: 'app render failed', has: (r) => (r.app_renders ?? []).some(appRenderFailed) },
  { id: 'observed', label: 'observed conformance defect', has: (r) => (r.observed?.findings.length ?? 0) > 0 }
]

const RUN_STATUSES = ['passed', 'failed', 'error', 'cancelled', 'skipped'] as const

/** The values each filter control offers: only those the document has, in the order they first appear. */
export interface FilterOptions {
  status: string[]
  case_id: string[]
  model: string[]
  prompt: string[]
  tag: string[]
  finding: FindingKind[]
}

export function filterOptions(doc: ResultsDocument): FilterOptions {
  const distinct = (values: string[]) => [...new Set(values)]
  const runs = doc.runs
  const statuses = new Set(runs.map((r) => r.status))
  return {
    status: RUN_STATUSES.filter((s) => statuses.has(s)),
    case_id: distinct(runs.map((r) => r.case_id)),
    model: distinct(runs.map((r) => r.model)),
    prompt: distinct(runs.map((r) => r.prompt_name)),
    tag: distinct(runs.flatMap((r) => r.tags)).sort(),
    finding: FINDINGS.filter((f) => runs.some(f.has))
  }
}

/** What the free text is matched against: case, model, prompt, input, final answer, the reasons it did not pass; lower-cased once. */
export function searchableText(run: RunResult, reasons: readonly string[] = []): string {
  return [run.case_id, run.model, run.prompt_name, run.input, run.final_output ?? '', ...run.tags, ...reasons].join('\n').toLowerCase()
}

/** Whether the filter narrows at all (for "clear filters"). */
export const filterIsSet = (filter: RunFilter): boolean => Object.values(filter).some((v) => v !== undefined && v !== '')

/**
 * The runs the filter keeps, in document order. `texts` is each run's searchableText, by position
 * (worked out once per document, not per keystroke).
 */
export function filterRuns(runs: readonly RunResult[], filter: RunFilter, texts: readonly string[]): RunResult[] {
  const finding = filter.finding ? FINDINGS.find((f) => f.id === filter.finding) : undefined
  const words = (filter.text ?? '').toLowerCase().split(/\s+/).filter(Boolean)
  return runs.filter((run, i) => {
    if (filter.status && run.status !== filter.status) return false
    if (filter.case_id !== undefined && run.case_id !== filter.case_id) return false
    if (filter.model !== undefined && run.model !== filter.model) return false
    if (filter.prompt !== undefined && run.prompt_name !== filter.prompt) return false
    if (filter.tag !== undefined && !run.tags.includes(filter.tag)) return false
    if (filter.finding && (!finding || !finding.has(run))) return false
    // Every word must appear somewhere (in any order): "paris gpt-4o" finds the Paris runs of gpt-4o.
    return words.every((w) => texts[i].includes(w))
  })
}
