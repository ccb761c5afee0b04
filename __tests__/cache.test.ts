import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { kindOf, scriptedBrain, startScriptedLlm, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { resolveOptions, type RawOptions } from '../src/config/options.js'
import { prepare } from '../src/config/prepare.js'
import { evaluate } from '../src/evaluate.js'
import { createChatClient, type ChatClient } from '../src/llm/chat.js'
import { createCachingChatClient, requestKey } from '../src/llm/cache.js'
import { secretForms } from '../src/util/redact.js'

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
        cacheDir: join(dir, 'answers'),
        resultsPath: join(dir, 'eval-results.json')
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

describe('recorded answers never hold a secret', () => {
  const secret = 'tok "en"/ä+1 2'
  const chat = (content: string): ChatClient => ({
    complete: async () => ({ content, tool_calls: [], finish_reason: 'stop', usage: null, logprobs: null, latency_ms: 5 })
  })
  const request = { model: 'm', messages: [{ role: 'user' as const, content: 'what is the token?' }] }

  test('an answer that echoes a secret (in any encoding) is stored and replayed redacted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cache-secret-'))
    const leaky = `raw ${secret} json ${JSON.stringify({ t: secret })} url ${encodeURIComponent(secret)}`
    const writer = createCachingChatClient(chat(leaky), { dir, mode: 'read-write', baseURL: 'u', secrets: [secret] })
    expect((await writer.client.complete(request)).content).toBe(leaky)
    const stored = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n')
    for (const form of secretForms(secret)) expect(stored).not.toContain(form)
    expect(stored).toContain('raw *** json')
    const reader = createCachingChatClient(chat('never asked'), { dir, mode: 'read-only', baseURL: 'u', secrets: [secret] })
    expect((await reader.client.complete(request)).content).toBe('raw *** json {"t":"***"} url ***')
    expect(reader.stats).toMatchObject({ hits: 1, misses: 0 })
  })

  test('corrupt or truncated entries are misses with one warning, never a crash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cache-corrupt-'))
    const warnings: string[] = []
    const other = { ...request, messages: [{ role: 'user' as const, content: 'another question' }] }
    writeFileSync(join(dir, `${requestKey('u', request)}.json`), '{"content": "half an ans')
    writeFileSync(join(dir, `${requestKey('u', other)}.json`), '[1, 2, 3]')
    const cached = createCachingChatClient(chat('fresh'), { dir, mode: 'read-write', baseURL: 'u', onWarning: (m) => warnings.push(m) })
    expect((await cached.client.complete(request)).content).toBe('fresh')
    expect((await cached.client.complete(other)).content).toBe('fresh')
    expect(cached.stats).toMatchObject({ hits: 0, misses: 2 })
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^Skipped an unreadable recorded LLM answer/)
    // The broken entry was replaced by the fresh answer.
    expect((await cached.client.complete(request)).content).toBe('fresh')
    expect(cached.stats.hits).toBe(1)
  })
})
