import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, truncateSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { journalHeader } from '../__fixtures__/journal.js'
import { documentFromJournal, JournalWriter, readJournal } from '../src/execute/journal.js'
import { emptyUsage } from '../src/llm/chat.js'
import type { ResultsDocument, RunResult } from '../src/results/types.js'

const golden = JSON.parse(readFileSync(fixturePath('golden/results.json'), 'utf8')) as ResultsDocument
const run = (index: number, status: RunResult['status'], extra: Partial<RunResult> = {}): RunResult => ({ ...golden.runs[0], index, attempt: 1, case_id: `case-${index}`, status, success: status === 'passed', ...extra })
const header = (planned: number) => journalHeader(planned, { config: golden.config!, cases: [] })
const journalPath = () => join(mkdtempSync(join(tmpdir(), 'journal-disk-')), 'eval-runs.jsonl')

describe('finished runs live in the journal file, read back for the document', () => {
  test('the state at the end holds every run the file holds, as readJournal reads them, the reused ones and the last of each run', () => {
    const path = journalPath()
    const writer = new JournalWriter(path, header(4), [run(1, 'passed')], ['hunter2-secret'])
    writer.append({ type: 'run', run: run(2, 'error') })
    writer.append({ type: 'run', run: run(3, 'failed', { final_output: 'hunter2-secret, again' }) })
    writer.append({ type: 'run', run: run(2, 'passed') })
    writer.append({ type: 'end', duration_s: 1, overhead: emptyUsage(), cache: null, cancelled: null })
    writer.close()
    const { state } = writer
    expect([...state.runs.keys()].sort()).toEqual([...readJournal(path).state.runs.keys()].sort())
    expect(new Map(state.runs)).toEqual(readJournal(path).state.runs)
    expect(state.runs.get([...state.runs.keys()].find((k) => k.includes('case-2'))!)?.status).toBe('passed')
    expect(JSON.stringify([...state.runs.values()])).not.toContain('hunter2-secret')
    expect(documentFromJournal(state)).toEqual(documentFromJournal(readJournal(path).state))
  })

  test('asked for before the end (not closed): every run so far, and the runs after it too', () => {
    const path = journalPath()
    const writer = new JournalWriter(path, header(2), [], [])
    writer.append({ type: 'run', run: run(1, 'passed') })
    expect(writer.state.runs.size).toBe(1)
    writer.append({ type: 'run', run: run(2, 'passed') })
    writer.close()
    expect(writer.state.runs.size).toBe(2)
    expect(documentFromJournal(writer.state).journal).toMatchObject({ missing: 0 })
  })

  test('a journal with no file keeps its runs in memory', () => {
    const writer = new JournalWriter(null, header(2), [run(1, 'passed')], [])
    writer.append({ type: 'run', run: run(2, 'failed') })
    writer.close()
    expect([...writer.state.runs.values()].map((r) => r.status)).toEqual(['passed', 'failed'])
  })

  test('a file cut short meanwhile: the runs it lost are said once and counted as missing, never passed', () => {
    const path = journalPath()
    const warnings: string[] = []
    const writer = new JournalWriter(path, header(2), [], [], (message) => warnings.push(message))
    writer.append({ type: 'run', run: run(1, 'passed') })
    writer.append({ type: 'run', run: run(2, 'passed') })
    // Someone else's doing: only the header and the first run are left.
    const lines = readFileSync(path, 'utf8').split('\n')
    truncateSync(path, Buffer.byteLength(`${lines[0]}\n${lines[1]}\n`))
    writer.close()
    expect(writer.state.runs.size).toBe(1)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/Cannot read 1 finished run back from the run journal .*case-2/)
    expect(documentFromJournal(writer.state)).toMatchObject({ passed: false, journal: { missing: 1 } })
  })
})
