import type { ResultsDocument, RunResult } from '../results/types.js'
import { formatPercent } from './numbers.js'

/** One log line per finished run: what ran, the verdict, and why when it did not pass. */
export function formatProgressLine(run: RunResult, finished: number, total: number): string {
  const mark = run.status === 'passed' ? '✓' : run.status === 'error' ? '!' : '✗'
  const score = run.metrics[0]?.score
  const pct = score === null || score === undefined ? 'n/a' : `${formatPercent(score)}%`
  let line = `[${finished}/${total}] ${mark} ${run.case_id} · ${run.model} · ${run.prompt_name} — judge ${pct}`
  if (run.tool_assertions.checks.length > 0) {
    line += `, tools ${run.tool_assertions.checks.filter((c) => c.passed).length}/${run.tool_assertions.checks.length}`
  }
  line += ` (${run.duration_s}s)`
  if (run.error) line += ` — ${run.error.stage} error: ${run.error.message.split('\n')[0]}`
  // Server and model text must not drive the terminal with escape sequences.
  return line.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
}

export function formatSummaryLine(doc: ResultsDocument): string {
  if (doc.fatal_error !== null) return `Evals failed to run: ${doc.fatal_error}`
  const s = doc.summary
  return `${s.passed}/${s.total} passed (${Math.round(s.pass_rate * 1000) / 10}%), ${s.failed} failed, ${s.errored} errored · ${s.tokens.total} tokens · ${doc.duration_s}s`
}
