import { describe, expect, test } from '@jest/globals'
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { documentFromJournal, JournalError, JournalWriter, readJournal, reusableRuns } from '../src/execute/journal.js'
import type { ResultsDocument, RunResult } from '../src/results/types.js'
import { journalHeader } from '../__fixtures__/journal.js'

const golden = JSON.parse(readFileSync(fixturePath('golden/results.json'), 'utf8')) as ResultsDocument
const run = (index: number, status: RunResult['status'], extra: Partial<RunResult> = {}): RunResult => ({ ...golden.runs[0], index, attempt: 1, case_id: `case-${index}`, status, success: status === 'passed', ...extra })

const header = (planned: number) => journalHeader(planned, { config: golden.config!, cases: [] })

describe('the run journal', () => {
  test('each record is one line on disk the moment it is appended, secrets redacted', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'journal-')), 'eval-runs.jsonl')
    const writer = new JournalWriter(path, header(2), [], ['hunter2-secret'])
    writer.append({ type: 'run', run: run(1, 'passed', { final_output: 'the password is hunter2-secret' }) })
    // Not closed, not ended: what a SIGKILL leaves behind.
    const lines = readFileSync(path, 'utf8').trim().split('\n')
    expect(lines.map((l) => (JSON.parse(l) as { type: string }).type)).toEqual(['header', 'run'])
    expect(lines[1]).toContain('the password is ***')
    const { state, skipped } = readJournal(path)
    expect(skipped).toBe(0)
    const doc = documentFromJournal(state)
    expect(doc).toMatchObject({ passed: false, journal: { path, reused: 0, missing: 1 }, summary: { total: 1, passed: 1 } })
    writer.close()
  })

  test('a line cut short by a crash, or garbage, is skipped and counted; the last record of a run wins', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'journal-')), 'eval-runs.jsonl')
    const writer = new JournalWriter(path, header(3), [], [])
    writer.append({ type: 'run', run: run(1, 'error') })
    writer.append({ type: 'run', run: run(1, 'passed') })
    writer.append({ type: 'run', run: run(2, 'failed') })
    writer.close()
    appendFileSync(path, 'not json\n{"type":"run","run":{"case_id":"x"}}\n{"type":"run","run":{"case_id":"case-3","mod')
    const { state, skipped } = readJournal(path)
    expect(skipped).toBe(3)
    expect([...state.runs.values()].map((r) => [r.case_id, r.status])).toEqual([
      ['case-1', 'passed'],
      ['case-2', 'failed']
    ])
    expect(documentFromJournal(state).journal).toMatchObject({ missing: 1 })
  })

  test('a resumed attempt reuses judged runs; errored and cancelled runs run again', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'journal-')), 'eval-runs.jsonl')
    const writer = new JournalWriter(path, header(4), [], [])
    for (const [i, status] of (['passed', 'failed', 'error', 'cancelled'] as const).entries()) writer.append({ type: 'run', run: run(i + 1, status) })
    writer.close()
    const reused = reusableRuns(readJournal(path).state)
    expect(reused.map((r) => r.status)).toEqual(['passed', 'failed'])
    // The new attempt's journal starts with the header and the reused runs, replacing the old one whole.
    const next = new JournalWriter(path, header(4), reused, [])
    next.close()
    const { state } = readJournal(path)
    expect(state.header.reused).toBe(2)
    expect(documentFromJournal(state).journal).toMatchObject({ reused: 2, missing: 2 })
  })

  test('a journal from before tool tests (no observed on runs, no tool_tests in the header) still gives a document of this version', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'journal-')), 'eval-runs.jsonl')
    const { observed: _observed, ...old } = run(1, 'passed')
    writeFileSync(path, `${JSON.stringify(header(1))}\n${JSON.stringify({ type: 'run', run: old })}\n`)
    const doc = documentFromJournal(readJournal(path).state)
    expect(doc.runs[0].observed).toEqual({ calls: 0, findings: [] })
    expect(doc.tool_tests).toBeNull()
    expect(reusableRuns(readJournal(path).state)[0].observed).toEqual({ calls: 0, findings: [] })
  })

  test('a file that is not a journal is a JournalError naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'journal-'))
    writeFileSync(join(dir, 'x.jsonl'), '{"type":"run"}\n')
    expect(() => readJournal(join(dir, 'x.jsonl'))).toThrow(JournalError)
    expect(() => readJournal(join(dir, 'x.jsonl'))).toThrow(/x\.jsonl is not a run journal of version 1: it has no header line/)
    expect(() => readJournal(join(dir, 'missing.jsonl'))).toThrow(/cannot read the run journal .*missing\.jsonl: ENOENT/)
  })
})
