import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoBrain } from '../examples/demo-model/brain.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { pullRequestEnv, startFakeGitHub } from '../__fixtures__/fake-github.js'
import { startScriptedLlm, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import type { ResultsDocument } from '../src/results/types.js'

// Black-box tests of the committed bundles, run as GitHub (or a user) runs them.
const root = fixturePath('..')
const haveDist = existsSync(join(root, 'dist/index.js')) && existsSync(join(root, 'dist/cli/index.js'))
const describeDist = haveDist ? describe : describe.skip

async function runNode(args: string[], env: Record<string, string>, cwd: string) {
  const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  const [code] = (await once(child, 'exit')) as [number]
  return { code, stdout, stderr }
}

/** The demo model on 127.0.0.1 for the tests of one describe block. */
function useDemoModel(): () => ScriptedLlm {
  let llm: ScriptedLlm
  beforeAll(async () => {
    llm = await startScriptedLlm(demoBrain)
  })
  afterAll(async () => llm.close())
  return () => llm
}

/** GITHUB_OUTPUT's `name<<delimiter` blocks, as a map. */
function readOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const re = /^(\w+)<<(ghadelimiter_[\w-]+)\n([\s\S]*?)\n\2$/gm
  for (const m of readFileSync(file, 'utf8').matchAll(re)) outputs[m[1]] = m[3]
  return outputs
}

describeDist('dist/index.js (the action)', () => {
  const demo = useDemoModel()

  function actionEnv(work: string, inputs: Record<string, string>) {
    writeFileSync(join(work, 'out'), '')
    writeFileSync(join(work, 'summary'), '')
    const env: Record<string, string> = { GITHUB_OUTPUT: join(work, 'out'), GITHUB_STEP_SUMMARY: join(work, 'summary'), RUNNER_TEMP: work }
    for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v
    return env
  }

  test('runs the bundled example end to end', async () => {
    const work = mkdtempSync(join(tmpdir(), 'action-'))
    const secret = 'server-secret-value-42'
    const { code, stdout } = await runNode(
      [join(root, 'dist/index.js')],
      actionEnv(work, {
        server_config: JSON.stringify({ command: 'node', args: [join(root, 'examples/server/server.mjs')], env: { API_TOKEN: secret } }),
        eval_cases: join(root, 'examples/eval_cases.yaml'),
        openrouter_api_key: 'sk-or-test-key',
        base_url: demo().url,
        filter: 'paris',
        models: 'openai/gpt-4o-mini',
        concurrency: '2',
        job_summary: 'true'
      }),
      work
    )
    expect(code).toBe(0)
    expect(stdout).toContain('::add-mask::server-secret-value-42')
    expect(stdout).toMatch(/\[\d\/2\] ✓ weather-paris · openai\/gpt-4o-mini · default — judge 87%, tools 1\/1/)
    expect(readOutputs(join(work, 'out'))).toEqual({
      results_json: 'eval-results.json',
      report_md: 'eval-report.md',
      report_html: 'eval-report.html',
      sarif: 'eval-results.sarif',
      passed: 'true',
      pass_rate: '1',
      tool_tests_total: '1',
      tool_tests_failed: '0',
      cost_usd: expect.stringMatching(/^0\.\d+$/),
      total: '2',
      failed: '0',
      junit_xml: 'eval-junit.xml',
      badge_json: 'eval-badge.json',
      cancelled: 'false',
      journal: 'eval-runs.jsonl',
      run_dirs: ''
    })
    const doc = JSON.parse(readFileSync(join(work, 'eval-results.json'), 'utf8')) as ResultsDocument
    expect(readOutputs(join(work, 'out')).cost_usd).toBe(String(doc.telemetry!.overall.spent_usd))
    expect(doc).toMatchObject({ version: 9, passed: true, summary: { total: 2, passed: 2 }, tool_tests: { total: 1, passed: 1 }, config: { models: ['openai/gpt-4o-mini'], filter: 'paris' } })
    expect(doc.runs.map((r) => [r.case_id, r.prompt_name])).toEqual([
      ['weather-paris', 'default'],
      ['weather-paris', 'terse']
    ])
    const report = readFileSync(join(work, 'eval-report.md'), 'utf8')
    expect(report).toContain('> **All 2 evals passed**')
    expect(readFileSync(join(work, 'summary'), 'utf8')).toContain('# Eval Report')
    // The HTML report: one page from the same redacted document.
    const html = readFileSync(join(work, 'eval-report.html'), 'utf8')
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html).not.toContain(secret)
  })

  test('html_report: false writes no HTML report and names none', async () => {
    const work = mkdtempSync(join(tmpdir(), 'action-'))
    const { code } = await runNode(
      [join(root, 'dist/index.js')],
      actionEnv(work, {
        server_config: JSON.stringify({ command: 'node', args: [join(root, 'examples/server/server.mjs')] }),
        eval_cases: join(root, 'examples/eval_cases.yaml'),
        openrouter_api_key: 'sk-or-test-key',
        base_url: demo().url,
        filter: 'paris',
        models: 'openai/gpt-4o-mini',
        html_report: 'false'
      }),
      work
    )
    expect(code).toBe(0)
    expect(existsSync(join(work, 'eval-report.html'))).toBe(false)
    expect(readOutputs(join(work, 'out')).report_html).toBeUndefined()
    expect(existsSync(join(work, 'eval-report.md'))).toBe(true)
  })

  test('bad configuration: clear error, outputs and a fallback report still written, exit 2', async () => {
    const work = mkdtempSync(join(tmpdir(), 'action-'))
    writeFileSync(join(work, 'evals.yaml'), 'system_prompts:\n  default: hi\ncases:\n  - id: a\n    promt: x\n    rubric: y\n')
    const { code, stdout } = await runNode(
      [join(root, 'dist/index.js')],
      actionEnv(work, { server_config: '{"command":"node"}', eval_cases: 'evals.yaml', openrouter_api_key: 'k', base_url: demo().url }),
      work
    )
    expect(code).toBe(2)
    expect(stdout).toContain("::error title=Invalid configuration,file=evals.yaml,line=5,col=5::evals.yaml:5:5 at cases[0].promt: unknown key 'promt' (did you mean 'prompt'?)")
    expect(stdout).toContain("::error title=Invalid configuration,file=evals.yaml,line=4,col=5::evals.yaml:4:5 at cases[0]: missing required key 'prompt'")
    expect(stdout).toContain('::error::Invalid configuration: see the errors above.')
    expect(readOutputs(join(work, 'out'))).toMatchObject({ passed: 'false', total: '0', results_json: 'eval-results.json' })
    expect(readFileSync(join(work, 'eval-report.md'), 'utf8')).toContain('**Evals failed to produce results.**')
    expect(JSON.parse(readFileSync(join(work, 'eval-results.json'), 'utf8')).fatal_error).toContain('promt')
  })

  test('a filter that selects no case, or no model to run, is an invalid configuration — never a green check', async () => {
    const work = mkdtempSync(join(tmpdir(), 'action-'))
    const inputs = {
      server_config: JSON.stringify({ command: 'node', args: [join(root, 'examples/server/server.mjs')] }),
      eval_cases: join(root, 'examples/eval_cases.yaml'),
      openrouter_api_key: 'k',
      base_url: demo().url
    }
    const filtered = await runNode([join(root, 'dist/index.js')], actionEnv(work, { ...inputs, filter: 'tokio' }), work)
    expect(filtered.code).toBe(2)
    expect(filtered.stdout).toContain("::error::input 'filter': 'tokio' matches no case id and no tool test id (case-sensitive substring); the ids are: weather-paris, convert-eur-usd, tokyo-timezone, sydney-trip, greeting, weather-then-hotel, weather-outage, attractions-attack-exfiltrate, attractions-attack-markdown-image, weather-paris-direct")
    expect(readOutputs(join(work, 'out'))).toMatchObject({ passed: 'false', total: '0', pass_rate: '' })
    for (const file of ['eval-report.md', 'summary']) {
      const text = readFileSync(join(work, file), 'utf8')
      expect(text).toContain('> **✗ Invalid configuration** — nothing was evaluated')
      expect(text).not.toContain('All 0 evals passed')
    }
    const noModels = await runNode([join(root, 'dist/index.js')], { ...actionEnv(work, inputs), EVAL_MODELS: ',' }, work)
    expect(noModels.code).toBe(2)
    expect(noModels.stdout).toContain('no model to evaluate: the models input, EVAL_MODELS and the YAML')
    // Conformance alone was asked for: that is not "nothing".
    const conformanceOnly = await runNode([join(root, 'dist/index.js')], { ...actionEnv(work, { ...inputs, conformance: 'only' }), EVAL_MODELS: ',' }, work)
    expect(conformanceOnly.code).toBe(0)
    expect(readOutputs(join(work, 'out'))).toMatchObject({ passed: 'true', total: '0', pass_rate: '' })
  })

  test('no API key (a pull request from a fork): conformance alone, behaviour skipped with one clear line', async () => {
    const work = mkdtempSync(join(tmpdir(), 'action-'))
    const { code, stdout } = await runNode(
      [join(root, 'dist/index.js')],
      actionEnv(work, {
        server_config: JSON.stringify({ command: 'node', args: [join(root, 'examples/server/server.mjs')] }),
        eval_cases: join(root, 'examples/eval_cases.yaml'),
        openrouter_api_key: ''
      }),
      work
    )
    expect(code).toBe(0)
    expect(stdout).toContain('::notice title=MCP Server Evals::Behaviour evals skipped: no API key')
    const tally = /Conformance: modern server \(2026-07-28\) over stdio — (\d+ checks: \d+ passed(, \d+ warnings?)?, \d+ skipped) \(/.exec(stdout)?.[1]
    expect(readOutputs(join(work, 'out'))).toMatchObject({ passed: 'true', total: '0' })
    const doc = JSON.parse(readFileSync(join(work, 'eval-results.json'), 'utf8')) as ResultsDocument
    expect(doc).toMatchObject({ behaviour: { status: 'skipped' }, conformance: { era: 'modern', passed: true, fail_on: 'error' } })
    const report = readFileSync(join(work, 'eval-report.md'), 'utf8')
    expect(report).toContain('## Protocol conformance — ✓ passed')
    // The log's tally is the report's: both count the checks observed on the tool tests' calls.
    expect(tally).toBeDefined()
    expect(report).toContain(` · ${tally} · `)
    expect(report).toContain('## Behaviour evals — skipped')
  })

  test('a conformance failure fails the step, naming the check; conformance_fail_on: never does not', async () => {
    const work = mkdtempSync(join(tmpdir(), 'action-'))
    const inputs = {
      server_config: JSON.stringify({ command: 'node', args: [fixturePath('servers/conformance-server.mjs')], env: { DEFECT: 'missing-ttl' } }),
      eval_cases: join(root, 'examples/eval_cases.yaml'),
      conformance: 'only'
    }
    const failing = await runNode([join(root, 'dist/index.js')], actionEnv(work, inputs), work)
    expect(failing.code).toBe(1)
    expect(failing.stdout).toContain('::error::protocol conformance failed (list-cache-fields)')
    const lenient = await runNode([join(root, 'dist/index.js')], actionEnv(work, { ...inputs, conformance_fail_on: 'never' }), work)
    expect(lenient.code).toBe(0)
  })

  test('a missing API key with conformance off is an error naming the input (exit 2)', async () => {
    const work = mkdtempSync(join(tmpdir(), 'action-'))
    const { code, stdout } = await runNode([join(root, 'dist/index.js')], actionEnv(work, { server_config: '{"command":"node"}', eval_cases: 'e.yaml', conformance: 'off', tool_tests: 'off' }), work)
    expect(code).toBe(2)
    expect(stdout).toContain("::error::input 'openrouter_api_key': is required")
  })
})

describeDist('dist/index.js publishing to GitHub (fake REST API on 127.0.0.1)', () => {
  const demo = useDemoModel()

  async function runOnPullRequest(readOnly: boolean) {
    const api = await startFakeGitHub({ readOnly })
    const work = mkdtempSync(join(tmpdir(), 'action-pr-'))
    const env: Record<string, string> = {
      ...pullRequestEnv(work, api.url),
      INPUT_SERVER_CONFIG: JSON.stringify({ command: 'node', args: [join(root, 'examples/server/server.mjs')] }),
      INPUT_EVAL_CASES: join(root, 'examples/eval_cases.yaml'),
      INPUT_OPENROUTER_API_KEY: 'sk-or-test-key',
      INPUT_BASE_URL: demo().url,
      INPUT_FILTER: 'tokyo',
      INPUT_MODELS: 'openai/gpt-4o-mini',
      INPUT_GITHUB_TOKEN: 'ghs_fake_token_123'
    }
    const result = await runNode([join(root, 'dist/index.js')], env, work)
    await api.close()
    return { ...result, api, work }
  }

  test('a pull request gets one sticky comment, JUnit, badge and transcripts; no artifact service is a warning', async () => {
    const { code, stdout, api, work } = await runOnPullRequest(false)
    expect(code).toBe(0)
    expect(api.comments).toHaveLength(1)
    expect(api.comments[0].body).toContain('### MCP Server Evals — ✓ passed')
    expect(api.comments[0].body.endsWith('<!-- mcp-server-evals:sticky:MCP evals/evals -->')).toBe(true)
    expect(api.comments[0].body).toContain('[job summary](https://github.com/octo/server/actions/runs/42)')
    expect(stdout).toContain('::warning::The artifact service is not available here')
    // Masked (the runner hides it from then on), and never printed otherwise.
    expect(stdout.split('\n').filter((l) => l.includes('ghs_fake_token_123'))).toEqual(['::add-mask::ghs_fake_token_123'])
    const outputs = readOutputs(join(work, 'out'))
    expect(outputs).toMatchObject({ junit_xml: 'eval-junit.xml', badge_json: 'eval-badge.json', comment_url: api.comments[0].html_url })
    expect(readFileSync(join(work, 'eval-junit.xml'), 'utf8')).toContain('<testsuite name="behaviour" tests="2" failures="0" errors="0"')
    expect(JSON.parse(readFileSync(join(work, 'eval-badge.json'), 'utf8'))).toMatchObject({ schemaVersion: 1, message: '100% (2/2)', color: 'brightgreen' })
    expect(existsSync(join(work, 'eval-transcripts/001-tokyo-timezone-openai-gpt-4o-mini-default.json'))).toBe(true)
  })

  test('a read-only token (a fork) is one warning, and the step still passes', async () => {
    const { code, stdout, api } = await runOnPullRequest(true)
    expect(code).toBe(0)
    expect(api.comments).toHaveLength(0)
    expect(stdout).toContain('::warning::Could not write the PR comment (HTTP 403): the token cannot write comments here')
  })
})

describeDist('dist/cli/index.js (the CLI)', () => {
  const demo = useDemoModel()
  const exampleServer = JSON.stringify({ command: 'node', args: [join(root, 'examples/server/server.mjs')] })
  /** The CLI on the bundled example, with more flags. */
  const exampleCli = (...flags: string[]) => [join(root, 'dist/cli/index.js'), '--server-config', exampleServer, '--eval-cases', join(root, 'examples/eval_cases.yaml'), ...flags]

  test('eval-action’s flags plus ours; progress lines and a summary; exit 0', async () => {
    const work = mkdtempSync(join(tmpdir(), 'cli-'))
    const { code, stdout } = await runNode(
      exampleCli(
        '--filter',
        'tokyo',
        '--output',
        'out/results.json',
        '--report',
        'out/report.md',
        '--no-parallel',
        '--base-url',
        demo().url,
        '--models',
        'm/one'
      ),
      { OPENROUTER_API_KEY: 'k' },
      work
    )
    expect(code).toBe(0)
    expect(stdout.split('\n').filter((l) => l.startsWith('['))).toHaveLength(2)
    expect(stdout).toContain('2/2 runs passed (100%)')
    const doc = JSON.parse(readFileSync(join(work, 'out/results.json'), 'utf8')) as ResultsDocument
    expect(doc.config).toMatchObject({ concurrency: 1, filter: 'tokyo' })
    expect(existsSync(join(work, 'out/report.md'))).toBe(true)

    // A second run gated against the first: a delta gate, with what changed listed.
    const second = await runNode(
      exampleCli(
        '--filter',
        'paris',
        '--base-url',
        demo().url,
        '--models',
        'm/one',
        '--baseline',
        'out/results.json',
        '--conformance',
        'off'
      ),
      { OPENROUTER_API_KEY: 'k' },
      work
    )
    expect(second.code).toBe(0)
    const gated = JSON.parse(readFileSync(join(work, 'eval-results.json'), 'utf8')) as ResultsDocument
    expect(gated.gate).toMatchObject({ mode: 'delta', baseline: { source: 'out/results.json' }, passed: true, regressed: [] })
    expect(gated.gate?.removed).toHaveLength(2)
    expect(readFileSync(join(work, 'eval-report.md'), 'utf8')).toContain('**Gate: delta** against the baseline `out/results.json`')
  })

  test('a failing run exits 1; usage errors exit 2', async () => {
    const work = mkdtempSync(join(tmpdir(), 'cli-'))
    writeFileSync(join(work, 'e.yaml'), 'system_prompts: {d: x}\ncases:\n  - {id: a, prompt: "What is the weather in Atlantis?", rubric: r, required_tools: [get_weather]}\n')
    const failing = await runNode([join(root, 'dist/cli/index.js'), '--server-config', exampleServer, '--eval-cases', 'e.yaml', '--base-url', demo().url], {}, work)
    expect(failing.code).toBe(1)
    expect(failing.stdout).toContain('0/1 passed')
    const usage = await runNode([join(root, 'dist/cli/index.js'), '--bogus'], {}, work)
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain("Unknown option '--bogus'")
  })
})
