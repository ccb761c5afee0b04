import type { RunResult } from '../results/types.js'
import { formatPercent } from './numbers.js'

/** A run's verdict as a mark and a word, the same symbols as the matrix and the tool tests; never a colour. */
export function runVerdict(run: Pick<RunResult, 'status'>): { mark: string; word: string } {
  switch (run.status) {
    case 'passed':
      return { mark: '✓', word: 'passed' }
    case 'failed':
      return { mark: '✗', word: 'failed' }
    case 'error':
      return { mark: '⚠', word: 'error' }
    case 'cancelled':
      return { mark: '⊘', word: 'cancelled' }
    case 'skipped':
      return { mark: '⏭', word: 'skipped: budget' }
  }
}

/** "✗ failed", "✓ passed": the verdict as a reader sees it first. */
export const verdictText = (run: Pick<RunResult, 'status'>) => {
  const { mark, word } = runVerdict(run)
  return `${mark} ${word}`
}

/**
 * The judge's score as a plain number against the case's own threshold, "57% (≥ 90%)": no colour
 * and no "passing", since a run can clear its judge and still fail a check. Null when it was not judged.
 */
export function judgeScore(run: Pick<RunResult, 'metrics' | 'threshold'>): string | null {
  const score = run.metrics[0]?.score ?? null
  return score === null ? null : `${formatPercent(score)}% (≥ ${formatPercent(run.threshold)}%)`
}
