import { afterEach, describe, expect, test } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fixturePath } from '../__fixtures__/harness.js'
import { prepareInputs } from '../src/agent/input-answers.js'
import type { InputDeps } from '../src/agent/input-answers.js'
import { resolveOptions, type RawOptions } from '../src/config/options.js'
import { prepare } from '../src/config/prepare.js'
import type { ServerConfig, ToolTest } from '../src/config/types.js'
import { MRTR_CATALOG, MRTR_CHECKS } from '../src/conformance/checks/mrtr.js'
import { asksForInput, cannedResponse, elicitedContent, sampleArguments, tampered } from '../src/conformance/checks/mrtr-answers.js'
import { watchSession } from '../src/conformance/observe-session.js'
import type { ProbeSeed } from '../src/conformance/probe-context.js'
import { seedsOf } from '../src/conformance/probe-mrtr.js'
import { runConformance } from '../src/conformance/run.js'
import type { ConformanceReport } from '../src/conformance/types.js'
import { evaluate } from '../src/evaluate.js'
import { createSessionFactory } from '../src/mcp/session.js'

/** MRTR conformance (§7): real input_required rounds followed on the raw wire, one probe per rule, on stdio and HTTP. */

const FIXTURE = fixturePath('servers/mrtr-conformance-server.mjs')
const IDS = MRTR_CHECKS.map((c) => c.id)
const stdio = (defect = '', file = FIXTURE, args: string[] = []): ServerConfig => ({ kind: 'stdio', command: process.execPath, args: [file, ...args], env: { DEFECT: defect } })

const running: ChildProcess[] = []
afterEach(() => {
  for (const child of running.splice(0)) child.kill()
})

async function http(defect = '', file = FIXTURE): Promise<ServerConfig> {
  const child = spawn(process.execPath, [file, '--http'], { env: { ...process.env, DEFECT: defect } })
  running.push(child)
  const [url] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string]
  return { kind: 'http', url, headers: {} }
}

const server = (transport: 'stdio' | 'http', defect = '') => (transport === 'stdio' ? Promise.resolve(stdio(defect)) : http(defect))
/** Every mrtr check's status, by id. */
const statuses = (report: ConformanceReport) => Object.fromEntries(report.checks.filter((c) => c.id.startsWith('mrtr-')).map((c) => [c.id, c.status]))
const check = (report: ConformanceReport, id: string) => report.checks.find((c) => c.id === id)!
/** A check's message without the HTTP statuses (`HTTP 200 with a result`), the same on both transports. */
const said = (report: ConformanceReport, id: string) => ({ ...check(report, id), message: check(report, id).message.replace(/HTTP \d+ with /g, '') })
const allPass = Object.fromEntries(IDS.map((id) => [id, 'pass']))

describe.each(['stdio', 'http'] as const)('the MRTR fixture over %s', (transport) => {
  test('clean: every mrtr check passes, on its own calls (no tool test needed: its asking tools are read-only)', async () => {
    const report = await runConformance(await server(transport))
    expect(statuses(report)).toEqual(allPass)
    expect(check(report, 'mrtr-multi-round').message).toBe('tool plan_trip: 2 rounds, then complete')
    expect(said(report, 'mrtr-tampered-state').message).toContain('rejected with error -32602 (requestState failed verification)')
    expect(check(report, 'mrtr-capability-check').message).toBe('tool greet called again declaring no client capabilities: -32021, requiredCapabilities elicitation')
    expect(check(report, 'mrtr-non-tool-requests').message).toBe('prompts/get welcome: completed after 1 retry; resources/read workspace://roots: completed after 1 retry')
    // Only the mrtr checks are this fixture's business, but it must not trip the others either.
    expect(report.checks.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => `${c.id}: ${c.message}`)).toEqual([])
  })

  test.each([
    [
      'no-result-type',
      'mrtr-result-type',
      'fail',
      'answered inputRequests or requestState without resultType: "input_required" (a client takes an absent resultType as complete and never answers): tools/call greet, tools/call plan_trip, tools/call profile, prompts/get welcome, resources/read workspace://roots'
    ],
    ['tampered-accepted', 'mrtr-tampered-state', 'fail', 'its requestState with one character changed: got a complete result; state that fails verification MUST be rejected'],
    ['missing-input-completes', 'mrtr-missing-input-response', 'fail', 'tool greet retried without inputResponses (requestState echoed): got a complete result, as if the input had been given'],
    ['no-validation', 'mrtr-validate-input', 'warn', 'the number 12345 (not a result of its request): got a result; expected a JSON-RPC error'],
    ['no-capability-check', 'mrtr-capability-check', 'fail', 'asked for elicitation/create (elicitation) anyway; expected -32021'],
    ['extra-params-rejected', 'mrtr-ignore-extra-params', 'warn', 'got error -32602 (Unknown inputResponses keys: mcp_server_evals_unrequested), where the same retry without it got a result'],
    ['echo-ignored', 'mrtr-multi-round', 'fail', 'tool plan_trip: still input_required after 5 answered rounds']
  ])('DEFECT=%s: %s %s, and only the checks it breaks', async (defect, id, status, message) => {
    const report = await runConformance(await server(transport, defect))
    expect(said(report, id)).toMatchObject({ status, message: expect.stringContaining(message) })
    // echo-ignored takes any state, a tampered one too: the server never reads it.
    const alsoBroken = defect === 'echo-ignored' ? ['mrtr-tampered-state'] : []
    const others = Object.entries(statuses(report)).filter(([other]) => other !== id && !alsoBroken.includes(other))
    expect(Object.fromEntries(others)).toEqual(Object.fromEntries(IDS.filter((other) => other !== id && !alsoBroken.includes(other)).map((other) => [other, 'pass'])))
  })
})

test('over HTTP, -32021 with a status other than 400 fails the capability check', async () => {
  const report = await runConformance(await http('capability-status-200'))
  expect(check(report, 'mrtr-capability-check')).toMatchObject({ status: 'fail', message: expect.stringContaining('-32021 with HTTP 200; over HTTP it MUST be 400 Bad Request') })
})

describe('where no call asks for input, every mrtr check skips and says how to get one', () => {
  test('the clean conformance fixture, stdio and HTTP', async () => {
    const conformance = fixturePath('servers/conformance-server.mjs')
    for (const config of [stdio('', conformance), await http('', conformance)]) {
      const report = await runConformance(config)
      expect(statuses(report)).toEqual(Object.fromEntries(IDS.map((id) => [id, 'skip'])))
      expect(check(report, 'mrtr-tampered-state').message).toMatch(
        /^no call answered input_required \(3 tools, 1 prompt and 2 resources called; not called without a tool test, not annotated readOnlyHint: true \(probes: safe\): delete_page\): add a tool test that calls a tool that asks for input$/
      )
    }
  })

  test('the example server', async () => {
    const report = await runConformance(stdio('', fixturePath('../examples/server/server.mjs')))
    expect(Object.values(statuses(report)).every((s) => s === 'skip' || s === 'pass')).toBe(true)
  })

  test('a legacy server: applies from 2026-07-28', async () => {
    const report = await runConformance(stdio('', fixturePath('servers/legacy-server.mjs')))
    expect(report.era).toBe('legacy')
    for (const id of IDS) expect(check(report, id)).toMatchObject({ status: 'skip', message: 'legacy server: applies from 2026-07-28' })
  })

  test('probes: none calls no tool (the prompt and the resource still ask)', async () => {
    const report = await runConformance(stdio(), { probes: 'none' })
    expect(statuses(report)).toMatchObject({ 'mrtr-non-tool-requests': 'pass', 'mrtr-multi-round': 'skip', 'mrtr-multiple-input-requests': 'skip' })
    expect(check(report, 'mrtr-capability-check').message).toContain('prompts/get welcome called again declaring no client capabilities: -32021')
  })
})

describe("seeds: the suite's tool-test calls", () => {
  const ORDER: ProbeSeed = { tool: 'order_item', args: { item: 'skillet', quantity: 2 }, source: 'tool test order' }
  const SDK_SERVER = fixturePath('servers/mrtr-server.mjs')

  test('an SDK 2.4.0 server: a seeded call of a tool that is not read-only is followed under probes: all, not under probes: safe', async () => {
    const all = await runConformance(stdio('', SDK_SERVER, ['ROUNDS=2']), { seeds: [ORDER], probes: 'all' })
    expect(check(all, 'mrtr-multi-round')).toMatchObject({ status: 'pass', message: 'tool order_item: 2 rounds, then complete' })
    expect(check(all, 'mrtr-retry-completes').message).toContain('tool order_item: completed after 2 retries')
    expect(Object.values(statuses(all)).every((s) => s === 'pass' || s === 'skip')).toBe(true)
    const safe = await runConformance(stdio('', SDK_SERVER, ['ROUNDS=2']), { seeds: [ORDER] })
    expect(check(safe, 'mrtr-multi-round').status).toBe('skip')
    expect(check(safe, 'mrtr-retry-completes').message).not.toContain('order_item')
  })

  test('seedsOf: the first tool step of each test, not a resource or list step, nor one that needs a capture', () => {
    const step = (tool: string, args: Record<string, unknown>, call?: ToolTest['steps'][number]['call']) => ({ tool, args, expect: {}, capture: {}, ...(call ? { call } : {}) }) as ToolTest['steps'][number]
    const tests: ToolTest[] = [
      { id: 'forecast', steps: [step('get_forecast', { city: 'Oslo' })], runs: 1, tags: [] },
      { id: 'read-first', steps: [step('resources/read docs://a', {}, { kind: 'resource', uri: 'docs://a' }), step('search', { q: 'x' })], runs: 1, tags: [] },
      { id: 'captured', steps: [step('get_page', { id: '${page}' })], runs: 1, tags: [] }
    ]
    expect(seedsOf(tests)).toEqual([
      { tool: 'get_forecast', args: { city: 'Oslo' }, source: 'tool test forecast' },
      { tool: 'search', args: { q: 'x' }, source: 'tool test read-first' }
    ])
  })
})

describe('what the probe says back', () => {
  test('sample arguments: required properties only, each of its type', () => {
    const schema = {
      type: 'object',
      properties: { q: { type: 'string' }, n: { type: 'integer', minimum: 3 }, unit: { enum: ['c', 'f'] }, on: { type: 'boolean' }, opt: { type: 'string' }, at: { $ref: '#/$defs/at' } },
      required: ['q', 'n', 'unit', 'on', 'at'],
      $defs: { at: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'] } }
    }
    expect(sampleArguments(schema)).toEqual({ q: 'mcp-server-evals', n: 3, unit: 'c', on: true, at: { lat: 1 } })
  })

  test('canned answers: elicitation accepted with content for its schema, url mode declined, a sampled text, no roots', () => {
    expect(elicitedContent({ type: 'object', properties: { name: { type: 'string' }, days: { type: 'integer', minimum: 2 }, email: { type: 'string', format: 'email' } } })).toEqual({
      name: 'mcp-server-evals',
      days: 2,
      email: 'evals@example.com'
    })
    expect(cannedResponse({ method: 'elicitation/create', params: { mode: 'url', url: 'https://x.example' } })).toEqual({ action: 'decline' })
    expect(cannedResponse({ method: 'sampling/createMessage', params: {} })).toMatchObject({ role: 'assistant', content: { type: 'text' } })
    expect(cannedResponse({ method: 'roots/list' })).toEqual({ roots: [] })
  })

  test('a tampered state differs in one character; an untyped result with inputRequests or requestState asks', () => {
    const state = 'eyJmbG93IjoiZ3JlZXQifQ.c2lnbmF0dXJl'
    const changed = tampered(state)
    expect(changed).toHaveLength(state.length)
    expect([...state].filter((c, i) => changed[i] !== c)).toHaveLength(1)
    expect(asksForInput({ requestState: 's' })).toBe(true)
    expect(asksForInput({ resultType: 'complete', requestState: 's' })).toBe(false)
    expect(asksForInput({ content: [] })).toBe(false)
  })

  test('the catalog names every check, each a 2026-07-28 rule mapped to the official input-required-result scenarios', () => {
    expect(Object.keys(MRTR_CATALOG).sort()).toEqual([...IDS].sort())
    for (const entry of Object.values(MRTR_CATALOG)) {
      expect(entry.revision).toBe('2026-07-28')
      expect(entry.official.scenarios.every((s) => s.startsWith('input-required-result-'))).toBe(true)
    }
  })
})

describe('the false negative: input_required without resultType, whatever the SDK client makes of it', () => {
  const noLlm = {} as InputDeps

  test.each(['stdio', 'http'] as const)('over %s, the observed checks flag it on a tool call (the SDK takes it as complete) and on prompts/get (the SDK rejects it)', async (transport) => {
    const factory = createSessionFactory(await server(transport, 'no-result-type'), { probeTimeoutMs: 3000 })
    const signal = new AbortController().signal
    const inputs = prepareInputs({ elicitation: [{ match: '', action: 'accept', content: { name: 'Al' } }], sampling: null, roots: null, expect_input_requests: [], max_input_rounds: 5 }, null, noLlm)
    const session = await factory.open(signal, { inputs: inputs.client })
    try {
      const watched = watchSession(session)
      const raw = await session.callToolRaw('greet', {}, signal)
      // The SDK 2.4.0 client reads the untyped answer as a complete result (it never answers it).
      expect(raw.response).toMatchObject({ kind: 'result', result: { inputRequests: { user_name: { method: 'elicitation/create' } } } })
      // What the server asked stays on record: one round, never answered.
      expect(raw.input?.rounds).toMatchObject([{ via: 'input_required', retry_id: null, exchanges: [{ key: 'user_name', method: 'elicitation/create', response: null }] }])
      expect(watched.check(raw)).toContainEqual(
        expect.objectContaining({
          check: 'observed-input-required',
          severity: 'error',
          message: 'greet: the input_required answer has inputRequests but no resultType: "input_required" (resultType is required; a client takes an absent one as complete and never answers)'
        })
      )
      await expect(watched.session.getPrompt('welcome', {}, signal)).rejects.toThrow(/missing required resultType/)
      expect(watched.sessionFindings()).toContainEqual(expect.objectContaining({ check: 'observed-input-required', message: expect.stringContaining('prompts/get welcome: the input_required answer has inputRequests but no resultType') }))
    } finally {
      await session.close()
    }
  })

  test('a clean server: no such finding', async () => {
    const factory = createSessionFactory(stdio(), { probeTimeoutMs: 3000 })
    const signal = new AbortController().signal
    const inputs = prepareInputs({ elicitation: [{ match: '', action: 'accept', content: { name: 'Al' } }], sampling: null, roots: null, expect_input_requests: [], max_input_rounds: 5 }, null, noLlm)
    const session = await factory.open(signal, { inputs: inputs.client })
    try {
      const watched = watchSession(session)
      const raw = await session.callToolRaw('greet', {}, signal)
      expect(raw.response).toMatchObject({ kind: 'result', result: { content: [{ type: 'text', text: 'Hello, Al' }] } })
      expect(watched.check(raw)).toEqual([])
    } finally {
      await session.close()
    }
  })
})

describe('end to end: evaluate() gives the probe the tool tests as seeds, and the observed checks see the raw frame', () => {
  const evaluateSuite = async (server: Record<string, unknown>, yaml: string, values: Record<string, string> = {}) => {
    const dir = mkdtempSync(join(tmpdir(), 'mrtr-evaluate-'))
    writeFileSync(join(dir, 'evals.yaml'), yaml)
    const raw = Object.fromEntries(
      Object.entries({ serverConfig: JSON.stringify(server), evalCases: join(dir, 'evals.yaml'), apiKey: 'k', baseUrl: 'http://127.0.0.1:9', conformance: 'auto', resultsPath: join(dir, 'r.json'), ...values }).map(([k, v]) => [k, { value: v, name: k }])
    )
    for (const key of ['filter', 'maxSteps', 'parallel', 'concurrency', 'judgeModel', 'models', 'timeoutSeconds']) raw[key] ??= { value: '', name: key }
    return evaluate(prepare(resolveOptions(raw as unknown as RawOptions), {}))
  }

  test('a tool test of a tool that is not read-only: its call is followed under probes: all', async () => {
    const server = { command: process.execPath, args: [fixturePath('servers/mrtr-server.mjs'), 'ROUNDS=2'] }
    const yaml = 'cases: []\ntool_tests:\n  - {id: order, tool: order_item, args: {item: skillet, quantity: 2}, expect: {contains: Ordered}}\n'
    const doc = await evaluateSuite(server, yaml, { conformanceProbes: 'all' })
    const multi = doc.conformance!.checks.find((c) => c.id === 'mrtr-multi-round')!
    expect(multi).toMatchObject({ status: 'pass', message: 'tool order_item: 2 rounds, then complete' })
  })

  test('a tool test on a server that forgets resultType on input_required: observed-input-required fails, as mrtr-result-type does', async () => {
    // Tool tests declare no client capability: this server asks anyway (as many do), and forgets resultType.
    const server = { command: process.execPath, args: [FIXTURE], env: { DEFECT: 'no-result-type,no-capability-check' } }
    const yaml = 'cases: []\ntool_tests:\n  - {id: greet, tool: greet, args: {}, expect: {contains: Hello}}\n'
    const doc = await evaluateSuite(server, yaml)
    const statusOf = (id: string) => doc.conformance!.checks.find((c) => c.id === id)?.status
    expect([statusOf('observed-input-required'), statusOf('mrtr-result-type'), statusOf('observed-undeclared-capability')]).toEqual(['fail', 'fail', 'fail'])
    expect(doc.conformance!.checks.find((c) => c.id === 'observed-input-required')!.message).toContain('greet: the input_required answer has inputRequests but no resultType')
  })
})
