import { afterAll, beforeEach, describe, expect, test } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { compileMatcherPattern } from '../src/util/matcher-pattern.js'
import { compileSchema } from '../src/util/json-schema.js'
import type { ResultsDocument } from '../src/results/types.js'

// Issue 26, class 1: a user's regular expression must not hang the job. `^(a+)+$` on 44 `a`s
// and a `!` takes a backtracking engine 2^44 steps, on the main thread, where no timeout or
// signal can reach it: each hostile run is a real child process, so that a hang shows as this
// test's timeout and the process is killed after it.

const root = resolve(fixturePath('..'))
const tsx = join(root, 'node_modules/.bin/tsx')
const REGEX_SERVER = JSON.stringify({ command: process.execPath, args: [fixturePath('servers/regex-server.mjs')] })
const EVIL = 'a'.repeat(44) + '!'

const children: ChildProcess[] = []
afterAll(() => {
  // What outlived its test (a hang) goes, with its process group (tsx runs node under it).
  for (const child of children) if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(-child.pid, 'SIGKILL')
})

/** `tsx <script> ...args` as a real child process in `cwd` (its own process group). */
async function runTsx(script: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const child = spawn(tsx, [script, ...args], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  children.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, stdout, stderr }
}

let work: string
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'hostile-regex-'))
})

describe('a backtracking pattern on a hostile text finishes (RE2, linear time)', () => {
  test('the CLI: a tool test pattern and a server outputSchema pattern are plain non-matches; results, report and conformance are written', async () => {
    writeFileSync(
      join(work, 'suite.yaml'),
      `tool_tests:
  - { id: evil-pattern, tool: evil_text, expect: { pattern: '^(a+)+$' } }
  - { id: evil-schema, tool: evil_structured }
  - { id: python-spelling, tool: evil_text, expect: { pattern: '(?x) \\A (?P<run> A+ ) ! \\Z  # the whole text' } }
`
    )
    const { code, stdout } = await runTsx(join(root, 'src/cli.ts'), ['--server-config', REGEX_SERVER, '--eval-cases', 'suite.yaml', '--only-tool-tests'], work)
    expect(code).toBe(1)
    expect(stdout).toContain('1/3 tool tests passed')
    const doc = JSON.parse(readFileSync(join(work, 'eval-results.json'), 'utf8')) as ResultsDocument
    const checks = (id: string) => doc.tool_tests!.tests.find((t) => t.id === id)!.attempts[0].steps[0].checks
    expect(checks('evil-pattern')).toContainEqual(expect.objectContaining({ check: 'pattern', passed: false, actual: EVIL, reason: 'the text does not match /^(a+)+$/' }))
    // The server's own schema: Ajv's `pattern` runs on RE2 too.
    expect(checks('evil-schema')).toContainEqual(expect.objectContaining({ check: 'output_schema', passed: false, reason: expect.stringContaining('/text must match pattern "^(a+)+$"') }))
    // Python's verbose mode, \A, \Z and a named group, searched case-insensitively.
    expect(checks('python-spelling')).toContainEqual(expect.objectContaining({ check: 'pattern', passed: true }))
    expect(readFileSync(join(work, 'eval-report.md'), 'utf8')).toContain('evil-pattern')
    // Conformance checked the server's answers against its schemas on RE2 as well: evil_structured
    // breaks its own; `lookahead`'s `^(?!x)`, which RE2 cannot run, is not held against the server.
    const status = (id: string) => doc.conformance!.checks.find((c) => c.id === id)?.status
    expect([status('observed-output-schema'), status('tool-input-schema-valid')]).toEqual(['fail', 'pass'])
  })

  test('the library: tool_error_patterns and stop_when searched in the hostile text (evaluateWith, in its own process)', async () => {
    const { code, stdout, stderr } = await runTsx(fixturePath('regex-evaluate.ts'), [], work)
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    const { runs, tool_errors } = JSON.parse(stdout) as { runs: { case: string; status: string; calls: { error_pattern: string | null }[]; dialogue: { ended: string; turns: number } | null }[]; tool_errors: number }
    // `^(a+)+$` matched nothing; the next entry, `!$`, made each call a tool error.
    expect(runs.flatMap((r) => r.calls.map((c) => c.error_pattern))).toEqual(['!$', '!$', '!$'])
    expect(tool_errors).toBe(3)
    // stop_when `^(a+)+$` never matched the answer (the text): the dialogue ran its two turns.
    expect(runs.find((r) => r.case === 'dialogue')).toMatchObject({ status: 'passed', dialogue: { ended: 'max_turns', turns: 2 } })
    expect(runs.find((r) => r.case === 'tool-error')).toMatchObject({ status: 'passed' })
  })
})

describe('a pattern RE2 cannot run is a configuration error naming the field, before anything runs', () => {
  const BAD = `models: [scripted/agent]
tool_error_patterns: ["^(a+)+(?=!)"]
vision_models: ['(a)\\1']
system_prompts: {default: You help.}
tool_tests:
  - id: t
    tool: evil_text
    expect:
      pattern: '(?P<a>a)(?P=a)'
      json: { "$.text": { pattern: '(?<!b)a' } }
      schema: { type: object, properties: { text: { type: string, pattern: '(?!x)a' } } }
cases:
  - id: golden
    prompt: p
    rubric: r
    required_tools:
      - { name: evil_text, args: { q: { pattern: 'a++' } } }
    expect_tool: evil_text
    expect_args: { q: '(?>a)' }
    arg_match: { q: pattern }
  - id: sim
    simulated_user: { goal: g, max_turns: 2, stop_when: '(a)\\1' }
    rubric: r
  - id: ask
    prompt: p
    rubric: r
    elicitation:
      - { match: '(?=a)', action: decline }
  - id: attack
    prompt: p
    rubric: r
    inject:
      - { tool: evil_text, payload: exfiltrate }
    allowed_args: { send_email.to: [{ pattern: '(?<=@)x' }] }
`
  test('the CLI exits 2, one error per field with its line, and never starts the server', async () => {
    writeFileSync(join(work, 'bad.yaml'), BAD)
    const started = join(work, 'started')
    const server = JSON.stringify({ command: process.execPath, args: [fixturePath('servers/regex-server.mjs')], env: { STARTED_FILE: started } })
    const { code, stdout, stderr } = await runTsx(join(root, 'src/cli.ts'), ['--server-config', server, '--eval-cases', 'bad.yaml', '--api-key', 'sk-test'], work)
    expect(code).toBe(2)
    expect(stdout).toBe('')
    const why = (construct: string) => `RE2 does not support ${construct}: patterns run on RE2, whose matching takes linear time (a backtracking engine would risk unbounded backtracking on a hostile text)`
    const lines = stderr.replace(/^error: /, '').trimEnd().split('\n')
    expect(lines.sort()).toEqual(
      [
        `bad.yaml:2:23 at tool_error_patterns[0]: invalid regular expression: ${why('a lookahead ((?=…))')}`,
        `bad.yaml:3:17 at vision_models[0]: invalid regular expression: ${why('a backreference (\\1)')}`,
        `bad.yaml:9:16 at tool_tests[0].expect.pattern: invalid regular expression: ${why('a backreference ((?P=a))')}`,
        `bad.yaml:10:25 at tool_tests[0].expect.json.$.text: pattern "(?<!b)a" is not a valid regular expression: ${why('a lookbehind ((?<!…))')}`,
        `bad.yaml:11:15 at tool_tests[0].expect.schema: the schema cannot be compiled: ${why('a lookahead ((?!…))')}`,
        `bad.yaml:17:50 at cases[0].required_tools[0].args.q.pattern: invalid regular expression: ${why('a possessive quantifier (++)')}`,
        `bad.yaml:19:23 at cases[0].expect_args.q: invalid regular expression: ${why('an atomic group ((?>…))')}`,
        `bad.yaml:22:57 at cases[1].simulated_user.stop_when: invalid regular expression: ${why('a backreference (\\1)')}`,
        `bad.yaml:28:18 at cases[2].elicitation[0].match: invalid regular expression: ${why('a lookahead ((?=…))')}`,
        `bad.yaml:34:48 at cases[3].allowed_args.send_email.to[0].pattern: invalid regular expression: ${why('a lookbehind ((?<=…))')}`
      ].sort()
    )
    expect(existsSync(started)).toBe(false)
    expect(existsSync(join(work, 'eval-results.json'))).toBe(false)
  })

  test('RE2 limits are said too; a plain syntax error keeps its own message', () => {
    expect(() => compileMatcherPattern('a{1001}')).toThrow(/^invalid repeat count: `\{1001\}`: RE2 allows a repeat count up to 1000/)
    expect(() => compileMatcherPattern('([unclosed')).toThrow(/^missing closing \]/)
    expect(() => compileMatcherPattern('\\k<n>')).toThrow(/RE2 does not support a backreference/)
  })
})

describe('Python spellings still work', () => {
  const matches = (pattern: string, text: string) => compileMatcherPattern(pattern).test(text)
  test.each([
    ['named group', '(?P<city>par)is', 'PARIS', true],
    ['\\A … \\Z: the whole text', '\\Aparis\\Z', 'paris', true],
    ['\\Z is the very end (not before a newline)', '\\Aparis\\Z', 'paris\n', false],
    ['\\\\Z is a backslash and a Z', '\\\\Z$', 'x\\Z', true],
    ['a leading (?i)', '(?i)^paris$', 'PARIS', true],
    ['case-insensitive without it', '^paris$', 'Paris', true],
    ['(?s): dot takes a newline', '(?s)a.b', 'a\nb', true],
    ['without (?s) it does not', 'a.b', 'a\nb', false],
    ['(?m): ^ and $ at lines', '(?m)^b$', 'a\nb\nc', true],
    ['without (?m) they are the text’s ends', '^b$', 'a\nb\nc', false],
    ['several leading flags', '(?s)(?m)^a.b$', 'x\na\nb\ny', true],
    ['(?x): spaces and comments go', '(?x) a b  # then c\n c', 'abc', true],
    ['(?x): a class keeps its space, an escaped one stays', '(?x)[ ]x\\ y', ' x y', true],
    ['scoped flags', 'a(?-i:B)', 'AB', true],
    ['scoped flags hold', 'a(?-i:B)', 'Ab', false],
    ['\\uXXXX', '\\u00e9t\\u00E9', 'ÉTÉ', true],
    ['(?#comment)', 'a(?#a comment)b', 'ab', true],
    ['{,n}', '^a{,2}$', 'aa', true],
    ['{,n} is bounded', '^a{,2}$', 'aaa', false],
    ['a ] first in a class', '^[]a]+$', ']a', true],
    ['a search, not a full match', 'rain|snow', 'light rain', true]
  ])('%s', (_name, pattern, text, expected) => {
    expect(matches(pattern, text)).toBe(expected)
  })

  test('JSON Schema patterns: RE2, case-sensitive, ECMAScript spelling; not a pattern at all keeps its own error', () => {
    const schema = (pattern: string) => compileSchema({ type: 'string', pattern })
    const validate = (pattern: string) => {
      const compiled = schema(pattern)
      if (!('validate' in compiled)) throw new Error(compiled.problem)
      return compiled.validate
    }
    // Short texts: in this process a hang could not time out (the CLI test above has the hostile one).
    expect([validate('^(a+)+$')('aaa'), validate('^(a+)+$')('aaa!')]).toEqual([true, false])
    expect(validate('^(?<run>a+)!$')('aaa!')).toBe(true)
    expect(validate('^\\p{L}+$')('été')).toBe(true)
    expect(validate('^A')('a')).toBe(false)
    expect(schema('(?=a)')).toEqual({ problem: expect.stringMatching(/^the schema cannot be compiled: RE2 does not support a lookahead/) })
    expect(schema('([bad')).toEqual({ problem: expect.stringMatching(/^the schema cannot be compiled: Invalid regular expression: \/\(\[bad\/u/) })
    // patternProperties too: one compiled pattern per key.
    const props = compileSchema({ type: 'object', patternProperties: { '^x': { type: 'number' }, '^y': { type: 'string' } } })
    expect('validate' in props && [props.validate({ x1: 1, y1: 's' }), props.validate({ x1: 's' }), props.validate({ y1: 1 })]).toEqual([true, false, false])
  })
})
