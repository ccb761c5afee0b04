import { afterAll, beforeEach, describe, expect, test } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { failedWithBaselineShape, golden } from '../__fixtures__/report-shapes.js'
import { summarize } from '../src/aggregate/summarize.js'
import { main } from '../src/cli/main.js'
import { ConfigError } from '../src/config/errors.js'
import { resolveOptions } from '../src/config/options.js'
import { prepare, withoutFloatNoise } from '../src/evaluate.js'
import type { ResultsDocument } from '../src/results/types.js'

const root = resolve(fixturePath('..'))
const SERVER = JSON.stringify({ command: process.execPath, args: [join(root, 'examples/server/server.mjs')] })
const CASES = join(root, 'examples/eval_cases.yaml')

async function cli(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = []
  const err: string[] = []
  const code = await main(argv, env, { stdout: { isTTY: false, write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) } })
  return { code, stdout: out.join(''), stderr: err.join('') }
}

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
      new ConfigError("'tokio' matches no case id (case-sensitive substring); the ids are: weather-paris, convert-eur-usd, tokyo-timezone, sydney-trip, greeting", { input: 'filter' })
    )
    expect(() => prepare(actionOptions('tokyo'), {})).not.toThrow()
  })

  test('no model (EVAL_MODELS=",") fails unless only conformance was asked for', () => {
    expect(() => prepare(actionOptions(''), { EVAL_MODELS: ',' })).toThrow(/no model to evaluate: the models input, EVAL_MODELS and the YAML's models give an empty list/)
    expect(() => prepare(actionOptions('', 'only'), { EVAL_MODELS: ',' })).not.toThrow()
  })

  test('the CLI names its flag, exits 2 and writes nothing', async () => {
    const { code, stderr } = await cli(['--server-config', SERVER, '--eval-cases', CASES, '--api-key', 'k', '--filter', 'tokio'])
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
    const { code, stdout } = await cli(['report', '--from', 'now.json', '--baseline', 'old.json', '--comment', 'comment.md', '--report', 'report.md'])
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
    const { code } = await cli(['report', '--from', 'doc.json', '--output', 'copy.json'])
    expect(code).toBe(1)
    expect(JSON.parse(readFileSync('copy.json', 'utf8')).gate).toEqual(golden().gate)
    expect(readFileSync('eval-report.md', 'utf8')).toContain('# Eval Report')
  })

  test('JSON that is not a results document is a clear error, exit 2', async () => {
    writeFileSync('x.json', '{"hello": 1}')
    const { code, stderr } = await cli(['report', '--from', 'x.json'])
    expect(code).toBe(2)
    expect(stderr).toContain('error: --from x.json is JSON but not a version 1 results document')
  })
})
