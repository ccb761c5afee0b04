import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { runOptions } from '../__fixtures__/options.js'
import { isRunning } from '../__fixtures__/processes.js'
import { callsThenHangs, scriptedBrain, startScriptedLlm, toolResults, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { prepare } from '../src/config/prepare.js'
import { evaluate } from '../src/evaluate.js'
import { CancelledError } from '../src/execute/cancellation.js'
import { createChatClient } from '../src/llm/chat.js'
import { liveGroups } from '../src/mcp/process-group.js'
import type { ResultsDocument } from '../src/results/types.js'

// Servers started ahead of their slot (run-schedule.ts): each is started for one run and used by
// it alone, and one still waiting for its slot when the evaluation ends is ended unused. Real
// server processes, each writing its pid down as it starts and naming itself in its answers.

const SERVER = fixturePath('servers/reuse-server.mjs')
const whoCases = (n: number) => Array.from({ length: n }, (_, i) => `  - {id: c${i + 1}, prompt: "who answers ${i + 1}", rubric: r}\n`).join('')
/** The pid a run's whoami call was answered by, and that process's count of calls. */
const answeredBy = (run: ResultsDocument['runs'][number]) => /pid (\d+) call (\d+)/.exec(run.tool_calls[0]?.result ?? '')?.slice(1).map(Number)

let llm: ScriptedLlm
let dir: string
beforeAll(async () => {
  llm = await startScriptedLlm(scriptedBrain({ 'who answers': { turns: [[{ name: 'whoami', args: {} }]], answer: (results) => results.join(' ') } }, () => 9))
  dir = mkdtempSync(join(tmpdir(), 'start-ahead-'))
})
afterAll(async () => {
  await llm.close()
  rmSync(dir, { recursive: true, force: true })
})

/** `evaluate()` on `runs` cases at `concurrency`; with `startsFile` the servers' pids as they started. */
function evaluateWho(runs: number, concurrency: number, model: ScriptedLlm, cancel?: AbortSignal) {
  const starts = join(dir, `starts-${runs}-${concurrency}-${Date.now()}`)
  writeFileSync(starts, '')
  writeFileSync(join(dir, 'evals.yaml'), `models: [m/a]\nsystem_prompts: {d: "Be brief."}\ncases:\n${whoCases(runs)}`)
  const options = runOptions(dir, {
    serverConfig: JSON.stringify({ command: process.execPath, args: [SERVER, `STARTS=${starts}`] }),
    baseUrl: model.url,
    conformance: 'off',
    concurrency: String(concurrency)
  })
  const pids = () => readFileSync(starts, 'utf8').split('\n').filter(Boolean).map(Number)
  return { done: evaluate(prepare(options, {}), { llm: createChatClient({ baseURL: model.url, apiKey: 'k', maxRetries: 0 }), cancel }), pids }
}

describe('servers started ahead of their slot', () => {
  test('each server is started for one run and answers that run alone; as many servers as runs, none left at the end', async () => {
    const { done, pids } = evaluateWho(9, 2, llm)
    const doc = await done
    expect(doc.runs.map((r) => r.status)).toEqual(Array(9).fill('passed'))
    const starts = pids()
    expect(starts).toHaveLength(9)
    // Every run was answered by a process of its own, as its first call.
    expect(doc.runs.map((r) => answeredBy(r)?.[1])).toEqual(Array(9).fill(1))
    expect(new Set(doc.runs.map((r) => answeredBy(r)?.[0]))).toEqual(new Set(starts))
    // Each run timed its own server's start.
    expect(doc.runs.every((r) => r.server.connect_ms !== null && r.server.tools === 2)).toBe(true)
    expect(liveGroups()).toEqual([])
    expect(starts.filter(isRunning)).toEqual([])
  })

  test('a cancel while servers wait for their slot ends them unused: every run cancelled, no server left', async () => {
    // The one slot's run waits a minute for the model after its call; the next runs' servers start meanwhile.
    const slow = await startScriptedLlm(callsThenHangs('whoami'))
    const controller = new AbortController()
    const { done, pids } = evaluateWho(6, 1, slow, controller.signal)
    try {
      // The first run is waiting for the model, and a later run's server has started ahead of a slot.
      while (slow.requests.filter((r) => toolResults(r).length > 0).length < 1 || pids().length < 2) await new Promise((resolve) => setTimeout(resolve, 25))
      controller.abort(new CancelledError('SIGINT', new Date().toISOString()))
      const doc = await done
      expect(doc.runs.map((r) => r.status)).toEqual(Array(6).fill('cancelled'))
      const [first, ...rest] = doc.runs
      expect(first.cancelled).toMatchObject({ waiting_for: 'the model (m/a)' })
      // The others never reached the model: their servers (those that had started) were ended unused.
      expect(rest.every((r) => r.tool_calls.length === 0 && r.llm_calls.length === 0)).toBe(true)
      expect(pids().length).toBeLessThan(6)
      expect(liveGroups()).toEqual([])
      expect(pids().filter(isRunning)).toEqual([])
    } finally {
      controller.abort(new CancelledError('SIGINT', new Date().toISOString()))
      await done.catch(() => undefined)
      await slow.close()
      for (const pid of pids()) if (isRunning(pid)) process.kill(pid, 'SIGKILL')
    }
  })
})
