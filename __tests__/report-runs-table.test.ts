import { describe, expect, test } from '@jest/globals'
import { gfm, seen } from '../__fixtures__/rendered.js'
import { failedWithBaselineShape, passedShape } from '../__fixtures__/report-shapes.js'
import { renderMarkdownReport } from '../src/report/markdown.js'
import { renderBarChart } from '../src/report/mermaid.js'
import { summaryTable } from '../src/report/runs-table.js'
import type { ResultsDocument, RunResult } from '../src/results/types.js'

/** The passing shape with its weather-paris runs failed the way the issue saw them: the judge cleared its threshold, expect_tool did not hold. */
function failedOnACheck(): { doc: ResultsDocument; failed: RunResult } {
  const doc = passedShape()
  const runs = doc.runs.map((run) =>
    run.case_id !== 'weather-paris'
      ? run
      : {
          ...run,
          status: 'failed' as const,
          success: false,
          golden_assertions: { passed: false, checks: [{ check: 'expect_tool' as const, passed: false, reason: 'expected get_local_time first; called get_weather' }] }
        }
  )
  const failed = runs.find((r) => r.case_id === 'weather-paris')!
  expect(failed.metrics[0].score).toBeGreaterThanOrEqual(failed.threshold)
  expect(failed.tool_assertions.passed).toBe(true)
  return { doc: { ...doc, runs, passed: false }, failed }
}

const rowOf = (lines: string[], run: RunResult) => lines.find((l) => l.includes(`#user-content-${run.case_id}-`))!

describe('the per-run table', () => {
  test('a run that failed a check with a judge score over its threshold: the verdict first, the check beside it, no green anywhere in its row', () => {
    const { doc, failed } = failedOnACheck()
    const row = rowOf(summaryTable(doc.runs, false), failed)
    const cells = [...gfm.render(`<table>\n${row}\n</table>\n`).matchAll(/<td>([\s\S]*?)<\/td>/g)].map((m) => seen(m[1]).trim())
    expect(cells).toEqual(['✗ failed', 'expect_tool: expected get_local_time first; called get_weather', 'weather-paris', 'openai/gpt-4o-mini default', '90% (≥ 70%)', '1/1', '1.5s'])
    expect(row).not.toMatch(/<img|passing|2da44e|✓/)
  })

  test('a long reason is cut, and the others counted; the run details keep every one', () => {
    const { doc, failed } = failedOnACheck()
    const reason = `expected ${'get_local_time, '.repeat(20)}first`
    const many = { ...failed, golden_assertions: { passed: false, checks: [{ check: 'expect_tool' as const, passed: false, reason }, { check: 'max_tool_calls' as const, passed: false, reason: '3 of at most 2 calls' }] } }
    const row = rowOf(summaryTable([many, ...doc.runs.filter((r) => r !== failed)], false), many)
    expect(row).toMatch(/<td>expect_tool: expected get_local_time, [^<]{60,90}… <i>\(and 1 more\)<\/i><\/td>/)
    const report = renderMarkdownReport({ ...doc, runs: [many] })
    expect(report).toContain('3 of at most 2 calls')
  })

  test('under a matrix only the runs that did not pass are rows; with every run passing there is no table at all', () => {
    const doc = failedWithBaselineShape()
    expect(summaryTable(doc.runs, true).filter((l) => l.startsWith('<tr><td>')).map((l) => l.slice(8, l.indexOf('</td>')))).toEqual(['✗ failed', '⚠ error', '✗ failed'])
    expect(summaryTable(doc.runs.filter((r) => r.status === 'passed'), true)).toEqual([])
    // Without the matrix the table is the only overview: every run, the passing ones collapsed.
    expect(summaryTable(doc.runs, false).join('\n')).toContain('<details><summary>5 passing runs</summary>')
  })

  test('the report of the failed run: its details open with the verdict, and no badge image is left', () => {
    const { doc, failed } = failedOnACheck()
    const report = renderMarkdownReport(doc)
    expect(report).toContain(`<summary id="weather-paris-openai-gpt-4o-mini-default">✗ failed · <code>weather-paris</code> · <code>${failed.model}</code> · default — judge 90% (≥ 70%)</summary>`)
    expect(report).toContain('##### Golden checks — ✗ failed')
    expect(report).not.toMatch(/<img|shields\.io/)
  })
})

describe('the passing runs fold away by case', () => {
  test('one fold per case holding its runs; no per-run table when the matrix is shown', () => {
    const doc = passedShape()
    const two = { ...doc, runs: doc.runs.flatMap((r) => [r, { ...r, prompt_name: 'terse', index: r.index + 100 }]), groups: doc.groups.flatMap((g) => [g, { ...g, prompt_name: 'terse', run_indexes: g.run_indexes.map((i) => i + 100) }]) }
    const report = renderMarkdownReport(two)
    const cases = [...new Set(doc.runs.map((r) => r.case_id))]
    const folds = [...report.matchAll(/^<details><summary>✓ <code>([^<]+)<\/code> — (.+) passed<\/summary>$/gm)].map((m) => `${m[1]}: ${m[2]}`)
    expect(folds).toEqual(cases.map((c) => `${c}: ${two.runs.filter((r) => r.case_id === c).length} runs`))
    expect(report).not.toContain('<tr><th>Verdict</th>')
    // Each run keeps its anchor inside its case's fold.
    for (const run of two.runs) expect(report).toMatch(new RegExp(`<summary id="${run.case_id}-[^"]*${run.prompt_name}">✓ passed · `))
  })
})

describe('charts only when they show a difference', () => {
  const bars = (values: number[]) => values.map((value, i) => ({ label: `m${i}`, value }))

  test('equal bars, or bars within 5% of the highest, draw nothing; a real difference draws the chart', () => {
    expect(renderBarChart({ title: 't', unit: 'USD', bars: bars([0.0003167, 0.0003167]) }).lines).toEqual([])
    expect(renderBarChart({ title: 't', unit: 'ms', bars: bars([100, 96]) }).lines).toEqual([])
    expect(renderBarChart({ title: 't', unit: 'ms', bars: bars([100, 90]) }).lines[0]).toBe('```mermaid')
    expect(renderBarChart({ title: 't', unit: 'ms', bars: bars([229, 197, 166, 136, 123, 67]) }).shown).toBe(6)
  })
})
