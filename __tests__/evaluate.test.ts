import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { closeSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { answer, kindOf, startScriptedLlm, steps, toolCalls, userPrompt, verdict, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { resolveOptions, type RawOptions } from '../src/config/options.js'
import { prepare } from '../src/config/prepare.js'
import { evaluate } from '../src/evaluate.js'
import { writeResults } from '../src/output/write-results.js'
import { JournalWriter, readJournal } from '../src/execute/journal.js'
import { createChatClient } from '../src/llm/chat.js'
import { spentBy } from '../src/telemetry/spend.js'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import resultsSchema from '../schema/results.schema.json' with { type: 'json' }

// evaluate() end to end in this process: the journal, resume and redaction around the engine.
let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm((request) => {
    const kind = kindOf(request)
    if (kind === 'steps') return steps(request.model)
    if (kind === 'score') return verdict(request.model, 9, 'good')
    if (userPrompt(request).includes('leak') && !request.messages.some((m) => m.role === 'tool')) return toolCalls(request.model, [{ name: 'hostile', args: {} }])
    return answer(request.model, `answer to ${userPrompt(request)}`)
  })
})
afterAll(async () => llm.close())

function optionsFor(dir: string, values: Record<string, string>) {
  const raw = Object.fromEntries(
    Object.entries({
      serverConfig: JSON.stringify({ command: process.execPath, args: [fixturePath('servers/faulty-server.mjs')] }),
      evalCases: join(dir, 'evals.yaml'),
      apiKey: 'k',
      baseUrl: llm.url,
      conformance: 'off',
      resultsPath: join(dir, 'eval-results.json'),
      ...values
    }).map(([k, v]) => [k, { value: v, name: k }])
  )
  for (const key of ['filter', 'maxSteps', 'parallel', 'concurrency', 'judgeModel', 'models', 'timeoutSeconds']) raw[key] ??= { value: '', name: key }
  return resolveOptions(raw as unknown as RawOptions)
}

const run = (dir: string, values: Record<string, string> = {}, warnings: string[] = []) =>
  evaluate(prepare(optionsFor(dir, values), {}), { llm: createChatClient({ baseURL: llm.url, apiKey: 'k', maxRetries: 0 }), onWarning: (m) => warnings.push(m) })

describe('resume keeps to the plan', () => {
  test('runs another --filter planned are not carried into this document; reused runs take this plan’s places', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'resume-plan-'))
    writeFileSync(join(dir, 'evals.yaml'), 'system_prompts: {d: "Be brief."}\ncases:\n  - {id: a1, prompt: "case a1", rubric: r}\n  - {id: b1, prompt: "case b1", rubric: r}\n')
    const first = await run(dir, { filter: 'a' })
    expect(first.runs.map((r) => [r.case_id, r.index])).toEqual([['a1', 1]])

    const other = await run(dir, { filter: 'b', resume: 'true' })
    expect(other.runs.map((r) => [r.case_id, r.index])).toEqual([['b1', 1]])
    expect(other).toMatchObject({ passed: true, summary: { total: 1 }, journal: { reused: 0, missing: 0 } })

    // The journal now holds b1 only (a1 was not in that plan): everything again reuses b1.
    const before = llm.requests.length
    const all = await run(dir, { resume: 'true' })
    expect(all.runs.map((r) => [r.case_id, r.index])).toEqual([
      ['a1', 1],
      ['b1', 2]
    ])
    expect(all).toMatchObject({ passed: true, summary: { total: 2 }, journal: { reused: 1, missing: 0 } })
    expect(llm.requests.slice(before).filter((r) => kindOf(r) === 'agent').map(userPrompt)).toEqual(['case a1'])
  })

  test('a conversation run is reused whole: its dialogue kept, the document valid, its spend counting turn judges and the simulated user', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'resume-conversation-'))
    writeFileSync(
      join(dir, 'evals.yaml'),
      `system_prompts: {d: "Be brief."}
user_model: u/sim
cases:
  - id: scripted
    turns:
      - {user: "case first turn", rubric: r1}
      - {user: "case second turn", rubric: r2}
    rubric: whole
  - id: simulated
    simulated_user: {goal: "Get help.", max_turns: 2}
    rubric: r
`
    )
    const first = await run(dir)
    expect(first.runs.map((r) => [r.case_id, r.status, r.dialogue?.turns.length])).toEqual([
      ['scripted', 'passed', 2],
      ['simulated', 'passed', 2]
    ])
    const before = llm.requests.length
    const resumed = await run(dir, { resume: 'true' })
    expect(llm.requests.length).toBe(before)
    expect(resumed.journal).toMatchObject({ reused: 2, missing: 0 })
    expect(resumed.runs.map((r) => r.dialogue)).toEqual(first.runs.map((r) => r.dialogue))
    expect(resumed.runs[1].dialogue).toMatchObject({ kind: 'simulated', user_model: 'u/sim', user_usage: { total_tokens: 2 * 120 } })
    const ajv = new Ajv2020({ allErrors: true, strict: false })
    addFormats.default(ajv)
    const validate = ajv.compile(resultsSchema)
    expect(validate(JSON.parse(JSON.stringify(resumed))) ? [] : validate.errors).toEqual([])
    // Every call costs $0.00015 (the scripted provider says so): scripted, 2 agent calls and 3
    // verdicts (two turns, the whole dialogue); simulated, 2 agent calls, 1 verdict, 2 user-model calls.
    expect(spentBy(resumed.runs, {}, 'openai/gpt-4o-mini')).toBeCloseTo(10 * 0.00015, 10)
    // The summary's judge side too (no evaluation steps were generated this time: nothing was judged anew).
    expect(resumed.summary.tokens.judge.total_tokens).toBe(6 * 120)
  })

  test('a journal of another suite is a warning and a full run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'resume-other-'))
    writeFileSync(join(dir, 'evals.yaml'), 'system_prompts: {d: "Be brief."}\ncases:\n  - {id: a1, prompt: "case a1", rubric: r}\n')
    await run(dir)
    writeFileSync(join(dir, 'evals.yaml'), 'system_prompts: {d: "Be terse."}\ncases:\n  - {id: a1, prompt: "case a1", rubric: r}\n')
    const warnings: string[] = []
    const again = await run(dir, { resume: 'true' }, warnings)
    expect(again.journal).toMatchObject({ reused: 0 })
    expect(warnings).toContain(`resume: ${join(dir, 'eval-runs.jsonl')} is from another suite, models, server, max_steps or max_tool_result_chars; running everything.`)
  })
})

describe('a disk that fails mid-run', () => {
  test('costs the journal one warning, never the results', () => {
    const dir = mkdtempSync(join(tmpdir(), 'journal-fail-'))
    const header = JSON.parse(readFileSync(fixturePath('golden/results.json'), 'utf8')) as { config: never; runs: never[] }
    const warnings: string[] = []
    const writer = new JournalWriter(
      join(dir, 'eval-runs.jsonl'),
      { type: 'header', version: 1, suite_hash: 'x', started_at: '', planned: 1, reused: 0, config: header.config, cases: [], behaviour: { status: 'ran', reason: null }, gate: { mode: null, max_drop: 0.02, baseline: '' } },
      [],
      [],
      (m) => warnings.push(m)
    )
    // The descriptor goes bad under the writer, as on a disk that disappears.
    closeSync((writer as unknown as { fd: number }).fd)
    writer.append({ type: 'run', run: header.runs[0] })
    writer.append({ type: 'end', duration_s: 1, overhead: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }, cache: null, cancelled: null })
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^Cannot append to the run journal .*eval-runs\.jsonl \(EBADF\): it stops here; the results are still written\.$/)
    expect(writer.state.runs.size).toBe(1)
    expect(writer.state.end).not.toBeNull()
    writer.close()
    expect(readJournal(join(dir, 'eval-runs.jsonl')).state.runs.size).toBe(0)
  })
})

describe('a secret is redacted before anything is cut short', () => {
  test('a long secret across the 2000-character cut of the conversation leaves no piece of itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'redact-cut-'))
    writeFileSync(join(dir, 'evals.yaml'), 'system_prompts: {d: "Be brief."}\ncases:\n  - {id: leak, prompt: "leak it", rubric: r}\n')
    // The hostile tool ends with `token=<secret>` about 160 characters in: a 3000-character
    // secret runs across the conversation's 2000-character cut.
    const secret = Array.from({ length: 300 }, (_, i) => `s${String(i).padStart(3, '0')}-key-`).join('').slice(0, 3000)
    const doc = await run(dir, { serverConfig: JSON.stringify({ command: process.execPath, args: [fixturePath('servers/faulty-server.mjs')], env: { SECRET_TOKEN: secret } }) })
    const { files } = writeResults(doc, { resultsPath: join(dir, 'eval-results.json'), reportPath: join(dir, 'eval-report.md'), transcriptsDir: join(dir, 't') }, [secret])
    const written = [...files, join(dir, 'eval-runs.jsonl'), ...readdirSync(join(dir, 't')).map((f) => join(dir, 't', f))].map((f) => readFileSync(f, 'utf8')).join('\n')
    expect(doc.runs[0].conversation.find((m) => m.role === 'tool')?.content).toContain('token=***')
    for (let i = 0; i + 40 <= secret.length; i += 40) expect(written).not.toContain(secret.slice(i, i + 40))
  })
})

describe('conformance observed on the behaviour runs', () => {
  test('a tool result the model was shown that breaks its outputSchema is a finding naming the run, and the model saw the result itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'observed-run-'))
    writeFileSync(join(dir, 'evals.yaml'), 'system_prompts: {d: "Be brief."}\ncases:\n  - {id: skillet-price, prompt: "price of the skillet", rubric: r}\n')
    const model = await startScriptedLlm((request) => {
      const kind = kindOf(request)
      if (kind === 'steps') return steps(request.model)
      if (kind === 'score') return verdict(request.model, 9, 'good')
      if (!request.messages.some((m) => m.role === 'tool')) return toolCalls(request.model, [{ name: 'get_item', args: { id: 'skillet' } }])
      return answer(request.model, 'It costs 39 USD.')
    })
    try {
      const options = optionsFor(dir, { serverConfig: JSON.stringify({ command: process.execPath, args: [fixturePath('servers/observed-server.mjs')] }), conformance: 'auto', baseUrl: model.url })
      const doc = await evaluate(prepare(options, {}), { llm: createChatClient({ baseURL: model.url, apiKey: 'k', maxRetries: 0 }) })
      const [run] = doc.runs
      expect(run.observed.calls).toBe(1)
      expect(run.observed.findings.map((f) => f.check)).toEqual(['observed-output-schema'])
      // Not the SDK's local -32602: the model is shown what the server sent.
      expect(run.tool_calls[0]).toMatchObject({ is_error: false, result: expect.stringContaining('39 USD') })
      const check = doc.conformance!.checks.find((c) => c.id === 'observed-output-schema')!
      expect(check).toMatchObject({ status: 'fail' })
      expect(check.message).toContain('run #1 skillet-price')
      expect(doc.passed).toBe(false)
    } finally {
      await model.close()
    }
  })
})

describe('the verdict covers every layer', () => {
  test('a failing tool test fails an evaluation whose behaviour runs all passed, through the gate too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verdict-'))
    writeFileSync(
      join(dir, 'evals.yaml'),
      'system_prompts: {d: "Be brief."}\ncases:\n  - {id: a1, prompt: "case a1", rubric: r}\ntool_tests:\n  - {id: echo-bye, tool: echo, args: {text: hi}, expect: {contains: bye}}\n'
    )
    const doc = await run(dir)
    expect(doc.runs.map((r) => r.status)).toEqual(['passed'])
    expect(doc.gate?.passed).toBe(true)
    expect(doc.tool_tests).toMatchObject({ total: 1, failed: 1 })
    expect(doc.passed).toBe(false)
  })
})
