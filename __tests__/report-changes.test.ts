import { describe, expect, test } from '@jest/globals'
import { compareWithBaseline } from '../src/aggregate/changes.js'
import { gated, mixedShape, passedShape, telemetryShape, toolTestsFailedShape, toolTestsOnlyPassedShape } from '../__fixtures__/report-shapes.js'
import { renderComment } from '../src/report/comment.js'
import { renderMarkdownReport } from '../src/report/markdown.js'
import type { ResultsDocument } from '../src/results/types.js'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import resultsSchema from '../schema/results.schema.json' with { type: 'json' }

// "What changed" names every layer's regressions, and "Did not pass" counts every layer's
// failures: a tool test that passed in the baseline and fails now is there, as a budget that held.

const CONTEXT = { marker: '<!-- mcp-server-evals:sticky:MCP evals/evals -->', links: {} }
const validate = addFormats.default(new Ajv2020({ allErrors: true, strict: false })).compile(resultsSchema)

describe('tool tests against the baseline', () => {
  // The baseline's six tests passed; now four of the same ids and two new ones run, five not passing.
  const doc = gated(toolTestsFailedShape(), toolTestsOnlyPassedShape())

  test('regressed, new and not passing, by id; the document stays valid', () => {
    expect(doc.changes?.tool_tests).toEqual({
      regressed: [
        { id: 'unknown-city-refused', status: 'failed' },
        { id: 'intro-page', status: 'failed' }
      ],
      new_failing: [
        { id: 'weather-json', status: 'failed' },
        { id: 'search-flaky', status: 'failed' },
        { id: 'crash', status: 'error' }
      ],
      fixed: []
    })
    expect(validate(doc)).toBe(true)
  })

  test('the comment names them under what changed, after the failing tests themselves', () => {
    const body = renderComment(doc, CONTEXT)
    const line = '**Tool tests:** **2 regressed** (passed in the baseline): `unknown-city-refused`, `intro-page` · 3 new and not passing: `weather-json`, `search-flaky`, `crash`'
    expect(body).toContain(line)
    expect(body.indexOf('#### Tool tests — ✗ 5 of 6 did not pass')).toBeLessThan(body.indexOf(line))
    expect(renderMarkdownReport(doc)).toContain(line)
  })

  test('fixed the other way round; a side whose tool tests did not run compares nothing', () => {
    expect(gated(toolTestsOnlyPassedShape(), toolTestsFailedShape()).changes?.tool_tests).toEqual({ regressed: [], new_failing: [], fixed: ['unknown-city-refused', 'intro-page'] })
    const skipped: ResultsDocument = { ...toolTestsOnlyPassedShape(), tool_tests: { ...toolTestsOnlyPassedShape().tool_tests!, status: 'skipped', reason: 'off', tests: [] } }
    expect(gated(toolTestsFailedShape(), skipped).changes?.tool_tests).toBeNull()
  })

  test('runs that passed and tool tests that failed: the tool tests first, then what changed', () => {
    const doc = gated(mixedShape(), { ...passedShape(), tool_tests: toolTestsOnlyPassedShape().tool_tests })
    expect(doc.passed).toBe(false)
    const body = renderComment(doc, CONTEXT)
    expect(body).toContain('**Tool tests:** 0 regressed · 2 new and not passing: `weather-json`, `search-flaky`')
    // Every run passed: the tool tests are the one failing layer, and their section says so first.
    expect(body).not.toContain('Did not pass')
    expect(body.indexOf('#### Tool tests — ✗ 2 of 5 did not pass')).toBeLessThan(body.indexOf('#### What changed since the baseline'))
  })
})

describe('budgets against the baseline', () => {
  const now = telemetryShape()
  // The same evaluation, where every budget held.
  const held: ResultsDocument = { ...now, telemetry: now.telemetry && { ...now.telemetry, budgets: now.telemetry.budgets.map((b) => ({ ...b, passed: true })) } }

  test('a budget that held in the baseline and fails now is listed with its reason; one failing in both is not news', () => {
    const changes = compareWithBaseline(now, now.gate!, { document: held, source: 'b.json' })
    expect(changes.budgets?.map((b) => [b.budget, b.subject, b.baseline])).toEqual([
      ['max_cost_usd', null, 'passed'],
      ['tools.max_p95_ms', 'get_weather', 'passed']
    ])
    expect(compareWithBaseline(now, now.gate!, { document: now, source: 'b.json' }).budgets).toEqual([])
    const body = renderComment({ ...now, changes }, CONTEXT)
    expect(body).toContain('**Budgets:** **2 budgets fail now** that did not in the baseline')
    expect(body).toContain("- `tools.max_p95_ms` · `get_weather` (held in the baseline) — tool 'get\\_weather': p95 latency 1,240 ms is over its max\\_p95\\_ms \\(800 ms\\)")
    expect(validate({ ...now, changes })).toBe(true)
  })

  test('a trend budget is a comparison with this baseline already: not listed again', () => {
    const gate = { ...now.gate!, trends: now.gate!.trends.map((t) => ({ ...t, passed: false })) }
    expect(compareWithBaseline({ ...now, gate }, gate, { document: now, source: 'b.json' }).budgets).toEqual([])
  })

  test('a budget the baseline did not check is new', () => {
    const unset: ResultsDocument = { ...now, telemetry: now.telemetry && { ...now.telemetry, budgets: [] } }
    expect(compareWithBaseline(now, now.gate!, { document: unset, source: 'b.json' }).budgets?.map((b) => b.baseline)).toEqual([null, null])
  })
})
