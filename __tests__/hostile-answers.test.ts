import { afterAll, beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals'
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import * as core from '../__fixtures__/core.js'
import { runCli } from '../__fixtures__/cli.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { answer, kindOf, startScriptedLlm, steps, toolResults, userPrompt, verdict, type ChatRequestBody, type Reply, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { parseSuite } from '../src/config/suite.js'
import type { ServerConfig } from '../src/config/types.js'
import { runEvaluation } from '../src/engine.js'
import type { ChatClient } from '../src/llm/chat.js'
import { createSessionFactory } from '../src/mcp/session.js'
import type { ResultsDocument } from '../src/results/types.js'
import { ResultsNotWrittenError, writeResults } from '../src/output/write-results.js'
import { createGEvalJudge } from '../src/scoring/geval.js'
import { createSemanticMatcher } from '../src/scoring/semantic.js'
import { cliCommand } from '../src/cli/invocation.js'

// The action with @actions/core replaced (as in main.test.ts); the CLI runs in this process or as a child.
const realCore = await import('@actions/core')
jest.unstable_mockModule('@actions/core', () => ({ ...realCore, ...core }))
const { run } = await import('../src/main.js')

const root = resolve(fixturePath('..'))
const SERVER = JSON.stringify({ command: process.execPath, args: [join(root, 'examples/server/server.mjs')] })

/** A completion whose `message.content` is whatever the test says, as a server on the wire sent it. */
function rawContent(model: string, content: unknown): Reply {
  const reply = answer(model, '') as { body: { choices: { message: Record<string, unknown> }[] } }
  reply.body.choices[0].message.content = content
  return reply
}

/** A completion whose message is whatever the test says. */
function rawMessage(model: string, message: Record<string, unknown>): Reply {
  const reply = answer(model, '') as { body: { choices: { message: Record<string, unknown>; finish_reason: string }[] } }
  reply.body.choices[0].message = { role: 'assistant', ...message }
  reply.body.choices[0].finish_reason = 'tool_calls'
  return reply
}

/** The content each case's model (and judge) sends, keyed by a word of its prompt. */
const CONTENTS: Record<string, unknown> = {
  plain: 'A plain answer.',
  number: 5,
  object: { text: 'an object' },
  parts: [{ type: 'text', text: 'Hello ' }, { type: 'text', text: 'from parts.' }, { type: 'image_url', image_url: { url: 'https://example.com/x.png' } }],
  refusal: [{ type: 'refusal', refusal: 'I will not do that.' }]
}

/** The brain: the agent's answer per case as CONTENTS says; the judge scores 9, except for the case `judged` whose verdict is content 5. */
function hostileBrain(request: ChatRequestBody): Reply {
  const kind = kindOf(request)
  if (kind === 'steps') return steps(request.model)
  if (kind === 'score') return (request.messages[0].content ?? '').includes('judge-number') ? rawContent(request.model, 5) : verdict(request.model, 9, 'fine')
  const prompt = userPrompt(request)
  const seen = toolResults(request)
  // A call as some OpenAI-compatible servers send it: no id, no type, the arguments as an object.
  if (prompt.includes('case loose-call')) {
    return seen.length ? answer(request.model, `The weather: ${seen[0]}`) : rawMessage(request.model, { content: null, tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }] })
  }
  if (prompt.includes('case bad-call')) return rawMessage(request.model, { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 7, arguments: '{}' } }] })
  const key = Object.keys(CONTENTS).find((k) => prompt.includes(`case ${k}`))
  return key ? rawContent(request.model, CONTENTS[key]) : answer(request.model, `An answer to ${prompt}.`)
}

const suite = (ids: string[]) => `system_prompts:\n  d: Be brief.\ncases:\n${ids.map((id) => `  - {id: ${id}, prompt: "case ${id}", rubric: answers}\n`).join('')}`

let llm: ScriptedLlm
let work: string
const startDir = process.cwd()
beforeAll(async () => {
  llm = await startScriptedLlm(hostileBrain)
})
afterAll(async () => {
  process.chdir(startDir)
  await llm.close()
})
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'hostile-answers-'))
})

/** The CLI in this process on `ids`, its files in `work`. */
async function evaluateCli(ids: string[], ...flags: string[]) {
  const cases = join(work, 'evals.yaml')
  if (!existsSync(cases)) writeFileSync(cases, suite(ids))
  const out = (name: string) => join(work, name)
  const result = await runCli(['--server-config', SERVER, '--eval-cases', cases, '--base-url', llm.url, '--api-key', 'sk-test', '--conformance', 'off', '--output', out('results.json'), '--report', out('report.md'), ...flags])
  const isFile = (path: string) => existsSync(path) && statSync(path).isFile()
  const doc = isFile(out('results.json')) ? (JSON.parse(readFileSync(out('results.json'), 'utf8')) as ResultsDocument) : null
  return { ...result, doc, report: isFile(out('report.md')) ? readFileSync(out('report.md'), 'utf8') : null }
}

const byCase = (doc: ResultsDocument | null) => Object.fromEntries((doc?.runs ?? []).map((r) => [r.case_id, r]))
const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('warning: '))

/**
 * The CLI as a child process (tsx on the sources) in a process group of its own, killed whole if it
 * runs past `ms`: a hang (a read blocked on a FIFO) fails the test, never the worker, and leaves nothing behind.
 */
async function cliChild(args: string[], cwd: string, ms = 60_000) {
  const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'src/cli.ts'), ...args], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), ms)
  child.once('exit', () => clearTimeout(timer))
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null]
  return { code, signal, stdout, stderr }
}

/** A results document to read as a baseline or a report's source: the golden one, as written. */
const golden = () => JSON.parse(readFileSync(fixturePath('golden/results.json'), 'utf8')) as ResultsDocument

describe("the model's answer in every shape the wire format allows, and in shapes it does not", () => {
  test('content as a number or an object is that run’s error; content parts are read (text joined, refusal kept, an image noted); the other runs keep their results', async () => {
    const { code, doc, report, stderr } = await evaluateCli(['plain', 'number', 'object', 'parts', 'refusal', 'judge-number', 'loose-call', 'bad-call'])
    expect(stderr).not.toMatch(/TypeError/)
    expect(code).toBe(1)
    expect(doc?.runs).toHaveLength(8)
    const runs = byCase(doc)
    expect(runs.plain.status).toBe('passed')
    expect(runs.parts).toMatchObject({ status: 'passed', final_output: "Hello from parts.\n\n[1 content part of type 'image_url' left out: only text is read]" })
    expect(runs.refusal).toMatchObject({ status: 'passed', final_output: 'I will not do that.' })
    expect(runs.number).toMatchObject({ status: 'error', error: { stage: 'llm', message: expect.stringContaining('choices[0].message.content is a number (5), where a string, null or a list of content parts belongs') } })
    expect(runs.object).toMatchObject({ status: 'error', error: { stage: 'llm', message: expect.stringContaining('choices[0].message.content is an object ({"text":"an object"})') } })
    // The judge's answer is read the same way: a verdict that is a number is the judge's error for that run.
    expect(runs['judge-number']).toMatchObject({ status: 'error', error: { stage: 'judge', message: expect.stringContaining('choices[0].message.content is a number (5)') } })
    // Tool calls: one without id or type, its arguments an object, is a function call; a name that is a number is the run's error.
    expect(runs['loose-call']).toMatchObject({ status: 'passed', tool_calls: [{ name: 'get_weather', args: { city: 'Paris' }, is_error: false }] })
    expect(runs['loose-call'].final_output).toContain('Paris')
    expect(runs['bad-call']).toMatchObject({ status: 'error', error: { stage: 'llm', message: expect.stringContaining('choices[0].message.tool_calls[0].function.name is a number (7), where a string belongs') } })
    // The judge was shown the joined text.
    expect(llm.requests.some((r) => kindOf(r) === 'score' && (r.messages[0].content ?? '').includes('Hello from parts.'))).toBe(true)
    expect(report).toContain('> Hello from parts')
  })

  test('the action: content parts pass, with the results document and outputs naming it (it exited 0 with no file)', async () => {
    const dir = action(['parts'])
    expect(await run()).toBe(0)
    expect(existsSync(join(dir, 'eval-results.json'))).toBe(true)
    const doc = JSON.parse(readFileSync(join(dir, 'eval-results.json'), 'utf8')) as ResultsDocument
    expect(doc.runs[0]).toMatchObject({ status: 'passed', final_output: expect.stringContaining('Hello from parts.') })
    expect(outputs()).toMatchObject({ passed: 'true', results_json: 'eval-results.json', report_md: 'eval-report.md' })
    expect(core.setFailed).not.toHaveBeenCalled()
  })
})

describe('a run whose answer no stage could read is that run’s error', () => {
  test('a chat client that hands on content 5 (no wire format in between): that run errors, the others keep their results', async () => {
    const chat = await import('../src/llm/chat.js')
    const wire = chat.createChatClient({ baseURL: llm.url, apiKey: 'sk-test', maxRetries: 0 })
    // A client of its own (a test double, a future provider) that does not read answers as chat.ts does.
    const careless: ChatClient = {
      async complete(request, signal) {
        const response = await wire.complete(request, signal)
        const prompt = request.messages.find((m) => m.role === 'user')?.content
        return typeof prompt === 'string' && prompt.includes('case careless') ? { ...response, content: 5 as unknown as string } : response
      }
    }
    const suiteText = suite(['plain', 'careless'])
    const parsed = parseSuite(suiteText, 'evals.yaml')
    const server = JSON.parse(SERVER) as { command: string; args: string[] }
    const config: ServerConfig = { kind: 'stdio', command: server.command, args: server.args, env: {} }
    const doc = await runEvaluation(parsed, config, { maxSteps: 5, concurrency: 2, timeoutSeconds: 30, baseUrl: llm.url, today: '2026-12-02' }, {
      llm: careless,
      judge: createGEvalJudge(careless, parsed.judge_model),
      semantic: createSemanticMatcher(careless, parsed.judge_model),
      sessions: createSessionFactory(config, { probeTimeoutMs: 3000, requestTimeoutMs: 30_000 })
    })
    const runs = byCase(doc)
    expect(runs.plain.status).toBe('passed')
    expect(runs.careless).toMatchObject({ status: 'error', error: { message: expect.stringMatching(/^internal error: /) } })
  })
})

describe('a step never exits 0 without its results document', () => {
  test('the action: a results file that cannot be written fails the step, and no output names a file not written', async () => {
    const dir = action(['plain'])
    mkdirSync(join(dir, 'eval-results.json'))
    const code = await run()
    expect(code).toBe(1)
    expect(core.setFailed).toHaveBeenCalledTimes(1)
    expect(core.setFailed).toHaveBeenCalledWith(expect.stringMatching(/^The results could not be written \(EISDIR.*\): only eval-report\.md.* were written, so this step fails whatever the verdict\.$/))
    const named = outputs()
    // The files rendered with it were written, and are named; the results document is not.
    expect(named).toMatchObject({ results_json: '', report_md: 'eval-report.md' })
    expect(readFileSync(join(dir, 'eval-report.md'), 'utf8')).toContain('# Eval Report')
    // The journal was written: it is named, and it is there.
    expect(named.journal).toBe('eval-runs.jsonl')
    expect(existsSync(join(dir, 'eval-runs.jsonl'))).toBe(true)
  })

  test('the CLI: exit 1 with an error that says so and where the runs are', async () => {
    mkdirSync(join(work, 'results.json'))
    const { code, stderr, stdout } = await evaluateCli(['plain'])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^error: the results could not be written \(EISDIR.*\): only .*report\.md, .*eval-report\.html were written; the runs are in the journal .*eval-runs\.jsonl \(.* report --from .*eval-runs\.jsonl\)$/m)
    // The way to rebuild them is a command that runs here.
    expect(stderr).toContain(`(${cliCommand()} report --from `)
    expect(stdout).not.toContain('Results:')
  })

  test('a renderer that fails does not keep the results document from being written first, nor the other files', () => {
    const doc = golden()
    ;(doc.runs[0] as unknown as { final_output: string[] }).final_output = ['an answer the report cannot render']
    const paths = { resultsPath: join(work, 'first.json'), reportPath: join(work, 'first.md'), junitPath: join(work, 'first.xml') }
    let thrown: unknown
    try {
      writeResults(doc, paths, [])
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(ResultsNotWrittenError)
    expect((thrown as Error).message).toMatch(/^.*first\.md: the report could not be rendered \(.+\)$/)
    expect((thrown as ResultsNotWrittenError).written.files).toEqual([paths.resultsPath, paths.junitPath])
    expect(JSON.parse(readFileSync(paths.resultsPath, 'utf8')).runs).toHaveLength(doc.runs.length)
    expect(existsSync(paths.reportPath)).toBe(false)
  })

  test('report --from into a report path that cannot be written: exit 1 naming it, not a crash', async () => {
    writeFileSync(join(work, 'from.json'), JSON.stringify(golden()))
    mkdirSync(join(work, 'r-dir.md'))
    const { code, stderr } = await runCli(['report', '--from', join(work, 'from.json'), '--report', join(work, 'r-dir.md')])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^error: the results could not be written \(.*r-dir\.md.*\)$/m)
  })
})

describe('a bad baseline is a warning naming the file and what is wrong, never the end of the evaluation', () => {
  test('a baseline without metrics.by_model: the finished runs are kept, one warning, gated on the floors alone', async () => {
    const base = golden() as unknown as { metrics: Record<string, unknown> }
    delete base.metrics.by_model
    writeFileSync(join(work, 'base.json'), JSON.stringify(base))
    const { code, doc, stderr } = await evaluateCli(['plain', 'parts'], '--baseline', join(work, 'base.json'))
    expect(code).toBe(0)
    expect(doc?.runs.map((r) => r.status)).toEqual(['passed', 'passed'])
    expect(warnings(stderr)).toEqual([`warning: No baseline: cannot use ${join(work, 'base.json')} (metrics.by_model is missing, which the gate reads); gating on the pass floors alone.`])
    expect(doc?.gate).toMatchObject({ baseline: null, note: 'no baseline: the pass floors decide' })
  })

  test('a baseline whose runs hold a number for an answer: the same warning, naming the field', async () => {
    const base = golden()
    ;(base.runs[0] as unknown as { final_output: number }).final_output = 5
    writeFileSync(join(work, 'base.json'), JSON.stringify(base))
    writeFileSync(join(work, 'from.json'), JSON.stringify(golden()))
    const { code, stderr } = await runCli(['report', '--from', join(work, 'from.json'), '--baseline', join(work, 'base.json'), '--report', join(work, 'r.md')])
    expect(code).toBeLessThan(2)
    expect(warnings(stderr)).toEqual([`warning: No baseline: cannot use ${join(work, 'base.json')} (runs[0].final_output is a number, not string or null, which the gate reads); gating on the pass floors alone.`])
  })

  test.each([
    ['/dev/zero', () => '/dev/zero', 'a character device'],
    ['a FIFO with no writer', () => fifo(join(work, 'baseline.fifo')), 'a FIFO']
  ])('a baseline that is %s: a warning, no hang, no memory spent', async (_name, path, kind) => {
    writeFileSync(join(work, 'from.json'), JSON.stringify(golden()))
    const baseline = path()
    const { code, signal, stderr } = await cliChild(['report', '--from', 'from.json', '--baseline', baseline, '--report', 'r.md'], work)
    expect(signal).toBeNull()
    expect(code).toBeLessThan(2)
    expect(stderr).toContain(`warning: No baseline: cannot use ${baseline} (${baseline} is not a regular file (${kind})); gating on the pass floors alone.`)
    expect(readFileSync(join(work, 'r.md'), 'utf8')).toContain('# Eval Report')
  }, 90_000)
})

describe('report --from and merge refuse what is not a file, naming it', () => {
  test.each([
    ['report --from a FIFO', (f: string) => ['report', '--from', f], /^error: cannot read --from .*in\.fifo: .*in\.fifo is not a regular file \(a FIFO\)$/m],
    ['merge a FIFO', (f: string) => ['merge', f], /^error: .*in\.fifo: cannot be read \(.*in\.fifo is not a regular file \(a FIFO\)\)/m],
    ['report --from /dev/zero', () => ['report', '--from', '/dev/zero'], /^error: cannot read --from \/dev\/zero: \/dev\/zero is not a regular file \(a character device\)$/m]
  ])('%s: exit 2 with a clear error, no hang', async (_name, args, message) => {
    const { code, signal, stderr } = await cliChild(args(fifo(join(work, 'in.fifo'))), work)
    expect(signal).toBeNull()
    expect(code).toBe(2)
    expect(stderr).toMatch(message)
  }, 90_000)

  test('report --from a document with an answer that is a number: exit 2 naming the field, not a crash', async () => {
    const doc = golden()
    ;(doc.runs[0] as unknown as { final_output: number }).final_output = 5
    writeFileSync(join(work, 'odd.json'), JSON.stringify(doc))
    const { code, stderr } = await runCli(['report', '--from', join(work, 'odd.json'), '--report', join(work, 'r.md')])
    expect(code).toBe(2)
    expect(stderr).toContain(`error: --from ${join(work, 'odd.json')} is not a results document this version can render: runs[0].final_output is a number, not string or null`)
  })
})

describe('a recorded answer of the wrong shape is a miss with one warning', () => {
  test('cached answers with content 5: the model is asked again, one warning names the entry, the report renders', async () => {
    const cache = join(work, 'cache')
    const first = await evaluateCli(['plain'], '--cache', 'read-write', '--cache-dir', cache)
    expect(first.code).toBe(0)
    const entries = readdirSync(cache).filter((f) => f.endsWith('.json'))
    expect(entries.length).toBeGreaterThan(0)
    for (const entry of entries) {
      const stored = JSON.parse(readFileSync(join(cache, entry), 'utf8')) as { content: unknown }
      writeFileSync(join(cache, entry), JSON.stringify({ ...stored, content: 5 }))
    }
    const asked = llm.requests.length
    const second = await evaluateCli(['plain'], '--cache', 'read-only', '--cache-dir', cache)
    expect(second.code).toBe(0)
    expect(second.doc?.runs[0]).toMatchObject({ status: 'passed', final_output: 'A plain answer.' })
    expect(second.doc?.summary.cache).toMatchObject({ hits: 0, misses: entries.length })
    expect(llm.requests.length - asked).toBe(entries.length)
    const [warning, ...more] = warnings(second.stderr)
    expect(more).toEqual([])
    expect(warning).toMatch(new RegExp(`^warning: Skipped an unreadable recorded LLM answer \\(${cache}/[0-9a-f]{64}\\.json: content is a number \\(5\\), where a string or null belongs\\); the model is asked instead\\.`))
    expect(second.report).toContain('> A plain answer')
  })
})

describe('a cache entry or a journal that is a FIFO: a warning, no hang', () => {
  test('--resume from a FIFO journal, --cache read-only with an entry that is a FIFO: both warned of, everything runs, the results are written', async () => {
    const cache = join(work, 'cache')
    expect((await evaluateCli(['plain'], '--cache', 'read-write', '--cache-dir', cache)).code).toBe(0)
    const [entry] = readdirSync(cache).filter((f) => f.endsWith('.json'))
    execFileSync('rm', [join(cache, entry)])
    fifo(join(cache, entry))
    const journal = fifo(join(work, 'journal.fifo'))
    const args = ['--server-config', SERVER, '--eval-cases', 'evals.yaml', '--base-url', llm.url, '--api-key', 'sk-test', '--conformance', 'off', '--cache', 'read-only', '--cache-dir', 'cache', '--journal', 'journal.fifo', '--resume', '--output', 'again.json']
    const { code, signal, stderr } = await cliChild(args, work)
    expect(signal).toBeNull()
    expect(code).toBe(0)
    expect(stderr).toContain(`warning: resume: cannot read the run journal journal.fifo: journal.fifo is not a regular file (a FIFO); running everything.`)
    expect(stderr).toContain(`warning: Skipped an unreadable recorded LLM answer (${join('cache', entry)}: ${join('cache', entry)} is not a regular file (a FIFO)); the model is asked instead.`)
    expect((JSON.parse(readFileSync(join(work, 'again.json'), 'utf8')) as ResultsDocument).runs[0].status).toBe('passed')
    // The new journal took the FIFO's place.
    expect(statSync(journal).isFile()).toBe(true)
  }, 90_000)
})

describe('a journal with wrong types: its records are skipped with one warning, by line', () => {
  test('--resume runs the damaged runs again and reuses the rest; report --from renders what is readable', async () => {
    const first = await evaluateCli(['plain', 'parts', 'refusal'])
    expect(first.code).toBe(0)
    const journal = join(work, 'eval-runs.jsonl')
    const lines = readFileSync(journal, 'utf8').split('\n')
    const lineOf = (id: string) => lines.findIndex((l) => l.includes('"type":"run"') && l.includes(`"case_id":"${id}"`))
    const damage = (id: string, change: (run: Record<string, unknown>) => void) => {
      const i = lineOf(id)
      const record = JSON.parse(lines[i]) as { run: Record<string, unknown> }
      change(record.run)
      lines[i] = JSON.stringify(record)
      return i + 1
    }
    const numberLine = damage('plain', (run) => (run.final_output = 5))
    const callsLine = damage('parts', (run) => (run.tool_calls = 'none'))
    writeFileSync(journal, lines.join('\n'))
    copyFileSync(journal, join(work, 'damaged.jsonl'))
    const [a, b] = [numberLine, callsLine].sort((x, y) => x - y)
    const why = (line: number) => (line === numberLine ? `line ${line}: run.final_output is a number, not string or null` : `line ${line}: run.tool_calls is a string, not array`)

    const from = await runCli(['report', '--from', join(work, 'damaged.jsonl'), '--output', join(work, 'from.json'), '--report', join(work, 'from.md')])
    expect(from.code).toBe(1)
    expect(warnings(from.stderr)).toEqual([`warning: skipped 2 unreadable lines of ${join(work, 'damaged.jsonl')} (${why(a)}; ${why(b)}).`])
    const rebuilt = JSON.parse(readFileSync(join(work, 'from.json'), 'utf8')) as ResultsDocument
    expect(rebuilt.runs.map((r) => r.case_id)).toEqual(['refusal'])
    expect(rebuilt.journal?.missing).toBe(2)

    const resumed = await evaluateCli(['plain', 'parts', 'refusal'], '--resume')
    expect(resumed.code).toBe(0)
    expect(warnings(resumed.stderr)).toEqual([`warning: resume: skipped 2 unreadable lines of ${journal} (${why(a)}; ${why(b)}); their runs run again.`])
    expect(resumed.doc?.journal?.reused).toBe(1)
    expect(resumed.doc?.runs.map((r) => [r.case_id, r.status, r.final_output])).toEqual([
      ['plain', 'passed', 'A plain answer.'],
      ['parts', 'passed', expect.stringContaining('Hello from parts.')],
      ['refusal', 'passed', 'I will not do that.']
    ])
  })
})

/** The action's inputs for `ids` in a fresh directory it runs in. */
function action(ids: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-answers-action-'))
  process.chdir(dir)
  process.env.RUNNER_TEMP = dir
  for (const key of Object.keys(core.inputs)) delete core.inputs[key]
  core.summaryText.length = 0
  writeFileSync('evals.yaml', suite(ids))
  Object.assign(core.inputs, { server_config: SERVER, eval_cases: 'evals.yaml', openrouter_api_key: 'sk-or-v1-abcdef', base_url: llm.url, conformance: 'off' })
  return dir
}

function outputs(): Record<string, string> {
  return Object.fromEntries(core.setOutput.mock.calls.map(([name, value]) => [name, String(value)]))
}

/** A FIFO no one writes to. */
function fifo(path: string): string {
  if (!existsSync(path)) execFileSync('mkfifo', [path])
  return path
}
