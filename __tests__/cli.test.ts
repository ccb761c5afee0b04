import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { runCli, runCliProcess } from '../__fixtures__/cli.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { startScriptedLlm, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { demoBrain } from '../examples/demo-model/brain.js'
import { demoDoesNotKnow } from '../src/cli/first-contact.js'
import { describeParseError, formatCacheLine } from '../src/cli/main.js'
import { casesUnknownToDemo } from '../src/demo/model.js'
import { cliCommand } from '../src/cli/invocation.js'
import { CLI_ANYWHERE, CLI_IN_CLONE } from '../src/constants.js'
import { CLEAR_LINE } from '../src/cli/live-progress.js'
import { ConfigError } from '../src/config/errors.js'
import { resolveOptions, type RawOptions } from '../src/config/options.js'
import { parseSuite } from '../src/config/suite.js'
import { bundledExample, findPackageRoot } from '../src/demo/example.js'
import { prepare } from '../src/config/prepare.js'
import { fatalDocument } from '../src/output/documents.js'
import { formatPlanLine } from '../src/report/plan-line.js'
import { count as plural } from '../src/util/words.js'
import { VERDICT_RULES } from '../src/report/verdict-rules.js'
import type { ResultsDocument } from '../src/results/types.js'

const root = resolve(fixturePath('..'))
const EXAMPLE_SERVER = JSON.stringify({ command: process.execPath, args: [join(root, 'examples/server/server.mjs')] })
const EXAMPLE_CASES = join(root, 'examples/eval_cases.yaml')



const startDir = process.cwd()
let work: string
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'cli-test-'))
  process.chdir(work)
})
afterAll(() => process.chdir(startDir))

describe('a usage or configuration error writes nothing', () => {
  const LAST_RESULTS = '{"the": "last results"}\n'
  const LAST_REPORT = '# The last report\n'
  beforeEach(() => {
    writeFileSync('eval-results.json', LAST_RESULTS)
    writeFileSync('eval-report.md', LAST_REPORT)
    writeFileSync('bad.yaml', 'cases: [\n')
  })
  const untouched = () => {
    expect(readFileSync('eval-results.json', 'utf8')).toBe(LAST_RESULTS)
    expect(readFileSync('eval-report.md', 'utf8')).toBe(LAST_REPORT)
    expect(readdirSync('.').sort()).toEqual(['bad.yaml', 'eval-report.md', 'eval-results.json'])
  }
  const server = ['--server-config', EXAMPLE_SERVER]

  test.each([
    ['an unknown flag', ['--eval-case', 'x.yaml'], "error: Unknown option '--eval-case'; did you mean --eval-cases?\n"],
    ['an underscore for a dash', ['--server_config', '{}'], "error: Unknown option '--server_config'; did you mean --server-config?\n"],
    ['no server', ['--eval-cases', 'x.yaml'], 'error: --server-config: is required\n'],
    ['a missing required flag', [...server], 'error: --eval-cases: is required (or --eval-suite for an evals/v1 suite; no suite is needed with --conformance only)\n'],
    ['a flag without its value', ['--filter'], "error: Option '--filter <value>' argument missing\n"],
    ['a bad flag value', [...server, '--eval-cases', 'bad.yaml', '--max-steps', 'ten'], "error: --max-steps: must be a whole number, got 'ten'\n"],
    ['a bad choice', [...server, '--eval-cases', 'bad.yaml', '--gate', 'strict'], "error: --gate: must be one of delta, absolute, both, got 'strict'\n"],
    ['a bad URL', [...server, '--eval-cases', 'bad.yaml', '--base-url', 'localhost:11434'], "error: --base-url: must be an http(s) URL, got 'localhost:11434'\n"],
    ['--demo with --api-key', ['--demo', '--api-key', 'k'], 'error: --demo: cannot be combined with --api-key: it runs against the bundled demo model, on its own local URL and with no key\n'],
    ['--demo with both', ['--demo', '--base-url', 'http://x', '--api-key', 'k'], 'error: --demo: cannot be combined with --base-url or --api-key'],
    ['a server config that is no file', ['--server-config', 'nope.json', '--eval-cases', 'bad.yaml'], 'error: --server-config: is neither inline JSON nor an existing file: nope.json\n']
  ])('%s: the error and a one-line hint on stderr, exit 2', async (_, argv, message) => {
    const { code, stdout, stderr } = await runCli(argv, { OPENROUTER_API_KEY: 'k' })
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr.startsWith(message)).toBe(true)
    // The error line and the hint, not the whole help text.
    // In no clone of this repository (a temporary directory): the command that runs anywhere.
    expect(stderr.trimEnd().split('\n').at(-1)).toBe(`Run '${CLI_ANYWHERE} --help' for the options.`)
    expect(stderr.trimEnd().split('\n')).toHaveLength(2)
    untouched()
  })

  test.each([
    ['invalid JSON in the server config', ['--server-config', '{"command": "node",\n "args": [1,}', '--eval-cases', 'bad.yaml'], /^error: --server-config <inline>:2:\d+: invalid JSON/],
    ['an unknown key in the server config', ['--server-config', '{"command":"node","comand":"x"}', '--eval-cases', 'bad.yaml'], /^error: --server-config at comand: unknown key 'comand'/],
    ['an unreadable eval cases file', [...server, '--eval-cases', 'nope.yaml'], /^error: --eval-cases nope\.yaml: cannot read eval cases file/],
    ['invalid eval cases', [...server, '--eval-cases', 'bad.yaml'], /^error: bad\.yaml:\d+:\d+: invalid YAML/]
  ])('%s: the error, located, on stderr, exit 2', async (_, argv, message) => {
    const { code, stdout, stderr } = await runCli(argv, { OPENROUTER_API_KEY: 'k' })
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(message)
    expect(stderr).not.toContain("input '")
    untouched()
  })

  test('no API key with conformance off names --api-key and the variables', async () => {
    const { code, stderr } = await runCli([...server, '--eval-cases', 'bad.yaml', '--conformance', 'off', '--tool-tests', 'off'], {})
    expect(code).toBe(2)
    expect(stderr).toContain('error: --api-key: is required (or set OPENROUTER_API_KEY or OPENAI_API_KEY, or pass --conformance auto or only)\n')
    untouched()
  })

  test('as a real process too: exit 2, the files as they were', async () => {
    const { code, stdout, stderr } = await runCliProcess(['--eval-cases', 'x.yaml'], work)
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe(`error: --server-config: is required\nRun '${CLI_ANYWHERE} --help' for the options.\n`)
    untouched()
  })

  test('no arguments at all: where to start (--demo, init, a suite, --help), exit 2', async () => {
    const { code, stdout, stderr } = await runCli([])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).not.toContain('is required')
    const commands = stderr.split('\n').filter((l) => l.startsWith(`    ${CLI_ANYWHERE} `)).map((l) => l.trim().slice(CLI_ANYWHERE.length + 1))
    expect(commands).toEqual(['--demo', `init --server-config '{"command":"node","args":["server.js"]}'`, '--server-config <json|file> --eval-cases eval_cases.yaml', '--help'])
    untouched()
  })

  test.each([
    ['inti', "error: unknown command 'inti'; did you mean init?"],
    ['merg', "error: unknown command 'merg'; did you mean merge?"],
    ['eval_cases.yaml', "error: unknown command 'eval_cases.yaml' (the commands: report, merge, init, convert, run; an evaluation takes flags only)"]
  ])('a word that is no command (%s): a did-you-mean when one is near, exit 2 before anything runs', async (word, message) => {
    const { code, stdout, stderr } = await runCli([word, '--server-config', EXAMPLE_SERVER])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr.startsWith(message)).toBe(true)
    expect(stderr.trimEnd().split('\n')).toHaveLength(2)
    untouched()
  })
})

describe('the command the hints give', () => {
  test('in a clone of this repository (its root, dist/cli committed) node dist/cli/index.js; anywhere else the npx command', () => {
    expect(cliCommand(root)).toBe(CLI_IN_CLONE)
    expect(existsSync(join(root, CLI_IN_CLONE.split(' ')[1]))).toBe(true)
    expect(cliCommand(join(root, 'src'))).toBe(CLI_ANYWHERE)
    expect(cliCommand(work)).toBe(CLI_ANYWHERE)
  })

  test('--help and the subcommands\' help name no bare mcp-server-evals command', async () => {
    for (const argv of [['--help'], ['report', '--help'], ['merge', '--help'], ['init', '--help'], ['convert', '--help']]) {
      const { stdout } = await runCli(argv)
      expect(stdout).toContain(`${CLI_ANYWHERE} `)
      expect(stdout).not.toMatch(/(^|[\s'(`])mcp-server-evals (--|report|merge|init|convert|run)/m)
    }
  })
})

describe('errors name what the user typed', () => {
  const raw = (names: Record<string, string>, values: Record<string, string>): RawOptions => {
    const keys = ['serverConfig', 'evalCases', 'apiKey', 'filter', 'maxSteps', 'parallel', 'concurrency', 'baseUrl', 'judgeModel', 'models', 'timeoutSeconds', 'conformance', 'toolTests']
    return Object.fromEntries(keys.map((k) => [k, { value: values[k] ?? '', name: names[k] ?? k }])) as unknown as RawOptions
  }
  const errorOf = (fn: () => unknown) => {
    try {
      fn()
    } catch (error) {
      return error as ConfigError
    }
    throw new Error('no error')
  }
  const action = { serverConfig: 'server_config', evalCases: 'eval_cases', apiKey: 'openrouter_api_key', conformance: 'conformance', toolTests: 'tool_tests' }
  const flags = { serverConfig: '--server-config', evalCases: '--eval-cases', apiKey: '--api-key', conformance: '--conformance', toolTests: '--tool-tests' }

  test('a flag reads as typed; an action input keeps input ‘…’', () => {
    expect(new ConfigError('is required', { input: '--eval-cases' }).message).toBe('--eval-cases: is required')
    expect(new ConfigError('is required', { input: 'eval_cases' }).message).toBe("input 'eval_cases': is required")
    expect(new ConfigError('bad', { input: 'eval_cases', file: 'e.yaml', line: 2 }).withInput('--eval-cases').message).toBe('--eval-cases e.yaml:2: bad')
  })

  test('errors found inside prepare() name the flag for the CLI and the input for the action', () => {
    const missingFile = { serverConfig: '{"command":"node"}', evalCases: 'nope.yaml', apiKey: 'k' }
    expect(errorOf(() => prepare(resolveOptions(raw(flags, missingFile)), {})).message).toMatch(/^--eval-cases nope\.yaml: cannot read eval cases file/)
    expect(errorOf(() => prepare(resolveOptions(raw(action, missingFile)), {})).message).toMatch(/^input 'eval_cases' nope\.yaml: cannot read eval cases file/)
    const badServer = { serverConfig: '{"command":1}', evalCases: 'nope.yaml', apiKey: 'k' }
    expect(errorOf(() => prepare(resolveOptions(raw(flags, badServer)), {})).message).toMatch(/^--server-config: needs 'command'/)
    expect(errorOf(() => prepare(resolveOptions(raw(action, badServer)), {})).message).toMatch(/^input 'server_config': needs 'command'/)
  })

  test('a server command on no PATH directory names the input for the action and the flag for the CLI', () => {
    const missing = { serverConfig: '{"command":"no-such-server-command-42"}', evalCases: EXAMPLE_CASES, apiKey: 'k' }
    expect(errorOf(() => prepare(resolveOptions(raw(action, missing)), {})).message).toBe("input 'server_config': the server command 'no-such-server-command-42' was not found on PATH: install it, or give its full path")
    expect(errorOf(() => prepare(resolveOptions(raw(flags, missing)), {})).message).toMatch(/^--server-config: the server command 'no-such-server-command-42' was not found on PATH/)
  })

  test('the API key: the action’s message is as it was; the CLI’s names the flag and the variables', () => {
    const noKey = { serverConfig: '{}', evalCases: 'e.yaml', conformance: 'off', toolTests: 'off' }
    expect(errorOf(() => resolveOptions(raw(action, noKey))).message).toBe("input 'openrouter_api_key': is required (or set conformance to auto or only)")
    const cliRaw = raw(flags, noKey)
    cliRaw.apiKey.env = ['OPENROUTER_API_KEY', 'OPENAI_API_KEY']
    expect(errorOf(() => resolveOptions(cliRaw)).message).toBe('--api-key: is required (or set OPENROUTER_API_KEY or OPENAI_API_KEY, or pass --conformance auto or only)')
    cliRaw.conformance = { value: '', name: '--conformance' }
    expect(resolveOptions(cliRaw).skipBehaviour).toBe('no API key (no --api-key, OPENROUTER_API_KEY or OPENAI_API_KEY): only the free layers (conformance and tool tests) ran')
  })

  test('did you mean: for a near long flag only', () => {
    expect(describeParseError(new Error("Unknown option '--judgemodel'"))).toBe("Unknown option '--judgemodel'; did you mean --judge-model?")
    expect(describeParseError(new Error("Unknown option '--bogus'"))).toBe("Unknown option '--bogus'")
    expect(describeParseError(new Error("Unknown option '-x'"))).toBe("Unknown option '-x'")
    // Newer Node versions add a sentence about positional arguments; the first is enough.
    expect(describeParseError(new Error("Unknown option '--demmo'. To specify a positional argument starting with a '-', place it at the end"))).toBe(
      "Unknown option '--demmo'; did you mean --demo?"
    )
  })
})

describe('the start line', () => {
  const suite = (cases: string, extra = '') => parseSuite(`${extra}system_prompts: {a: x}\ncases:\n${cases}`, 'e.yaml')
  const one = '  - {id: one, prompt: p, rubric: r}\n'
  const two = '  - {id: two, prompt: p, rubric: r}\n'

  test('counts with their plurals, and the planned runs', () => {
    expect(formatPlanLine(suite(one), { concurrency: 1 })).toBe('Evaluating 1 case × 1 model × 1 system prompt = 1 run, judge openai/gpt-4o-mini, concurrency 1')
    expect(formatPlanLine(suite(one + two, 'models: [a/1, b/2]\njudge_model: j/1\n'), { concurrency: 4 })).toBe(
      'Evaluating 2 cases × 2 models × 1 system prompt = 4 runs, judge j/1, concurrency 4'
    )
  })

  test('repeats are in the run count', () => {
    const repeated = suite('  - {id: one, prompt: p, rubric: r, runs: 3}\n' + two, 'models: [a/1, b/2]\n')
    expect(formatPlanLine(repeated, { concurrency: 4 })).toBe('Evaluating 2 cases × 2 models × 1 system prompt = 8 runs (with repeats), judge openai/gpt-4o-mini, concurrency 4')
  })

  test('a filter says how many cases it kept', () => {
    expect(formatPlanLine(suite(one + two), { concurrency: 4, filter: 'tw' })).toBe('Evaluating 1 of 2 cases (filter "tw") × 1 model × 1 system prompt = 1 run, judge openai/gpt-4o-mini, concurrency 4')
  })

  test('plural', () => {
    expect([plural(0, 'run'), plural(1, 'run'), plural(2, 'miss', 'misses')]).toEqual(['0 runs', '1 run', '2 misses'])
  })
})

describe('the cache line', () => {
  const withCache = (cache: ResultsDocument['summary']['cache']): ResultsDocument => {
    const doc = fatalDocument('x')
    return { ...doc, summary: { ...doc.summary, cache } }
  }
  test('hits, misses and what they saved; nothing when the cache was off or not there', () => {
    expect(formatCacheLine(withCache({ mode: 'read-write', hits: 12, misses: 3, saved_tokens: 4200, saved_cost_usd: null }))).toBe('Cache: 12 hits, 3 misses, 4,200 tokens saved')
    expect(formatCacheLine(withCache({ mode: 'read-only', hits: 1, misses: 1, saved_tokens: 120, saved_cost_usd: 0.0012 }))).toBe('Cache: 1 hit, 1 miss, 120 tokens ($0.0012) saved')
    expect(formatCacheLine(withCache({ mode: 'off', hits: 0, misses: 9, saved_tokens: 0, saved_cost_usd: null }))).toBeNull()
    expect(formatCacheLine(withCache(null))).toBeNull()
  })
})

describe('whole evaluations (the example server, the demo brain)', () => {
  let llm: ScriptedLlm
  beforeAll(async () => {
    llm = await startScriptedLlm(demoBrain)
  })
  afterAll(async () => llm.close())
  const example = (...flags: string[]) => ['--server-config', EXAMPLE_SERVER, '--eval-cases', EXAMPLE_CASES, '--base-url', llm.url, '--api-key', 'sk-test', ...flags]

  test('the start line first; the cache line after the summary, with hits the second time', async () => {
    const first = await runCli(example('--filter', 'tokyo', '--models', 'm/one', '--conformance', 'off', '--cache', 'read-write', '--cache-dir', 'cache'))
    expect(first.code).toBe(0)
    const lines = first.stdout.split('\n')
    expect(lines[0]).toBe('Evaluating 1 of 9 cases (filter "tokyo") × 1 model × 2 system prompts = 2 runs, judge openai/gpt-4o-mini, concurrency 4')
    const summary = lines.findIndex((l) => l.includes('2/2 runs passed'))
    // The judge's evaluation steps are asked once and replayed for the second run already.
    expect(lines[summary + 1]).toMatch(/^Cache: \d+ hits?, \d+ misse?s?, [\d,]+ tokens?( \(\$\d\.\d{4,5}\))? saved$/)
    expect(lines[summary + 2]).toBe('Results: eval-results.json')

    const second = await runCli(example('--filter', 'tokyo', '--models', 'm/one', '--conformance', 'off', '--cache', 'read-only', '--cache-dir', 'cache'))
    expect(second.code).toBe(0)
    expect(second.stdout).toMatch(/\nCache: \d+ hits, 0 misses, [\d,]+ tokens \(\$\d\.\d{4,5}\) saved\n/)
    // Not a terminal: plain lines, no escape codes.
    expect(second.stdout).not.toMatch(/[\x1b\r]/)
  })

  test('on a terminal the status line is rewritten in place and gone at the end; under CI it is not there', async () => {
    const tty = await runCli(example('--filter', 'paris', '--models', 'm/one', '--conformance', 'off'), {}, true)
    expect(tty.code).toBe(0)
    expect(tty.stdout).toContain(`${CLEAR_LINE}0/2 done · 0 in flight · 0 failed · 0s`)
    expect(tty.stdout).toMatch(/\r\x1b\[2K\[1\/2\] ✓ weather-paris[^\n]*\n\d\/2 done · \d in flight · 0 failed · \d+s · \$\d\.\d{4,}/)
    // Cleared before the summary, which starts a clean line.
    expect(tty.stdout).toMatch(/2\/2 done · 0 in flight · 0 failed · \d+s · \$\d\.\d{4,}\r\x1b\[2K[^\n\r\x1b]*2\/2 runs passed \(100%\)/)
    const ci = await runCli(example('--filter', 'paris', '--models', 'm/one', '--conformance', 'off'), { CI: 'true' }, true)
    expect(ci.code).toBe(0)
    expect(ci.stdout).not.toMatch(/[\x1b\r]/)
    expect(ci.stdout.split('\n').filter((l) => l.startsWith('['))).toHaveLength(2)
  })

  test('no key: conformance alone, said in one line, and no start line', async () => {
    const { code, stdout } = await runCli(['--server-config', EXAMPLE_SERVER, '--eval-cases', EXAMPLE_CASES])
    expect(code).toBe(0)
    expect(stdout.split('\n')[0]).toBe('Behaviour evals skipped: no API key (no --api-key, OPENROUTER_API_KEY or OPENAI_API_KEY): only the free layers (conformance and tool tests) ran.')
    expect(stdout).not.toContain('Evaluating')
  })
})

describe('a server that cannot start', () => {
  test('a command on no PATH directory: exit 2 before anything starts, naming the command and the flag', async () => {
    writeFileSync('e.yaml', 'system_prompts: {d: x}\ncases:\n  - {id: a, prompt: p, rubric: r}\n')
    const { code, stdout, stderr } = await runCli(['--server-config', '{"command":"no-such-server-command-42","args":["--x"]}', '--eval-cases', 'e.yaml'], { OPENROUTER_API_KEY: 'k' })
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr.split('\n')[0]).toBe("error: --server-config: the server command 'no-such-server-command-42' was not found on PATH: install it, or give its full path")
    expect(readdirSync('.')).toEqual(['e.yaml'])
  })

  test("the server's own PATH is the one searched; a relative path is looked up from the server's cwd", async () => {
    writeFileSync('e.yaml', 'system_prompts: {d: x}\ncases:\n  - {id: a, prompt: p, rubric: r}\n')
    const nowhere = JSON.stringify({ command: 'node', env: { PATH: work } })
    expect((await runCli(['--server-config', nowhere, '--eval-cases', 'e.yaml', '--conformance', 'only'], {})).stderr).toMatch(/^error: --server-config: the server command 'node' was not found on PATH/)
    const relative = JSON.stringify({ command: './bin/server', cwd: work })
    expect((await runCli(['--server-config', relative, '--conformance', 'only'], {})).stderr).toMatch(/^error: --server-config: the server command '.\/bin\/server' does not exist or is not executable/)
  })

  test("an evals/v1 suite's server block: the error is located at server.command", async () => {
    const suite = readFileSync(join(root, 'examples/evals-v1/starter.suite.yaml'), 'utf8').replace('command: node', 'command: no-such-server-command-42')
    writeFileSync('s.yaml', suite)
    const { code, stderr } = await runCli(['--eval-suite', 's.yaml', '--conformance', 'only'], {})
    expect(code).toBe(2)
    expect(stderr).toMatch(/^error: s\.yaml:\d+:\d+ at server\.command: the server command 'no-such-server-command-42' was not found on PATH/)
  })

  test("a script that is not there: the server's stderr is printed once, the reason without it", async () => {
    const server = JSON.stringify({ command: process.execPath, args: [join(work, 'missing-server.mjs')] })
    const { code, stdout, stderr } = await runCli(['--server-config', server, '--conformance', 'only'], {})
    expect(code).toBe(1)
    const printed = stdout + stderr
    expect(printed.split('Cannot find module').length - 1).toBe(1)
    expect(stdout).toContain('FAILED: server unreachable — server exited (code 1); nothing was evaluated')
    const report = readFileSync('eval-report.md', 'utf8')
    expect(report.split('Cannot find module').length - 1).toBe(1)
  })
})

describe('conformance alone', () => {
  test('--conformance only needs no suite file: the protocol checks of the server, exit 0', async () => {
    const { code, stdout, stderr } = await runCli(['--server-config', EXAMPLE_SERVER, '--conformance', 'only'], {})
    expect(stderr).not.toContain('error')
    expect(code).toBe(0)
    expect(stdout.split('\n')[0]).toBe('Behaviour evals skipped: --conformance only was given.')
    expect(stdout).toMatch(/^Conformance: modern server .* over stdio — \d+ checks: \d+ passed/m)
    const doc = JSON.parse(readFileSync('eval-results.json', 'utf8')) as ResultsDocument
    expect(doc).toMatchObject({ passed: true, config: { eval_cases: '' }, behaviour: { status: 'skipped' } })
  })

  test('without --conformance only, a suite is still required', async () => {
    const { code, stderr } = await runCli(['--server-config', EXAMPLE_SERVER, '--conformance', 'auto'], {})
    expect(code).toBe(2)
    expect(stderr).toMatch(/^error: --eval-cases: is required \(or --eval-suite for an evals\/v1 suite; no suite is needed with --conformance only\)\n/)
  })
})

describe('--demo', () => {
  test('the bundled example against the demo model, end to end, with no key and no network', async () => {
    mkdirSync('out')
    const { code, stdout, stderr } = await runCli(['--demo', '--output', join(work, 'out/results.json'), '--report', join(work, 'out/report.md')], { OPENROUTER_API_KEY: '' })
    expect(stderr).not.toContain('error')
    expect(code).toBe(0)
    const lines = stdout.split('\n')
    expect(lines[0]).toMatch(/^Demo: the model at http:\/\/127\.0\.0\.1:\d+\/v1 is a scripted stand-in \(examples\/demo-model\/brain\.ts\), not a real model/)
    expect(lines[1]).toBe('Evaluating 9 cases × 2 models × 2 system prompts = 36 runs, judge openai/gpt-4o-mini, concurrency 4')
    expect(stdout).toContain('conformance passed · 5/5 tool tests passed · 36/36 runs passed (100%)')
    // Its figures are the scripted model's: every place that shows a cost says so.
    expect(stdout).toMatch(/ · \$[\d.]+ simulated spend \(demo model\) · /)
    expect(stdout).not.toMatch(/\$[\d.]+ spent/)
    // It has a script for every case of the bundled example: no warning.
    expect(stderr).not.toContain('--demo: the demo model has scripts')
    const doc = JSON.parse(readFileSync(join(work, 'out/results.json'), 'utf8')) as ResultsDocument
    expect(doc).toMatchObject({ passed: true, config: { eval_cases: EXAMPLE_CASES, server: { command: 'node', args: [join(root, 'examples/server/server.mjs')] } } })
    expect(doc.config?.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
    const report = readFileSync(join(work, 'out/report.md'), 'utf8').split('\n')
    expect(report[0]).toMatch(/^# /)
    expect(report.slice(1, 3)).toEqual(['', expect.stringMatching(/^> \*\*Demo run \(`--demo`\):\*\* .* its scores, tokens and costs below are simulated/)])
    expect(existsSync(join(work, 'out/eval-runs.jsonl'))).toBe(true)
  })

  test('its own eval cases against the bundled server; a real process, exit 1 when they fail', async () => {
    writeFileSync('e.yaml', 'system_prompts: {d: x}\ncases:\n  - {id: a, prompt: "What is the weather in Atlantis?", rubric: r, required_tools: [get_weather]}\n')
    const { code, stdout, stderr } = await runCliProcess(['--demo', '--eval-cases', 'e.yaml', '--conformance', 'off'], work)
    expect(code).toBe(1)
    expect(stdout).toContain('Demo: the model at')
    // Said before it runs: the demo model has no script for this case, so it fails whatever the server does.
    expect(stderr).toContain(
      'warning: --demo: the demo model has scripts for the bundled example\'s cases only, and the case in e.yaml (a) has none: it answers "I cannot help with that.", so it fails whatever the server does; to evaluate this suite, give a real model instead of --demo (--api-key, or --base-url)\n'
    )
    expect(stdout).toContain('0/1 passed')
    expect(existsSync(join(work, 'eval-results.json'))).toBe(true)
  })

  test('the cases it has no script for: none of the bundled example; a conversation needs every turn scripted', () => {
    expect(casesUnknownToDemo(parseSuite(readFileSync(EXAMPLE_CASES, 'utf8'), EXAMPLE_CASES).cases)).toEqual([])
    const mixed = parseSuite(
      [
        'system_prompts: {d: x}',
        'cases:',
        '  - {id: known, prompt: "What\'s the weather like in Paris right now?", rubric: r}',
        '  - {id: unknown, prompt: "Refund order 7", rubric: r}',
        '  - id: half',
        '    rubric: r',
        '    turns: [{user: "What\'s the weather in Tokyo?"}, {user: "And a refund?"}]',
        ''
      ].join('\n'),
      'mixed.yaml'
    ).cases
    const unknown = casesUnknownToDemo(mixed)
    expect(unknown).toEqual(['unknown', 'half'])
    expect(demoDoesNotKnow(unknown, mixed.length, 'mixed.yaml')).toMatch(/^--demo: the demo model has scripts for the bundled example's cases only, and 2 of the 3 cases in mixed\.yaml \(unknown, half\) have none: .* so they fail whatever the server does;/)
  })

  test('the package root is found by walking up; a missing example is a clear error', () => {
    expect(findPackageRoot([join(root, 'src/demo'), '/'])).toBe(root)
    expect(findPackageRoot([tmpdir()])).toBeNull()
    expect(bundledExample(root)).toEqual({ serverConfig: JSON.stringify({ command: 'node', args: [join(root, 'examples/server/server.mjs')] }), evalCases: EXAMPLE_CASES })
    expect(() => bundledExample(work)).toThrow(/^--demo: the bundled example is not here \(missing .*examples\/server\/server\.mjs and .*examples\/eval_cases\.yaml\); pass --server-config and --eval-cases$/)
    expect(() => bundledExample(null)).toThrow('--demo: cannot find the bundled example')
  })
})

describe('--help', () => {
  test('carries the verdict rules word for word, and --demo', async () => {
    const { code, stdout } = await runCli(['--help'])
    expect(code).toBe(0)
    expect(stdout).toContain(VERDICT_RULES)
    expect(stdout).toContain('--demo')
    expect(stdout).not.toContain('Exit status: 0 passed')
  })
})
