import { describe, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { assembleDocument } from '../src/aggregate/document.js'
import { applyGate } from '../src/execute/baseline.js'
import { renderMarkdownReport } from '../src/report/markdown.js'
import { formatSummaryLine } from '../src/report/progress.js'
import type { ResultsDocument, ShardSection } from '../src/results/types.js'
import { upgradeDocument } from '../src/aggregate/upgrade-document.js'

/** The golden results document, read as the report reads a saved one. */
const golden = (): ResultsDocument => upgradeDocument(JSON.parse(readFileSync(new URL('../__fixtures__/golden/results.json', import.meta.url), 'utf8')))!

const shardSection = (over: Partial<ShardSection> = {}): ShardSection => ({
  index: 2,
  count: 4,
  planned_total: 40,
  groups_total: 12,
  groups: 3,
  suite_hash: 'abc',
  planned: 10,
  cases: [],
  tool_tests_plan: null,
  overhead: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  ...over
})

/** The golden document's parts, assembled again as one shard's. */
function asShard(doc: ResultsDocument, shard: ShardSection | null, over: { cancelled?: boolean } = {}): ResultsDocument {
  return assembleDocument({
    started_at: doc.started_at,
    duration_s: doc.duration_s,
    config: doc.config!,
    cases: [],
    behaviour: doc.behaviour,
    conformance: null,
    tool_tests: null,
    runs: doc.runs,
    overhead: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    cache: null,
    cancelled: over.cancelled ? { signal: 'SIGINT', at: doc.started_at, planned: doc.runs.length + 1, finished: doc.runs.length } : null,
    journal: { path: 'eval-runs.shard-2-of-4.jsonl', reused: 0, missing: 0 },
    shard
  })
}

describe("a shard's document", () => {
  test('passes when it ran completely, whatever its runs did; the same runs unsharded fail', () => {
    const doc = golden()
    expect(doc.runs.some((r) => r.status !== 'passed')).toBe(true)
    expect(asShard(doc, null).passed).toBe(false)
    expect(asShard(doc, shardSection()).passed).toBe(true)
    expect(asShard(doc, shardSection(), { cancelled: true }).passed).toBe(false)
  })

  test('gets no gate, even with a baseline', () => {
    const doc = asShard(golden(), shardSection())
    const gated = applyGate(doc, { mode: 'both', max_drop: 0, baseline: '' })
    expect(gated).toBe(doc)
    expect(gated.gate).toBeNull()
    expect(applyGate(asShard(golden(), null), { mode: 'absolute', max_drop: 0, baseline: '' }).gate).not.toBeNull()
  })

  test("the report says which shard it is, its share, and that the merge gives the verdict", () => {
    const doc = asShard(golden(), shardSection())
    const report = renderMarkdownReport(doc)
    const { passed, total, failed, errored } = doc.summary
    expect(report).toContain(`> **◐ Shard 2 of 4** — ${passed}/${total} runs passed (`)
    expect(report).toContain('; no verdict: the merge of the shards gives it')
    expect(report).toContain('_Shard 2 of 4: 10 of 40 planned runs (3 of 12 groups); conformance and the tool tests run in shard 1. No gate here')
    expect(report).not.toMatch(/\*\*✗ Failed\*\*|All \d+ evals passed/)
    expect(renderMarkdownReport(asShard(golden(), shardSection({ index: 1 })))).toContain('conformance and the tool tests ran here')
    expect(formatSummaryLine(doc)).toMatch(new RegExp(`^SHARD 2/4 DONE \\(no verdict until merged\\): ${passed}/${total} passed .*${failed} failed, ${errored} errored`))
  })

  test('an unsharded report says nothing of shards', () => {
    const report = renderMarkdownReport(golden())
    expect(report).not.toMatch(/[Ss]hard/)
    expect(formatSummaryLine(golden())).toMatch(/^(PASSED|FAILED): /)
  })
})
