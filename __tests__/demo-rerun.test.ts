import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCliProcess } from '../__fixtures__/cli.js'
import type { ResultsDocument } from '../src/results/types.js'

// The bundled example's budgets (examples/eval_cases.yaml: max_p95_increase 0.5) against its own
// unchanged rerun: two `--demo` runs back to back, as a user would type them, the second gated
// on the first. Nothing changed, so nothing may fail, however busy the machine is; before the
// floors and the sample rule, five reruns in six failed here on jitter alone.
describe('the example against its own unchanged rerun', () => {
  test('two --demo runs, the second with the first as its baseline: every trend budget passes and says which rule passed it', async () => {
    const work = mkdtempSync(join(tmpdir(), 'demo-rerun-'))
    const first = await runCliProcess(['--demo', '--output-dir', 'first'], work, { OPENROUTER_API_KEY: '' })
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    const second = await runCliProcess(['--demo', '--output-dir', 'second', '--baseline', join('first', 'eval-results.json')], work, { OPENROUTER_API_KEY: '' })
    const doc = JSON.parse(readFileSync(join(work, 'second', 'eval-results.json'), 'utf8')) as ResultsDocument
    const trends = doc.gate!.trends
    // Checked, not skipped: a tool or model p95 for every subject measured on both sides.
    expect(trends.length).toBeGreaterThanOrEqual(doc.telemetry!.tools.length + doc.telemetry!.models.length)
    expect(trends.every((t) => t.budget === 'max_p95_increase')).toBe(true)
    expect(trends.filter((t) => !t.passed).map((t) => t.reason)).toEqual([])
    for (const t of trends) expect(t.reason).toMatch(/, within max_p95_increase|is under the \S+ (ms|s) floor of max_p95_increase|too few (calls|runs) to compare/)
    expect(second.code).toBe(0)
  }, 240_000)
})
