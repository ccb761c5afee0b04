import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { evaluateGate } from '../src/aggregate/gate.js'
import { loadBaseline } from '../src/execute/baseline.js'
import { shouldSaveBaseline } from '../src/github/cache.js'
import type { GroupResult, MetricSet, ResultsDocument } from '../src/results/types.js'

function group(case_id: string, success: boolean): GroupResult {
  return { case_id, model: 'm', prompt_name: 'p', kind: 'soft', tags: [], runs: 1, passed: success ? 1 : 0, errored: 0, cancelled: 0, pass_rate: success ? 1 : 0, floor: 0.8, success, run_indexes: [1] }
}
function doc(groups: GroupResult[], overall: Partial<MetricSet> = {}): ResultsDocument {
  const passed = groups.filter((g) => g.success).length
  return {
    version: 1,
    started_at: '2026-11-29T10:00:00.000Z',
    groups,
    summary: { total: groups.length, pass_rate: groups.length ? passed / groups.length : 1 },
    metrics: { overall: { runs: groups.length, tool_selection_accuracy: 1, over_trigger_rate: 0, ...overall }, by_model: {}, by_prompt: {}, by_tag: {} }
  } as unknown as ResultsDocument
}

describe('evaluateGate', () => {
  const baseline = doc([group('a', true), group('b', false), group('c', true), group('gone', true)])

  test('a regression, a fix, a new case and a removed case against the baseline', () => {
    const current = doc([group('a', false), group('b', true), group('c', true), group('new', true)])
    const gate = evaluateGate(current, { document: baseline, source: 'baseline.json' }, null, 0.02)
    expect(gate).toMatchObject({
      mode: 'delta',
      regressed: ['a · m · p'],
      fixed: ['b · m · p'],
      added: ['new · m · p'],
      removed: ['gone · m · p'],
      passed: false
    })
    expect(gate.reasons).toContain('delta: 1 group went from passing to failing')
  })

  test('a group short only because the budget skipped its runs is neither a regression nor below its floor; a failed run still is', () => {
    const skippedOnly = { ...group('a', false), run_indexes: [1] }
    const failedToo = { ...group('c', false), run_indexes: [2, 3], runs: 2 }
    const current = {
      ...doc([skippedOnly, { ...group('b', false), run_indexes: [4] }, failedToo]),
      runs: [{ index: 1, status: 'skipped' }, { index: 2, status: 'skipped' }, { index: 3, status: 'failed' }, { index: 4, status: 'failed' }]
    } as unknown as ResultsDocument
    const gate = evaluateGate(current, { document: baseline, source: 'baseline.json' }, 'both', 0.02)
    expect(gate.regressed).toEqual(['c · m · p'])
    expect(gate.reasons).toContain('delta: 1 group went from passing to failing')
    expect(gate.reasons).toContain('2 of 3 groups below their pass floor')
  })

  test('delta: a group that failed before too is no regression; a metric drop beyond max_drop is', () => {
    const same = doc([group('a', true), group('b', false), group('c', true), group('gone', true)])
    expect(evaluateGate(same, { document: baseline, source: 'b.json' }, null, 0.02).passed).toBe(true)
    const worse = doc([group('a', true), group('b', false), group('c', true), group('gone', true)], { tool_selection_accuracy: 0.9, over_trigger_rate: 0.05 })
    const gate = evaluateGate(worse, { document: baseline, source: 'b.json' }, 'delta', 0.02)
    expect(gate.reasons).toEqual([
      'delta: tool_selection_accuracy fell from 100% to 90% (-10 pt, more than the allowed 2 pt)',
      'delta: over_trigger_rate rose from 0% to 5% (+5 pt, more than the allowed 2 pt)'
    ])
    // A drop within max_drop passes.
    expect(evaluateGate(worse, { document: baseline, source: 'b.json' }, 'delta', 0.1).passed).toBe(true)
  })

  test('absolute and both gate on the floors too; without a baseline the floors decide and it says so', () => {
    const current = doc([group('a', true), group('b', false), group('c', true), group('gone', true)])
    expect(evaluateGate(current, { document: baseline, source: 'b.json' }, 'absolute', 0.02).reasons).toEqual(['1 of 4 evals did not pass'])
    expect(evaluateGate(current, { document: baseline, source: 'b.json' }, 'both', 0.02).passed).toBe(false)
    const alone = evaluateGate(current, null, 'delta', 0.02)
    expect(alone).toMatchObject({ mode: 'delta', baseline: null, note: 'no baseline: the pass floors decide', passed: false })
    expect(evaluateGate(doc([group('a', true)]), null, null, 0.02)).toMatchObject({ mode: 'absolute', note: 'no baseline: the pass floors decide', passed: true })
  })
})

describe('shouldSaveBaseline', () => {
  test.each([
    ['auto', true, 'refs/heads/main', 'main', true],
    ['auto', true, 'refs/pull/7/merge', 'main', false],
    ['auto', true, 'refs/heads/main', undefined, false],
    ['auto', false, 'refs/heads/main', 'main', false],
    ['always', true, 'refs/pull/7/merge', 'main', true],
    ['always', false, 'refs/heads/main', 'main', false],
    ['never', true, 'refs/heads/main', 'main', false]
  ] as const)('%s, passed %s, %s (default %s) → %s', (when, passed, ref, branch, expected) => {
    expect(shouldSaveBaseline(when, passed, ref, branch)).toBe(expected)
  })
})

describe('loadBaseline', () => {
  test('"auto" outside the action is a warning, not a file name', () => {
    const warnings: string[] = []
    expect(loadBaseline('auto', (w) => warnings.push(w))).toBeNull()
    expect(warnings[0]).toContain('only the action has')
  })

  test('a missing or foreign file is a warning and no baseline', () => {
    const warnings: string[] = []
    expect(loadBaseline('nope.json', (w) => warnings.push(w))).toBeNull()
    const dir = mkdtempSync(join(tmpdir(), 'baseline-'))
    writeFileSync(join(dir, 'old.json'), '[{"case_id": "eval-action array"}]')
    expect(loadBaseline(join(dir, 'old.json'), (w) => warnings.push(w))).toBeNull()
    expect(warnings).toHaveLength(2)
    expect(warnings[1]).toContain('not a results document of version 1, 2, 3, 4, 5, 6, 7, 8 or 9')
    expect(loadBaseline('')).toBeNull()
  })
})
