import { describe, expect, test } from '@jest/globals'
import { EXAMPLE_SERVER, FAULTY_SERVER, LEGACY_SERVER, evaluateWith, suiteOf } from '../__fixtures__/harness.js'
import { answer, kindOf, scriptedBrain, startScriptedLlm, steps, toolCalls, userPrompt, verdict, type Reply } from '../__fixtures__/scripted-llm.js'
import { createChatClient } from '../src/llm/chat.js'
import { startHttpServer } from '../__fixtures__/servers/http-server.mjs'

const weatherCase = `  - id: weather
    prompt: What's the weather in Paris?
    rubric: States the weather in Paris.
    required_tools:
      - name: get_weather
        args: { city: paris }
`
const weatherBrain = scriptedBrain(
  { 'weather in Paris': { turns: [[{ name: 'get_weather', args: { city: 'Paris' } }]], answer: (r) => `Paris: ${r[0]}` } },
  (answer) => (answer.includes('light rain') ? 9 : 2),
  { logprobs: true }
)

describe('the engine against real servers and a scripted LLM', () => {
  test('a modern stdio server: tools called, judged with logprobs, recorded', async () => {
    const { doc, llm } = await evaluateWith({ suite: suiteOf(weatherCase, 'models: [m/a, m/b]\n'), server: EXAMPLE_SERVER, responder: weatherBrain })
    expect(doc.summary).toMatchObject({ total: 2, passed: 2, failed: 0, errored: 0, pass_rate: 1 })
    const run = doc.runs[0]
    expect(run).toMatchObject({ case_id: 'weather', model: 'm/a', prompt_name: 'default', success: true, rubric_passed: true, tools_passed: true, status: 'passed' })
    expect(run.server).toMatchObject({ era: 'modern', protocol_version: '2026-07-28', tools: 8 })
    expect(run.tool_calls[0]).toMatchObject({ name: 'get_weather', args: { city: 'Paris' }, is_error: false })
    expect(run.tool_calls[0].result).toContain('light rain')
    expect(run.tool_calls[0].latency_ms).toBeGreaterThanOrEqual(0)
    // 9 with p=.7 and 8 with p=.3 → 8.7/10, and the "9" digit in the reason was not taken.
    expect(run.judge).toMatchObject({ scoring_mode: 'logprob', raw_score: 9 })
    expect(run.metrics[0].score).toBeCloseTo(0.87, 5)
    expect(run.metrics[0].name).toBe('Response Quality [GEval]')
    expect(run.conversation.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
    expect(run.conversation[1].tool_calls).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }])
    expect(run.conversation[2].tool_name).toBe('get_weather')
    expect(run.usage.total_tokens).toBe(240)
    expect(run.llm_calls).toHaveLength(2)
    expect(run.llm_calls[0]).toMatchObject({ finish_reason: 'tool_calls', usage: { total_tokens: 120 } })
    expect(run.system_prompt).toBe('You are helpful. Today is 2026-11-30.')
    // Steps are generated once for the rubric and reused by both runs.
    expect(llm.requests.filter((r) => kindOf(r) === 'steps')).toHaveLength(1)
    expect(llm.requests.filter((r) => kindOf(r) === 'score')).toHaveLength(2)
    // Agent requests: temperature 0, the server's tools as functions, {today} replaced.
    const agentRequest = llm.requests.find((r) => kindOf(r) === 'agent')!
    expect(agentRequest.temperature).toBe(0)
    expect(agentRequest.tools?.map((t) => t.function.name)).toEqual(
      expect.arrayContaining(['get_weather', 'convert_currency', 'supported-cities'.replace('-', '_'), 'packing_list'])
    )
    expect(agentRequest.messages[0].content).toBe('You are helpful. Today is 2026-11-30.')
    expect(doc.summary.tokens.judge.total_tokens).toBe(360)
  })

  test('results keep run order whatever order runs finish in', async () => {
    const cases = ['a', 'b', 'c', 'd'].map((id) => `  - id: ${id}\n    prompt: case ${id}\n    rubric: r\n`).join('')
    // a answers last by a wide margin, so it finishes last whatever else the machine is doing.
    const delays: Record<string, number> = { a: 1500, b: 0, c: 0, d: 0 }
    const { doc, finished } = await evaluateWith({
      suite: suiteOf(cases),
      server: EXAMPLE_SERVER,
      responder: (req) => {
        const kind = kindOf(req)
        if (kind === 'steps') return steps(req.model)
        if (kind === 'score') return verdict(req.model, 8, 'fine')
        return { ...answer(req.model, 'ok'), delayMs: delays[userPrompt(req).slice(-1)] }
      }
    })
    expect(doc.runs.map((r) => r.case_id)).toEqual(['a', 'b', 'c', 'd'])
    expect(doc.runs.map((r) => r.index)).toEqual([1, 2, 3, 4])
    expect(finished.map((r) => r.case_id).at(-1)).toBe('a')
  })

  test('parallel tool calls in one turn run and are recorded in order; tool errors go back to the model', async () => {
    const { doc, llm } = await evaluateWith({
      suite: suiteOf(`  - id: multi\n    prompt: two things\n    rubric: r\n    required_tools: [get_local_time, convert_currency, nope]\n`),
      server: EXAMPLE_SERVER,
      responder: scriptedBrain(
        {
          'two things': {
            turns: [
              [
                { name: 'get_local_time', args: { city: 'Atlantis' } },
                { name: 'convert_currency', args: { amount: 10, from: 'EUR', to: 'USD' } },
                { name: 'nope', args: {} },
                { name: 'get_weather', args: '{not json' }
              ]
            ],
            answer: 'done'
          }
        },
        () => 8
      )
    })
    const run = doc.runs[0]
    expect(run.tool_calls.map((c) => [c.name, c.is_error])).toEqual([
      ['get_local_time', true],
      ['convert_currency', false],
      ['nope', true],
      ['get_weather', true]
    ])
    expect(run.tool_calls[0].result).toContain('Unknown city: Atlantis')
    expect(run.tool_calls[2].result).toContain("no tool named 'nope'")
    expect(run.tool_calls[3].result).toContain('not a JSON object')
    // The unknown tool was requested, so eval-action's required_tools counts it as called.
    expect(run.tool_assertions.passed).toBe(true)
    const second = llm.requests.filter((r) => kindOf(r) === 'agent')[1]
    expect(second.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(second.messages[2].tool_calls!.map((c) => c.id))
  })

  test('failed assertions and a low score fail the run; badges use the case threshold', async () => {
    const { doc } = await evaluateWith({
      suite: suiteOf(`  - id: strict\n    prompt: What's the weather in Paris?\n    rubric: r\n    threshold: 0.9\n    required_tools:\n      - name: get_weather\n        args: { city: Lyon }\n`),
      server: EXAMPLE_SERVER,
      responder: scriptedBrain({ 'weather in Paris': { turns: [[{ name: 'get_weather', args: { city: 'Paris' } }]], answer: 'rainy' } }, () => 8)
    })
    const run = doc.runs[0]
    expect(run).toMatchObject({ success: false, rubric_passed: false, tools_passed: false, status: 'failed' })
    expect(run.metrics[0]).toMatchObject({ score: 0.8, success: false })
    expect(run.judge).toMatchObject({ scoring_mode: 'integer', scoring_note: 'provider returned no logprobs' })
    expect(run.tool_assertions.checks[0].actual_args).toEqual([{ city: 'Paris' }])
    expect(doc.passed).toBe(false)
  })

  test('max_steps caps LLM calls and the run fails without being judged', async () => {
    const { doc, llm } = await evaluateWith({
      suite: suiteOf(`  - id: loop\n    prompt: loop forever\n    rubric: r\n`),
      server: EXAMPLE_SERVER,
      settings: { maxSteps: 3 },
      responder: (req) => (kindOf(req) === 'agent' ? toolCalls(req.model, [{ name: 'get_weather', args: { city: 'Paris' } }]) : steps(req.model))
    })
    // Three agent calls; the rubric's evaluation steps were generated at the start, before the run could know it would not be judged.
    expect(llm.requests.map(kindOf).sort()).toEqual(['agent', 'agent', 'agent', 'steps'])
    expect(doc.runs[0]).toMatchObject({ status: 'failed', stop_reason: 'max_steps', actual_output: 'Model call limits exceeded: run limit (3/3)', judge: null })
    expect(doc.runs[0].llm_calls).toHaveLength(3)
  })

  test('a legacy (2025-11-25) stdio server still works', async () => {
    const { doc } = await evaluateWith({
      suite: suiteOf(`  - id: add\n    prompt: add 2 and 3\n    rubric: r\n    required_tools: [{ name: add, args: { a: 2, b: 3 } }]\n`),
      server: LEGACY_SERVER,
      responder: scriptedBrain({ 'add 2 and 3': { turns: [[{ name: 'add', args: { a: 2, b: 3 } }]], answer: (r) => `It is ${r[0]}` } }, (a) => (a === 'It is 5' ? 10 : 0))
    })
    expect(doc.runs[0]).toMatchObject({ status: 'passed', server: { era: 'legacy', protocol_version: '2025-11-25' } })
    expect(doc.runs[0].final_output).toBe('It is 5')
  })

  test('a remote Streamable HTTP server gets its headers and its own session per run', async () => {
    const http = await startHttpServer({ token: 'test-token-123' })
    try {
      const { doc } = await evaluateWith({
        suite: suiteOf(weatherCase, 'models: [m/a, m/b]\n'),
        server: { kind: 'http', url: http.url, headers: { Authorization: 'Bearer test-token-123' } },
        responder: weatherBrain
      })
      expect(doc.runs.map((r) => r.status)).toEqual(['passed', 'passed'])
      expect(doc.runs[0].server.era).toBe('modern')
      expect(http.requests.every((r) => r.headers.authorization === 'Bearer test-token-123')).toBe(true)
    } finally {
      await http.close()
    }
  })
})

describe('faults stay inside their run', () => {
  const twoCases = (first: string) => suiteOf(`${first}  - id: fine\n    prompt: echo hello\n    rubric: r\n`)
  const echoBrain = (extra: Record<string, { turns: { name: string; args: unknown }[][]; answer: string }> = {}) =>
    scriptedBrain({ 'echo hello': { turns: [[{ name: 'echo', args: { text: 'hello' } }]], answer: 'hello' }, ...extra }, () => 9)

  test('server command not found', async () => {
    const { doc } = await evaluateWith({
      suite: suiteOf(`  - id: x\n    prompt: p\n    rubric: r\n`),
      server: { kind: 'stdio', command: 'definitely-not-a-command-xyz', args: [], env: {} },
      responder: echoBrain()
    })
    expect(doc.runs[0]).toMatchObject({ status: 'error', error: { stage: 'server' }, actual_output: expect.stringMatching(/^\[Agent error: server failed to start/) })
    expect(doc.runs[0].error!.message).toMatch(/ENOENT|not found|spawn/i)
    expect(doc.summary.errored).toBe(1)
  })

  test('server that exits at start: its stderr is in the record', async () => {
    const { doc } = await evaluateWith({
      suite: suiteOf(`  - id: x\n    prompt: p\n    rubric: r\n`),
      server: { ...FAULTY_SERVER, env: { FAIL_AT_START: '1' } } as typeof FAULTY_SERVER,
      responder: echoBrain()
    })
    expect(doc.runs[0]).toMatchObject({ status: 'error', error: { stage: 'server' } })
    expect(doc.runs[0].error!.stderr_tail).toContain('could not open database')
  })

  test('server crash mid-call: the call and the stderr tail are recorded, the other run passes', async () => {
    const { doc } = await evaluateWith({
      suite: twoCases(`  - id: crash\n    prompt: please crash\n    rubric: r\n    required_tools: [crash]\n`),
      server: FAULTY_SERVER,
      responder: echoBrain({ 'please crash': { turns: [[{ name: 'crash', args: {} }]], answer: 'never' } })
    })
    const [crash, fine] = doc.runs
    expect(crash).toMatchObject({ status: 'error', error: { stage: 'server' }, tool_assertions: { passed: true } })
    expect(crash.tool_calls).toEqual([expect.objectContaining({ name: 'crash', is_error: true })])
    expect(crash.error!.stderr_tail).toContain('simulated crash')
    expect(crash.judge).toBeNull()
    expect(fine.status).toBe('passed')
  })

  test('server hang: the run times out, the other run passes', async () => {
    const { doc } = await evaluateWith({
      suite: twoCases(`  - id: hang\n    prompt: please hang\n    rubric: r\n`),
      server: FAULTY_SERVER,
      settings: { timeoutSeconds: 2 },
      responder: echoBrain({ 'please hang': { turns: [[{ name: 'hang', args: {} }]], answer: 'never' } })
    })
    expect(doc.runs[0]).toMatchObject({ status: 'error', error: { stage: 'timeout', message: 'the run exceeded timeout_seconds (2s)' } })
    expect(doc.runs[0].tool_calls.map((c) => c.name)).toEqual(['hang'])
    expect(doc.runs[0].error!.stderr_tail).toContain('waiting for lock')
    expect(doc.runs[1].status).toBe('passed')
  })

  test('LLM 429 with Retry-After, then success', async () => {
    let failures = 0
    const brain = echoBrain()
    const { doc, llm } = await evaluateWith({
      suite: suiteOf(`  - id: fine\n    prompt: echo hello\n    rubric: r\n`),
      server: FAULTY_SERVER,
      responder: (req, i) => {
        if (kindOf(req) === 'agent' && failures < 2) {
          failures++
          return { status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'rate limited' } } }
        }
        return brain(req, i)
      }
    })
    expect(doc.runs[0].status).toBe('passed')
    expect(failures).toBe(2)
    expect(llm.requests.filter((r) => kindOf(r) === 'agent')).toHaveLength(4)
  })

  test('a Retry-After longer than the cap is cut to the cap', async () => {
    let calls = 0
    const llm = await startScriptedLlm((req) => (calls++ === 0 ? { status: 429, headers: { 'retry-after': '3600' }, body: { error: { message: 'slow down' } } } : answer(req.model, 'ok')))
    try {
      const chat = createChatClient({ baseURL: llm.url, apiKey: 'k', maxRetries: 1, maxRetryAfterMs: 50 })
      // Without the cap the client would wait an hour here.
      await expect(chat.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).resolves.toMatchObject({ content: 'ok' })
      expect(calls).toBe(2)
    } finally {
      await llm.close()
    }
  })

  test('LLM 500 forever: that run errors after bounded retries, the others go on', async () => {
    const brain = echoBrain()
    const { doc, llm } = await evaluateWith({
      suite: twoCases(`  - id: broken\n    prompt: model is down\n    rubric: r\n`),
      server: FAULTY_SERVER,
      maxRetries: 1,
      responder: (req, i): Reply | Promise<Reply> =>
        userPrompt(req) === 'model is down' && kindOf(req) === 'agent' ? { status: 500, headers: { 'retry-after-ms': '10' }, body: { error: { message: 'upstream exploded' } } } : brain(req, i)
    })
    expect(doc.runs[0]).toMatchObject({ status: 'error', error: { stage: 'llm' } })
    expect(doc.runs[0].error!.message).toContain('upstream exploded')
    expect(llm.requests.filter((r) => userPrompt(r) === 'model is down')).toHaveLength(2)
    expect(doc.runs[1].status).toBe('passed')
  })

  test('a provider that rejects logprobs: the judge asks again without them and says so', async () => {
    const brain = echoBrain()
    const { doc } = await evaluateWith({
      suite: suiteOf(`  - id: fine\n    prompt: echo hello\n    rubric: r\n`),
      server: FAULTY_SERVER,
      responder: (req, i) =>
        kindOf(req) === 'score' && req.logprobs ? { status: 400, body: { error: { message: 'logprobs is not supported for this model' } } } : brain(req, i)
    })
    expect(doc.runs[0]).toMatchObject({ status: 'passed', judge: { scoring_mode: 'integer', scoring_note: 'provider rejected logprobs', raw_score: 9 } })
  })

  test('judge returns garbage: retried, then recorded as a judge error', async () => {
    const { doc, llm } = await evaluateWith({
      suite: suiteOf(`  - id: fine\n    prompt: echo hello\n    rubric: r\n    required_tools: [echo]\n`),
      server: FAULTY_SERVER,
      responder: (req) => {
        const kind = kindOf(req)
        if (kind === 'steps') return steps(req.model)
        if (kind === 'score') return answer(req.model, 'I think it is pretty good, maybe an eight?')
        return req.messages.length > 2 ? answer(req.model, 'hello') : toolCalls(req.model, [{ name: 'echo', args: { text: 'hello' } }])
      }
    })
    expect(llm.requests.filter((r) => kindOf(r) === 'score')).toHaveLength(3)
    expect(doc.runs[0]).toMatchObject({ status: 'error', rubric_passed: false, tools_passed: true, error: { stage: 'judge' } })
    expect(doc.runs[0].judge!.error).toContain('malformed judge output')
    expect(doc.runs[0].metrics[0]).toMatchObject({ score: null, success: false })
  })
})
