import { describe, expect, test } from '@jest/globals'
import { EXAMPLE_SERVER, suiteOf } from '../__fixtures__/harness.js'
import { scriptedBrain, startScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { parseSuite } from '../src/config/suite.js'
import { executeRuns, planOf } from '../src/engine.js'
import type { RunLayer } from '../src/execute/run-layer.js'
import { RUN_LAYERS } from '../src/execute/run-layers.js'
import { createChatClient } from '../src/llm/chat.js'
import { createSessionFactory } from '../src/mcp/session.js'
import type { RunResult } from '../src/results/types.js'
import { createGEvalJudge } from '../src/scoring/geval.js'
import { createSemanticMatcher } from '../src/scoring/semantic.js'

/**
 * A new run layer is one object: it wraps the session, records its fields, says whether the run
 * passed its part; the lifecycle composes it with the others. This one counts the tool calls the
 * agent made through it and fails a run that made none; it records nothing, and notes in each
 * call's annotations which layer saw it.
 */
function countingLayer(seen: string[]): RunLayer {
  return {
    name: 'counting (test)',
    prepare(spec) {
      let calls = 0
      return {
        systemPrompt: (prompt) => `${prompt}\n\n[counted]`,
        wrap: (session) => ({
          ...session,
          callTool: async (name, args, signal) => {
            calls++
            seen.push(`${spec.case.id}:${name}`)
            const outcome = await session.callTool(name, args, signal)
            return { ...outcome, annotations: { ...outcome.annotations, counted: calls } as typeof outcome.annotations }
          }
        }),
        record: () => ({ fields: {}, passed: calls > 0 })
      }
    }
  }
}

const SUITE = suiteOf(`  - id: weather
    prompt: What's the weather in Paris?
    rubric: Gives the weather.
  - id: chat
    prompt: Say hello.
    rubric: Says hello.
`)

async function runWith(layers: readonly RunLayer[] | undefined): Promise<RunResult[]> {
  const llm = await startScriptedLlm(
    scriptedBrain(
      { 'weather in Paris': { turns: [[{ name: 'get_weather', args: { city: 'Paris' } }]], answer: (r) => `Paris: ${r[0]}` }, 'Say hello': { turns: [], answer: 'Hello!' } },
      () => 9
    )
  )
  try {
    const suite = parseSuite(SUITE, 'test.yaml')
    const chat = createChatClient({ baseURL: llm.url, apiKey: 'sk-test', maxRetries: 0 })
    // The engine keeps no run: they are collected as they finish.
    const runs: RunResult[] = []
    await executeRuns(planOf(suite, { today: '2026-12-01' }), suite, { maxSteps: 5, concurrency: 2, timeoutSeconds: 30, baseUrl: llm.url, today: '2026-12-01' }, {
      llm: chat,
      judge: createGEvalJudge(chat, suite.judge_model),
      semantic: createSemanticMatcher(chat, suite.judge_model),
      sessions: createSessionFactory(EXAMPLE_SERVER, { probeTimeoutMs: 3000, requestTimeoutMs: 30_000 }),
      layers,
      onRunFinished: (run) => runs.push(run)
    })
    return runs
  } finally {
    await llm.close()
  }
}

const byCase = (runs: RunResult[]) => Object.fromEntries(runs.map((r) => [r.case_id, r]))

describe('a run layer is one object in the registry', () => {
  test('without it, both runs pass', async () => {
    const runs = byCase(await runWith(undefined))
    expect(runs.weather.status).toBe('passed')
    expect(runs.chat.status).toBe('passed')
    expect(runs.weather.tool_calls[0]).not.toHaveProperty('counted')
  }, 60_000)

  test('composed after the others, it sees the calls, shapes the prompt and the record, and fails the run it fails', async () => {
    const seen: string[] = []
    const runs = byCase(await runWith([...RUN_LAYERS, countingLayer(seen)]))
    expect(seen).toEqual(['weather:get_weather'])
    // Its wrapper's annotation reaches the record, the others' fields are where they were.
    expect(runs.weather.tool_calls[0]).toMatchObject({ name: 'get_weather', counted: 1 })
    expect(runs.weather.system_prompt).toMatch(/\[counted\]$/)
    expect(Object.keys(runs.weather).slice(Object.keys(runs.weather).indexOf('observed'), Object.keys(runs.weather).indexOf('trace_id') + 1)).toEqual([
      'observed',
      'recovery',
      'answer_check',
      'security',
      'trace_id'
    ])
    expect(runs.weather).toMatchObject({ status: 'passed', success: true })
    // The judge passed the run without a tool call; the layer did not.
    expect(runs.chat).toMatchObject({ rubric_passed: true, success: false, status: 'failed' })
  }, 60_000)
})
