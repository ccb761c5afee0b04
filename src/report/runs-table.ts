import type { RunResult } from '../results/types.js'
import { ellipsize } from '../util/text.js'
import { count, seconds } from '../util/words.js'
import { codeHtml, escapeHtml } from './escape.js'
import { failureReasons } from './reasons.js'
import { judgeScore, verdictText } from './run-verdict.js'

/** How much of the first failure reason a row quotes; the run's details have all of them. */
const REASON_CHARS = 100

/** eval-action's anchor: "{case}-{model}-{prompt}", `/` and spaces to `-`, lower-cased, and the repeat when there are several; made safe for an attribute. */
export function anchor(run: Pick<RunResult, 'case_id' | 'model' | 'prompt_name'> & Partial<Pick<RunResult, 'attempt' | 'attempts'>>): string {
  const repeat = run.attempts && run.attempts > 1 ? `-${run.attempt}` : ''
  return `${run.case_id}-${run.model}-${run.prompt_name}${repeat}`
    .replace(/[/ ]/g, '-')
    .toLowerCase()
    .replace(/[^a-z0-9_.-]/g, '-')
}

/** The check that failed the run, first of its reasons and cut short, "and 2 more" when there are others; — for a run that passed. */
function failedCheck(run: RunResult): string {
  if (run.status === 'passed') return '—'
  const reasons = failureReasons(run)
  if (reasons.length === 0) return '—'
  const more = reasons.length > 1 ? ` <i>(and ${reasons.length - 1} more)</i>` : ''
  // The verdict beside it already says "skipped: budget".
  const first = reasons[0].replace(/^skipped: budget — /, '').replace(/\s+/g, ' ').trim()
  return `${escapeHtml(ellipsize(first, REASON_CHARS))}${more}`
}

/** The required tools that held, "1/1", as a plain count: a failed run's row carries no colour but its verdict. */
function toolsCell(run: RunResult): string {
  const { checks } = run.tool_assertions
  return checks.length === 0 ? '—' : `${checks.filter((c) => c.passed).length}/${checks.length}`
}

/**
 * One row per run: its verdict first and the check that failed it beside it, then the case (a
 * link to the run's details), the model and system prompt, the judge's score against the case's
 * threshold, the required tools that held, the time. No badge and no colour: the verdict is the
 * only word that says pass or fail. Nine eval-action columns would not fit a page beside a
 * reason: the model and prompt share a cell, the case is the link.
 */
function table(runs: RunResult[], withTools: boolean): string[] {
  const headers = ['Verdict', 'Failed check', 'Case', 'Model · prompt', 'Judge<br>(threshold)', ...(withTools ? ['Required<br>tools'] : []), 'Time']
  const rows = runs.map((run) => {
    const cells = [
      verdictText(run),
      failedCheck(run),
      `<a href="#user-content-${anchor(run)}">${codeHtml(run.case_id)}</a>${run.attempts > 1 ? ` · run ${run.attempt}/${run.attempts}` : ''}`,
      `${codeHtml(run.model)}<br>${escapeHtml(run.prompt_name)}`,
      judgeScore(run) ?? (run.status === 'cancelled' || run.status === 'skipped' ? '—' : 'not judged'),
      ...(withTools ? [toolsCell(run)] : []),
      run.status === 'cancelled' || run.status === 'skipped' ? '—' : seconds(run.duration_s)
    ]
    return `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`
  })
  return ['<table>', `<tr>${headers.map((h) => `<th>${h}</th>`).join('')}</tr>`, ...rows, '</table>']
}

/**
 * The runs as rows, those that did not pass first. With the cases × models matrix above
 * (`matrixShown`) the passing runs are left out: the matrix counts them and the details hold
 * them. Without it they follow, collapsed (with repeats there can be hundreds).
 */
export function summaryTable(runs: RunResult[], matrixShown: boolean): string[] {
  const withTools = runs.some((r) => r.tool_assertions.checks.length > 0)
  const notPassing = runs.filter((r) => r.status !== 'passed')
  const passing = runs.filter((r) => r.status === 'passed')
  if (matrixShown) return notPassing.length === 0 ? [] : [...table(notPassing, withTools), '']
  if (notPassing.length === 0) return [...table(passing, withTools), '']
  if (passing.length === 0) return [...table(notPassing, withTools), '']
  return [...table(notPassing, withTools), '', `<details><summary>${count(passing.length, 'passing run')}</summary>`, '', ...table(passing, withTools), '', '</details>', '']
}
