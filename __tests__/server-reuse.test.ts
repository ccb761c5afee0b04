import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { runOptions } from '../__fixtures__/options.js'
import { callsThenHangs, scriptedBrain, startScriptedLlm, toolResults, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { ConfigError } from '../src/config/errors.js'
import { prepare } from '../src/config/prepare.js'
import { evaluate } from '../src/evaluate.js'
import { CancelledError } from '../src/execute/cancellation.js'
import { createChatClient } from '../src/llm/chat.js'
import { liveGroups } from '../src/mcp/process-group.js'
import { reusingSessions } from '../src/mcp/session-reuse.js'
import type { ClientInputs, McpSession, OpenOptions, SessionFactory } from '../src/mcp/session.js'
import type { ResultsDocument } from '../src/results/types.js'
import { isRunning } from '../__fixtures__/processes.js'

// server_reuse: worker against real server processes (each records its pid as it starts), and
// the lending rules against a factory of test doubles.

const SERVER = fixturePath('servers/reuse-server.mjs')

let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm(
    scriptedBrain(
      {
        'who answers': { turns: [[{ name: 'whoami', args: {} }]], answer: (results) => results.join(' ') },
        'crash it': { turns: [[{ name: 'crash', args: {} }]], answer: 'crashed' }
      },
      () => 9
    )
  )
})
afterAll(async () => llm.close())

/** Run `cases` (YAML list items) at `concurrency` with `reuse`; the document and the pids of the servers that started. */
async function evaluateReuse(
  cases: string,
  settings: { concurrency: number; reuse?: string; models?: string },
  hooks: { model?: ScriptedLlm; cancel?: AbortSignal; onStarts?: (file: string) => void } = {}
): Promise<{ doc: ResultsDocument; starts: number[] }> {
  const model = hooks.model ?? llm
  const dir = mkdtempSync(join(tmpdir(), 'server-reuse-'))
  const starts = join(dir, 'starts')
  writeFileSync(starts, '')
  hooks.onStarts?.(starts)
  writeFileSync(join(dir, 'evals.yaml'), `models: [${settings.models ?? 'm/a'}]\nsystem_prompts: {d: "Be brief."}\ncases:\n${cases}`)
  const options = runOptions(dir, {
    serverConfig: JSON.stringify({ command: process.execPath, args: [SERVER, `STARTS=${starts}`] }),
    baseUrl: model.url,
    conformance: 'off',
    concurrency: String(settings.concurrency),
    ...(settings.reuse ? { serverReuse: settings.reuse } : {})
  })
  const doc = await evaluate(prepare(options, {}), { llm: createChatClient({ baseURL: model.url, apiKey: 'k', maxRetries: 0 }), cancel: hooks.cancel })
  const pids = readFileSync(starts, 'utf8').split('\n').filter(Boolean).map(Number)
  return { doc, starts: pids }
}


const whoCases = (n: number) => Array.from({ length: n }, (_, i) => `  - {id: c${i + 1}, prompt: "who answers ${i + 1}", rubric: r, required_tools: [whoami]}\n`).join('')
/** The pid a run's whoami call was answered by. */
const answeredBy = (run: ResultsDocument['runs'][number]) => Number(/pid (\d+)/.exec(run.tool_calls[0]?.result ?? '')?.[1])

describe('server_reuse: worker, real processes', () => {
  test('concurrency 2 over 6 runs: exactly 2 server processes start, each run uses one of them, every run passes', async () => {
    const { doc, starts } = await evaluateReuse(whoCases(6), { concurrency: 2, reuse: 'worker' })
    expect(doc.config?.server_reuse).toBe('worker')
    expect(doc.runs.map((r) => r.status)).toEqual(Array(6).fill('passed'))
    expect(starts).toHaveLength(2)
    expect(new Set(doc.runs.map(answeredBy))).toEqual(new Set(starts))
    // Six calls in all across the two processes: each process counted the calls of the runs it served.
    const counts = doc.runs.map((r) => Number(/call (\d+)/.exec(r.tool_calls[0].result)?.[1]))
    expect(counts.reduce((a, b) => Math.max(a, b), 0)).toBeGreaterThan(1)
    // The runs that started a server timed it; the runs that borrowed one started nothing.
    expect(doc.runs.filter((r) => r.server.connect_ms! > 0)).toHaveLength(2)
    expect(doc.runs.every((r) => r.server.tools === 2)).toBe(true)
    expect(liveGroups()).toEqual([])
  })

  test('the default, run, starts one server per run', async () => {
    const { doc, starts } = await evaluateReuse(whoCases(4), { concurrency: 2 })
    expect(doc.config?.server_reuse).toBe('run')
    expect(doc.runs.map((r) => r.status)).toEqual(Array(4).fill('passed'))
    expect(starts).toHaveLength(4)
    expect(new Set(doc.runs.map(answeredBy)).size).toBe(4)
  })

  test('a server that dies mid-run is replaced for the next run, whose stderr tail is its own', async () => {
    const cases = `  - {id: a-first, prompt: "who answers first", rubric: r}\n  - {id: b-crash, prompt: "crash it", rubric: r}\n  - {id: c-after, prompt: "who answers after", rubric: r}\n`
    const { doc, starts } = await evaluateReuse(cases, { concurrency: 1, reuse: 'worker' })
    const [first, crashed, after] = doc.runs
    expect(first.status).toBe('passed')
    expect(crashed.case_id).toBe('b-crash')
    // What the process wrote while this run held it, not what it wrote starting or serving the first run.
    expect(crashed).toMatchObject({ status: 'error', error: { stage: 'server', stderr_tail: `panic in ${starts[0]}` } })
    expect(after.status).toBe('passed')
    expect(starts).toHaveLength(2)
    expect(answeredBy(first)).toBe(starts[0])
    expect(answeredBy(after)).toBe(starts[1])
    // The new process's count starts again.
    expect(after.tool_calls[0].result).toBe(`pid ${starts[1]} call 1`)
    expect(liveGroups()).toEqual([])
  })

  test('a cancel mid-run: the runs holding a server and those waiting for one are cancelled, and no server is left', async () => {
    // The model asks for whoami, then takes a minute to answer: both slots hold a server when the cancel comes.
    const slow = await startScriptedLlm(callsThenHangs('whoami'))
    const controller = new AbortController()
    let startsFile = ''
    try {
      const running = evaluateReuse(whoCases(4), { concurrency: 2, reuse: 'worker' }, { model: slow, cancel: controller.signal, onStarts: (file) => (startsFile = file) })
      const answered = () => slow.requests.filter((r) => toolResults(r).length > 0).length
      while (answered() < 2) await new Promise((resolve) => setTimeout(resolve, 25))
      controller.abort(new CancelledError('SIGINT', new Date().toISOString()))
      const { doc, starts } = await running
      expect(doc.runs.map((r) => r.status)).toEqual(Array(4).fill('cancelled'))
      expect(doc.runs.filter((r) => r.tool_calls.length === 1)).toHaveLength(2)
      expect(starts).toHaveLength(2)
      expect(liveGroups()).toEqual([])
      expect(starts.filter(isRunning)).toEqual([])
    } finally {
      controller.abort(new CancelledError('SIGINT', new Date().toISOString()))
      await slow.close()
      if (startsFile) for (const pid of readFileSync(startsFile, 'utf8').split('\n').filter(Boolean).map(Number)) if (isRunning(pid)) process.kill(pid, 'SIGKILL')
    }
  })
})

describe('server_reuse configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'server-reuse-config-'))
  writeFileSync(join(dir, 'evals.yaml'), 'models: [m/a]\nsystem_prompts: {d: "Be brief."}\ncases:\n  - {id: c1, prompt: p, rubric: r}\n')
  const attempt = (serverConfig: object, reuse: string, names?: { serverConfig: string }) => {
    const options = runOptions(dir, { serverConfig: JSON.stringify(serverConfig), serverReuse: reuse, baseUrl: 'http://127.0.0.1:1/v1' })
    return () => prepare(names ? { ...options, names: { ...options.names!, ...names } } : options, {})
  }

  test('an HTTP server: nothing to reuse, an error naming server_reuse (or --server-reuse on the CLI)', () => {
    const http = { url: 'http://127.0.0.1:1/mcp' }
    expect(attempt(http, 'worker')).toThrow(ConfigError)
    expect(attempt(http, 'worker')).toThrow(/^input 'server_reuse': is 'worker', but the serverConfig input names an HTTP server/)
    expect(attempt(http, 'worker', { serverConfig: '--server-config' })).toThrow(/^--server-reuse: is 'worker', but --server-config names an HTTP server \(url\): there is no server process to reuse/)
    expect(attempt(http, 'run')).not.toThrow()
  })

  test('${RUN_DIR} in server_config: a shared process cannot have a directory per run', () => {
    const config = { command: process.execPath, args: [SERVER, 'DIR=${RUN_DIR}'] }
    expect(attempt(config, 'worker')).toThrow(/^input 'server_reuse': is 'worker', but the serverConfig input uses \$\{RUN_DIR\}/)
    expect(attempt(config, 'run')).not.toThrow()
    // The escaped literal is no directory: nothing to refuse.
    expect(attempt({ command: process.execPath, args: [SERVER, 'DIR=$${RUN_DIR}'] }, 'worker')).not.toThrow()
  })

})

describe('lending rules (test doubles)', () => {
  /** A factory of fake sessions: every open is a new "process", numbered; `kill(n)` makes one's connection drop. */
  function fakeFactory() {
    const opened: { n: number; options: OpenOptions; closed: boolean; connected: boolean }[] = []
    const factory: SessionFactory = {
      transport: 'stdio',
      async open(_signal, options = {}) {
        const record = { n: opened.length + 1, options, closed: false, connected: true }
        opened.push(record)
        const session: McpSession = {
          era: 'modern',
          protocolVersion: '2026-07-28',
          tools: [],
          resources: [],
          prompts: [],
          timings: { connect_ms: 5, list_ms: 1 },
          get connected() {
            return record.connected && !record.closed
          },
          callTool: async (name) => {
            if (name === 'fail') throw new Error('the call failed')
            return { text: `process ${record.n}`, isError: false }
          },
          callToolRaw: async () => {
            throw new Error('not used')
          },
          readResource: async () => ({ text: '', isError: false }),
          getPrompt: async () => ({ text: '', isError: false }),
          stderrTail: () => '',
          sessionHappenings: () => ({ declared: [], max_rounds: 0, misplaced_input_required: [], outside_server_requests: [], reads: [] }),
          sessionRounds: () => [],
          close: async () => void (record.closed = true)
        }
        return session
      }
    }
    return { factory, opened }
  }
  const signal = new AbortController().signal
  const inputsDeclaring = (capabilities: ClientInputs['capabilities'], roots: string[] = []): ClientInputs => ({
    capabilities,
    maxRounds: 3,
    answer: async (method) => ({ result: method === 'roots/list' ? { roots: roots.map((uri) => ({ uri })) } : {}, answered_by: 'test', problem: null })
  })
  const who = async (session: McpSession) => (await session.callTool('whoami', {}, signal)).text

  test('a returned session is lent again; with every one lent, an open waits for one to come back', async () => {
    const { factory, opened } = fakeFactory()
    const sessions = reusingSessions(factory, { size: 2 })
    const [a, b] = await Promise.all([sessions.open(signal), sessions.open(signal)])
    expect(opened).toHaveLength(2)
    let third: McpSession | undefined
    const waiting = sessions.open(signal).then((s) => (third = s))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(third).toBeUndefined()
    const process = await who(b)
    await b.close()
    await waiting
    expect(await who(third!)).toBe(process)
    expect(third!.timings).toEqual({ connect_ms: 0, list_ms: 0 })
    expect(a.timings).toEqual({ connect_ms: 5, list_ms: 1 })
    expect(opened).toHaveLength(2)
    await a.close()
    await third!.close()
    await sessions.closeAll()
    expect(opened.every((o) => o.closed)).toBe(true)
  })

  test('a session whose call threw, or whose connection dropped, is discarded: the next open starts another', async () => {
    const { factory, opened } = fakeFactory()
    const sessions = reusingSessions(factory, { size: 1 })
    const first = await sessions.open(signal)
    await expect(first.callTool('fail', {}, signal)).rejects.toThrow('the call failed')
    await first.close()
    expect(opened[0].closed).toBe(true)
    const second = await sessions.open(signal)
    expect(await who(second)).toBe('process 2')
    await second.close()
    opened[1].connected = false
    const third = await sessions.open(signal)
    expect(await who(third)).toBe('process 3')
    expect(opened[1].closed).toBe(true)
    await third.close()
    await sessions.closeAll()
  })

  test('what cannot be shared gets a process of its own; a different client gets another, closing an idle one to make room', async () => {
    const { factory, opened } = fakeFactory()
    const sessions = reusingSessions(factory, { size: 1 })
    const own = await sessions.open(signal, { runDir: '/tmp/x' })
    expect(opened[0].options.runDir).toBe('/tmp/x')
    await own.close()
    // Not kept: the run's own process is closed with it.
    expect(opened[0].closed).toBe(true)

    const plain = await sessions.open(signal, { inputs: inputsDeclaring({}) })
    await plain.close()
    const withRoots = await sessions.open(signal, { inputs: inputsDeclaring({ roots: {} }, ['file:///a']) })
    expect(opened).toHaveLength(3)
    expect(opened[1].closed).toBe(true)
    await withRoots.close()
    // The same roots answer: the same process; other roots: another.
    const sameRoots = await sessions.open(signal, { inputs: inputsDeclaring({ roots: {} }, ['file:///a']) })
    expect(await who(sameRoots)).toBe('process 3')
    await sameRoots.close()
    const otherRoots = await sessions.open(signal, { inputs: inputsDeclaring({ roots: {} }, ['file:///b']) })
    expect(await who(otherRoots)).toBe('process 4')
    await otherRoots.close()
    await sessions.closeAll()
  })

  test('the server is answered by the run holding the session, and its requests carry that run’s trace context', async () => {
    const { factory, opened } = fakeFactory()
    const sessions = reusingSessions(factory, { size: 1 })
    const asked: string[] = []
    const run = (name: string): OpenOptions => ({
      traceMeta: () => ({ traceparent: name }),
      inputs: { capabilities: { sampling: {} }, maxRounds: 3, answer: async () => (asked.push(name), { result: {}, answered_by: name, problem: null }) }
    })
    const first = await sessions.open(signal, run('first'))
    const routed = opened[0].options
    await routed.inputs!.answer('sampling/createMessage', {}, signal)
    expect(routed.traceMeta!()).toEqual({ traceparent: 'first' })
    await first.close()
    const second = await sessions.open(signal, run('second'))
    expect(opened).toHaveLength(1)
    await routed.inputs!.answer('sampling/createMessage', {}, signal)
    expect(routed.traceMeta!()).toEqual({ traceparent: 'second' })
    expect(asked).toEqual(['first', 'second'])
    await second.close()
    await sessions.closeAll()
  })

  test('a cancel ends the wait for a session and closes the idle ones; a given-back loan takes no more calls', async () => {
    const { factory, opened } = fakeFactory()
    const cancel = new AbortController()
    const sessions = reusingSessions(factory, { size: 1, cancel: cancel.signal })
    const held = await sessions.open(signal)
    const waiting = sessions.open(signal)
    cancel.abort(new Error('cancelled by SIGINT'))
    await expect(waiting).rejects.toThrow('cancelled by SIGINT')
    await held.close()
    expect(opened[0].closed).toBe(true)
    await expect(held.callTool('whoami', {}, signal)).rejects.toThrow('the session was given back')
  })
})
