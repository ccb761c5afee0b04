import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { evaluateWith, fixturePath, suiteOf } from '../__fixtures__/harness.js'
import { runOptions } from '../__fixtures__/options.js'
import { kindOf, scriptedBrain, startScriptedLlm, steps, type ChatRequestBody, type Reply, type Responder } from '../__fixtures__/scripted-llm.js'
import { parseSuite } from '../src/config/suite.js'
import type { ServerConfig } from '../src/config/types.js'
import { runConformance } from '../src/conformance/run.js'
import { executeRuns, planOf } from '../src/engine.js'
import { prepare } from '../src/config/prepare.js'
import { evaluate } from '../src/evaluate.js'
import { CancelledError } from '../src/execute/cancellation.js'
import { createChatClient, type ChatClient } from '../src/llm/chat.js'
import { createSessionFactory } from '../src/mcp/session.js'
import { expandMatrix } from '../src/plan/expand.js'
import { shardOf } from '../src/plan/shard.js'
import type { RunResult } from '../src/results/types.js'
import { createGEvalJudge } from '../src/scoring/geval.js'
import { createSemanticMatcher } from '../src/scoring/semantic.js'

/**
 * The harness at the floor, part A (issue 14): conformance alongside the runs, every session
 * opened with the era verdict, evaluation steps generated at the start. Real processes and the
 * scripted LLM over HTTP; every assertion is on order or counts, none on time.
 */

const OVERLAP = fixturePath('servers/overlap-server.mjs')

let dir: string
let starts: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'overlap-'))
  starts = join(dir, 'starts')
  writeFileSync(starts, '')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** The overlap fixture with these switches, writing each of its starts down. */
const serverArgs = (switches: Record<string, string> = {}) => [OVERLAP, `STARTS=${starts}`, ...Object.entries(switches).map(([k, v]) => `${k}=${v}`)]
const overlapServer = (switches: Record<string, string> = {}): ServerConfig => ({ kind: 'stdio', command: process.execPath, args: serverArgs(switches), env: {} })
const started = () => readFileSync(starts, 'utf8').split('\n').filter(Boolean).length

/** Each "echo <word>" prompt calls echo once and answers the word. */
const echoes = (words: string[]) => scriptedBrain(Object.fromEntries(words.map((w) => [`echo ${w}`, { turns: [[{ name: 'echo', args: { text: w } }]], answer: w }])), () => 9)

/** `evaluate()` as the CLI runs it, on the suite in `<dir>/evals.yaml`. */
async function evaluateSuite(yaml: string, values: Record<string, string>, llmUrl: string, onConformance?: () => void) {
  writeFileSync(join(dir, 'evals.yaml'), yaml)
  const options = runOptions(dir, { baseUrl: llmUrl, ...values })
  return evaluate(prepare(options, {}), { llm: createChatClient({ baseURL: llmUrl, apiKey: 'k', maxRetries: 0 }), onConformance })
}

/** An HTTP endpoint whose GETs are answered only once it is released (and at once after). */
async function startLatch() {
  const held: ServerResponse[] = []
  let released = false
  const server = createServer((_req, res) => (released ? res.end('open') : held.push(res)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    release() {
      released = true
      for (const res of held.splice(0)) res.end('open')
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

const suiteYaml = (cases: string[], extra = '') => `${extra}models: [m/a]\nsystem_prompts: {default: "Be brief."}\ncases:\n${cases.map((c) => `  - {id: ${c}, prompt: "echo ${c}", rubric: "says ${c}"}\n`).join('')}`

describe('conformance alongside the runs', () => {
  test('the first agent request reaches the model while a conformance probe is still waiting for its answer', async () => {
    // The fixture holds its answer to the probe's call of an unknown tool until the model has seen an agent request.
    const latch = await startLatch()
    const order: string[] = []
    const brain = echoes(['one'])
    const llm = await startScriptedLlm((request, index) => {
      if (kindOf(request) === 'agent' && !order.includes('agent')) {
        order.push('agent')
        latch.release()
      }
      return brain(request, index)
    })
    try {
      const serverConfig = JSON.stringify({ command: process.execPath, args: serverArgs({ LATCH: latch.url }) })
      const doc = await evaluateSuite(suiteYaml(['one']), { serverConfig, conformance: 'auto' }, llm.url, () => order.push('conformance'))
      expect(order).toEqual(['agent', 'conformance'])
      // The held probe got its answer (no timeout): the section holds it.
      expect(doc.conformance?.checks.find((c) => c.id === 'unknown-tool-error')).toMatchObject({ status: 'pass' })
      expect(doc.runs.map((r) => [r.case_id, r.status, r.server.era])).toEqual([['one', 'passed', 'modern']])
      expect(doc.conformance).toMatchObject({ era: 'modern' })
    } finally {
      await llm.close()
      await latch.close()
    }
  })

  test('one server per run, plus what conformance itself starts; with conformance off, one per run', async () => {
    await runConformance(overlapServer(), { discoverTimeoutMs: 3000 })
    const probeStarts = started()
    expect(probeStarts).toBeGreaterThan(0)
    const cases = ['one', 'two', 'three']
    const llm = await startScriptedLlm(echoes(cases))
    try {
      const serverConfig = JSON.stringify({ command: process.execPath, args: serverArgs() })
      writeFileSync(starts, '')
      const withConformance = await evaluateSuite(suiteYaml(cases), { serverConfig, conformance: 'auto', concurrency: '4' }, llm.url)
      expect(withConformance.runs.map((r) => r.status)).toEqual(['passed', 'passed', 'passed'])
      expect(started()).toBe(cases.length + probeStarts)

      writeFileSync(starts, '')
      const without = await evaluateSuite(suiteYaml(cases), { serverConfig, conformance: 'off', concurrency: '4' }, llm.url)
      expect(without.runs.map((r) => r.status)).toEqual(['passed', 'passed', 'passed'])
      // No throw-away copy for the era probe: every run negotiated on its own server.
      expect(started()).toBe(cases.length)
    } finally {
      await llm.close()
    }
  })

  test('a legacy server still works with the prior: every run legacy, one server each plus the probes', async () => {
    await runConformance(overlapServer({ ERA: 'legacy' }), { discoverTimeoutMs: 3000 })
    const probeStarts = started()
    const cases = ['one', 'two']
    const llm = await startScriptedLlm(echoes(cases))
    try {
      writeFileSync(starts, '')
      const serverConfig = JSON.stringify({ command: process.execPath, args: serverArgs({ ERA: 'legacy' }) })
      const doc = await evaluateSuite(suiteYaml(cases), { serverConfig, conformance: 'auto', concurrency: '4' }, llm.url)
      expect(doc.conformance).toMatchObject({ era: 'legacy' })
      expect(doc.runs.map((r) => [r.status, r.server.era, r.server.protocol_version])).toEqual([
        ['passed', 'legacy', '2025-11-25'],
        ['passed', 'legacy', '2025-11-25']
      ])
      expect(started()).toBe(cases.length + probeStarts)
    } finally {
      await llm.close()
    }
  })

  test('a server nobody can reach: behaviour and tool tests skipped once, with the reason, and no model called', async () => {
    const llm = await startScriptedLlm(echoes(['one']))
    try {
      const serverConfig = JSON.stringify({ command: process.execPath, args: [join(dir, 'no-such-server.mjs')] })
      const toolTest = 'tool_tests:\n  - id: echoes\n    tool: echo\n    args: { text: hi }\n    expect: { contains: hi }\n'
      const doc = await evaluateSuite(suiteYaml(['one', 'two'], toolTest), { serverConfig, conformance: 'auto' }, llm.url)
      // The reason says what happened; the server's stderr (why) is said once, with the probe's facts.
      const reason = expect.stringMatching(/^the server could not be started or reached: server exited \(code 1\)/)
      expect(doc.conformance).toMatchObject({ era: 'unreachable', unreachable: { stderr: expect.stringContaining('Cannot find module') } })
      expect(doc.behaviour).toEqual({ status: 'skipped', reason })
      expect(doc.tool_tests).toMatchObject({ status: 'skipped', reason, tests: [] })
      expect(doc.runs).toEqual([])
      expect(doc.passed).toBe(false)
      // Not even the evaluation steps: nothing is judged.
      expect(llm.requests).toHaveLength(0)
    } finally {
      await llm.close()
    }
  })
})

/** The rubric an evaluation-steps request is for. */
const rubricOf = (request: ChatRequestBody) => /Evaluation Criteria:\n([^\n]*)/.exec(request.messages[0]?.content ?? '')?.[1]

const final = (reply: Reply) => (reply.body as { choices: { finish_reason: string }[] }).choices[0].finish_reason === 'stop'

/**
 * A responder whose agent answers (the end of an agent loop) wait until the evaluation steps of
 * every rubric in `rubrics` have been asked for; everything else as `brain` answers it.
 */
function stepsFirst(brain: Responder, rubrics: string[]): Responder {
  let allAsked!: () => void
  const asked = new Promise<void>((resolve) => (allAsked = resolve))
  const seen = new Set<string>()
  return async (request, index) => {
    const reply = await brain(request, index)
    if (kindOf(request) === 'steps') {
      seen.add(rubricOf(request) ?? '')
      if (rubrics.every((r) => seen.has(r))) allAsked()
    }
    if (kindOf(request) === 'agent' && final(reply)) await asked
    return reply
  }
}

describe('evaluation steps at the start', () => {
  const conversationBrain = scriptedBrain(
    {
      'echo first': { turns: [[{ name: 'echo', args: { text: 'first' } }]], answer: 'first' },
      'echo second': { turns: [], answer: 'second' },
      'echo single': { turns: [[{ name: 'echo', args: { text: 'single' } }]], answer: 'single' }
    },
    () => 9
  )
  const suite = suiteOf(`  - id: keep-single
    prompt: echo single
    rubric: rubric of the single case
  - id: keep-talk
    turns:
      - user: echo first
        rubric: rubric of turn one
      - user: echo second
    rubric: rubric of the whole talk
  - id: left-out
    prompt: echo single
    rubric: rubric no run needs
`)

  test('asked for before any agent loop has finished: each rubric the plan judges once (case, turn, overall), none a filter leaves out', async () => {
    const wanted = ['rubric of the single case', 'rubric of turn one', 'rubric of the whole talk']
    const { doc, llm } = await evaluateWith({ suite, server: overlapServer(), responder: stepsFirst(conversationBrain, wanted), settings: { filter: 'keep', timeoutSeconds: 10 } })
    expect(doc.runs.map((r) => [r.case_id, r.status])).toEqual([
      ['keep-single', 'passed'],
      ['keep-talk', 'passed']
    ])
    expect(llm.requests.filter((r) => kindOf(r) === 'steps').map(rubricOf).sort()).toEqual([...wanted].sort())
    // Counted with the judge's tokens as before: three generations and three verdicts (the single case, turn one, the whole talk), 120 tokens each.
    expect(doc.summary.tokens.judge.total_tokens).toBe(6 * 120)
  })

  test("a shard generates the steps of its own runs' rubrics only", async () => {
    const parsed = parseSuite(suite, 'test.yaml')
    const shard = { index: 2, count: 2 }
    const mine = shardOf(expandMatrix(parsed, { today: '2026-11-30' }), shard)
    const wanted = [...new Set(mine.flatMap((spec) => [spec.case.rubric, ...(spec.case.conversation?.kind === 'turns' ? spec.case.conversation.turns.map((t) => t.rubric) : [])]).filter((r): r is string => Boolean(r)))]
    const { doc, llm } = await evaluateWith({ suite, server: overlapServer(), responder: stepsFirst(conversationBrain, wanted), settings: { shard, timeoutSeconds: 10 } })
    // The other shard's runs (and rubrics) are not this one's.
    expect(mine.length).toBeGreaterThan(0)
    expect(mine.length).toBeLessThan(3)
    expect(doc.runs.map((r) => r.case_id)).toEqual(mine.map((spec) => spec.case.id))
    expect(llm.requests.filter((r) => kindOf(r) === 'steps').map(rubricOf).sort()).toEqual([...wanted].sort())
  })

  test('a generation that fails at the start is asked again by the first judge', async () => {
    let stepsFailed!: () => void
    const failed = new Promise<void>((resolve) => (stepsFailed = resolve))
    const brain = echoes(['one'])
    const llm = await startScriptedLlm(async (request, index) => {
      const stepsAsked = llm.requests.filter((r) => kindOf(r) === 'steps').length
      if (kindOf(request) === 'steps' && stepsAsked === 1) return { status: 500, body: { error: { message: 'overloaded' } } }
      const reply = await brain(request, index)
      // The run ends only once the first generation has failed, so its judge comes after.
      if (kindOf(request) === 'agent' && final(reply)) await failed
      return reply
    })
    try {
      const http = createChatClient({ baseURL: llm.url, apiKey: 'k', maxRetries: 0 })
      const chat: ChatClient = {
        complete: (request, signal) => {
          const call = http.complete(request, signal)
          if (String(request.messages[0]?.content).includes('generate 3-4 concise evaluation steps')) call.catch(() => stepsFailed())
          return call
        }
      }
      const parsed = parseSuite(suiteOf('  - {id: one, prompt: "echo one", rubric: says one}\n'), 'test.yaml')
      const judge = createGEvalJudge(chat, parsed.judge_model)
      // The engine keeps no run: they are collected as they finish.
      const runs: RunResult[] = []
      const executed = await executeRuns(
        planOf(parsed, { today: '2026-11-30' }),
        parsed,
        { maxSteps: 5, concurrency: 2, timeoutSeconds: 10, baseUrl: llm.url, today: '2026-11-30' },
        { llm: chat, judge, semantic: createSemanticMatcher(chat, parsed.judge_model), sessions: createSessionFactory(overlapServer(), { probeTimeoutMs: 3000 }), onRunFinished: (run) => runs.push(run) }
      )
      expect(runs.map((r) => [r.status, r.judge?.score])).toEqual([['passed', 0.9]])
      expect(llm.requests.filter((r) => kindOf(r) === 'steps')).toHaveLength(2)
      // Only the generation that succeeded is counted: 120 tokens.
      expect(executed.overhead.total_tokens).toBe(120)
    } finally {
      await llm.close()
    }
  })

  test('cancelled with the evaluation: a generation in flight is aborted', async () => {
    const controller = new AbortController()
    const llm = await startScriptedLlm((request) => {
      // The agent never answers in time; the steps request cancels the evaluation as it arrives.
      if (kindOf(request) === 'agent') return { ...steps(request.model), delayMs: 60_000 }
      controller.abort(new CancelledError('SIGINT', new Date().toISOString()))
      return { ...steps(request.model), delayMs: 60_000 }
    })
    try {
      const http = createChatClient({ baseURL: llm.url, apiKey: 'k', maxRetries: 0 })
      // The steps call's outcome, as the judge sees it.
      let stepsCall: Promise<string> | undefined
      const chat: ChatClient = {
        complete: (request, signal) => {
          const call = http.complete(request, signal)
          if (String(request.messages[0]?.content).includes('generate 3-4 concise evaluation steps')) stepsCall = call.then(() => 'answered', () => 'aborted')
          return call
        }
      }
      const parsed = parseSuite(suiteOf('  - {id: one, prompt: "echo one", rubric: says one}\n'), 'test.yaml')
      const runs: RunResult[] = []
      await executeRuns(
        planOf(parsed, { today: '2026-11-30' }),
        parsed,
        { maxSteps: 5, concurrency: 2, timeoutSeconds: 5, baseUrl: llm.url, today: '2026-11-30' },
        {
          llm: chat,
          judge: createGEvalJudge(chat, parsed.judge_model),
          semantic: createSemanticMatcher(chat, parsed.judge_model, controller.signal),
          sessions: createSessionFactory(overlapServer(), { probeTimeoutMs: 3000 }),
          cancel: controller.signal,
          onRunFinished: (run) => runs.push(run)
        }
      )
      expect(runs.map((r) => r.status)).toEqual(['cancelled'])
      // Aborted, not left to run its 60 s.
      expect(await stepsCall).toBe('aborted')
    } finally {
      await llm.close()
    }
  })
})
