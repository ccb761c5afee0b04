import type { ToolTestResult } from '../results/types.js'
import { toolTestFailureWords } from './tool-tests.js'

/** One log line per finished tool test: "✓ tool test bin-of-skillet (3/3 attempts, 12 ms) [2/6]". */
export function formatToolTestLine(test: ToolTestResult, finished: number, total: number): string {
  const symbol = test.status === 'passed' ? '✓' : test.status === 'failed' ? '✗' : test.status === 'error' ? '⚠' : '⊘'
  const passed = test.attempts.filter((a) => a.status === 'passed').length
  const attempts = test.runs > 1 ? `${passed}/${test.runs} attempts, ` : ''
  const why = toolTestFailureWords(test)
  return `${symbol} tool test ${test.id} (${attempts}${test.duration_ms} ms)${why ? `: ${why}` : ''} [${finished}/${total}]`
}
