import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { kindOf, scriptedBrain, startScriptedLlm, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { resolveOptions, type RawOptions } from '../src/config/options.js'
import { evaluate, prepare } from '../src/evaluate.js'
import { createChatClient } from '../src/llm/chat.js'
import { requestKey } from '../src/llm/cache.js'

describe('record and replay of LLM answers', () => {
  let llm: ScriptedLlm
  let dir: string
  beforeAll(async () => {
    llm = await startScriptedLlm(
      scriptedBrain({ 'weather in Paris': { turns: [[{ name: 'get_weather', args: { city: 'Paris' } }]], answer: (r) => `Paris: ${r[0]}` } }, () => 8, { logprobs: true })
    )
    dir = mkdtempSync(join(tmpdir(), 'cache-'))
    writeFileSync(join(dir, 'evals.yaml'), 'runs: 3\nsystem_prompts: {d: "Be brief."}\ncases:\n  - {id: paris, prompt: "What is the weather in Paris?", rubric: r, required_tools: [get_weather]}\n')
  })
  afterAll(async () => llm.close())

  const run = (mode: string) => {
    const raw = (values: Record<string, string>) =>
      Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v, name: k }])) as unknown as RawOptions
    const options = resolveOptions(
      raw({
        serverConfig: JSON.stringify({ command: process.execPath, args: [fixturePath('../examples/server/server.mjs')] }),
        evalCases: join(dir, 'evals.yaml'),
        apiKey: 'k',
        filter: '',
        maxSteps: '',
        parallel: '',
        concurrency: '',
        baseUrl: llm.url,
        judgeModel: '',
        models: '',
        timeoutSeconds: '',
        conformance: 'off',
        cache: mode,
        cacheDir: join(dir, 'answers')
      })
    )
    return evaluate(prepare(options, {}), { llm: createChatClient({ baseURL: llm.url, apiKey: 'k', maxRetries: 0 }) })
  }

  test('an unchanged suite against an unchanged server re-runs with zero requests and the same results', async () => {
    const first = await run('read-write')
    const requests = llm.requests.length
    // 3 repeats × 2 agent turns, 3 verdicts, 1 set of evaluation steps: repeats share no answer.
    expect(llm.requests.filter((r) => kindOf(r) === 'agent')).toHaveLength(6)
    expect(requests).toBe(10)
    expect(first.summary.cache).toMatchObject({ mode: 'read-write', hits: 0, misses: 10 })
    expect(readdirSync(join(dir, 'answers')).filter((f) => f.endsWith('.json')).length).toBeGreaterThan(0)

    const second = await run('read-only')
    expect(llm.requests.length).toBe(requests)
    expect(second.summary.cache).toMatchObject({ hits: requests, misses: 0, saved_tokens: first.summary.tokens.total, saved_cost_usd: 0.0015 })
    expect((first.summary.tokens.agent.cost_usd ?? 0) + (first.summary.tokens.judge.cost_usd ?? 0)).toBeCloseTo(0.0015, 8)
    const essence = (d: typeof first) => d.runs.map((r) => [r.attempt, r.status, r.final_output, r.metrics[0].score, r.tool_calls.map((c) => c.name)])
    expect(essence(second)).toEqual(essence(first))
  })

  test('off never reads or writes; the key covers the endpoint, the request and the attempt', async () => {
    const before = llm.requests.length
    await run('off')
    expect(llm.requests.length).toBeGreaterThan(before)
    const request = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] }
    expect(requestKey('u', request)).toBe(requestKey('u', { ...request, attempt: 1 }))
    expect(requestKey('u', request)).not.toBe(requestKey('u', { ...request, attempt: 2 }))
    expect(requestKey('u', request)).not.toBe(requestKey('v', request))
    expect(requestKey('u', request)).not.toBe(requestKey('u', { ...request, temperature: 0.5 }))
    // A retry after an unusable answer must not replay that answer.
    expect(requestKey('u', request)).not.toBe(requestKey('u', { ...request, retry: 1 }))
  })
})
