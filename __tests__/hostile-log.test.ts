import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { runTsxProcess } from '../__fixtures__/cli.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { readAsRunner, runnerLines, type RunnerReading } from '../__fixtures__/runner-commands.js'
import { kindOf, scriptedBrain, startScriptedLlm, userPrompt, verdict, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { checkToolsOrder } from '../src/conformance/checks/results.js'
import type { ProbeData } from '../src/conformance/probe-data.js'
import { capLine, INERT_COLON, INERT_HASH, inertMessage, inertText, LOG_LINE_MAX } from '../src/util/log-text.js'

// Workflow commands hidden in untrusted text, as __fixtures__/servers/hostile-log-server.mjs sends
// them: an annotation, a mask, muting the log, a `\r` that starts a new runner line, and the
// legacy `##[` in the middle of a line. How the runner reads them: __fixtures__/runner-commands.ts
// (emulated from actions/runner's ProcessInvoker.cs, OutputManager.cs and ActionCommand.cs).
const INJECT = ['::error file=x::pwned', '::add-mask::passed', '::stop-commands::tok', 'see\r::warning::x', 'in the ##[error]x middle'].join('\n')
/** What each injected command's data or property would be, had one got through. */
const injectedCommand = (c: RunnerReading['commands'][number]) =>
  c.form === 'legacy' || c.command === 'stop-commands' || c.properties.file === 'x' || /^(pwned|passed|tok|x|tool|name)\b/.test(c.data)

const root = fixturePath('..')
const SERVER = fixturePath('servers/hostile-log-server.mjs')
// A key with `##[` in it: the log would show it neutralised, so that form is masked too.
const API_KEY = 'sk-hostile##[log]-test-key'

const SUITE = `judge_model: judge
models: [m1]
system_prompts:
  default: You are helpful.
cases:
  - { id: dies, prompt: "please die", rubric: r }
  - { id: refused, prompt: "please 400", rubric: r }
  - { id: flooded, prompt: "please flood", rubric: r }
  - { id: answers, prompt: "please answer", rubric: r }
  - { id: calls, prompt: "please call", rubric: r }
tool_tests:
  - { id: echo-test, tool: echo, args: { text: a } }
  - { id: rpc-test, tool: rpcerr, args: { text: a } }
  - { id: value-test, tool: value, args: { text: a }, expect: { json: { "$.answer": nope } } }
`

/** The scripted model: hostile and huge HTTP 400 bodies, hostile answers, a judge whose reason is hostile. */
const brain = scriptedBrain(
  {
    'please die': { turns: [[{ name: 'die', args: {} }]], answer: 'ok' },
    'please answer': { turns: [], answer: `Done.\n${INJECT}` },
    'please call': { turns: [[{ name: 'echo', args: { text: 'a' } }], [{ name: 'rpcerr', args: { text: 'a' } }], [{ name: 'x##[error]name\r::warning::tool', args: {} }]], answer: INJECT }
  },
  () => 3
)

let llm: ScriptedLlm
let work: string
beforeAll(async () => {
  llm = await startScriptedLlm((request, index) => {
    if (kindOf(request) === 'agent' && userPrompt(request).includes('please 400')) return { status: 400, body: { error: { message: INJECT } } }
    // One line of 300,000 characters: the progress line and the annotation quote it.
    if (kindOf(request) === 'agent' && userPrompt(request).includes('please flood')) return { status: 400, body: { error: { message: 'flood '.repeat(50_000) } } }
    if (kindOf(request) === 'score') return verdict(request.model, 3, JSON.stringify(INJECT).slice(1, -1))
    return brain(request, index)
  })
  work = mkdtempSync(join(tmpdir(), 'hostile-log-'))
  writeFileSync(join(work, 'eval_cases.yaml'), SUITE)
})
afterAll(async () => llm.close())

const serverConfig = (env: Record<string, string> = {}) => JSON.stringify({ command: process.execPath, args: [SERVER], env })

/** A child process (tsx on the sources), its streams kept apart as the runner reads them. */
const runChild = (script: string, args: string[], cwd: string, env: Record<string, string>) => runTsxProcess(script, args, cwd, env)

/** The action, as the runner starts it: INPUT_* variables, the runner's files in a directory of their own. */
async function runAction(inputs: Record<string, string>) {
  const runner = mkdtempSync(join(work, 'runner-'))
  writeFileSync(join(runner, 'out'), '')
  writeFileSync(join(runner, 'summary'), '')
  const env: Record<string, string> = { GITHUB_OUTPUT: join(runner, 'out'), GITHUB_STEP_SUMMARY: join(runner, 'summary'), RUNNER_TEMP: runner }
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value
  return runChild('src/index.ts', [], work, env)
}

/** Each stream read as the runner reads it: no command we did not mean, no line over the cap. */
function expectInert(stream: string): RunnerReading {
  const reading = readAsRunner(stream)
  expect(reading.commands.filter(injectedCommand)).toEqual([])
  // Whatever looks like a command (a registered name or not) is one of ours, which the runner takes.
  expect(reading.commandLike.filter((line) => !reading.commands.some((c) => c.line === line))).toEqual([])
  expect(reading.commands.map((c) => c.command).filter((name) => !['add-mask', 'error', 'warning', 'notice'].includes(name))).toEqual([])
  expect(reading.lines.filter((line) => line.length > LOG_LINE_MAX).map((line) => line.length)).toEqual([])
  return reading
}

describe('the neutraliser', () => {
  const hostile = [
    '::error file=x::pwned',
    '   ::add-mask::passed',
    '\t\u00a0\u3000::stop-commands::tok',
    '\u200d::error::zero-width joiner first',
    ':\u200d:error::between the colons',
    '\ufeff\u00ad::warning::BOM and soft hyphen',
    'in the ##[error]x middle',
    'twice ##[error]a and ##[warning]b',
    '#\u200d#[error]ignorable inside',
    '###[error]three',
    'a line\r::warning::after a carriage return',
    'a line\r\n::notice::after CRLF'
  ]

  test('leaves no line the runner reads as a command (which it does without)', () => {
    for (const text of hostile) {
      expect(readAsRunner(text).commandLike).not.toEqual([])
      const inert = inertText(text)
      expect({ text, found: readAsRunner(inert).commandLike }).toEqual({ text, found: [] })
      // A look-alike for one character each, the rest as it was: readable and copyable.
      expect(inert.replaceAll(INERT_COLON, ':').replaceAll(INERT_HASH, '#')).toBe(text)
    }
    expect(inertText('::error file=x::pwned')).toBe('\u2236:error file=x::pwned')
    expect(inertText('in the ##[error]x middle')).toBe('in the #\u266f[error]x middle')
    // Text with nothing to neutralise is untouched, line breaks included.
    const plain = 'Conformance: modern server (2026-07-28) over stdio — 12 passed\r\n  ✗ a: b::c ## [d]\n'
    expect(inertText(plain)).toBe(plain)
  })

  test('an inserted zero-width character would not do: ICU collation, which the runner compares with on Linux, ignores it', () => {
    const collator = new Intl.Collator('en-US')
    expect(collator.compare('\u200d::', '::')).toBe(0)
    expect(collator.compare('#\u200d#[', '##[')).toBe(0)
    // The look-alikes weigh differently, beyond a width variant.
    expect(new Intl.Collator('en-US', { sensitivity: 'base' }).compare(`${INERT_COLON}:`, '::')).not.toBe(0)
    expect(new Intl.Collator('en-US', { sensitivity: 'base' }).compare(`#${INERT_HASH}[`, '##[')).not.toBe(0)
  })

  test('cuts a line visibly, and an annotation within one command line', () => {
    const long = 'tool_00000, '.repeat(40_000)
    const cut = capLine(long)
    expect(cut.length).toBeLessThanOrEqual(LOG_LINE_MAX)
    expect(cut).toMatch(/ … \[cut: 480,000 characters in all\]$/)
    expect(inertText(`${long}\n${long}`).split('\n').map((l) => l.length)).toEqual([cut.length, cut.length])
    // An annotation's message becomes one command line (its breaks as %0A): it is cut as a whole.
    const message = inertMessage(`${'%\n'.repeat(5000)}${long}`)
    const encoded = message.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
    expect(encoded.length).toBeLessThanOrEqual(3400)
    expect(message).toMatch(/\[cut: 490,000 characters in all\]$/)
  })
})

test('two orders of 10,000 tools: the first 20 of each, and where they part', () => {
  const names = Array.from({ length: 10_000 }, (_, i) => `tool_${i}`)
  const shuffled = [...names.slice(0, 7_000), ...names.slice(7_000).reverse()]
  const listing = (tools: string[]) => ({ response: { frame: { result: { tools: tools.map((name) => ({ name })) } } } })
  const { message } = checkToolsOrder({ toolsList: [listing(names), listing(shuffled)], transport: 'stdio' } as unknown as ProbeData)
  expect(message).toMatch(/^two consecutive tools\/list calls returned different orders: \[tool_0, .*, tool_19, and 9,980 more\] then \[tool_0, .*, and 9,980 more\], first apart at position 7001 \(tool_7000 then tool_9999\)$/)
  expect(message.length).toBeLessThan(1000)
})

describe('a hostile server, provider and model', () => {
  test('the action (a real child process): no command but ours, and ours still work', async () => {
    const { code, stdout, stderr } = await runAction({
      server_config: serverConfig(),
      eval_cases: join(work, 'eval_cases.yaml'),
      openrouter_api_key: API_KEY,
      base_url: llm.url,
      job_summary: 'true'
    })
    expect(code).toBe(1)
    expectInert(stderr)
    const { commands } = expectInert(stdout)
    // The hostile text reached the log (inert), so the test proves something.
    expect(stdout).toContain(`#${INERT_HASH}[error]x middle`)
    expect(stdout).toContain(`%0A${INERT_COLON}:add-mask::passed`)
    const titled = (command: string, title: string) => commands.some((c) => c.command === command && c.properties.title === title)
    expect(commands.some((c) => c.command === 'add-mask' && c.data === API_KEY)).toBe(true)
    expect(commands.some((c) => c.command === 'add-mask' && c.data === `sk-hostile#${INERT_HASH}[log]-test-key`)).toBe(true)
    expect(titled('error', 'Eval errored: refused · m1 · default')).toBe(true)
    expect(titled('error', 'Eval errored: dies · m1 · default')).toBe(true)
    expect(titled('error', 'Tool test failed: echo-test')).toBe(true)
    expect(titled('warning', 'MCP conformance: tool-names-valid')).toBe(true)
    // The step's own failure, last.
    expect(commands.at(-1)).toMatchObject({ command: 'error', properties: {} })
    // An annotation shows the hostile text as text (its data), never runs it.
    expect(commands.find((c) => c.properties.title === 'Eval errored: refused · m1 · default')?.data).toContain('::error file=x::pwned')
    // A 300,000-character message, cut within its one command line.
    expect(commands.find((c) => c.properties.title === 'Eval errored: flooded · m1 · default')?.data).toMatch(/^llm error: 400 flood flood .* … \[cut: [\d,]+ characters in all\]$/)
  }, 120_000)

  test('the CLI (a real child process): no command at all', async () => {
    const { code, stdout, stderr } = await runChild('src/cli.ts', ['--server-config', serverConfig(), '--eval-cases', join(work, 'eval_cases.yaml'), '--base-url', llm.url, '--api-key', API_KEY, '--output', join(work, 'cli.json')], work, {})
    expect(code).toBe(1)
    for (const stream of [stdout, stderr]) expect(readAsRunner(stream).commandLike).toEqual([])
    expectInert(stdout)
    expectInert(stderr)
    expect(stdout).toContain(`#${INERT_HASH}[error]x middle`)
    expect(stdout).toContain('llm error: 400')
    expect(stdout).toMatch(/llm error: 400 flood flood .* … \[cut: [\d,]+ characters in all\]/)
  }, 120_000)

  test('a filter holding a newline and a command, printed back in its error', async () => {
    const filter = 'nope\n::error::pwned\n##[warning]x'
    const action = await runAction({ server_config: serverConfig(), eval_cases: join(work, 'eval_cases.yaml'), openrouter_api_key: API_KEY, base_url: llm.url, filter })
    expect(action.code).toBe(2)
    const { commands } = expectInert(action.stdout)
    expectInert(action.stderr)
    expect(action.stdout).toContain(`\n${INERT_COLON}:error::pwned\n#${INERT_HASH}[warning]x`)
    // The step still fails with the configuration error, as one annotation.
    expect(commands.filter((c) => c.command === 'error').map((c) => c.data)).toEqual([expect.stringContaining("input 'filter': 'nope\n")])

    const cli = await runChild('src/cli.ts', ['--server-config', serverConfig(), '--eval-cases', join(work, 'eval_cases.yaml'), '--base-url', llm.url, '--api-key', API_KEY, '--filter', filter], work, {})
    expect(cli.code).toBe(2)
    expect(readAsRunner(cli.stderr).commandLike).toEqual([])
    expect(cli.stderr).toContain(`\n${INERT_COLON}:error::pwned\n#${INERT_HASH}[warning]x`)
  }, 120_000)

  test('a server that dies at start: its stderr, quoted in the log, is inert', async () => {
    const action = await runAction({ server_config: serverConfig({ FAIL_AT_START: '1' }), eval_cases: join(work, 'eval_cases.yaml'), openrouter_api_key: API_KEY, base_url: llm.url, tool_tests: 'off' })
    expect(action.code).toBe(1)
    const { commands } = expectInert(action.stdout)
    expectInert(action.stderr)
    expect(action.stdout).toMatch(new RegExp(`^ +${INERT_COLON}:stop-commands::tok$`, 'm'))
    expect(commands.at(-1)).toMatchObject({ command: 'error', data: expect.stringContaining('the server could not be started or reached') })

    const cli = await runChild('src/cli.ts', ['--server-config', serverConfig({ FAIL_AT_START: '1' }), '--eval-cases', join(work, 'eval_cases.yaml'), '--base-url', llm.url, '--api-key', API_KEY, '--tool-tests', 'off'], work, {})
    expect(cli.code).toBe(1)
    for (const stream of [cli.stdout, cli.stderr]) expect(readAsRunner(stream).commandLike).toEqual([])
    expect(cli.stdout).toMatch(new RegExp(`^ +${INERT_COLON}:stop-commands::tok$`, 'm'))
  }, 120_000)

  test('10,000 tools: no line over the cap, the lists summarised', async () => {
    const output = join(work, 'many.json')
    const { stdout, stderr } = await runChild('src/cli.ts', ['--server-config', serverConfig({ TOOLS: '10000' }), '--eval-cases', join(work, 'eval_cases.yaml'), '--conformance', 'only', '--output', output], work, {})
    const lines = [...runnerLines(stdout), ...runnerLines(stderr)]
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(LOG_LINE_MAX)
    expectInert(stdout)
    expect(stdout).toMatch(/missing or one-word descriptions: tool_00000, tool_00001, .*, and 9,980 more/)
    // The results document names them no longer either.
    const checks = (JSON.parse(readFileSync(output, 'utf8')) as { conformance: { checks: { message: string }[] } }).conformance.checks
    expect(Math.max(...checks.map((c) => c.message.length))).toBeLessThan(LOG_LINE_MAX)
  }, 180_000)
})

describe('one choke point', () => {
  // A new log line cannot bypass the neutraliser: the action's lines go through github/log.ts,
  // the CLI's through the streams main() wraps.
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []))
  const sources = files(join(root, 'src')).map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }))

  test('only github/log.ts prints through @actions/core', () => {
    const raw = sources.filter((s) => s.path !== 'src/github/log.ts' && /from '@actions\/core'/.test(s.text) && /\bcore\.(info|warning|error|notice|debug|setFailed|startGroup|endGroup|group)\(/.test(s.text))
    expect(raw.map((s) => s.path)).toEqual([])
  })

  test('nothing writes to the process streams or the console but the CLI entry', () => {
    const raw = sources.filter((s) => /process\.(stdout|stderr)\.write|console\.(log|info|warn|error|debug)\(/.test(s.text))
    expect(raw.map((s) => s.path)).toEqual([])
  })
})
