import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { journalHeader } from '../__fixtures__/journal.js'
import { golden } from '../__fixtures__/report-shapes.js'
import { renderNotDone } from '../src/execute/app-host.js'
import { documentFromJournal, JournalWriter, readJournal, type JournalHeader } from '../src/execute/journal.js'
import { resumeFrom } from '../src/execute/resume.js'
import type { RunSpec } from '../src/plan/expand.js'
import type { AppRender, RunResult, ToolTestResult } from '../src/results/types.js'

// The apps section through the run journal: written as the engine writes it, read back from the
// file, the document built again gives the same section; a resumed attempt keeps the browser its
// reused runs' views were rendered in.

const BROWSER = { path: '/usr/bin/chromium', version: 'Chromium 150', source: 'search' as const }
const doc = golden()
const TOOL = { name: 'show_weather', inputSchema: {}, ui: { resource_uri: 'ui://weather/view.html', visibility: null } }

function rendered(id: string, failed: boolean): AppRender {
  return {
    ...renderNotDone({ id, tool: TOOL, call_index: 1 }, 'error', ''),
    status: 'rendered',
    reason: null,
    screenshot: `apps/${id}.png`,
    findings: [
      { id: 'app-initializes', status: 'passed', message: 'initialized in 40 ms', evidence: [] },
      { id: 'app-no-errors', status: failed ? 'failed' : 'passed', message: failed ? 'the view threw: TypeError' : 'no errors', evidence: [] }
    ]
  }
}

const run = (): RunResult => ({ ...doc.runs[0]!, app_renders: [rendered('run-1.call-1', true)] })
const toolTest = (): ToolTestResult => ({
  id: 'weather-view',
  tags: [],
  status: 'passed',
  passed: true,
  runs: 1,
  duration_ms: 10,
  attempts: [
    {
      attempt: 1,
      status: 'passed',
      error: null,
      stderr_tail: null,
      duration_ms: 10,
      steps: [
        {
          index: 1,
          tool: 'show_weather',
          args: {},
          latency_ms: 3,
          response: { kind: 'result', is_error: false, content: [], structured_content: null },
          checks: [],
          captured: {},
          passed: true,
          observed: { calls: 1, findings: [] },
          app: rendered('tool-test.weather-view.1.step-1', false)
        }
      ]
    }
  ]
})

function header(apps: boolean): JournalHeader {
  return {
    ...journalHeader(1, { config: doc.config!, cases: [] }),
    tool_tests: { status: 'ran', reason: null, snapshot_dir: '__snapshots__', ids: ['weather-view'] },
    ...(apps ? { apps: { visual_diff: 'fail' as const, visual_threshold: 0.03 } } : {})
  }
}

describe('the apps section through the journal', () => {
  test('read back from the file, the document has the same section, counting the tool tests’ and the runs’ renders', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'apps-journal-')), 'eval-runs.jsonl')
    const writer = new JournalWriter(path, header(true), [], [])
    writer.append({ type: 'apps', status: 'ran', reason: null, browser: BROWSER })
    writer.append({ type: 'run', run: run() })
    writer.append({ type: 'tool_test', test: toolTest() })
    writer.close()
    const live = documentFromJournal(writer.state)
    expect(live.apps).toEqual({
      status: 'ran',
      reason: null,
      browser: BROWSER,
      visual_diff: 'fail',
      visual_threshold: 0.03,
      renders: 2,
      failed: 1,
      findings: { 'app-initializes': { passed: 2 }, 'app-no-errors': { passed: 1, failed: 1 } }
    })
    const { state, lines } = readJournal(path)
    expect(lines).toEqual([])
    expect(documentFromJournal(state).apps).toEqual(live.apps)
    expect(documentFromJournal(state).tool_tests!.tests[0]!.attempts[0]!.steps[0]!.app).toEqual(toolTest().attempts[0]!.steps[0]!.app)
  })

  test('a journal without apps settings gives a document without the key; a damaged apps line is skipped, naming its field', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'apps-journal-')), 'eval-runs.jsonl')
    const writer = new JournalWriter(path, header(false), [], [])
    writer.append({ type: 'tool_test', test: toolTest() })
    writer.close()
    expect(documentFromJournal(readJournal(path).state)).not.toHaveProperty('apps')

    const damaged = join(mkdtempSync(join(tmpdir(), 'apps-journal-')), 'eval-runs.jsonl')
    const w = new JournalWriter(damaged, header(true), [], [])
    w.append({ type: 'apps', status: 'ran', reason: null, browser: { ...BROWSER, source: 'somewhere' as never } })
    w.close()
    const read = readJournal(damaged)
    expect(read.lines).toEqual([{ line: 2, why: 'apps.browser is not a browser (path, version, source) or null' }])
    // Never opened, as far as the journal can tell.
    expect(documentFromJournal(read.state).apps).toMatchObject({ status: 'skipped', browser: null })
    expect(readFileSync(damaged, 'utf8').split('\n')[0]).toContain('"apps":{"visual_diff":"fail","visual_threshold":0.03}')
  })

  test('--resume: the browser the reused runs were rendered in comes along; none when the reused runs rendered nothing', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'apps-resume-')), 'eval-runs.jsonl')
    const writer = new JournalWriter(path, header(true), [], [])
    writer.append({ type: 'apps', status: 'ran', reason: null, browser: BROWSER })
    writer.append({ type: 'run', run: run() })
    writer.close()
    const r = run()
    const plan = [{ case: { id: r.case_id }, model: r.model, prompt_name: r.prompt_name, attempt: r.attempt, index: 3 }] as unknown as RunSpec[]
    const resumed = resumeFrom(path, 'abc', plan, () => undefined)
    expect(resumed.runs.map((x) => [x.case_id, x.index, x.app_renders?.length])).toEqual([[r.case_id, 3, 1]])
    expect(resumed.apps).toEqual({ status: 'ran', reason: null, browser: BROWSER })

    const plain = join(mkdtempSync(join(tmpdir(), 'apps-resume-')), 'eval-runs.jsonl')
    const w = new JournalWriter(plain, header(true), [], [])
    w.append({ type: 'apps', status: 'ran', reason: null, browser: BROWSER })
    w.append({ type: 'run', run: doc.runs[0]! })
    w.close()
    expect(resumeFrom(plain, 'abc', plan, () => undefined)).toMatchObject({ runs: [{ index: 3 }], apps: null })
  })
})
