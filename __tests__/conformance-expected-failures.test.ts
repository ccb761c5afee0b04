import { afterAll, afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { runCli } from '../__fixtures__/cli.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { ConfigError, ConfigErrors } from '../src/config/errors.js'
import { parseExpectedFailures, type ExpectedFailuresFile } from '../src/config/expected-failures.js'
import { failed, passed, skipped } from '../src/conformance/checks/common.js'
import { applyExpectedFailures, describeEntry } from '../src/conformance/expected-failures.js'
import { conformancePassed } from '../src/conformance/run.js'
import type { Exchange } from '../src/conformance/wire-types.js'
import { checkTally } from '../src/report/conformance.js'
import { failureReason } from '../src/report/progress.js'
import type { CheckResult, ConformanceSection, ResultsDocument } from '../src/results/types.js'

// conformance_expected_failures: the file parsed (every problem with its line), applied to the
// checks (expected, stale, not-run, unknown), and end to end through the CLI and the action
// against the conformance fixture with a seeded DEFECT.

const FIXTURE = fixturePath('servers/conformance-server.mjs')
const root = fixturePath('..')

/** ConfigErrors' messages, one a line; or the one ConfigError's. */
function problems(text: string, file = 'xf.yml'): string[] {
  try {
    parseExpectedFailures(text, file)
  } catch (error) {
    if (error instanceof ConfigErrors) return error.errors.map((e) => e.message)
    if (error instanceof ConfigError) return [error.message]
    throw error
  }
  throw new Error('parsed without a problem')
}

describe('the file', () => {
  test('a list of entries, comments allowed, each with its line', () => {
    const parsed = parseExpectedFailures('# known\n- unknown-tool-error   # -32601 for now\n\n- wire-schema-valid:tools/call\n- http-get-delete-405:HTTP GET\n', 'xf.yml')
    expect(parsed).toEqual({
      file: 'xf.yml',
      notice: null,
      entries: [
        { entry: 'unknown-tool-error', line: 2, check: 'unknown-tool-error', method: null },
        { entry: 'wire-schema-valid:tools/call', line: 4, check: 'wire-schema-valid', method: 'tools/call' },
        { entry: 'http-get-delete-405:HTTP GET', line: 5, check: 'http-get-delete-405', method: 'HTTP GET' }
      ]
    })
  })

  test("the official suite's shape: the server: list, the client: list ignored with a notice", () => {
    const parsed = parseExpectedFailures('server:\n  - unknown-tool-error\n  - server-stateless\nclient:\n  - sse-retry\n  - auth/metadata-default\n', 'baseline.yml')
    expect(parsed.entries.map((e) => [e.entry, e.line])).toEqual([
      ['unknown-tool-error', 2],
      ['server-stateless', 3]
    ])
    expect(parsed.notice).toBe("baseline.yml: the client: list (2 entries) is for the official suite's client mode; ignored (this tool checks servers)")
  })

  test('an empty file lists nothing (said), a client-only file too', () => {
    expect(parseExpectedFailures('# nothing yet\n', 'xf.yml')).toEqual({ file: 'xf.yml', entries: [], notice: 'xf.yml lists no expected failures' })
    expect(parseExpectedFailures('client: [sse-retry]\n', 'xf.yml').entries).toEqual([])
  })

  test('every problem at once, each with the file, its line and what is wrong', () => {
    expect(problems('- unknown-tool-error: tools/call\n- \n- Unknown_Tool\n- unknown-tool-error:\n- 42\n- [a, b]\n- ok-id:\n')).toEqual([
      'xf.yml:1:3: `unknown-tool-error: tools/call` reads as a mapping; did you mean `unknown-tool-error:tools/call`? Remove the space after the colon',
      'xf.yml:2:3: this entry is empty; write a check id (`- check-id`) or remove the line',
      'xf.yml:3:3: `Unknown_Tool`: `Unknown_Tool` is not a check id (kebab-case, as the report prints it: `unknown-tool-error`)',
      'xf.yml:4:3: `unknown-tool-error:` has nothing after the colon; write `unknown-tool-error` for the whole check, or `unknown-tool-error:tools/call` for one method',
      'xf.yml:5:3: `42` is not a check id (kebab-case, as the report prints it)',
      'xf.yml:6:3: an entry is a string (`check-id` or `check-id:method`), not a list',
      'xf.yml:7:3: `ok-id:` has nothing after the colon; write `ok-id` for the whole check, or `ok-id:tools/call` for one method'
    ])
  })

  test('an entry twice, or a check whole and by method, is an error naming both lines', () => {
    expect(problems('- a-check\n- b-check\n- a-check\n')).toEqual(['xf.yml:3:3: `a-check` is listed twice (also on line 1); remove one'])
    expect(problems('- a-check:tools/call\n- a-check\n')).toEqual(['xf.yml:2:3: `a-check` expects the whole check to fail, so `a-check:tools/call` (line 1) is redundant; remove one or the other'])
  })

  test('an unknown key, a server: that is no list, a top level that is neither', () => {
    expect(problems('servers:\n  - a-check\n')).toEqual(['xf.yml:1:1: unknown key `servers`: the file holds a `server:` list (and the official suite\'s `client:` list, ignored here); did you mean `server`?'])
    expect(problems('server: a-check\n')).toEqual(['xf.yml:1:1: `server:` must be a list of entries (`- check-id` or `- check-id:method`)'])
    expect(problems('just-a-string\n')[0]).toMatch(/^xf\.yml:1:1: must be a list of check ids/)
    expect(problems('- [unclosed\n')[0]).toMatch(/^xf\.yml:\d+:\d+: invalid YAML/)
  })
})

// ——— Applied to checks ———

const SPEC = { id: 'unknown-tool-error', severity: 'error', spec: '§5 unknown tool → -32602' } as const
const WIRE = { id: 'wire-schema-valid', severity: 'error', spec: '§ schema' } as const
const exchange = (method: string): Exchange => ({ method, request: { jsonrpc: '2.0', id: 1, method }, response: { frame: { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'nope' } } } })

function section(checks: CheckResult[], file: ExpectedFailuresFile | null, extra: Partial<ConformanceSection> = {}): ConformanceSection {
  return {
    era: 'modern',
    negotiated_version: '2026-07-28',
    transport: 'stdio',
    server_info: null,
    duration_ms: 1,
    checks,
    migration: [],
    error: null,
    unreachable: null,
    tools: null,
    fail_on: 'error',
    passed: false,
    ...(file ? { expected_failures: { file: file.file, entries: file.entries.map((e) => ({ ...e, outcome: 'not-run' as const })) } } : {}),
    ...extra
  }
}
const file = (text: string) => parseExpectedFailures(text, 'xf.yml')
const outcomes = (s: ConformanceSection) => s.expected_failures!.entries.map((e) => `${e.entry}:${e.outcome}`)

describe('applied to the checks', () => {
  test('failed() names the method of its exchange, or the methods given', () => {
    expect(failed(SPEC, 'm', exchange('tools/call')).methods).toEqual(['tools/call'])
    expect(failed(WIRE, 'm', exchange('tools/call'), ['tools/call', 'resources/read', 'tools/call']).methods).toEqual(['tools/call', 'resources/read'])
    expect(failed(SPEC, 'm').methods).toBeUndefined()
    expect(passed(SPEC, 'm', exchange('tools/call')).methods).toBeUndefined()
  })

  test('a failing check listed whole is expected, and the gate passes', () => {
    const applied = applyExpectedFailures(section([failed(SPEC, 'got -32601', exchange('tools/call')), passed(WIRE, 'ok')], file('- unknown-tool-error\n')))
    expect(applied.checks[0]).toMatchObject({ id: 'unknown-tool-error', status: 'expected', expected_entry: 'unknown-tool-error', message: 'got -32601' })
    expect(outcomes(applied)).toEqual(['unknown-tool-error:expected'])
    expect(conformancePassed(applied, 'error')).toBe(true)
    expect(checkTally(applied)).toBe('2 checks: 1 passed, 1 expected failure')
  })

  test('a warning listed is expected too (the official suite counts warnings as failing)', () => {
    const warning = failed({ ...SPEC, severity: 'warning' }, 'isError result')
    const applied = applyExpectedFailures(section([warning], file('- unknown-tool-error\n')))
    expect(applied.checks[0].status).toBe('expected')
    expect(conformancePassed(applied, 'warning')).toBe(true)
  })

  test('check-id:method: expected only when every method it failed on is listed; else it says which was not', () => {
    const wire = failed(WIRE, 'a frame broke the schema', exchange('tools/call'), ['tools/call', 'resources/read'])
    const some = applyExpectedFailures(section([wire], file('- wire-schema-valid:tools/call\n')))
    expect(some.checks[0].status).toBe('fail')
    expect(some.checks[0].message).toBe('a frame broke the schema — not excused by the expected-failures file: it lists wire-schema-valid:tools/call, and this check also failed on resources/read')
    // The entry itself did fail as listed; the check stays failed for the other method.
    expect(outcomes(some)).toEqual(['wire-schema-valid:tools/call:expected'])
    expect(conformancePassed(some, 'error')).toBe(false)
    const all = applyExpectedFailures(section([wire], file('- wire-schema-valid:tools/call\n- wire-schema-valid:resources/read\n')))
    expect(all.checks[0]).toMatchObject({ status: 'expected', expected_entry: 'wire-schema-valid:tools/call, wire-schema-valid:resources/read', message: 'a frame broke the schema' })
    expect(conformancePassed(all, 'error')).toBe(true)
  })

  test('a check that names no method is not excused by a method entry, and says why', () => {
    const applied = applyExpectedFailures(section([failed(SPEC, 'bad')], file('- unknown-tool-error:tools/call\n')))
    expect(applied.checks[0]).toMatchObject({ status: 'fail', message: 'bad — not excused by the expected-failures file: it lists unknown-tool-error:tools/call, and this check names no method it failed on (list `unknown-tool-error` alone to expect it)' })
    expect(outcomes(applied)).toEqual(['unknown-tool-error:tools/call:stale'])
  })

  test('stale: the check passed, or did not fail on that method; it fails the gate, and says to remove the entry', () => {
    const applied = applyExpectedFailures(section([passed(SPEC, 'ok'), failed(WIRE, 'broke', exchange('resources/read'))], file('- unknown-tool-error\n- wire-schema-valid:tools/call\n- wire-schema-valid:resources/read\n')))
    expect(outcomes(applied)).toEqual(['unknown-tool-error:stale', 'wire-schema-valid:tools/call:stale', 'wire-schema-valid:resources/read:expected'])
    expect(conformancePassed(applied, 'error')).toBe(false)
    expect(conformancePassed(applied, 'never')).toBe(true)
    const [stale, byMethod] = applied.expected_failures!.entries
    expect(describeEntry(stale, applied.checks)).toBe('passed: remove the entry')
    expect(describeEntry(byMethod, applied.checks)).toBe('did not fail on tools/call (it failed on resources/read): remove the entry')
  })

  test('not-run: a skipped check, an official scenario, anything on a server that could not be probed', () => {
    const applied = applyExpectedFailures(section([skipped(SPEC, 'the server declares no tools')], file('- unknown-tool-error\n- server-stateless\n')))
    expect(outcomes(applied)).toEqual(['unknown-tool-error:not-run', 'server-stateless:not-run'])
    expect(conformancePassed(applied, 'error')).toBe(true)
    expect(applied.expected_failures!.entries.map((e) => describeEntry(e, applied.checks))).toEqual([
      'not run: the server declares no tools',
      'a scenario of the official suite, not a check of this tool: not run here'
    ])
    const unreachable = applyExpectedFailures(section([failed({ id: 'server-reachable', severity: 'error', spec: 'reachable' }, 'ENOENT')], file('- unknown-tool-error\n'), { era: 'unreachable', error: 'ENOENT' }))
    expect(outcomes(unreachable)).toEqual(['unknown-tool-error:not-run'])
  })

  test('unknown: no check has the id; it fails the gate, with a did-you-mean; an id known elsewhere (the catalog) is not-run', () => {
    const applied = applyExpectedFailures(section([passed(SPEC, 'ok')], file('- unknwon-tool-error\n')))
    expect(outcomes(applied)).toEqual(['unknwon-tool-error:unknown'])
    expect(conformancePassed(applied, 'error')).toBe(false)
    expect(describeEntry(applied.expected_failures!.entries[0], applied.checks)).toBe('no check has this id; did you mean unknown-tool-error? (an unknown entry fails the gate: it would excuse nothing)')
    expect(outcomes(applyExpectedFailures(section([passed(SPEC, 'ok')], file('- observed-output-schema\n')), ['observed-output-schema']))).toEqual(['observed-output-schema:not-run'])
  })

  test('applying again gives the same section (a document built again from its journal or its shards)', () => {
    const checks = [failed(SPEC, 'got -32601', exchange('tools/call')), failed(WIRE, 'broke', exchange('tools/call'), ['tools/call', 'resources/read'])]
    const once = applyExpectedFailures(section(checks, file('- unknown-tool-error\n- wire-schema-valid:tools/call\n')))
    expect(applyExpectedFailures(once)).toEqual(once)
    // A check that passes on the next run: the earlier `expected` does not stick.
    const next = applyExpectedFailures({ ...once, checks: [passed(SPEC, 'ok'), ...once.checks.slice(1)] })
    expect(outcomes(next)).toEqual(['unknown-tool-error:stale', 'wire-schema-valid:tools/call:expected'])
  })

  test('without a file, nothing changes', () => {
    const plain = section([failed(SPEC, 'bad')], null)
    expect(applyExpectedFailures(plain)).toBe(plain)
  })
})

// ——— End to end ———

const startDir = process.cwd()
let work: string
const running: ChildProcess[] = []
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'xfail-test-'))
  process.chdir(work)
})
afterEach(() => {
  for (const child of running.splice(0)) child.kill()
})
afterAll(() => process.chdir(startDir))

const stdioServer = (defect = '') => JSON.stringify({ command: process.execPath, args: [FIXTURE], env: { DEFECT: defect } })
const readDoc = () => JSON.parse(readFileSync('eval-results.json', 'utf8')) as ResultsDocument
const cli = (server: string, extra: string[] = []) =>
  runCli(['--server-config', server, '--conformance', 'only', '--conformance-expected-failures', 'xf.yml', '--junit', 'junit.xml', '--sarif', 'results.sarif', ...extra], {})

describe('through the CLI, against the conformance fixture', () => {
  test('a seeded defect the file lists: expected, the gate passes (exit 0), every format says so', async () => {
    writeFileSync('xf.yml', '# our known failures\nserver:\n  - unknown-tool-error:tools/call   # -32601 until the next release\n')
    const { code, stdout } = await cli(stdioServer('unknown-tool-code'))
    expect(code).toBe(0)
    const doc = readDoc()
    expect(doc.passed).toBe(true)
    expect(doc.conformance!.checks.find((c) => c.id === 'unknown-tool-error')).toMatchObject({ status: 'expected', methods: ['tools/call'], expected_entry: 'unknown-tool-error:tools/call' })
    expect(doc.conformance!.expected_failures).toEqual({ file: 'xf.yml', entries: [{ entry: 'unknown-tool-error:tools/call', line: 3, check: 'unknown-tool-error', method: 'tools/call', outcome: 'expected' }] })
    expect(stdout).toMatch(/Conformance: modern server \(2026-07-28\) over stdio — \d+ checks: \d+ passed, 1 expected failure, \d+ skipped/)
    expect(stdout).toContain('  ⊖ unknown-tool-error: expected failure (unknown-tool-error:tools/call): calling an unknown tool got error -32601')
    expect(stdout).toContain('  Expected failures (xf.yml): 1 entry: 1 expected')
    const report = readFileSync('eval-report.md', 'utf8')
    expect(report).toContain('## Protocol conformance — ✓ passed')
    expect(report).toContain('### Expected failures — `xf.yml`')
    expect(report).toContain('- ⊖ <code>unknown-tool-error:tools/call</code> (xf\\.yml:3) — expected: failed on tools/call, as listed')
    const junit = readFileSync('junit.xml', 'utf8')
    expect(junit).toMatch(/<testcase classname="conformance" name="unknown-tool-error" time="0">\n {6}<skipped message="expected failure \(unknown-tool-error:tools\/call in xf\.yml\): calling an unknown tool got error -32601/)
    const sarif = JSON.parse(readFileSync('results.sarif', 'utf8')) as { runs: { results: { ruleId: string; level: string; message: { text: string } }[] }[] }
    expect(sarif.runs[0].results.map((r) => [r.ruleId, r.level])).toEqual([['unknown-tool-error', 'note']])
    expect(sarif.runs[0].results[0].message.text).toMatch(/^Expected failure \(listed as unknown-tool-error:tools\/call\): /)
  })

  test('unlisted, the same defect fails the run (exit 1)', async () => {
    writeFileSync('xf.yml', '- tools-list-deterministic-order\n')
    const { code } = await cli(stdioServer('unknown-tool-code,shuffled-order'))
    expect(code).toBe(1)
    const doc = readDoc()
    expect(doc.conformance!.checks.find((c) => c.id === 'unknown-tool-error')?.status).toBe('fail')
    expect(doc.conformance!.expected_failures!.entries.map((e) => e.outcome)).toEqual(['expected'])
  })

  test('a stale entry (the check passes now) and an unknown one fail the run (exit 1), saying to remove them, with file:line', async () => {
    writeFileSync('xf.yml', '- unknown-tool-error\n- unknwon-tool-error\n- server-stateless\n')
    const { code, stdout } = await cli(stdioServer())
    expect(code).toBe(1)
    const doc = readDoc()
    expect(doc.passed).toBe(false)
    expect(doc.conformance!.passed).toBe(false)
    expect(doc.conformance!.expected_failures!.entries.map((e) => [e.entry, e.line, e.outcome])).toEqual([
      ['unknown-tool-error', 1, 'stale'],
      ['unknwon-tool-error', 2, 'unknown'],
      ['server-stateless', 3, 'not-run']
    ])
    expect(stdout).toContain('  ✗ xf.yml:1: unknown-tool-error is stale: passed: remove the entry')
    expect(stdout).toContain('  ✗ xf.yml:2: unknwon-tool-error is unknown: no check has this id; did you mean unknown-tool-error?')
    expect(failureReason(doc)).toBe('protocol conformance failed (stale expected-failures entry unknown-tool-error (xf.yml:1), unknown expected-failures entry unknwon-tool-error (xf.yml:2))')
    const report = readFileSync('eval-report.md', 'utf8')
    expect(report).toContain('## Protocol conformance — ✗ failed')
    expect(report).toContain('- ✗ <code>unknown-tool-error</code> (xf\\.yml:1) — **stale**: passed: remove the entry')
    const junit = readFileSync('junit.xml', 'utf8')
    expect(junit).toContain('<testcase classname="conformance" name="expected failure unknown-tool-error" time="0">\n      <failure message="xf.yml:1: unknown-tool-error is stale: passed: remove the entry" type="expected-failures-stale">')
  })

  test('a bad file is a configuration error naming the file, the line and what is wrong (exit 2), nothing written', async () => {
    writeFileSync('xf.yml', 'server:\n  - unknown-tool-error\n  - wire-schema-valid: tools/call\n')
    const { code, stderr } = await cli(stdioServer())
    expect(code).toBe(2)
    expect(stderr).toBe('error: --conformance-expected-failures xf.yml:3:5: `wire-schema-valid: tools/call` reads as a mapping; did you mean `wire-schema-valid:tools/call`? Remove the space after the colon\n')
    expect(existsSync('eval-results.json')).toBe(false)
    const missing = await runCli(['--server-config', stdioServer(), '--conformance', 'only', '--conformance-expected-failures', 'nope.yml'], {})
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/^error: --conformance-expected-failures nope\.yml: cannot read the expected-failures file: ENOENT/)
  })

  test('with conformance off, the file is not read, and a warning says so', async () => {
    writeFileSync('xf.yml', '- unknown-tool-error\n')
    const example = JSON.stringify({ command: process.execPath, args: [join(root, 'examples/server/server.mjs')] })
    const { code, stderr } = await runCli(['--server-config', example, '--eval-cases', join(root, 'examples/eval_cases.yaml'), '--conformance', 'off', '--only-tool-tests', '--filter', 'weather-paris-direct', '--conformance-expected-failures', 'xf.yml'], {})
    expect(code).toBe(0)
    expect(stderr).toContain('warning: xf.yml: the expected failures are not read: conformance is off\n')
    expect(readDoc().conformance).toBeNull()
  })

  test('--conformance only needs no suite, with or without the file', async () => {
    writeFileSync('xf.yml', '[]\n')
    const { code, stdout } = await runCli(['--server-config', stdioServer(), '--conformance', 'only', '--conformance-expected-failures', 'xf.yml'], {})
    expect(code).toBe(0)
    expect(stdout.split('\n')[0]).toBe('Behaviour evals skipped: --conformance only was given.')
  })
})

// ——— The action ———

async function httpFixture(defect: string): Promise<string> {
  const child = spawn(process.execPath, [FIXTURE, '--http'], { env: { ...process.env, DEFECT: defect } })
  running.push(child)
  const [url] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string]
  return url
}

/** The action (the sources, through tsx) in `cwd` with INPUT_* set; its outputs from GITHUB_OUTPUT. */
async function runAction(cwd: string, inputs: Record<string, string>) {
  const runner = join(cwd, 'runner')
  mkdirSync(runner, { recursive: true })
  writeFileSync(join(runner, 'out'), '')
  writeFileSync(join(runner, 'summary'), '')
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', GITHUB_OUTPUT: join(runner, 'out'), GITHUB_STEP_SUMMARY: join(runner, 'summary'), RUNNER_TEMP: runner, GITHUB_EVENT_NAME: 'push' }
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value
  const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'src/index.ts')], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  child.stdout.on('data', (d: Buffer) => (log += d.toString()))
  child.stderr.on('data', (d: Buffer) => (log += d.toString()))
  const [code] = (await once(child, 'exit')) as [number | null]
  const outputs: Record<string, string> = {}
  for (const m of readFileSync(join(runner, 'out'), 'utf8').matchAll(/^(\w+)<<(ghadelimiter_[\w-]+)\n([\s\S]*?)\n\2$/gm)) outputs[m[1]] = m[3]
  return { code, log, outputs }
}

describe('through the action (INPUT_*), over HTTP, conformance: only and no eval_cases', () => {
  const inputs = (url: string) => ({ server_url: url, conformance: 'only', conformance_expected_failures: 'xf.yml', upload_artifact: 'false', save_baseline: 'never', comment: 'false' })

  test('a listed failure passes the step; the same file on the clean server is stale and fails it', async () => {
    writeFileSync('xf.yml', 'server:\n  - http-no-session-id\nclient:\n  - sse-retry\n')
    const listed = await runAction(work, inputs(await httpFixture('mints-session')))
    expect(listed.log).toContain("the client: list (1 entry) is for the official suite's client mode; ignored")
    expect(listed.outputs.passed).toBe('true')
    expect(listed.code).toBe(0)
    const doc = readDoc()
    expect(doc.conformance!.transport).toBe('http')
    expect(doc.conformance!.checks.find((c) => c.id === 'http-no-session-id')?.status).toBe('expected')
    expect(readFileSync(join(work, 'runner', 'summary'), 'utf8')).toContain('### Expected failures')

    const stale = await runAction(work, inputs(await httpFixture('')))
    expect(stale.outputs.passed).toBe('false')
    expect(stale.code).toBe(1)
    expect(stale.log).toContain('protocol conformance failed (stale expected-failures entry http-no-session-id (xf.yml:2))')
    expect(readDoc().conformance!.expected_failures!.entries.map((e) => e.outcome)).toEqual(['stale'])
  })

  test('a bad file fails the step before anything runs, naming the input, the file and the line', async () => {
    writeFileSync('xf.yml', '- http-no-session-id\n- http-no-session-id\n')
    const { code, log } = await runAction(work, inputs('http://127.0.0.1:9/mcp'))
    expect(code).not.toBe(0)
    expect(log).toContain("input 'conformance_expected_failures' xf.yml:2:3: `http-no-session-id` is listed twice (also on line 1); remove one")
  })
})
