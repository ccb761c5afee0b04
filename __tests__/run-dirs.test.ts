import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { runOptions } from '../__fixtures__/options.js'
import { kindOf, scriptedBrain, startScriptedLlm, steps, verdict, type AgentScript, type ChatRequestBody, type Responder } from '../__fixtures__/scripted-llm.js'
import { ConfigError } from '../src/config/errors.js'
import { rootsWithRunDir, runDirSubdirs } from '../src/config/run-dir.js'
import { prepare } from '../src/config/prepare.js'
import { evaluate, type EvaluateHooks } from '../src/evaluate.js'
import { CancelledError } from '../src/execute/cancellation.js'
import { keptRunDirs, withoutRunDirs } from '../src/execute/run-dirs.js'
import { makeRunDir, makeRunDirSync, removeLiveRunDirsSync } from '../src/mcp/run-dirs.js'
import type { ResultsDocument, RunResult } from '../src/results/types.js'
import { useRunnerTemp } from '../__fixtures__/env-vars.js'

// ${RUN_DIR} (issue 15): the helpers that make, name and remove the run directories, and the
// engine's use of them through prepare() and evaluate(), against real server processes.

const require = createRequire(import.meta.url)
const FILESYSTEM_SERVER = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js')
const MODEL_VIEW_SERVER = fixturePath('servers/model-view-server.mjs')

/** Where this file's run directories go: RUNNER_TEMP decides, so a test can see what is left there. */
const runner = useRunnerTemp('run-dirs-runner-')
const { base: runDirsBase, inBase, leftSince } = runner

const passAll = () => 9
const stdioConfig = (config: Record<string, unknown>) => JSON.stringify({ command: process.execPath, ...config })

function runOf(doc: ResultsDocument, caseId: string): RunResult {
  const run = doc.runs.find((r) => r.case_id === caseId)
  if (!run) throw new Error(`no run of ${caseId}: ${doc.runs.map((r) => r.case_id).join(', ')}`)
  return run
}

/** The suite at `<dir>/evals.yaml`, through prepare() and evaluate() as the action runs it. */
async function evaluateYaml(
  yaml: string,
  responder: Responder,
  values: Record<string, string>,
  hooks: (llm: { requests: ChatRequestBody[] }) => EvaluateHooks = () => ({})
): Promise<{ doc: ResultsDocument; llm: { requests: ChatRequestBody[] } }> {
  const llm = await startScriptedLlm(responder)
  const dir = mkdtempSync(join(tmpdir(), 'run-dirs-'))
  try {
    writeFileSync(join(dir, 'evals.yaml'), yaml)
    const doc = await evaluate(prepare(runOptions(dir, { baseUrl: llm.url, conformance: 'off', ...values }), {}), hooks(llm))
    return { doc, llm: { requests: llm.requests } }
  } finally {
    await llm.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('withoutRunDirs', () => {
  const base = '/runner/_temp/mcp-server-evals-run-dirs'

  test('a run directory under the base becomes ${RUN_DIR}, what follows it kept; every one in the text', () => {
    const text = `Remembered (stored in ${base}/001-sky-Ab3xYz/state.json); the other is ${base}/002-grass-Qq_9.x, see ${base}/002-grass-Qq_9.x/work/a b.txt`
    expect(withoutRunDirs(text, base)).toBe('Remembered (stored in ${RUN_DIR}/state.json); the other is ${RUN_DIR}, see ${RUN_DIR}/work/a b.txt')
  })

  test('other paths are left alone: the base itself, a sibling of it, another temp directory', () => {
    const text = `${base} and ${base}/ and ${base}-old/001-x/state.json and /tmp/001-x/state.json and /runner/_temp/other/001-x`
    expect(withoutRunDirs(text, base)).toBe(text)
  })

  test('the base is matched as written, not as a pattern', () => {
    const dotted = '/home/me/a.b+c/mcp-server-evals-run-dirs'
    expect(withoutRunDirs(`${dotted}/001-x-1/f`, dotted)).toBe('${RUN_DIR}/f')
    expect(withoutRunDirs('/home/me/aXbbbc/mcp-server-evals-run-dirs/001-x-1/f', dotted)).toBe('/home/me/aXbbbc/mcp-server-evals-run-dirs/001-x-1/f')
  })
})

describe('runDirSubdirs', () => {
  const dir = '/runner/_temp/mcp-server-evals-run-dirs/001-a-XYZ'

  test('the cwd and the file:// roots written with ${RUN_DIR}, resolved; each once', () => {
    expect(runDirSubdirs(dir, '${RUN_DIR}/work', ['file://${RUN_DIR}/data', 'file://${RUN_DIR}/work', 'file://localhost${RUN_DIR}/my%20notes'])).toEqual([
      `${dir}/work`,
      `${dir}/data`,
      `${dir}/my notes`
    ])
  })

  test('a cwd or a root without ${RUN_DIR} (or with its escape alone) is not the run\'s to make', () => {
    expect(runDirSubdirs(dir, '/srv/app', ['file:///workspace', 'file://$${RUN_DIR}/data'])).toEqual([])
    expect(runDirSubdirs(dir, '$${RUN_DIR}/work', [])).toEqual([])
    expect(runDirSubdirs(dir, undefined, [])).toEqual([])
  })

  test('a root that is not a local file URI is skipped, not thrown', () => {
    expect(runDirSubdirs(dir, undefined, ['http://example.com${RUN_DIR}', 'file://${RUN_DIR}/ok'])).toEqual([`${dir}/ok`])
  })

  // A runner temp directory may hold characters a URI gives a meaning: ${RUN_DIR} in a file:// URI
  // stands for the directory, so the root must still name it (and only it).
  test.each(['run#1', 'run?1', '100%'])('a run directory whose path holds %j: the root still names <dir>/data', (name) => {
    const odd = `/runner/${name}/mcp-server-evals-run-dirs/001-a-XYZ`
    expect(runDirSubdirs(odd, undefined, ['file://${RUN_DIR}/data'])).toEqual([`${odd}/data`])
    const [root] = rootsWithRunDir(['file://${RUN_DIR}/data'], odd)
    expect(new URL(root).protocol).toBe('file:')
    expect(decodeURIComponent(new URL(root).pathname)).toBe(`${odd}/data`)
  })
})

describe('makeRunDir', () => {
  let base: string
  beforeAll(() => {
    base = join(mkdtempSync(join(tmpdir(), 'run-dirs-unit-')), 'nested', 'base')
  })
  afterAll(() => rmSync(dirname(dirname(base)), { recursive: true, force: true }))

  test('an empty directory under the base (made when missing), named after the label, with the sub-directories asked for', async () => {
    const run = await makeRunDir(base, '007-my case/x', (path) => [join(path, 'work'), join(path, 'data', 'deep')])
    try {
      expect(dirname(run.path)).toBe(base)
      expect(run.path.split('/').at(-1)).toMatch(/^007-my-case-x-[A-Za-z0-9]{6}$/)
      expect(readdirSync(run.path).sort()).toEqual(['data', 'work'])
      expect(readdirSync(join(run.path, 'data'))).toEqual(['deep'])
      expect(readdirSync(join(run.path, 'work'))).toEqual([])
    } finally {
      await run.dispose(false)
    }
  })

  test('a label that reads as a path stays one directory under the base', async () => {
    const run = await makeRunDir(base, '../../etc/passwd')
    expect(dirname(run.path)).toBe(base)
    expect(run.path.split('/').at(-1)).toMatch(/^etc-passwd-/)
    await run.dispose(false)
  })

  test('two runs of the same label get two directories', async () => {
    const [a, b] = await Promise.all([makeRunDir(base, '001-same'), makeRunDir(base, '001-same')])
    expect(a.path).not.toBe(b.path)
    await Promise.all([a.dispose(false), b.dispose(false)])
  })

  test('a sub-directory outside the directory is not made: a parent, a sibling sharing its prefix, an absolute path elsewhere', async () => {
    const elsewhere = join(dirname(dirname(base)), 'elsewhere')
    const run = await makeRunDir(base, '002-outside', (path) => [join(path, '..', 'escaped'), `${path}-sibling`, elsewhere, path, join(path, 'inside')])
    try {
      expect(readdirSync(base).filter((name) => name !== run.path.split('/').at(-1))).toEqual([])
      expect(existsSync(elsewhere)).toBe(false)
      expect(readdirSync(run.path)).toEqual(['inside'])
    } finally {
      await run.dispose(false)
    }
  })

  test('a sub-directory that cannot be made: it rejects, and the directory is gone', async () => {
    const before = readdirSync(base)
    const made = makeRunDir(base, '003-blocked', (path) => {
      writeFileSync(join(path, 'file'), '')
      return [join(path, 'file', 'below')]
    })
    await expect(made).rejects.toThrow(/ENOTDIR|EEXIST/)
    expect(readdirSync(base).filter((name) => !before.includes(name))).toEqual([])
  })

  test('dispose(false) removes the directory and what the server wrote in it; dispose(true) keeps it; a second dispose changes nothing', async () => {
    const removed = await makeRunDir(base, '004-removed', (path) => [join(path, 'work')])
    writeFileSync(join(removed.path, 'work', 'state.json'), '{}')
    await expect(removed.dispose(false)).resolves.toBe(false)
    expect(existsSync(removed.path)).toBe(false)

    const kept = await makeRunDir(base, '005-kept')
    writeFileSync(join(kept.path, 'state.json'), '{"facts":[]}')
    await expect(kept.dispose(true)).resolves.toBe(true)
    await expect(kept.dispose(false)).resolves.toBe(true)
    expect(readFileSync(join(kept.path, 'state.json'), 'utf8')).toBe('{"facts":[]}')
    rmSync(kept.path, { recursive: true })
  })

  test('removeLiveRunDirsSync removes the directories not yet disposed of (sync ones too), and leaves kept and disposed ones alone', async () => {
    const kept = await makeRunDir(base, '006-kept')
    await kept.dispose(true)
    const disposed = await makeRunDir(base, '006-disposed')
    await disposed.dispose(false)
    // Made again by hand after its disposal: no longer the run's, so not removed.
    mkdirSync(disposed.path)
    const live = await makeRunDir(base, '006-live', (path) => [join(path, 'work')])
    writeFileSync(join(live.path, 'work', 'state.json'), '{}')
    const liveSync = makeRunDirSync(base, 'conformance')
    removeLiveRunDirsSync()
    expect(existsSync(live.path)).toBe(false)
    expect(existsSync(liveSync.path)).toBe(false)
    expect(existsSync(kept.path)).toBe(true)
    expect(existsSync(disposed.path)).toBe(true)
    // What was removed stays removed: its own dispose later neither throws nor brings it back.
    await expect(live.dispose(false)).resolves.toBe(false)
    expect(() => liveSync.remove()).not.toThrow()
    for (const path of [kept.path, disposed.path]) rmSync(path, { recursive: true })
  })
})

describe('keptRunDirs', () => {
  test('none kept: null; else how many and the directory holding them', () => {
    expect(keptRunDirs([])).toBeNull()
    expect(keptRunDirs([{ run_dir: null }, {}])).toBeNull()
    expect(keptRunDirs([{ run_dir: null }, { run_dir: '/t/mcp-server-evals-run-dirs/002-b-x' }, {}])).toEqual({ count: 1, parent: '/t/mcp-server-evals-run-dirs' })
    expect(keptRunDirs([{ run_dir: '/t/base/001-a-x' }, { run_dir: '/t/base/003-c-y' }])).toEqual({ count: 2, parent: '/t/base' })
  })
})

describe('${RUN_DIR} through prepare() and evaluate()', () => {
  /** server-filesystem asked which directories it may use, with a case's roots below ${RUN_DIR}. */
  const listDirectories: Record<string, AgentScript> = {
    'Which directories': { turns: [[{ name: 'list_allowed_directories', args: {} }]], answer: (results) => results[0] }
  }
  const ROOTS_YAML = `models: [scripted/agent]
system_prompts: {d: "You help."}
cases:
  - id: roots
    prompt: Which directories may you use?
    rubric: Names the directory.
    roots: ["file://\${RUN_DIR}/data"]
`
  const FACT = 'the sky is green'
  const rememberScript: Record<string, AgentScript> = {
    'Remember the sky': { turns: [[{ name: 'remember', args: { fact: FACT } }], [{ name: 'recall', args: {} }]], answer: (results) => results[1] }
  }
  const REMEMBER_YAML = `models: [scripted/agent]
system_prompts: {d: "You help."}
cases:
  - id: sky
    prompt: Remember the sky fact, then recall everything.
    rubric: Recalls the sky fact.
`

  test('cwd "${RUN_DIR}/work" with a relative STATE_FILE: the server runs in <run dir>/work, its state lands there, and it is gone afterwards', async () => {
    const before = inBase()
    // While the judge scores, the run (and its directory) is still there: look at what the server left in it.
    let seen: { dirs: string[]; state: unknown } | undefined
    const brain = scriptedBrain(rememberScript, passAll)
    const responder: Responder = (request, index) => {
      if (kindOf(request) !== 'score') return brain(request, index)
      const dirs = leftSince(before)
      const statePath = dirs.length === 1 ? join(runDirsBase(), dirs[0], 'work', 'state.json') : ''
      seen = { dirs, state: statePath && existsSync(statePath) ? JSON.parse(readFileSync(statePath, 'utf8')) : null }
      return verdict(request.model, 9, 'recalled')
    }
    const serverConfig = stdioConfig({ args: [MODEL_VIEW_SERVER, 'STATE_FILE=state.json'], cwd: '${RUN_DIR}/work' })
    const { doc } = await evaluateYaml(REMEMBER_YAML, responder, { serverConfig })
    const run = runOf(doc, 'sky')
    expect(run.status).toBe('passed')
    // The fixture says where it stored the fact: the relative path, resolved in its cwd.
    expect(run.tool_calls.map((c) => c.result)).toEqual([`Remembered: ${FACT} (1 stored in state.json)`, `Facts: ${FACT}`])
    expect(seen).toEqual({ dirs: [expect.stringMatching(/^001-sky-/)], state: { facts: [FACT] } })
    expect(run.run_dir).toBeNull()
    expect(leftSince(before)).toEqual([])
    // Not in the directory the evaluation itself runs in.
    expect(existsSync(join(process.cwd(), 'state.json'))).toBe(false)
  })

  test('the same run failing with keep_run_dirs: <run dir>/work/state.json is there to look at, named by run_dir', async () => {
    const before = inBase()
    const serverConfig = stdioConfig({ args: [MODEL_VIEW_SERVER, 'STATE_FILE=state.json'], cwd: '${RUN_DIR}/work' })
    const { doc } = await evaluateYaml(REMEMBER_YAML, scriptedBrain(rememberScript, () => 2), { serverConfig, keepRunDirs: 'true' })
    const run = runOf(doc, 'sky')
    expect(run.status).toBe('failed')
    expect(run.run_dir).not.toBeNull()
    expect(dirname(run.run_dir!)).toBe(runDirsBase())
    expect(leftSince(before)).toEqual([run.run_dir!.split('/').at(-1)])
    expect(JSON.parse(readFileSync(join(run.run_dir!, 'work', 'state.json'), 'utf8'))).toEqual({ facts: [FACT] })
    rmSync(run.run_dir!, { recursive: true })
  })

  test('a case\'s roots file://${RUN_DIR}/data: the directory exists when server-filesystem starts, it works there alone, and it is removed afterwards', async () => {
    const before = inBase()
    // No ${RUN_DIR} in server_config: the case's roots alone ask for a run directory.
    const { doc } = await evaluateYaml(ROOTS_YAML, scriptedBrain(listDirectories, passAll), { serverConfig: stdioConfig({ args: [FILESYSTEM_SERVER] }) })
    const run = runOf(doc, 'roots')
    expect(run.status).toBe('passed')
    // server-filesystem skips a root that does not exist: it lists <run dir>/data only when it was made before it started.
    const [listed] = run.tool_calls
    expect(listed).toMatchObject({ name: 'list_allowed_directories', is_error: false })
    const allowed = listed.result.split('\n').slice(1)
    expect(allowed).toEqual([expect.stringMatching(new RegExp(`^${runDirsBase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/001-roots-[^/]+/data$`))])
    expect(existsSync(allowed[0])).toBe(false)
    expect(leftSince(before)).toEqual([])
  })

  test('RUNNER_TEMP whose path holds "#": the root still names <run dir>/data, not a directory outside it', async () => {
    const saved = process.env.RUNNER_TEMP
    // A directory named as the path up to the "#": what a root read as a URI with a fragment would name.
    const temp = join(runner.path, 'C#sharp')
    mkdirSync(temp)
    mkdirSync(join(runner.path, 'C'))
    process.env.RUNNER_TEMP = temp
    try {
      const { doc } = await evaluateYaml(ROOTS_YAML, scriptedBrain(listDirectories, passAll), { serverConfig: stdioConfig({ args: [FILESYSTEM_SERVER] }) })
      const allowed = runOf(doc, 'roots').tool_calls[0].result.split('\n').slice(1)
      expect(allowed).toEqual([expect.stringMatching(/\/C#sharp\/mcp-server-evals-run-dirs\/001-roots-[^/]+\/data$/)])
      expect(allowed).not.toContain(join(runner.path, 'C'))
    } finally {
      process.env.RUNNER_TEMP = saved
    }
    expect(readdirSync(join(temp, 'mcp-server-evals-run-dirs'))).toEqual([])
  })

  test('a server that fails to start, with ${RUN_DIR} in an env value: the run is an error, and no directory is left', async () => {
    const before = inBase()
    // Without STATE_FILE the fixture exits 1 as it starts.
    const serverConfig = stdioConfig({ args: [MODEL_VIEW_SERVER], env: { SCRATCH_DIR: '${RUN_DIR}/scratch' } })
    const { doc } = await evaluateYaml(REMEMBER_YAML, scriptedBrain(rememberScript, passAll), { serverConfig })
    const run = runOf(doc, 'sky')
    expect(run.status).toBe('error')
    expect(run.error).toMatchObject({ stage: 'server' })
    expect(run.run_dir).toBeNull()
    expect(leftSince(before)).toEqual([])
  })

  test('the control: with keep_run_dirs the errored run\'s directory was made, and is kept', async () => {
    const before = inBase()
    const serverConfig = stdioConfig({ args: [MODEL_VIEW_SERVER], env: { SCRATCH_DIR: '${RUN_DIR}/scratch' } })
    const { doc } = await evaluateYaml(REMEMBER_YAML, scriptedBrain(rememberScript, passAll), { serverConfig, keepRunDirs: 'true' })
    const run = runOf(doc, 'sky')
    expect(run.status).toBe('error')
    expect(leftSince(before)).toEqual([expect.stringMatching(/^001-sky-/)])
    expect(run.run_dir).toBe(join(runDirsBase(), leftSince(before)[0]))
    rmSync(run.run_dir!, { recursive: true })
  })

  test.each([
    ['server_config', stdioConfig({ args: [MODEL_VIEW_SERVER, 'STATE_FILE=${RUN_DIR}/state.json'] }), '', 'server_config', "input 'server_config': "],
    ['a case\'s roots', stdioConfig({ args: [MODEL_VIEW_SERVER, 'STATE_FILE=/tmp/unused.json'] }), '    roots: ["file://${RUN_DIR}"]\n', 'server_config', "input 'server_config': "],
    ['server_config, from the CLI', stdioConfig({ args: [MODEL_VIEW_SERVER, 'STATE_FILE=${RUN_DIR}/state.json'] }), '', '--server-config', '--server-config: ']
  ])('RUNNER_TEMP a regular file, ${RUN_DIR} in %s: prepare() says so, naming the server config and what to do', (_, serverConfig, roots, name, prefix) => {
    const saved = process.env.RUNNER_TEMP
    const file = join(mkdtempSync(join(runner.path, 'file-')), 'not-a-dir')
    writeFileSync(file, 'a file')
    const dir = mkdtempSync(join(runner.path, 'suite-'))
    writeFileSync(join(dir, 'evals.yaml'), REMEMBER_YAML + roots)
    // The names the action (or the CLI) gives its inputs.
    const options = runOptions(dir, { baseUrl: 'http://127.0.0.1:9/v1', conformance: 'off', serverConfig })
    const named = { ...options, names: { ...options.names!, serverConfig: name } }
    process.env.RUNNER_TEMP = file
    let thrown: unknown
    try {
      prepare(named, {})
    } catch (error) {
      thrown = error
    } finally {
      process.env.RUNNER_TEMP = saved
    }
    expect(thrown).toBeInstanceOf(ConfigError)
    const message = (thrown as ConfigError).message
    expect(message.startsWith(prefix)).toBe(true)
    expect(message).toContain(join(file, 'mcp-server-evals-run-dirs'))
    expect(message).toContain('point RUNNER_TEMP (or TMPDIR) at a writable directory')
    expect(process.env.RUNNER_TEMP).toBe(runner.path)
  })

  test('RUNNER_TEMP a regular file and no ${RUN_DIR} anywhere: nothing to check, prepare() passes', () => {
    const saved = process.env.RUNNER_TEMP
    const file = join(mkdtempSync(join(runner.path, 'file-')), 'not-a-dir')
    writeFileSync(file, 'a file')
    const dir = mkdtempSync(join(runner.path, 'suite-'))
    writeFileSync(join(dir, 'evals.yaml'), REMEMBER_YAML)
    process.env.RUNNER_TEMP = file
    try {
      expect(() => prepare(runOptions(dir, { baseUrl: 'http://127.0.0.1:9/v1', conformance: 'off', serverConfig: stdioConfig({ args: [MODEL_VIEW_SERVER, 'STATE_FILE=/tmp/unused.json'] }) }), {})).not.toThrow()
    } finally {
      process.env.RUNNER_TEMP = saved
    }
  })

  // cwd "${RUN_DIR}/server-cwd" makes both tests fail when no directory is made: the server cannot start in a cwd
  // that is not there (and "/server-cwd", what an empty ${RUN_DIR} would leave, is not there either).
  const PER_PROCESS_CWD = stdioConfig({ args: [MODEL_VIEW_SERVER, 'STATE_FILE=state.json'], cwd: '${RUN_DIR}/server-cwd' })

  test('conformance: only with a ${RUN_DIR} server config: every probe\'s server starts in a directory of its own, and none is left', async () => {
    const before = inBase()
    const { doc, llm } = await evaluateYaml(REMEMBER_YAML, scriptedBrain(rememberScript, passAll), { serverConfig: PER_PROCESS_CWD, conformance: 'only' })
    expect(doc.conformance).not.toBeNull()
    expect(doc.conformance!.era).not.toBe('unreachable')
    expect(doc.behaviour.status).toBe('skipped')
    expect(llm.requests).toEqual([])
    expect(leftSince(before)).toEqual([])
  })

  test('a suite of tool_tests alone: each attempt\'s process gets a fresh ${RUN_DIR} (nothing remembered carries over), and none is left', async () => {
    const before = inBase()
    const yaml = `tool_tests:
  - id: remember-then-recall
    runs: 2
    steps:
      - { tool: remember, args: { fact: sky }, expect: { contains: "(1 stored in state.json)" } }
      - { tool: recall, args: {}, expect: { pattern: "^Facts: sky$" } }
  - id: recall-alone
    tool: recall
    args: {}
    expect: { pattern: "^Facts: none$" }
`
    const { doc, llm } = await evaluateYaml(yaml, scriptedBrain({}, passAll), { serverConfig: PER_PROCESS_CWD, concurrency: '1' })
    expect(doc.tool_tests).toMatchObject({ status: 'ran', total: 2, passed: 2, failed: 0, errored: 0 })
    expect(doc.tool_tests!.tests.map((t) => [t.id, t.runs, t.passed])).toEqual([
      ['remember-then-recall', 2, true],
      ['recall-alone', 1, true]
    ])
    expect(llm.requests).toEqual([])
    expect(leftSince(before)).toEqual([])
  })

  test('cancelled while one run waits for the model and another for the judge: both directories existed, and none is left', async () => {
    const before = inBase()
    const SLOW = 60_000
    const yaml = `models: [scripted/agent]
system_prompts: {d: "You help."}
cases:
  - id: slow-model
    prompt: Remember the slow fact.
    rubric: Remembers it.
  - id: slow-judge
    prompt: Remember the judged fact.
    rubric: Remembers it.
`
    const brain = scriptedBrain(
      {
        'Remember the slow': { turns: [[{ name: 'remember', args: { fact: 'slow' } }]], answer: 'Remembered.' },
        'Remember the judged': { turns: [[{ name: 'remember', args: { fact: 'judged' } }]], answer: 'Remembered.' }
      },
      passAll
    )
    const responder: Responder = async (request, index) => {
      const kind = kindOf(request)
      if (kind === 'steps') return steps(request.model)
      if (kind === 'score') return { ...verdict(request.model, 9, 'ok'), delayMs: SLOW }
      const reply = await brain(request, index)
      // The slow run's model thinks for a minute once it has its tool result.
      return isSlowModelsTurn(request) ? { ...reply, delayMs: SLOW } : reply
    }
    const isSlowModelsTurn = (request: ChatRequestBody) => kindOf(request) === 'agent' && JSON.stringify(request.messages).includes('Remember the slow') && request.messages.some((m) => m.role === 'tool')
    const controller = new AbortController()
    let whileRunning: string[] = []
    const started = Date.now()
    const { doc } = await evaluateYaml(yaml, responder, { serverConfig: stdioConfig({ args: [MODEL_VIEW_SERVER, 'STATE_FILE=${RUN_DIR}/state.json'] }), concurrency: '2' }, (llm) => {
      const asked = (kind: string, text: string) => llm.requests.some((r) => kindOf(r) === kind && JSON.stringify(r.messages).includes(text))
      void waitFor(() => llm.requests.some(isSlowModelsTurn) && asked('score', 'Remember the judged'), 'both runs to wait')
        .then(() => new Promise((r) => setTimeout(r, 200)))
        .finally(() => {
          whileRunning = leftSince(before)
          controller.abort(new CancelledError('SIGINT', new Date().toISOString()))
        })
      return { cancel: controller.signal }
    })
    expect(Date.now() - started).toBeLessThan(SLOW / 2)
    expect(whileRunning.sort()).toEqual([expect.stringMatching(/^001-slow-model-/), expect.stringMatching(/^002-slow-judge-/)])
    expect(doc.runs.map((r) => [r.case_id, r.status])).toEqual([
      ['slow-model', 'cancelled'],
      ['slow-judge', 'cancelled']
    ])
    expect(doc.runs.map((r) => r.run_dir)).toEqual([null, null])
    expect(leftSince(before)).toEqual([])
  })

  test('cancelled with keep_run_dirs: a cancelled run is neither failed nor errored, so its directory goes too', async () => {
    const before = inBase()
    const controller = new AbortController()
    let whileRunning: string[] = []
    const brain = scriptedBrain(rememberScript, passAll)
    const responder: Responder = async (request, index) => {
      const reply = await brain(request, index)
      return kindOf(request) === 'agent' ? { ...reply, delayMs: 60_000 } : reply
    }
    const { doc } = await evaluateYaml(REMEMBER_YAML, responder, { serverConfig: stdioConfig({ args: [MODEL_VIEW_SERVER, 'STATE_FILE=${RUN_DIR}/state.json'] }), keepRunDirs: 'true' }, (llm) => {
      void waitFor(() => llm.requests.some((r) => kindOf(r) === 'agent'), 'the model to be asked')
        .then(() => new Promise((r) => setTimeout(r, 100)))
        .finally(() => {
          whileRunning = leftSince(before)
          controller.abort(new CancelledError('SIGTERM', new Date().toISOString()))
        })
      return { cancel: controller.signal }
    })
    expect(whileRunning).toEqual([expect.stringMatching(/^001-sky-/)])
    expect(runOf(doc, 'sky')).toMatchObject({ status: 'cancelled', run_dir: null })
    expect(leftSince(before)).toEqual([])
  })
})
