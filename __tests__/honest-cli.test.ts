import { afterAll, beforeEach, describe, expect, test } from '@jest/globals'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { runCli } from '../__fixtures__/cli.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { failedWithBaselineShape, golden } from '../__fixtures__/report-shapes.js'
import { compareWithBaseline } from '../src/aggregate/changes.js'
import { summarize } from '../src/aggregate/summarize.js'
import { describeResponse } from '../src/conformance/checks/common.js'
import { verdictHeadline } from '../src/report/headline.js'
import { count, points, pointsChange, pointsDelta, relativeChange, relativeDelta, seconds } from '../src/util/words.js'
import { ConfigError } from '../src/config/errors.js'
import { resolveOptions } from '../src/config/options.js'
import { prepare } from '../src/config/prepare.js'
import { withoutFloatNoise, writeResults } from '../src/output/write-results.js'
import type { ResultsDocument } from '../src/results/types.js'

const root = resolve(fixturePath('..'))
const SERVER = JSON.stringify({ command: process.execPath, args: [join(root, 'examples/server/server.mjs')] })
const CASES = join(root, 'examples/eval_cases.yaml')


const startDir = process.cwd()
beforeEach(() => process.chdir(mkdtempSync(join(tmpdir(), 'honest-'))))
afterAll(() => process.chdir(startDir))

const actionOptions = (filter: string, conformance = 'auto') =>
  resolveOptions({
    serverConfig: { value: SERVER, name: 'server_config' },
    evalCases: { value: CASES, name: 'eval_cases' },
    apiKey: { value: 'k', name: 'openrouter_api_key' },
    filter: { value: filter, name: 'filter' },
    maxSteps: { value: '', name: 'max_steps' },
    parallel: { value: '', name: 'parallel' },
    concurrency: { value: '', name: 'concurrency' },
    baseUrl: { value: 'http://127.0.0.1:9/v1', name: 'base_url' },
    judgeModel: { value: '', name: 'judge_model' },
    models: { value: '', name: 'models' },
    timeoutSeconds: { value: '', name: 'timeout_seconds' },
    conformance: { value: conformance, name: 'conformance' }
  })

describe('an evaluation that would run nothing is an error', () => {
  test('a filter that selects no case names the filter and lists the case ids', () => {
    expect(() => prepare(actionOptions('tokio'), {})).toThrow(
      new ConfigError(
        "'tokio' matches no case id and no tool test id (case-sensitive substring); the ids are: weather-paris, convert-eur-usd, tokyo-timezone, sydney-trip, greeting, weather-then-hotel, weather-outage, attractions-attack-exfiltrate, attractions-attack-markdown-image, weather-paris-direct, convert-250-eur, unknown-city-is-refused, city-then-timezone, two-days-in-tokyo",
        { input: 'filter' }
      )
    )
    expect(() => prepare(actionOptions('tokyo'), {})).not.toThrow()
  })

  test('no model (EVAL_MODELS=",") fails unless only conformance was asked for', () => {
    expect(() => prepare(actionOptions(''), { EVAL_MODELS: ',' })).toThrow(/no model to evaluate: the models input, EVAL_MODELS and the YAML's models give an empty list/)
    expect(() => prepare(actionOptions('', 'only'), { EVAL_MODELS: ',' })).not.toThrow()
  })

  test('the CLI names its flag, exits 2 and writes nothing', async () => {
    const { code, stderr } = await runCli(['--server-config', SERVER, '--eval-cases', CASES, '--api-key', 'k', '--filter', 'tokio'])
    expect(code).toBe(2)
    expect(stderr).toContain("error: --filter: 'tokio' matches no case id")
    expect(existsSync('eval-results.json')).toBe(false)
    expect(existsSync('eval-report.md')).toBe(false)
  })
})

describe('numbers that do not lie', () => {
  test('pass_rate is null when nothing ran', () => {
    expect(summarize([], []).pass_rate).toBeNull()
  })

  test('float noise is rounded where the document is written; small costs keep their digits', () => {
    expect(withoutFloatNoise({ score: 8.7 / 10, cost: 0.0000012345, n: 3, list: [0.1 + 0.2] })).toEqual({ score: 0.87, cost: 0.0000012345, n: 3, list: [0.3] })
  })
})

describe('report --from eval-results.json [--baseline old.json]', () => {
  test('re-renders the report and the comment with "What changed", and keeps its input', async () => {
    const current = failedWithBaselineShape()
    const ungated: ResultsDocument = { ...current, gate: null, changes: null }
    const baseline: ResultsDocument = { ...golden(), runs: golden().runs.map((r) => ({ ...r, status: 'passed', success: true })) }
    baseline.groups = baseline.groups.map((g) => ({ ...g, passed: g.runs, pass_rate: 1, success: true }))
    writeFileSync('now.json', JSON.stringify(ungated))
    writeFileSync('old.json', JSON.stringify(baseline))
    const { code, stdout } = await runCli(['report', '--from', 'now.json', '--baseline', 'old.json', '--comment', 'comment.md', '--report', 'report.md'])
    expect(code).toBe(1)
    expect(stdout).toContain('Report:  report.md')
    expect(stdout).not.toContain('Results:')
    expect(readFileSync('now.json', 'utf8')).toBe(JSON.stringify(ungated))
    const comment = readFileSync('comment.md', 'utf8')
    expect(comment).toContain('#### What changed since the baseline')
    expect(comment).toContain('Baseline: `old.json`')
    expect(comment).toContain('**Groups:** **2 regressed**')
    expect(readFileSync('report.md', 'utf8')).toContain('## What changed since the baseline')
  })

  test('without a baseline it renders the document as it is', async () => {
    writeFileSync('doc.json', JSON.stringify(golden()))
    const { code } = await runCli(['report', '--from', 'doc.json', '--output', 'copy.json'])
    expect(code).toBe(1)
    expect(JSON.parse(readFileSync('copy.json', 'utf8')).gate).toEqual(golden().gate)
    expect(readFileSync('eval-report.md', 'utf8')).toContain('# Eval Report')
  })

  test('JSON that is not a results document is a clear error, exit 2', async () => {
    writeFileSync('x.json', '{"hello": 1}')
    const { code, stderr } = await runCli(['report', '--from', 'x.json'])
    expect(code).toBe(2)
    expect(stderr).toContain('error: --from x.json is JSON but neither a results document (eval-results.json, version 1, 2, 3, 4, 5, 6, 7, 8 or 9) nor a run journal')
  })
})

describe('review: what a hostile or old document cannot do', () => {
  test('a suite with no cases is an error, not "0/0 passed"', async () => {
    writeFileSync('empty.yaml', 'system_prompts: {d: x}\ncases: []\n')
    const { code, stderr } = await runCli(['--server-config', SERVER, '--eval-cases', 'empty.yaml', '--api-key', 'k'])
    expect(code).toBe(2)
    expect(stderr).toContain('has no cases and no tool tests: nothing would be evaluated')
  })

  test('a cut of a regressed answer never halves a secret: the document keeps it whole, redaction sees it', () => {
    const secret = 'sk-SUPERSECRET-0123456789'
    const shape = failedWithBaselineShape()
    const long = `${'x'.repeat(1990)}${secret} and more`
    // The regressed group's failing run answers with a secret across character 2000.
    const runs = shape.runs.map((r) => (r.case_id === 'convert' && r.model === 'openai/gpt-4o-mini' ? { ...r, final_output: long } : r))
    const current = { ...shape, runs }
    const doc: ResultsDocument = { ...current, changes: compareWithBaseline(current, shape.gate!, { document: shape, source: 'b.json' }) }
    expect(doc.changes?.regressions[0].current?.final_output).toBe(long)
    const { results, report } = writeResults(doc, { resultsPath: 'r.json', reportPath: 'r.md' }, [secret])
    for (const text of [results, report]) expect(text).not.toContain('sk-SUPERSE')
  })

  test('re-gating a results document: --max-drop is checked, --gate keeps the recorded baseline', async () => {
    const current = failedWithBaselineShape()
    writeFileSync('old.json', JSON.stringify(golden()))
    writeFileSync('now.json', JSON.stringify({ ...current, gate: current.gate && { ...current.gate, baseline: { source: 'old.json', started_at: golden().started_at } } }))
    expect((await runCli(['report', '--from', 'now.json', '--max-drop', 'banana'])).stderr).toContain("--max-drop: must be a number from 0 to 1, got 'banana'")
    expect((await runCli(['report', '--from', 'now.json', '--gate', 'both', '--output', 'out.json'])).code).toBe(1)
    const out = JSON.parse(readFileSync('out.json', 'utf8')) as ResultsDocument
    expect(out.gate).toMatchObject({ mode: 'both', baseline: { source: 'old.json' } })
    expect(out.changes).not.toBeNull()
  })

  test('a version 1 document is still read, as a baseline and by report --from', async () => {
    const v1 = { ...golden(), version: 1, changes: undefined, summary: { ...golden().summary } }
    writeFileSync('v1.json', JSON.stringify(v1))
    const { code, stderr } = await runCli(['report', '--from', 'v1.json', '--baseline', 'v1.json', '--output', 'v2.json'])
    expect(stderr).not.toContain('No baseline')
    expect(code).toBe(1)
    expect(JSON.parse(readFileSync('v2.json', 'utf8'))).toMatchObject({ version: 9, gate: { baseline: { source: 'v1.json' } }, changes: { regressions: [] } })
  })

  test('report: an unknown flag gets "did you mean"', async () => {
    const { code, stderr } = await runCli(['report', '--baselin', 'x'])
    expect(code).toBe(2)
    expect(stderr).toContain("Unknown option '--baselin'; did you mean --baseline?")
  })
})

describe('words a reviewer reads', () => {
  test('seconds: tenths below 10 s, "<0.1s" for a measured instant, "—" only when not measured', () => {
    expect([seconds(0), seconds(0.04), seconds(0.44), seconds(12.6), seconds(null), seconds(-1)]).toEqual(['<0.1s', '<0.1s', '0.4s', '13s', '—', '—'])
  })

  test('plurals, points and relative changes', () => {
    expect([count(1, 'check'), count(2, 'check'), count(1, 'miss', 'misses'), count(1200, 'token')]).toEqual(['1 check', '2 checks', '1 miss', '1,200 tokens'])
    expect([pointsDelta(0.025), pointsDelta(-0.1), pointsDelta(0), points(0.02)]).toEqual(['▲ +2.5 pt, better', '▼ −10 pt, worse', 'unchanged', '2 pt'])
    expect([relativeDelta(10, 12.5), relativeDelta(0, 0), relativeDelta(0, 1)]).toEqual(['▲ +25%', 'unchanged', 'new'])
  })

  test('one rule for changes: the arrow is the direction of the number, the word says better or worse, and what the display cannot show is unchanged', () => {
    // Lower is better: a fall is ▼ and better, a rise ▲ and worse; the arrow never flips with the meaning.
    expect(relativeChange(0.2, 0.15, 'lower').text).toBe('▼ −25%, better')
    expect(relativeChange(0.0126, 0.0154, 'lower')).toEqual({ text: '▲ +22.2%, worse', moved: true, worse: true })
    expect(pointsChange(0.5, 0.4, 'lower')).toEqual({ text: '▼ −10 pt, better', moved: true, worse: false })
    expect(pointsChange(1, 0.625)).toEqual({ text: '▼ −37.5 pt, worse', moved: true, worse: true })
    // "0.2s → 0.2s" is not a change, whatever the ratio behind it.
    expect(relativeChange(0.2, 0.15, 'lower', seconds)).toEqual({ text: 'unchanged', moved: false, worse: null })
    expect(relativeChange(0.2, 0.3, 'lower', seconds).text).toBe('▲ +50%, worse')
    // Under the precision of a percentage with one decimal: unchanged.
    expect(pointsChange(0.5, 0.50004).moved).toBe(false)
    // A figure that only informs has no word.
    expect(relativeChange(100, 90, null).text).toBe('▼ −10%')
    expect(relativeChange(0, 3, 'lower')).toEqual({ text: 'new', moved: true, worse: true })
  })

  test('"HTTP 200 with a result", not "HTTP 200 a result"', () => {
    const exchange = (response: object) => ({ method: 'tools/list', request: {}, response }) as Parameters<typeof describeResponse>[0]
    expect(describeResponse(exchange({ status: 200, frame: { jsonrpc: '2.0', id: 1, result: {} } }))).toBe('HTTP 200 with a result')
    expect(describeResponse(exchange({ status: 400, frame: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } } }))).toBe('HTTP 400 with error -32602 (bad)')
    expect(describeResponse(exchange({ frame: { jsonrpc: '2.0', id: 1, result: { isError: true } } }))).toBe('a result (isError: true)')
  })

  test('a run that passed within its floors says so, and a pass with failures is not "all passed"', () => {
    const doc = passedShapeWith({ passed: 3, failed: 1 })
    expect(verdictHeadline(doc)).toBe('**✓ Passed** — 3/4 runs passed (1 failed), within the pass floors')
  })
})

describe('the job’s cancel signal', () => {
  test('dozens of listeners at once (runs waiting for the judge) are the design: no MaxListeners warning', async () => {
    // In a real process (NODE_NO_WARNINGS, set for jest, would hide it): Node prints the warning past 10 listeners.
    const script = `import { watchSignals } from ${JSON.stringify(join(root, 'src/execute/cancellation.ts'))}
const watch = watchSignals()
for (let i = 0; i < 40; i++) watch.signal.addEventListener('abort', () => undefined)
setImmediate(() => watch.dispose())`
    const child = spawn(join(root, 'node_modules/.bin/tsx'), ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: process.env.PATH, HOME: process.env.HOME } })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const [code] = (await once(child, 'exit')) as [number]
    expect(code).toBe(0)
    expect(stderr).not.toContain('MaxListenersExceededWarning')
  })
})

function passedShapeWith(counts: { passed: number; failed: number }): ResultsDocument {
  const doc = golden()
  return { ...doc, passed: true, summary: { ...doc.summary, total: counts.passed + counts.failed, passed: counts.passed, failed: counts.failed, errored: 0, cancelled: 0 } }
}
