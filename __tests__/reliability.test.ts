import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals'
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pullRequestEnv, startFakeGitHub } from '../__fixtures__/fake-github.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { answer, kindOf, startScriptedLlm, steps, toolCalls, userPrompt, verdict, type ChatRequestBody, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import schema from '../schema/results.schema.json' with { type: 'json' }
import type { ResultsDocument, RunResult } from '../src/results/types.js'
import { secretForms } from '../src/util/redact.js'

// Black-box tests of the committed bundles under real signals, against real process trees.
const root = fixturePath('..')
const CLI = join(root, 'dist/cli/index.js')
const ACTION = join(root, 'dist/index.js')
const FAULTY = fixturePath('servers/faulty-server.mjs')
const haveDist = existsSync(CLI) && existsSync(ACTION)
const describeDist = haveDist ? describe : describe.skip

/** The runner's SIGTERM comes this long after its SIGINT. */
const RUNNER_GRACE_MS = 7500

interface Started {
  child: ChildProcessWithoutNullStreams
  output: { stdout: string; stderr: string }
  exited: Promise<number | null>
}

/** Every process a test started, and every pid file: a failing test must not leave them running. */
const started: ChildProcessWithoutNullStreams[] = []
const pidFiles: string[] = []
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  for (const pid of pidFiles.splice(0).flatMap(recordedPids)) if (alive(pid)) process.kill(pid, 'SIGKILL')
})

function start(script: string, args: string[], env: Record<string, string>, cwd: string): Started {
  const child = spawn(process.execPath, [script, ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } })
  started.push(child)
  const output = { stdout: '', stderr: '' }
  child.stdout.on('data', (c: Buffer) => (output.stdout += c.toString()))
  child.stderr.on('data', (c: Buffer) => (output.stderr += c.toString()))
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  return { child, output, exited }
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Every pid the wrapper shells and the servers wrote down. */
const recordedPids = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number) : [])

/** Polls briefly: a killed process can take a moment to be reaped. */
async function expectAllDead(pids: number[]): Promise<void> {
  expect(pids.length).toBeGreaterThan(0)
  await waitFor(() => pids.every((p) => !alive(p)), `pids ${pids.join(', ')} to be gone`, 3000).catch(() => undefined)
  expect(pids.filter(alive)).toEqual([])
}

/** The faulty fixture server behind `sh -c`, both writing their pids down. */
function wrappedServer(pidFile: string, env: Record<string, string> = {}) {
  pidFiles.push(pidFile)
  return JSON.stringify({ command: 'sh', args: ['-c', `echo $$ >> "${pidFile}"; "${process.execPath}" "${FAULTY}"; true`], env: { PID_FILE: pidFile, ...env } })
}

const SUITE = `models: [m/a]
system_prompts:
  default: You are helpful.
cases:
  - {id: fast-a, prompt: "case fast-a", rubric: "answers"}
  - {id: fast-b, prompt: "case fast-b", rubric: "answers"}
  - {id: slow-c, prompt: "case slow-c", rubric: "answers"}
  - {id: slow-d, prompt: "case slow-d", rubric: "answers"}
`

/** The scripted model: fast cases answer at once; slow cases wait `slowMs` for the model. */
function brain(state: { slowMs: number }) {
  return (request: ChatRequestBody) => {
    const kind = kindOf(request)
    if (kind === 'steps') return steps(request.model)
    if (kind === 'score') return verdict(request.model, 9, 'good')
    const prompt = userPrompt(request)
    return { ...answer(request.model, `answer to ${prompt}`), delayMs: prompt.includes('slow') ? state.slowMs : 0 }
  }
}

const finishedLines = (stdout: string) => stdout.split('\n').filter((l) => /^\[\d+\/\d+\] /.test(l)).length

/** What a run is, without the clock: timings differ between two runs of the same suite. */
function essence(run: RunResult) {
  // Timings and trace ids differ between any two evaluations.
  const { duration_s: _d, total_duration_s: _t, trace_id: _trace, server, llm_calls, tool_calls, judge, ...rest } = run
  return {
    ...rest,
    server: { era: server.era, protocol_version: server.protocol_version, tools: server.tools },
    llm_calls: llm_calls.map((c) => ({ ...c, latency_ms: 0 })),
    tool_calls: tool_calls.map(({ span_id: _span, ...c }) => ({ ...c, latency_ms: 0 })),
    judge: judge && { ...judge, latency_ms: 0 }
  }
}

const readDoc = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as ResultsDocument

const ajv = new Ajv2020({ allErrors: true, strict: false })
addFormats.default(ajv)
const validate = ajv.compile(schema)
const schemaErrors = (doc: unknown) => (validate(doc) ? [] : validate.errors)

describeDist('cancellation, process trees and the run journal (real signals, dist bundles)', () => {
  const state = { slowMs: 60_000 }
  let llm: ScriptedLlm
  beforeAll(async () => {
    llm = await startScriptedLlm(brain(state))
  })
  afterAll(async () => llm.close())

  function cliRun(work: string, extra: string[] = [], conformance = 'off', serverEnv: Record<string, string> = {}) {
    writeFileSync(join(work, 'evals.yaml'), SUITE)
    const pidFile = join(work, 'pids')
    const args = ['--server-config', wrappedServer(pidFile, serverEnv), '--eval-cases', 'evals.yaml', '--base-url', llm.url, '--api-key', 'sk-test', '--conformance', conformance, '--concurrency', '4', ...extra]
    // The run directories (${RUN_DIR}) under the folder's own temp directory.
    return { ...start(CLI, args, { RUNNER_TEMP: join(work, 'tmp') }, work), pidFile }
  }

  /** The CLI in a fresh folder, once both fast runs have finished and both slow ones wait for the model. */
  async function cliPastFastRuns(prefix: string, extra: string[] = [], serverEnv: Record<string, string> = {}) {
    state.slowMs = 60_000
    const work = mkdtempSync(join(tmpdir(), prefix))
    const before = llm.requests.length
    const run = cliRun(work, extra, 'off', serverEnv)
    const slowAsked = () => llm.requests.slice(before).filter((r) => userPrompt(r).includes('slow')).length >= 2
    await waitFor(() => finishedLines(run.output.stdout) === 2 && slowAsked(), 'the fast runs to finish')
    return { work, run }
  }

  test('SIGINT mid-run (CLI): exit 130, finished runs kept, the rest cancelled, everything written, no process left', async () => {
    const { work, run } = await cliPastFastRuns('cancel-cli-', ['--junit', 'junit.xml'])
    run.child.kill('SIGINT')
    // As the runner does: SIGTERM 7.5 s after SIGINT. Exit code 130 shows we were gone before it.
    const runnerTerm = setTimeout(() => run.child.kill('SIGTERM'), RUNNER_GRACE_MS)
    const code = await run.exited
    clearTimeout(runnerTerm)
    expect(code).toBe(130)
    expect(run.output.stderr).toContain('SIGINT: stopping')
    expect(run.output.stderr).toContain('Cancelled by SIGINT')
    expect(run.output.stdout).toMatch(/^\[\d\/4\] - slow-c · m\/a · default — cancelled while waiting for the model \(m\/a\)$/m)

    const doc = readDoc(join(work, 'eval-results.json'))
    expect(doc).toMatchObject({ passed: false, gate: null, cancelled: { signal: 'SIGINT', planned: 4, finished: 2 }, summary: { total: 4, passed: 2, cancelled: 2, failed: 0 } })
    expect(doc.runs.map((r) => [r.case_id, r.status])).toEqual([
      ['fast-a', 'passed'],
      ['fast-b', 'passed'],
      ['slow-c', 'cancelled'],
      ['slow-d', 'cancelled']
    ])
    expect(doc.runs[0]).toMatchObject({ final_output: 'answer to case fast-a', judge: { score: 0.9 } })
    expect(doc.runs[2].cancelled).toMatchObject({ signal: 'SIGINT', waiting_for: 'the model (m/a)' })
    expect(schemaErrors(doc)).toEqual([])
    const report = readFileSync(join(work, 'eval-report.md'), 'utf8')
    expect(report).toContain('**Cancelled by SIGINT**')
    expect(report).toContain('2 of 4 planned runs had finished')
    expect(readFileSync(join(work, 'junit.xml'), 'utf8')).toContain('<skipped message="cancelled (SIGINT) while waiting for the model (m/a)"/>')
    // The journal: a header, every run, an end line.
    const journal = readFileSync(join(work, 'eval-runs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string })
    expect(journal.map((r) => r.type)).toEqual(['header', 'run', 'run', 'run', 'run', 'end'])
    await expectAllDead(recordedPids(run.pidFile))
  })

  test('SIGTERM mid-run (action): exit 143, outputs, summary and a "cancelled" sticky comment, no process left', async () => {
    state.slowMs = 60_000
    const api = await startFakeGitHub()
    const work = mkdtempSync(join(tmpdir(), 'cancel-action-'))
    writeFileSync(join(work, 'evals.yaml'), SUITE)
    const pidFile = join(work, 'pids')
    const run = start(
      ACTION,
      [],
      {
        ...pullRequestEnv(work, api.url),
        INPUT_SERVER_CONFIG: wrappedServer(pidFile),
        INPUT_EVAL_CASES: 'evals.yaml',
        INPUT_OPENROUTER_API_KEY: 'sk-or-test-key',
        INPUT_BASE_URL: llm.url,
        INPUT_CONFORMANCE: 'off',
        INPUT_CONCURRENCY: '4',
        INPUT_GITHUB_TOKEN: 'ghs_fake_token_123'
      },
      work
    )
    try {
      await waitFor(() => finishedLines(run.output.stdout) === 2, 'the fast runs to finish')
      run.child.kill('SIGTERM')
      expect(await run.exited).toBe(143)
    } finally {
      await api.close()
    }
    expect(run.output.stdout).toContain('::warning::SIGTERM received: stopping the evaluation')
    expect(run.output.stdout).toMatch(/::error::Cancelled by SIGTERM at .*: 2 of 4 planned runs had finished/)
    const outputs = readFileSync(join(work, 'out'), 'utf8')
    for (const [name, value] of [['passed', 'false'], ['cancelled', 'true'], ['total', '4'], ['journal', 'eval-runs.jsonl']]) {
      expect(outputs).toMatch(new RegExp(`^${name}<<(ghadelimiter_[\\w-]+)\\n${value}\\n\\1$`, 'm'))
    }
    expect(readFileSync(join(work, 'summary'), 'utf8')).toContain('**Cancelled by SIGTERM**')
    expect(api.comments).toHaveLength(1)
    expect(api.comments[0].body).toContain('### MCP Server Evals — ⊘ cancelled')
    expect(existsSync(join(work, 'eval-transcripts/001-fast-a-m-a-default.json'))).toBe(true)
    expect(JSON.parse(readFileSync(join(work, 'eval-badge.json'), 'utf8'))).toMatchObject({ message: 'cancelled (2/4 passed)', color: 'lightgrey' })
    expect(readDoc(join(work, 'eval-results.json')).runs.map((r) => r.status)).toEqual(['passed', 'passed', 'cancelled', 'cancelled'])
    await expectAllDead(recordedPids(pidFile))
  })

  test('SIGINT before the conformance probe has reached the server: no run starts, every run is cancelled, no probe process is left', async () => {
    state.slowMs = 0
    const work = mkdtempSync(join(tmpdir(), 'cancel-probe-'))
    writeFileSync(join(work, 'evals.yaml'), SUITE)
    const pidFile = join(work, 'pids')
    pidFiles.push(pidFile)
    // The runs start as soon as the probe has reached the server: this one's shell holds the server back, so the SIGINT comes first.
    const held = JSON.stringify({ command: 'sh', args: ['-c', `echo $$ >> "${pidFile}"; sleep 600; "${process.execPath}" "${FAULTY}"; true`] })
    const run = { ...start(CLI, ['--server-config', held, '--eval-cases', 'evals.yaml', '--base-url', llm.url, '--api-key', 'sk-test', '--conformance', 'auto', '--concurrency', '4'], { RUNNER_TEMP: join(work, 'tmp') }, work), pidFile }
    await waitFor(() => recordedPids(run.pidFile).length >= 1, 'the probe server to start')
    const before = llm.requests.length
    run.child.kill('SIGINT')
    expect(await run.exited).toBe(130)
    const doc = readDoc(join(work, 'eval-results.json'))
    expect(doc).toMatchObject({ passed: false, conformance: null, gate: null, cancelled: { signal: 'SIGINT', planned: 4, finished: 0 } })
    expect(doc.runs.map((r) => r.cancelled?.waiting_for)).toEqual(['a free slot', 'a free slot', 'a free slot', 'a free slot'])
    expect(llm.requests.length).toBe(before)
    await expectAllDead(recordedPids(run.pidFile))
  })

  test('SIGHUP (a closed terminal) cancels like SIGINT: exit 129, no process left', async () => {
    const { work, run } = await cliPastFastRuns('cancel-hup-')
    run.child.kill('SIGHUP')
    expect(await run.exited).toBe(129)
    expect(readDoc(join(work, 'eval-results.json')).cancelled).toMatchObject({ signal: 'SIGHUP', finished: 2 })
    await expectAllDead(recordedPids(run.pidFile))
  })

  test('a second signal exits at once, and still no process is left, nor a run directory', async () => {
    const { work, run } = await cliPastFastRuns('cancel-twice-', [], { SCRATCH_DIR: '${RUN_DIR}' })
    const runDirs = join(work, 'tmp', 'mcp-server-evals-run-dirs')
    // The two slow runs hold their directories while they wait for the model.
    expect(readdirSync(runDirs)).toHaveLength(2)
    run.child.kill('SIGINT')
    run.child.kill('SIGINT')
    expect(await run.exited).toBe(130)
    // Whatever was written after the first signal, the finished runs are in the journal.
    const journal = readFileSync(join(work, 'eval-runs.jsonl'), 'utf8')
    expect(journal).toContain('"case_id":"fast-a"')
    expect(journal).toContain('"case_id":"fast-b"')
    await expectAllDead(recordedPids(run.pidFile))
    expect(readdirSync(runDirs)).toEqual([])
  })

  test('SIGKILL mid-run, then --resume: only the missing runs run, and the document equals an uninterrupted one', async () => {
    const { work, run: killed } = await cliPastFastRuns('resume-')
    killed.child.kill('SIGKILL')
    await killed.exited
    // Orphans of a SIGKILLed parent see their stdin close and leave; make sure, for the next steps.
    for (const pid of recordedPids(killed.pidFile)) if (alive(pid)) process.kill(pid, 'SIGKILL')

    // The journal alone re-renders what had finished, and says the rest is missing.
    const rendered = start(CLI, ['report', '--from', 'eval-runs.jsonl', '--output', 'partial.json', '--report', 'partial.md'], {}, work)
    expect(await rendered.exited).toBe(1)
    const partial = readDoc(join(work, 'partial.json'))
    expect(partial).toMatchObject({ passed: false, gate: null, journal: { missing: 2, reused: 0 }, summary: { total: 2, passed: 2 } })
    expect(schemaErrors(partial)).toEqual([])
    expect(readFileSync(join(work, 'partial.md'), 'utf8')).toContain('**Incomplete:** 2 planned runs are missing from the journal')

    state.slowMs = 0
    const before = llm.requests.length
    const resumed = cliRun(work, ['--resume'])
    expect(await resumed.exited).toBe(0)
    const asked = llm.requests.slice(before)
    expect(asked.filter((r) => kindOf(r) === 'agent').map(userPrompt).sort()).toEqual(['case slow-c', 'case slow-d'])
    expect(asked.filter((r) => kindOf(r) === 'score')).toHaveLength(2)
    const resumedDoc = readDoc(join(work, 'eval-results.json'))
    expect(resumedDoc).toMatchObject({ passed: true, journal: { reused: 2, missing: 0 }, cancelled: null })

    const fresh = mkdtempSync(join(tmpdir(), 'uninterrupted-'))
    const whole = cliRun(fresh)
    expect(await whole.exited).toBe(0)
    const wholeDoc = readDoc(join(fresh, 'eval-results.json'))
    expect(resumedDoc.runs.map(essence)).toEqual(wholeDoc.runs.map(essence))
    for (const key of ['passed', 'summary', 'groups', 'metrics', 'gate'] as const) expect(resumedDoc[key]).toEqual(wholeDoc[key])
    // report --from the resumed journal gives the same document again.
    const again = start(CLI, ['report', '--from', 'eval-runs.jsonl', '--output', 'again.json', '--report', 'again.md'], {}, work)
    expect(await again.exited).toBe(0)
    expect(readDoc(join(work, 'again.json'))).toEqual(resumedDoc)
    expect(readFileSync(join(work, 'again.md'), 'utf8')).toBe(readFileSync(join(work, 'eval-report.md'), 'utf8'))
  })
})

describeDist('secrets never reach a file, the cache or the log', () => {
  const serverSecret = 'db-pa"ss wörd/+1'
  const apiKey = 'sk-or-v1-secret-key-0042'
  let llm: ScriptedLlm
  beforeAll(async () => {
    // The model calls the tool that prints the server's token, then repeats both secrets back,
    // raw, inside JSON and URL-encoded.
    llm = await startScriptedLlm((request) => {
      const kind = kindOf(request)
      if (kind === 'steps') return steps(request.model)
      if (kind === 'score') return verdict(request.model, 8, `the answer quotes ${apiKey}`)
      if (!request.messages.some((m) => m.role === 'tool')) return toolCalls(request.model, [{ name: 'hostile', args: {} }])
      const leak = `token ${serverSecret}, json ${JSON.stringify({ token: serverSecret, key: apiKey })}, url ${encodeURIComponent(serverSecret)}, key ${apiKey}`
      return answer(request.model, leak)
    })
  })
  afterAll(async () => llm.close())

  test('grep every file the action wrote, the recorded answers and the journal included: zero hits', async () => {
    const work = mkdtempSync(join(tmpdir(), 'secrets-'))
    writeFileSync(join(work, 'evals.yaml'), 'system_prompts: {default: "Be brief."}\ncases:\n  - {id: leak, prompt: "show the token", rubric: "answers"}\n')
    writeFileSync(join(work, 'out'), '')
    writeFileSync(join(work, 'summary'), '')
    const run = start(
      ACTION,
      [],
      {
        GITHUB_OUTPUT: join(work, 'out'),
        GITHUB_STEP_SUMMARY: join(work, 'summary'),
        RUNNER_TEMP: work,
        INPUT_SERVER_CONFIG: JSON.stringify({ command: process.execPath, args: [FAULTY], env: { SECRET_TOKEN: serverSecret } }),
        INPUT_EVAL_CASES: 'evals.yaml',
        INPUT_OPENROUTER_API_KEY: apiKey,
        INPUT_BASE_URL: llm.url,
        INPUT_CONFORMANCE: 'off',
        INPUT_RESUME: 'true'
      },
      work
    )
    expect(await run.exited).toBe(0)
    const files: string[] = []
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name)
        if (statSync(path).isDirectory()) walk(path)
        else files.push(path)
      }
    }
    walk(work)
    // What was written: results, report, JUnit, badge, transcripts, journal, outputs, summary, cache.
    expect(files.some((f) => f.includes('mcp-server-evals-cache'))).toBe(true)
    expect(files.map((f) => f.slice(work.length + 1))).toEqual(
      expect.arrayContaining(['eval-results.json', 'eval-report.md', 'eval-junit.xml', 'eval-badge.json', 'eval-runs.jsonl', 'out', 'summary', 'eval-transcripts/001-leak-openai-gpt-4o-mini-default.json'])
    )
    const forms = [...secretForms(serverSecret), ...secretForms(apiKey)]
    const hits = files.flatMap((f) => forms.filter((form) => readFileSync(f, 'utf8').includes(form)).map((form) => `${f}: ${form}`))
    expect(hits).toEqual([])
    // The log: masked for the runner, never printed in any form otherwise.
    const log = (run.output.stdout + run.output.stderr).split('\n').filter((l) => !l.startsWith('::add-mask::'))
    expect(log.filter((l) => forms.some((form) => l.includes(form)))).toEqual([])
    // And the redaction left a trace where the secrets were.
    expect(readFileSync(join(work, 'eval-results.json'), 'utf8')).toContain('token ***, json {\\"token\\":\\"***\\",\\"key\\":\\"***\\"}, url ***, key ***')
  })
})
