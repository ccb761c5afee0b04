import { describe, expect, test } from '@jest/globals'
import { FAULTY_SERVER, fixturePath, suiteOf } from '../__fixtures__/harness.js'
import { startHttpServer } from '../__fixtures__/servers/http-server.mjs'
import { answer, kindOf, startScriptedLlm, steps, toolCalls, userPrompt, verdict, type ChatRequestBody, type Responder } from '../__fixtures__/scripted-llm.js'
import { parseSuite } from '../src/config/suite.js'
import type { ServerConfig } from '../src/config/types.js'
import { executeRuns, planOf } from '../src/engine.js'
import { CancelledError } from '../src/execute/cancellation.js'
import { createChatClient } from '../src/llm/chat.js'
import { liveGroups } from '../src/mcp/process-group.js'
import { createSessionFactory, type SessionFactory } from '../src/mcp/session.js'
import type { RunResult } from '../src/results/types.js'
import { createGEvalJudge } from '../src/scoring/geval.js'
import { createSemanticMatcher } from '../src/scoring/semantic.js'

async function waitFor(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

const SLOW = 60_000
const hasToolResult = (request: ChatRequestBody) => request.messages.some((m) => m.role === 'tool')

/**
 * Run `cases` against `server` and the scripted model, wait until `busy` says every run is where
 * the test wants it, cancel, and return the runs with how long the shutdown took. Whatever
 * happens, the evaluation is cancelled and awaited, so a failing test leaves no server behind.
 */
async function cancelWhenBusy(options: {
  cases: string
  server: ServerConfig
  concurrency: number
  responder: Responder
  /** `opened`: how many sessions (servers) have started so far. */
  busy: (asked: (kind: string, text: string) => boolean, finished: string[], opened: number) => boolean
  /** How long to wait after `busy` (a tool call goes out right after the model asked for it). */
  settleMs?: number
}): Promise<{ byCase: Record<string, RunResult>; requestsAfterCancel: number; shutdownMs: number }> {
  const llm = await startScriptedLlm(options.responder)
  const controller = new AbortController()
  let running: Promise<unknown> | undefined
  // The engine keeps no run: they are collected as they finish.
  const runs: RunResult[] = []
  try {
    const suite = parseSuite(suiteOf(options.cases), 'test.yaml')
    const chat = createChatClient({ baseURL: llm.url, apiKey: 'sk-test', maxRetries: 0 })
    const finished: string[] = []
    const factory = createSessionFactory(options.server, { probeTimeoutMs: 3000, requestTimeoutMs: 120_000 })
    let opened = 0
    const sessions: SessionFactory = { transport: factory.transport, open: async (signal, open) => factory.open(signal, open).then((session) => (opened++, session)) }
    running = executeRuns(
      planOf(suite, { today: '2026-12-01' }),
      suite,
      { maxSteps: 5, concurrency: options.concurrency, timeoutSeconds: 120, baseUrl: llm.url, today: '2026-12-01' },
      {
        llm: chat,
        judge: createGEvalJudge(chat, suite.judge_model),
        semantic: createSemanticMatcher(chat, suite.judge_model, controller.signal),
        sessions,
        cancel: controller.signal,
        onRunFinished: (run) => {
          runs.push(run)
          finished.push(run.case_id)
        }
      }
    )
    const asked = (kind: string, text: string) => llm.requests.some((r) => kindOf(r) === kind && JSON.stringify(r.messages).includes(text))
    await waitFor(() => options.busy(asked, finished, opened), 'every run to be busy')
    await new Promise((r) => setTimeout(r, options.settleMs ?? 300))
    const requestsBefore = llm.requests.length
    const cancelledAt = Date.now()
    controller.abort(new CancelledError('SIGINT', new Date().toISOString()))
    await running
    return { byCase: Object.fromEntries(runs.map((r) => [r.case_id, r])), requestsAfterCancel: llm.requests.length - requestsBefore, shutdownMs: Date.now() - cancelledAt }
  } finally {
    if (!controller.signal.aborted) {
      controller.abort(new CancelledError('SIGINT', new Date().toISOString()))
      await running?.catch(() => undefined)
    }
    await llm.close()
  }
}

const caseList = (ids: string[], extra: Record<string, string> = {}) => ids.map((id) => `  - id: ${id}\n    prompt: case ${id}\n    rubric: r\n${extra[id] ?? ''}`).join('')

describe('cancelling an evaluation mid-run', () => {
  test('finished runs stay as they were; every other run is cancelled with what it was waiting for', async () => {
    // fast finishes; slow-model waits for the model; hang-tool for a tool that never answers;
    // slow-judge for its judge; slow-semantic for the judge model's semantic argument match.
    // One slot each, so no run waits for another's (concurrency 5).
    const semantic = '    expect_tool: echo\n    expect_args: {text: "hello there"}\n    arg_match: {text: semantic}\n'
    const { byCase, requestsAfterCancel, shutdownMs } = await cancelWhenBusy({
      cases: caseList(['fast', 'slow-model', 'hang-tool', 'slow-judge', 'slow-semantic'], { 'slow-semantic': semantic }),
      server: FAULTY_SERVER,
      concurrency: 5,
      responder: (request) => {
        const kind = kindOf(request)
        if (kind === 'steps') return steps(request.model)
        if (kind === 'semantic') return { ...answer(request.model, 'yes'), delayMs: SLOW }
        if (kind === 'score') return { ...verdict(request.model, 9, 'good'), delayMs: request.messages[0].content?.includes('case slow-judge') ? SLOW : 0 }
        const prompt = userPrompt(request)
        if (prompt.includes('slow-model')) return { ...answer(request.model, 'late'), delayMs: SLOW }
        if (prompt.includes('hang-tool') && !hasToolResult(request)) return toolCalls(request.model, [{ name: 'hang', args: {} }])
        if (prompt.includes('slow-semantic') && !hasToolResult(request)) return toolCalls(request.model, [{ name: 'echo', args: { text: 'hi' } }])
        return answer(request.model, `answer to ${prompt}`)
      },
      busy: (asked, finished) =>
        finished.includes('fast') && asked('agent', 'case slow-model') && asked('score', 'case slow-judge') && asked('agent', 'case hang-tool') && asked('semantic', 'hello there')
    })
    expect(byCase.fast).toMatchObject({ status: 'passed', success: true, cancelled: null, final_output: 'answer to case fast' })
    expect(byCase['slow-model'].cancelled).toMatchObject({ signal: 'SIGINT', waiting_for: 'the model (openai/gpt-4o-mini)' })
    expect(byCase['hang-tool'].cancelled).toMatchObject({ waiting_for: "the tool 'hang'" })
    expect(byCase['hang-tool'].tool_calls.map((c) => c.name)).toEqual(['hang'])
    expect(byCase['slow-judge'].cancelled).toMatchObject({ waiting_for: 'the judge (openai/gpt-4o-mini)' })
    expect(byCase['slow-judge'].final_output).toBe('answer to case slow-judge')
    expect(byCase['slow-semantic'].cancelled).toMatchObject({ waiting_for: 'the judge (openai/gpt-4o-mini)' })
    expect(byCase['slow-semantic'].golden_assertions).toBeNull()
    for (const id of ['slow-model', 'hang-tool', 'slow-judge', 'slow-semantic']) {
      // The agents of slow-judge and slow-semantic had finished: only their verdicts are missing.
      const stop = id === 'slow-judge' || id === 'slow-semantic' ? 'final_answer' : 'cancelled'
      expect(byCase[id]).toMatchObject({ status: 'cancelled', success: false, stop_reason: stop, error: null, judge: null })
      expect(byCase[id].metrics[0].reason).toMatch(/^Not judged: cancelled by SIGINT while waiting for /)
    }
    // Nothing new was asked of the model after the cancel, and no server is left running.
    expect(requestsAfterCancel).toBe(0)
    expect(liveGroups()).toEqual([])
    // Far below the 60 s the slow replies would take (a generous bound for a loaded machine).
    expect(shutdownMs).toBeLessThan(10_000)
  })

  test('a run waiting for a slot never starts: it is cancelled while waiting for "a free slot"', async () => {
    const { byCase } = await cancelWhenBusy({
      cases: caseList(['slow-model', 'queued']),
      server: FAULTY_SERVER,
      concurrency: 1,
      responder: (request) => (kindOf(request) === 'steps' ? steps(request.model) : { ...answer(request.model, 'late'), delayMs: SLOW }),
      // The queued run's server is started ahead of its slot: cancel once it is up, so the run waits for the slot alone.
      busy: (asked, _finished, opened) => asked('agent', 'case slow-model') && opened === 2
    })
    expect(byCase['slow-model'].cancelled).toMatchObject({ waiting_for: 'the model (openai/gpt-4o-mini)' })
    expect(byCase.queued).toMatchObject({ status: 'cancelled', llm_calls: [], tool_calls: [], cancelled: { waiting_for: 'a free slot' } })
    expect(liveGroups()).toEqual([])
  })

  test('a cancel while a finished run closes its session (a slow close) leaves it cancelled, never failed', async () => {
    // The server ignores stdin EOF, so each close waits for it and then ends its group.
    const slowToClose: ServerConfig = { kind: 'stdio', command: process.execPath, args: [fixturePath('servers/faulty-server.mjs')], env: { IGNORE_STDIN_EOF: '1' } }
    let answeredAt = 0
    const { byCase } = await cancelWhenBusy({
      cases: caseList(['closing']),
      server: slowToClose,
      concurrency: 1,
      responder: (request) => {
        if (kindOf(request) === 'steps') return steps(request.model)
        if (kindOf(request) === 'score') return { ...verdict(request.model, 9, 'good'), delayMs: SLOW }
        answeredAt = Date.now()
        return answer(request.model, 'done')
      },
      // Inside the close (it waits 500 ms for the server to leave): the answer is back, the
      // judge not asked yet. Were the cancel to come later, the judge is waited for: cancelled too.
      busy: () => answeredAt > 0 && Date.now() - answeredAt > 150,
      settleMs: 0
    })
    expect(byCase.closing.status).toBe('cancelled')
    expect(byCase.closing.metrics[0].reason).toMatch(/^Not judged: cancelled by SIGINT/)
  })

  test('a remote Streamable HTTP server: the run waiting for the model is cancelled at once', async () => {
    const http = await startHttpServer()
    try {
      const { byCase, shutdownMs } = await cancelWhenBusy({
        cases: '  - id: remote\n    prompt: weather in Paris\n    rubric: r\n',
        server: { kind: 'http', url: http.url, headers: {} },
        concurrency: 1,
        responder: (request) => {
          if (kindOf(request) === 'steps') return steps(request.model)
          if (!hasToolResult(request)) return toolCalls(request.model, [{ name: 'get_weather', args: { city: 'Paris' } }])
          return { ...answer(request.model, 'late'), delayMs: SLOW }
        },
        busy: (asked) => asked('agent', 'get_weather')
      })
      expect(shutdownMs).toBeLessThan(10_000)
      expect(byCase.remote).toMatchObject({ status: 'cancelled', cancelled: { waiting_for: 'the model (openai/gpt-4o-mini)' } })
      expect(byCase.remote.tool_calls).toMatchObject([{ name: 'get_weather', is_error: false }])
    } finally {
      await http.close()
    }
  })
})

describe('cancelling a conversation', () => {
  test('while the simulated user is asked, and while turn 2’s judge is asked: cancelled, waiting for them; the overall rubric is never asked', async () => {
    let userAsks = 0
    const { byCase, requestsAfterCancel } = await cancelWhenBusy({
      cases: `  - id: simulated
    simulated_user: { goal: Get help., max_turns: 3 }
    rubric: Overall rubric of the simulated dialogue.
  - id: scripted
    turns:
      - { user: First turn., rubric: Rubric one. }
      - { user: Second turn., rubric: Rubric two. }
    rubric: Overall rubric of the scripted dialogue.
user_model: u/sim
`,
      server: FAULTY_SERVER,
      concurrency: 2,
      responder: (request) => {
        const kind = kindOf(request)
        if (kind === 'steps') return steps(request.model)
        if (kind === 'score') return { ...verdict(request.model, 9, 'good'), delayMs: request.messages[0].content?.includes('Rubric two') ? SLOW : 0 }
        // The simulated user writes its opening at once, and takes its time over the next message.
        if (request.model === 'u/sim') return ++userAsks === 1 ? answer(request.model, 'Hello, I need help.') : { ...answer(request.model, 'More, please.'), delayMs: SLOW }
        const latest = request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? ''
        return answer(request.model, `answer to ${latest}`)
      },
      busy: (asked) => userAsks >= 2 && asked('score', 'Rubric two')
    })
    expect(byCase.simulated).toMatchObject({ status: 'cancelled', success: false, judge: null, cancelled: { signal: 'SIGINT', waiting_for: 'the simulated user (u/sim)' } })
    expect(byCase.simulated.dialogue).toMatchObject({ kind: 'simulated', ended: 'stopped', turns: [{ user: 'Hello, I need help.', final_output: 'answer to Hello, I need help.' }] })
    expect(byCase.simulated.metrics[0].reason).toBe('Not judged: cancelled by SIGINT while waiting for the simulated user (u/sim).')

    expect(byCase.scripted).toMatchObject({ status: 'cancelled', success: false, judge: null, stop_reason: 'final_answer', cancelled: { waiting_for: 'the judge (openai/gpt-4o-mini)' } })
    // Both turns answered; no verdict is kept from a cancelled run, turn 1's neither.
    expect(byCase.scripted.dialogue!.turns.map((t) => [t.stop_reason, t.judge])).toEqual([
      ['final_answer', null],
      ['final_answer', null]
    ])
    // Nothing was asked after the cancel: not the simulated user again, not the overall rubric.
    expect(requestsAfterCancel).toBe(0)
    expect(liveGroups()).toEqual([])
  })
})
