import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ExportResultCode } from '@opentelemetry/core'
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base'
import { fixturePath } from '../__fixtures__/harness.js'
import { scriptedBrain, startScriptedLlm, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { startTelemetryHttpServer, type TelemetryRequest } from '../__fixtures__/servers/telemetry-server.mjs'
import { prepare } from '../src/config/prepare.js'
import { evaluate } from '../src/evaluate.js'
import { createChatClient, type ChatClient, type ChatResponse } from '../src/llm/chat.js'
import { ServerError, type CallOutcome, type McpSession } from '../src/mcp/session.js'
import type { ResultsDocument, RunResult } from '../src/results/types.js'
import { JudgeError } from '../src/scoring/geval.js'
import { createTracing } from '../src/telemetry/tracing.js'
import { runOptions } from '../__fixtures__/options.js'

// OpenTelemetry end to end: real runs through evaluate(), the SDK's real OTLP/HTTP exporter, a
// receiver on 127.0.0.1, and a server that logs the traceparent of every request it got.

/** An attribute as OTLP/JSON encodes it. */
interface OtlpAttribute {
  key: string
  value: { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number; arrayValue?: { values: OtlpAttribute['value'][] } }
}
/** A span as the receiver got it (OTLP/JSON: hex ids). */
interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  attributes: OtlpAttribute[]
  status?: { code?: number }
}
interface ReceivedExport {
  contentType: string | undefined
  headers: IncomingHttpHeaders
  body: string
}

const SPAN_KIND = { internal: 1, client: 3 }
const STATUS_ERROR = 2

/** An OTLP/HTTP traces receiver; `status` is what it answers every export with. */
async function startReceiver(status = 200) {
  const exports: ReceivedExport[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') exports.push({ contentType: req.headers['content-type'], headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(status, { 'content-type': 'application/json' }).end(status === 200 ? '{}' : '{"error":"nope"}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    /** The base endpoint, as a user would give it (`/v1/traces` is appended). */
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports,
    spans: (): OtlpSpan[] =>
      exports.flatMap((e) => (JSON.parse(e.body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

function attr(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((a) => a.key === key)?.value
  if (!value) return undefined
  if (value.arrayValue) return value.arrayValue.values.map((v) => v.stringValue ?? v.intValue ?? v.boolValue)
  if (value.intValue !== undefined) return Number(value.intValue)
  return value.stringValue ?? value.boolValue ?? value.doubleValue
}

const HEADER_SECRET = 'otlp-header-s3cret-value'
const ARG_SECRET = 'argument-text-kept-off-spans'
const ANSWER = 'Both tools answered: slow done and fast done.'
const PROMPT = 'Call the slow tool, then the fast one.'

let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm(scriptedBrain({ 'slow tool': { turns: [[{ name: 'slow', args: { label: ARG_SECRET } }], [{ name: 'fast', args: {} }]], answer: ANSWER } }, () => 9))
})
afterAll(async () => llm.close())

function optionsFor(dir: string, serverConfig: object, values: Record<string, string> = {}) {
  return runOptions(dir, { serverConfig: JSON.stringify(serverConfig), baseUrl: llm.url, conformance: 'off', cache: 'off', ...values })
}

/** One evaluation of a case run twice, against `server`, with the given OTLP settings. */
async function evaluateWith(serverConfig: object, values: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'otel-'))
  writeFileSync(join(dir, 'evals.yaml'), `system_prompts: {d: "You help."}\ncases:\n  - {id: both-tools, prompt: "${PROMPT}", rubric: "Reports both answers.", runs: 2}\n`)
  const warnings: string[] = []
  const doc = await evaluate(prepare(optionsFor(dir, serverConfig, values), {}), {
    llm: createChatClient({ baseURL: llm.url, apiKey: 'k', maxRetries: 0 }),
    onWarning: (m) => warnings.push(m)
  })
  return { doc, warnings }
}

/** The `traceparent` parts: trace id and parent (span) id. */
function parseTraceparent(value: string | null): { traceId: string; parentId: string } | null {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(value ?? '')
  return match ? { traceId: match[1], parentId: match[2] } : null
}

/**
 * Everything the receiver and the server saw agrees with the document: one trace per run, its
 * spans named and parented per the conventions, and each traceparent the server got naming the
 * span of the request it came with.
 */
function expectTracesOf(doc: ResultsDocument, spans: OtlpSpan[], requests: TelemetryRequest[]) {
  expect(doc.runs).toHaveLength(2)
  expect(doc.runs.every((r) => r.status === 'passed')).toBe(true)
  const traceIds = doc.runs.map((r) => r.trace_id)
  expect(traceIds.every((id) => /^[0-9a-f]{32}$/.test(id ?? ''))).toBe(true)
  expect(new Set(traceIds).size).toBe(2)
  const byId = new Map(spans.map((s) => [s.spanId, s]))

  for (const run of doc.runs) {
    const mine = spans.filter((s) => s.traceId === run.trace_id)
    const root = mine.filter((s) => !s.parentSpanId)
    expect(root.map((s) => s.name)).toEqual(['invoke_agent both-tools'])
    expect(root[0]).toMatchObject({ kind: SPAN_KIND.internal })
    expect([attr(root[0], 'gen_ai.operation.name'), attr(root[0], 'gen_ai.request.model'), attr(root[0], 'mcp_server_evals.case.id')]).toEqual(['invoke_agent', run.model, 'both-tools'])
    expect([attr(root[0], 'mcp_server_evals.run.attempt'), attr(root[0], 'mcp_server_evals.run.index'), attr(root[0], 'mcp_server_evals.run.status')]).toEqual([run.attempt, run.index, 'passed'])
    // Every other span of the run is a child of the run's span.
    expect(mine.filter((s) => s.parentSpanId).every((s) => s.parentSpanId === root[0].spanId)).toBe(true)

    const chats = mine.filter((s) => s.name.startsWith('chat '))
    expect(chats.map((s) => s.name)).toEqual(run.llm_calls.map(() => `chat ${run.model}`))
    for (const chat of chats) {
      expect(chat.kind).toBe(SPAN_KIND.client)
      expect([attr(chat, 'gen_ai.operation.name'), attr(chat, 'gen_ai.usage.input_tokens'), attr(chat, 'gen_ai.usage.output_tokens')]).toEqual(['chat', 100, 20])
    }
    expect(chats.map((s) => attr(s, 'gen_ai.response.finish_reasons'))).toEqual(expect.arrayContaining([['tool_calls'], ['stop']]))

    const calls = mine.filter((s) => s.name.startsWith('tools/call '))
    expect(calls.map((s) => s.name).sort()).toEqual(['tools/call fast', 'tools/call slow'])
    for (const call of calls) {
      expect(call.kind).toBe(SPAN_KIND.client)
      expect([attr(call, 'mcp.method.name'), attr(call, 'gen_ai.operation.name'), call.status?.code ?? 0]).toEqual(['tools/call', 'execute_tool', 0])
    }
    // The record names each call's span.
    expect(run.tool_calls.map((c) => [c.name, c.span_id])).toEqual(run.tool_calls.map((c) => [c.name, calls.find((s) => attr(s, 'gen_ai.tool.name') === c.name)?.spanId]))

    const judge = mine.filter((s) => s.name.startsWith('judge '))
    expect(judge.map((s) => s.name)).toEqual([`judge ${doc.config?.judge_model}`])
    expect(attr(judge[0], 'gen_ai.evaluation.score.value')).toBeCloseTo(run.judge?.score ?? NaN)
    expect(run.judge?.latency_ms).toEqual(expect.any(Number))
  }

  // The server saw each tools/call with the traceparent of that call's exported span.
  const toolCalls = requests.filter((r) => r.method === 'tools/call')
  expect(toolCalls).toHaveLength(4)
  for (const request of toolCalls) {
    const context = parseTraceparent(request.traceparent)
    const span = byId.get(context?.parentId ?? '')
    expect(span && [span.traceId, span.name, byId.get(span.parentSpanId ?? '')?.name]).toEqual([context?.traceId, `tools/call ${request.tool}`, 'invoke_agent both-tools'])
    expect(traceIds).toContain(context?.traceId)
  }
  // Requests while the session opened (the tool listing) carry the run's own span.
  const roots = new Set(spans.filter((s) => !s.parentSpanId).map((s) => s.spanId))
  const listings = requests.filter((r) => r.method === 'tools/list').map((r) => parseTraceparent(r.traceparent))
  expect(listings.length).toBeGreaterThanOrEqual(2)
  expect(listings.every((c) => c !== null && roots.has(c.parentId) && traceIds.includes(c.traceId))).toBe(true)
  // Only an era probe may lack it (sent before the session has a run's context).
  expect(requests.filter((r) => r.traceparent === null).every((r) => r.method === 'server/discover')).toBe(true)
  // What the model and the server said stays off the spans; so does the header value.
  const exported = JSON.stringify(spans)
  for (const text of [ARG_SECRET, ANSWER, PROMPT, HEADER_SECRET]) expect(exported).not.toContain(text)
}

describe('OpenTelemetry through evaluate()', () => {
  test('over stdio: every run is a trace at the receiver, and the server saw its spans in traceparent', async () => {
    const receiver = await startReceiver()
    const log = join(mkdtempSync(join(tmpdir(), 'otel-log-')), 'requests.jsonl')
    try {
      const server = { command: process.execPath, args: [fixturePath('servers/telemetry-server.mjs'), 'DELAY_MS=30', `LOG=${log}`] }
      const { doc, warnings } = await evaluateWith(server, { otlpEndpoint: receiver.endpoint, otlpHeaders: `x-collector-key=${HEADER_SECRET}` })
      expect(warnings).toEqual([])
      // The SDK's exporter: OTLP/JSON over HTTP, with the configured header.
      expect(receiver.exports.length).toBeGreaterThan(0)
      expect(receiver.exports.every((e) => e.contentType === 'application/json' && e.headers['x-collector-key'] === HEADER_SECRET)).toBe(true)
      const requests = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as TelemetryRequest)
      expectTracesOf(doc, receiver.spans(), requests)
      // The header value is a secret: nowhere in the document.
      expect(JSON.stringify(doc)).not.toContain(HEADER_SECRET)
    } finally {
      await receiver.close()
    }
  })

  test('over Streamable HTTP: the same traces, the same parents', async () => {
    const receiver = await startReceiver()
    const server = await startTelemetryHttpServer({ delayMs: 30 })
    try {
      const { doc, warnings } = await evaluateWith({ url: server.url }, { otlpEndpoint: `${receiver.endpoint}/v1/traces` })
      expect(warnings).toEqual([])
      expectTracesOf(doc, receiver.spans(), server.requests)
    } finally {
      await server.close()
      await receiver.close()
    }
  })

  test('the SDK merges OTEL_EXPORTER_OTLP_HEADERS in, and the headers given (otlp_headers) win per key', async () => {
    const receiver = await startReceiver()
    const saved = process.env.OTEL_EXPORTER_OTLP_HEADERS
    process.env.OTEL_EXPORTER_OTLP_HEADERS = 'x-collector-key=from-env,x-env-only=also-sent'
    try {
      const tracing = createTracing({ otlp: { url: `${receiver.endpoint}/v1/traces`, headers: { 'x-collector-key': 'from-input' } }, serviceVersion: '9.9.9' })
      tracing.startRun({ case_id: 'c', model: 'm', prompt_name: 'p', attempt: 1, index: 0 }).end('passed')
      await tracing.shutdown()
      expect(receiver.exports.map((e) => [e.headers['x-collector-key'], e.headers['x-env-only']])).toEqual([['from-input', 'also-sent']])
    } finally {
      if (saved === undefined) delete process.env.OTEL_EXPORTER_OTLP_HEADERS
      else process.env.OTEL_EXPORTER_OTLP_HEADERS = saved
      await receiver.close()
    }
  })

  test.each([
    ['answers 500', 500],
    ['refuses the connection', null]
  ])('a receiver that %s is one warning, and the document is as it would be without one', async (_name, status) => {
    const receiver = await startReceiver(status ?? 200)
    if (status === null) await receiver.close()
    try {
      const log = join(mkdtempSync(join(tmpdir(), 'otel-log-')), 'requests.jsonl')
      const server = { command: process.execPath, args: [fixturePath('servers/telemetry-server.mjs'), `LOG=${log}`] }
      const { doc, warnings } = await evaluateWith(server, { otlpEndpoint: receiver.endpoint, otlpHeaders: `x-collector-key=${HEADER_SECRET}` })
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatch(/^OpenTelemetry: /)
      expect(warnings[0]).toContain(`${receiver.endpoint}/v1/traces`)
      expect(warnings[0]).not.toContain(HEADER_SECRET)
      if (status === 500) expect(warnings[0]).toContain('HTTP 500')
      expect(doc.passed).toBe(true)
      expect(doc.runs.map((r) => [r.status, /^[0-9a-f]{32}$/.test(r.trace_id ?? '')])).toEqual([
        ['passed', true],
        ['passed', true]
      ])
    } finally {
      if (status !== null) await receiver.close()
    }
  })

  test('without an endpoint, runs still have trace ids and the server still gets traceparent', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'otel-log-')), 'requests.jsonl')
    const server = { command: process.execPath, args: [fixturePath('servers/telemetry-server.mjs'), `LOG=${log}`] }
    const { doc, warnings } = await evaluateWith(server, {})
    expect(warnings).toEqual([])
    const requests = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as TelemetryRequest)
    const calls = requests.filter((r) => r.method === 'tools/call').map((r) => parseTraceparent(r.traceparent))
    expect(calls).toHaveLength(4)
    const spanIds = doc.runs.flatMap((r: RunResult) => r.tool_calls.map((c) => c.span_id))
    for (const call of calls) {
      expect(doc.runs.map((r) => r.trace_id)).toContain(call?.traceId)
      expect(spanIds).toContain(call?.parentId)
    }
  })
})

// ---- The tracing wrapper alone: spans in memory, sessions and clients faked. ----

/** An exporter that keeps every span it is given (and keeps them past shutdown). */
function collecting(): SpanExporter & { spans: ReadableSpan[] } {
  const spans: ReadableSpan[] = []
  return {
    spans,
    export: (batch, done) => {
      spans.push(...batch)
      done({ code: ExportResultCode.SUCCESS })
    },
    shutdown: async () => undefined
  }
}

/** A session whose tools/call answers with `answer` (or throws it), and that notes the trace context it was called under. */
function fakeSession(answer: CallOutcome | Error, seen: { meta?: () => Record<string, string>; during: Record<string, string>[] }): McpSession {
  const call = async (): Promise<CallOutcome> => {
    if (seen.meta) seen.during.push(seen.meta())
    if (answer instanceof Error) throw answer
    return answer
  }
  return {
    era: 'modern',
    protocolVersion: '2026-07-28',
    tools: [],
    resources: [],
    prompts: [],
    timings: { connect_ms: 0, list_ms: 0 },
    callTool: call,
    callToolRaw: () => Promise.reject(new Error('not used')),
    readResource: call,
    getPrompt: call,
    stderrTail: () => '',
    sessionHappenings: () => ({ declared: [], max_rounds: 0, misplaced_input_required: [], outside_server_requests: [], reads: [] }),
    sessionRounds: () => [],
    close: async () => undefined
  }
}

const RUN = { case_id: 'c1', model: 'm/one', prompt_name: 'd', attempt: 1, index: 1 }
const signal = new AbortController().signal
const attrs = (span: ReadableSpan | undefined) => span?.attributes ?? {}

describe('createTracing', () => {
  test.each([
    ['a result', { text: 'ok', isError: false }, { code: 0, type: undefined }],
    ['an isError result', { text: 'bad', isError: true }, { code: STATUS_ERROR, type: 'tool_error' }],
    ['a Layer 2 fault', { text: 'Service unavailable', isError: true, annotations: { fault: { kind: 'error' as const, call: 1, executions: 0, detail: 'an injected JSON-RPC error' } } }, { code: STATUS_ERROR, type: 'tool_error', fault: 'error' }],
    ['a throw', new ServerError('tool call failed: token=abc123 leaked in a message', ''), { code: STATUS_ERROR, type: 'ServerError' }]
  ])('a tools/call with %s is a CLIENT span child of the run, current while in flight', async (_name, answer, expected) => {
    const exporter = collecting()
    const tracing = createTracing({ otlp: null, exporter, serviceVersion: '9.9.9' })
    const run = tracing.startRun(RUN)
    const seen: { meta?: () => Record<string, string>; during: Record<string, string>[] } = { meta: () => run.meta(), during: [] }
    const session = run.session(fakeSession(answer, seen))
    const outcome = await session.callTool('search', { q: 'secret query' }, signal).catch((error: Error) => error)
    run.end('passed')
    await tracing.shutdown()

    const call = exporter.spans.find((s) => s.name === 'tools/call search')
    const root = exporter.spans.find((s) => s.name === 'invoke_agent c1')
    expect(call?.parentSpanContext?.spanId).toBe(root?.spanContext().spanId)
    expect(call?.spanContext().traceId).toBe(run.traceId)
    expect([call?.status.code, attrs(call)['error.type'], attrs(call)['mcp_server_evals.fault.kind']]).toEqual([expected.code, expected.type, 'fault' in expected ? expected.fault : undefined])
    expect([attrs(call)['mcp.method.name'], attrs(call)['gen_ai.tool.name'], attrs(call)['mcp.protocol.version']]).toEqual(['tools/call', 'search', '2026-07-28'])
    // While the call was in flight, its span was the parent of what the server was sent; after it, the run's span is.
    expect(seen.during).toEqual([{ traceparent: `00-${run.traceId}-${call?.spanContext().spanId}-01` }])
    expect(run.meta()).toEqual({ traceparent: `00-${run.traceId}-${root?.spanContext().spanId}-01` })
    if (outcome instanceof Error) expect(outcome).toBe(answer)
    else expect(outcome.annotations?.span_id).toBe(call?.spanContext().spanId)
    // No message, argument or result text on any span.
    expect(JSON.stringify(exporter.spans.map((s) => [s.name, s.attributes, s.status]))).not.toMatch(/secret query|abc123|Service unavailable|bad/)
  })

  test('resources/read and prompts/get get their own span names and attributes', async () => {
    const exporter = collecting()
    const tracing = createTracing({ otlp: null, exporter, serviceVersion: '9.9.9' })
    const run = tracing.startRun(RUN)
    const session = run.session(fakeSession({ text: 'x', isError: false }, { during: [] }))
    await session.readResource('file:///notes/today.md', signal)
    await session.getPrompt('summarise', {}, signal)
    run.end('passed')
    await tracing.shutdown()
    const read = exporter.spans.find((s) => s.name === 'resources/read')
    const prompt = exporter.spans.find((s) => s.name === 'prompts/get summarise')
    expect([attrs(read)['mcp.method.name'], attrs(read)['mcp.resource.uri']]).toEqual(['resources/read', 'file:///notes/today.md'])
    expect([attrs(prompt)['mcp.method.name'], attrs(prompt)['gen_ai.prompt.name']]).toEqual(['prompts/get', 'summarise'])
  })

  test('chat spans carry usage, finish reason and a replayed answer; a failed call is an error', async () => {
    const exporter = collecting()
    const tracing = createTracing({ otlp: null, exporter, serviceVersion: '9.9.9' })
    const run = tracing.startRun(RUN)
    const response: ChatResponse = { content: 'hi', tool_calls: [], finish_reason: 'stop', usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15, cost_usd: 0.002 }, logprobs: null, latency_ms: 1, cached: true }
    let fail = false
    const client: ChatClient = { complete: async () => (fail ? Promise.reject(Object.assign(new Error('429 from provider, key sk-123'), { name: 'RateLimitError' })) : response) }
    const traced = run.chat(client)
    expect(await traced.complete({ model: 'm/one', messages: [{ role: 'user', content: 'private prompt' }], temperature: 0 })).toBe(response)
    fail = true
    await expect(traced.complete({ model: 'm/one', messages: [] })).rejects.toThrow('429')
    run.end('error')
    await tracing.shutdown()
    const [ok, failed] = exporter.spans.filter((s) => s.name === 'chat m/one')
    expect(attrs(ok)).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm/one', 'gen_ai.usage.input_tokens': 12, 'gen_ai.usage.output_tokens': 3, 'gen_ai.response.finish_reasons': ['stop'], 'mcp_server_evals.llm.cached': true, 'mcp_server_evals.usage.cost_usd': 0.002 })
    expect([failed.status.code, attrs(failed)['error.type']]).toEqual([STATUS_ERROR, 'RateLimitError'])
    const root = exporter.spans.find((s) => s.name === 'invoke_agent c1')
    expect([root?.status.code, attrs(root)['mcp_server_evals.run.status']]).toEqual([STATUS_ERROR, 'error'])
    expect(JSON.stringify(exporter.spans.map((s) => [s.attributes, s.status]))).not.toMatch(/private prompt|sk-123/)
  })

  test.each([
    ['a verdict', { score: 0.8, usage: { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55 } }, 0],
    ['a JudgeError returned in its place', new JudgeError('the judge gave no score', { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55 }), STATUS_ERROR]
  ])('a judge call with %s is one span with its usage', async (_name, outcome, code) => {
    const exporter = collecting()
    const tracing = createTracing({ otlp: null, exporter, serviceVersion: '9.9.9' })
    const run = tracing.startRun(RUN)
    expect(await run.judge('judge/model', async () => outcome)).toBe(outcome)
    run.end('passed')
    await tracing.shutdown()
    const judge = exporter.spans.find((s) => s.name === 'judge judge/model')
    expect([judge?.status.code, attrs(judge)['gen_ai.usage.input_tokens'], attrs(judge)['gen_ai.evaluation.score.value']]).toEqual([code, 50, outcome instanceof Error ? undefined : 0.8])
  })

  test('without an exporter every run still has its own sampled trace; end twice ends once', async () => {
    const tracing = createTracing({ otlp: null, serviceVersion: '9.9.9' })
    const [a, b] = [tracing.startRun(RUN), tracing.startRun({ ...RUN, index: 2 })]
    expect([a.traceId, b.traceId].every((id) => /^[0-9a-f]{32}$/.test(id) && !/^0+$/.test(id))).toBe(true)
    expect(a.traceId).not.toBe(b.traceId)
    expect(a.meta().traceparent).toMatch(new RegExp(`^00-${a.traceId}-[0-9a-f]{16}-01$`))
    a.end('passed')
    a.end('error')
    b.end('cancelled')
    await expect(tracing.shutdown()).resolves.toBeUndefined()
  })

  test('export failures, however many, are one warning; a flush that never ends is given up on', async () => {
    const warnings: string[] = []
    const failing: SpanExporter = { export: (_spans, done) => done({ code: ExportResultCode.FAILED, error: new Error('boom') }), shutdown: async () => undefined }
    const tracing = createTracing({ otlp: null, exporter: failing, serviceVersion: '9.9.9', onWarning: (m) => warnings.push(m) })
    for (let i = 0; i < 3; i++) tracing.startRun({ ...RUN, index: i }).end('passed')
    await tracing.shutdown()
    expect(warnings).toHaveLength(1)

    // Its spans go, but it never finishes shutting down (no timer of its own keeps the test alive).
    const hanging: SpanExporter = { export: (_spans, done) => done({ code: ExportResultCode.SUCCESS }), shutdown: () => new Promise(() => undefined) }
    const stuck = createTracing({ otlp: null, exporter: hanging, serviceVersion: '9.9.9', shutdownTimeoutMs: 50, onWarning: (m) => warnings.push(m) })
    stuck.startRun(RUN).end('passed')
    await stuck.shutdown()
    expect(warnings).toHaveLength(2)
    expect(warnings[1]).toMatch(/could not be sent .* within 0\.05 s/)
  })
})
