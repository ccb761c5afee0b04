import { afterAll, beforeEach, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../__fixtures__/cli.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { golden, resilienceShape } from '../__fixtures__/report-shapes.js'
import { documentFromJournal, readJournal } from '../src/execute/journal.js'
import { upgradeDocument } from '../src/aggregate/upgrade-document.js'
import { escapeRegExp, sliceChars } from '../src/util/text.js'
import { asVersion } from '../__fixtures__/older-documents.js'

// The Layer 2 glue: --sarif on both commands, and documents and journals from before Layer 2.
const startDir = process.cwd()
beforeEach(() => process.chdir(mkdtempSync(join(tmpdir(), 'layer2-glue-'))))
afterAll(() => process.chdir(startDir))

interface Sarif {
  version: string
  runs: { results: { ruleId: string; level: string }[] }[]
}
const sarifAt = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Sarif

describe('--sarif', () => {
  test('the run writes the conformance findings there, the poisoned description among them', async () => {
    writeFileSync('evals.yaml', 'system_prompts: {d: x}\ncases:\n  - {id: c, prompt: p, rubric: r}\n')
    const server = JSON.stringify({ command: process.execPath, args: [fixturePath('servers/security-server.mjs'), 'POISONED=1'] })
    const { code } = await runCli(['--server-config', server, '--eval-cases', 'evals.yaml', '--conformance', 'only', '--sarif', 'out/evals.sarif'])
    expect(code).toBe(0)
    const results = sarifAt('out/evals.sarif').runs[0].results
    expect(results).toContainEqual(expect.objectContaining({ ruleId: 'tool-description-poisoning', level: 'warning' }))
  })

  test('report --from writes it from a saved document, the succeeded attacks as errors', async () => {
    writeFileSync('doc.json', JSON.stringify(resilienceShape()))
    const { code } = await runCli(['report', '--from', 'doc.json', '--sarif', 'again.sarif'])
    expect(code).toBe(1)
    const log = sarifAt('again.sarif')
    expect(log.version).toBe('2.1.0')
    expect(log.runs[0].results.filter((r) => r.ruleId.startsWith('attack/')).map((r) => r.level)).toEqual(['error'])
  })
})

describe('from before Layer 2', () => {
  test('a version 3 document reads with no Layer 2 on its runs, summary, config and changes', () => {
    const v3 = asVersion(golden(), 3)
    v3.changes = { conformance: null, tools: { added: [], removed: [], changed: [] }, cost_usd: { baseline: null, current: null }, median_run_s: { baseline: null, current: null }, regressions: [] }
    const doc = upgradeDocument(v3)!
    expect(doc.version).toBe(9)
    expect(doc.summary.resilience).toBeNull()
    expect(doc.config?.resilience_floors).toEqual({ min_recovery_rate: null, min_attack_resistance: null })
    expect(doc.runs.every((r) => r.recovery === null && r.answer_check === null && r.security === null)).toBe(true)
    expect(doc.changes).toMatchObject({ resilience: null, tools: { renamed: [] } })
  })

  test('a journal written before Layer 2 (cases and runs without its fields) still becomes a document', () => {
    const doc = golden()
    const cases = [{ id: doc.runs[0].case_id, prompt: 'p', rubric: 'r', threshold: 0.7, required_tools: [], golden: null, runs: 1, kind: 'soft', tags: [] }]
    const header = { type: 'header', version: 1, suite_hash: 'x', started_at: doc.started_at, planned: 1, reused: 0, config: doc.config, cases, behaviour: { status: 'ran', reason: null }, gate: { mode: null, max_drop: 0.02, baseline: '' } }
    const { recovery: _r, answer_check: _a, security: _s, ...oldRun } = doc.runs[0]
    writeFileSync('old.jsonl', `${JSON.stringify(header)}\n${JSON.stringify({ type: 'run', run: { ...oldRun, index: 1 } })}\n`)
    const again = documentFromJournal(readJournal('old.jsonl').state)
    expect(again.runs[0]).toMatchObject({ recovery: null, answer_check: null, security: null })
    expect(again.summary.resilience).toBeNull()
  })
})

describe('text helpers Layer 2 shares', () => {
  test('sliceChars never leaves half an emoji at either edge', () => {
    const text = 'a😀b😀c'
    expect(sliceChars(text, 0, 2)).toBe('a')
    expect(sliceChars(text, 2, 7)).toBe('b😀c')
    expect(sliceChars(text, 0, 3)).toBe('a😀')
  })

  test('escapeRegExp matches the text literally', () => {
    expect(new RegExp(escapeRegExp('a.b*c(d)[e]\\f')).test('a.b*c(d)[e]\\f')).toBe(true)
    expect(new RegExp(escapeRegExp('a.b')).test('axb')).toBe(false)
  })
})
