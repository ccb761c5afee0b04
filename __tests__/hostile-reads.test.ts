import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCliProcess } from '../__fixtures__/cli.js'
import { evaluateWith, fixturePath, suiteOf, type Evaluation } from '../__fixtures__/harness.js'
import { scriptedBrain, startScriptedLlm, type ChatRequestBody, type Responder } from '../__fixtures__/scripted-llm.js'
import { gzipBomb, startHostileHttpServer, startRecorder, startRedirector } from '../__fixtures__/servers/hostile-http-server.mjs'
import type { ServerConfig } from '../src/config/types.js'
import { parseSuite } from '../src/config/suite.js'
import { probeServer } from '../src/conformance/probe.js'
import { HttpWire } from '../src/conformance/wire.js'
import { runEvaluation } from '../src/engine.js'
import { createChatClient } from '../src/llm/chat.js'
import { screenedFetch } from '../src/mcp/http-screen.js'
import { createSessionFactory } from '../src/mcp/session.js'
import { writeResults } from '../src/output/write-results.js'
import type { ResultsDocument } from '../src/results/types.js'
import { createGEvalJudge } from '../src/scoring/geval.js'
import { createSemanticMatcher } from '../src/scoring/semantic.js'
import { FrameLines, nestedDeeperThan } from '../src/util/read-limits.js'

/**
 * Every read from a server or a provider has a byte limit and a depth limit (docs/reliability.md,
 * "Against hostile input"): the hostile peer's run fails with a clear error, the other runs are
 * kept, and the document is written.
 */

const HOSTILE_STDIO: ServerConfig = { kind: 'stdio', command: process.execPath, args: [fixturePath('servers/hostile-read-server.mjs')], env: {} }
const SECRET = 'sk-live-7c1d9e2f4a6b'

/** Cases named after the tool their prompt makes the model call (the scripted brain calls it once, then answers). */
function casesCalling(tools: string[]): { suite: string; responder: Responder } {
  const suite = suiteOf(tools.map((tool) => `  - id: ${tool}\n    prompt: call ${tool}\n    rubric: r\n`).join(''))
  const scripts = Object.fromEntries(tools.map((tool) => [`call ${tool}`, { turns: [[{ name: tool, args: { text: 'hi' } }]], answer: 'done' }]))
  return { suite, responder: scriptedBrain(scripts, () => 9) }
}

const runOf = (doc: ResultsDocument, id: string) => doc.runs.find((run) => run.case_id === id)!

/** The document is written whole: results, report and JUnit, parsed back. */
function expectWritten(doc: ResultsDocument) {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-reads-'))
  const resultsPath = join(dir, 'r.json')
  writeResults(doc, { resultsPath, reportPath: join(dir, 'r.md'), junitPath: join(dir, 'j.xml') }, [SECRET])
  const written = JSON.parse(readFileSync(resultsPath, 'utf8')) as ResultsDocument
  expect(written.runs).toHaveLength(doc.runs.length)
  expect(existsSync(join(dir, 'r.md')) && existsSync(join(dir, 'j.xml'))).toBe(true)
  return written
}

describe('a stdio server', () => {
  test('that writes 400 MB on one line with no newline ends its session at 64 MiB; the other runs are kept', async () => {
    const { suite, responder } = casesCalling(['flood', 'echo'])
    const { doc } = await evaluateWith({ suite, server: HOSTILE_STDIO, responder })
    expect(runOf(doc, 'flood')).toMatchObject({ status: 'error', error: { stage: 'server' } })
    expect(runOf(doc, 'flood').error!.message).toBe("tool call 'flood' failed: the server's answer was not read: a message longer than 64 MiB on one line of stdout; the session was ended")
    expect(runOf(doc, 'echo')).toMatchObject({ status: 'passed', error: null })
    expectWritten(doc)
  })

  test('that floods its first answer fails the conformance probe at the limit, not at the timeout', async () => {
    const probe = await probeServer({ ...HOSTILE_STDIO, env: { FLOOD_AT: 'initialize' } }, { requestTimeoutMs: 120_000 })
    expect(probe.era).toBe('unreachable')
    expect(probe.unreachable?.reason).toBe('server wrote a message longer than 64 MiB on one line of stdout (not read further)')
  })

  test('whose answer nests 100,000 deep fails that call and that tool test; the document is written (CLI)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostile-deep-'))
    const { suite, responder } = casesCalling(['deep', 'echo'])
    // No expectation: the answer itself went into the document, whose writer overflowed the stack.
    const toolTests = 'tool_tests:\n  - id: deep-test\n    tool: deep\n    args: {}\n  - id: echo-test\n    tool: echo\n    args: { text: hi }\n    expect: { contains: "echo: hi" }\n'
    writeFileSync(join(dir, 'suite.yaml'), toolTests + suite)
    const llm = await startScriptedLlm(responder)
    try {
      const cli = await runCliProcess(['--server-config', JSON.stringify({ command: process.execPath, args: HOSTILE_STDIO.args }), '--eval-cases', 'suite.yaml', '--base-url', llm.url, '--api-key', 'sk-test'], dir)
      expect(cli.stderr).not.toMatch(/Maximum call stack|RangeError/)
      expect(cli.code).toBe(1)
      const doc = JSON.parse(readFileSync(join(dir, 'eval-results.json'), 'utf8')) as ResultsDocument
      expect(runOf(doc, 'deep').error?.message).toBe("tool call 'deep' failed: the server's answer was not read: nested deeper than 256 levels")
      expect(runOf(doc, 'echo').status).toBe('passed')
      const tests = doc.tool_tests!.tests
      expect(tests.find((t) => t.id === 'echo-test')).toMatchObject({ passed: true })
      expect(JSON.stringify(tests.find((t) => t.id === 'deep-test'))).toContain('nested deeper than 256 levels')
      expect(existsSync(join(dir, 'eval-report.md'))).toBe(true)
    } finally {
      await llm.close()
    }
  })

  test('whose answer has both result and error fails that call at once', async () => {
    const { suite, responder } = casesCalling(['both', 'echo'])
    // A timeout longer than the test's: waiting it out would fail the test.
    const { doc } = await evaluateWith({ suite, server: HOSTILE_STDIO, responder, settings: { timeoutSeconds: 120 } })
    expect(runOf(doc, 'both')).toMatchObject({ status: 'error', error: { stage: 'server' } })
    expect(runOf(doc, 'both').error!.message).toBe(
      `tool call 'both' failed: the server's answer was not read: it has both "result" and "error" (JSON-RPC 2.0 §5: a response has exactly one of them)`
    )
    expect(runOf(doc, 'echo').status).toBe('passed')
    expectWritten(doc)
  }, 30_000)
})

describe('an HTTP server', () => {
  let server: Awaited<ReturnType<typeof startHostileHttpServer>>
  beforeAll(async () => (server = await startHostileHttpServer()))
  afterAll(() => server.close())
  const http = (): ServerConfig => ({ kind: 'http', url: server.url, headers: { 'X-Api-Key': SECRET } })

  test('whose answers are 1.5 MB gzip bombs (JSON and SSE) fails those calls at 64 MiB inflated; the other runs are kept', async () => {
    const { suite, responder } = casesCalling(['bomb', 'sse-bomb', 'deep', 'both', 'echo'])
    const { doc } = await evaluateWith({ suite, server: http(), responder, settings: { timeoutSeconds: 120 } })
    const limit = 'the server\'s answer was not read: it is longer than 64 MiB (counted after decompression)'
    expect(runOf(doc, 'bomb').error?.message).toBe(`tool call 'bomb' failed: ${limit}`)
    expect(runOf(doc, 'sse-bomb').error?.message).toBe(`tool call 'sse-bomb' failed: ${limit}`)
    expect(runOf(doc, 'deep').error?.message).toBe("tool call 'deep' failed: the server's answer was not read: nested deeper than 256 levels")
    expect(runOf(doc, 'both').error?.message).toMatch(/^tool call 'both' failed: the server's answer was not read: it has both "result" and "error"/)
    expect(runOf(doc, 'echo').status).toBe('passed')
    // What was sent is a bomb: about 1 KB on the wire per MB it inflates to.
    expect(Math.min(...server.bombed)).toBeLessThan(2 * 1024 * 1024)
    expectWritten(doc)
  }, 60_000)

  test('the raw probe reads a gzip bomb to the limit only', async () => {
    const exchange = await new HttpWire(server.url, {}).request({ method: 'tools/call', params: { name: 'bomb', arguments: {} } }, 60_000)
    expect(exchange.response).toEqual({ failure: "the server's answer was not read: it is longer than 64 MiB (counted after decompression)", cause: 'answer too long' })
  })

  test('a redirect within the origin is followed with the headers', async () => {
    const probe = await probeServer({ kind: 'http', url: server.url.replace(/\/mcp$/, '/old'), headers: { 'X-Api-Key': SECRET } })
    expect(probe.era).toBe('legacy')
    expect(server.requests.filter((r) => r.url === '/mcp').some((r) => r.headers['x-api-key'] === SECRET)).toBe(true)
  })
})

describe('a redirect to another origin', () => {
  let recorder: Awaited<ReturnType<typeof startRecorder>>
  let redirector: Awaited<ReturnType<typeof startRedirector>>
  beforeAll(async () => {
    recorder = await startRecorder()
    redirector = await startRedirector(recorder.url)
  })
  afterAll(() => Promise.all([redirector.close(), recorder.close()]))
  beforeEach(() => void recorder.received.splice(0))
  const headers = { 'X-Api-Key': SECRET, Authorization: `Bearer ${SECRET}` }

  test('is not followed by the raw probe, which reports it, and the credentials never arrive there', async () => {
    const probe = await probeServer({ kind: 'http', url: redirector.url, headers })
    expect(probe.era).toBe('unreachable')
    expect(probe.unreachable?.reason).toBe(`HTTP 307 redirect to another origin (${recorder.url}) not followed: the configured headers are sent to the endpoint's origin only`)
    expect(recorder.received).toEqual([])
  })

  test('is not followed by the sessions either', async () => {
    const { suite, responder } = casesCalling(['echo'])
    const { doc } = await evaluateWith({ suite, server: { kind: 'http', url: redirector.url, headers }, responder })
    expect(doc.runs[0].status).toBe('error')
    expect(recorder.received).toEqual([])
  })
})

describe('a provider', () => {
  /** A chat endpoint that answers "call bomb" with a gzip bomb, "call endless" with a body that never ends, and the rest as scripted. */
  async function hostileProvider(responder: Responder): Promise<{ url: string; close(): Promise<void> }> {
    const server: Server = createServer(async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody
      const prompt = body.messages.map((m) => m.content ?? '').join('\n')
      const prefix = '{"id":"x","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"'
      if (prompt.includes('call bomb') && body.tools) return void gzipBomb(res, { prefix, headers: { 'content-type': 'application/json' } })
      if (prompt.includes('call endless') && body.tools) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write(prefix)
        const megabyte = Buffer.alloc(1024 * 1024, 'a')
        const more = () => {
          while (!res.destroyed) if (!res.write(megabyte)) return void res.once('drain', more)
        }
        return more()
      }
      const reply = await responder(body, 0)
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))
    }
  }

  test('that answers with a gzip bomb or a body without end fails those runs at 64 MiB; the other runs are kept', async () => {
    const { suite: yaml, responder } = casesCalling(['bomb', 'endless', 'echo'])
    const llm = await hostileProvider(responder)
    let evaluation: Pick<Evaluation, 'doc'>
    try {
      const suite = parseSuite(yaml, 'test.yaml')
      const chat = createChatClient({ baseURL: llm.url, apiKey: 'sk-test', maxRetries: 0 })
      const settings = { maxSteps: 10, concurrency: 4, timeoutSeconds: 60, baseUrl: llm.url, today: '2026-11-30' }
      const doc = await runEvaluation(suite, HOSTILE_STDIO, settings, {
        llm: chat,
        judge: createGEvalJudge(chat, suite.judge_model),
        semantic: createSemanticMatcher(chat, suite.judge_model),
        sessions: createSessionFactory(HOSTILE_STDIO, { probeTimeoutMs: 3000, requestTimeoutMs: 60_000 })
      })
      evaluation = { doc }
    } finally {
      await llm.close()
    }
    const { doc } = evaluation
    for (const id of ['bomb', 'endless']) {
      expect(runOf(doc, id)).toMatchObject({ status: 'error', error: { stage: 'llm' } })
      expect(runOf(doc, id).error!.message).toContain("the provider's answer was not read: it is longer than 64 MiB (counted after decompression)")
    }
    expect(runOf(doc, 'echo').status).toBe('passed')
    expectWritten(doc)
  }, 60_000)
})

describe('a model', () => {
  test('whose tool call arguments nest 100,000 deep gets that call refused, never recorded deep; the document is written', async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`
    const suite = suiteOf(`  - id: deep\n    prompt: call echo deep\n    rubric: r\n  - id: plain\n    prompt: call echo plain\n    rubric: r\n`)
    const responder = scriptedBrain(
      {
        'call echo deep': { turns: [[{ name: 'echo', args: deep }]], answer: 'done' },
        'call echo plain': { turns: [[{ name: 'echo', args: { text: 'hi' } }]], answer: 'done' }
      },
      () => 9
    )
    const { doc } = await evaluateWith({ suite, server: HOSTILE_STDIO, responder })
    const call = runOf(doc, 'deep').tool_calls[0]
    expect(call).toMatchObject({ name: 'echo', args: {}, is_error: true })
    expect(call.result).toContain('(nested deeper than 256 levels)')
    expect(runOf(doc, 'plain').tool_calls[0]).toMatchObject({ args: { text: 'hi' }, is_error: false })
    expectWritten(doc)
  })
})

describe('the readers', () => {
  test('the depth scan counts brackets outside strings only, escapes included', () => {
    const nested = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)
    expect([nestedDeeperThan(nested(256)), nestedDeeperThan(nested(257)), nestedDeeperThan(nested(100_000))]).toEqual([false, true, true])
    expect(nestedDeeperThan(`{"a":"${'['.repeat(1000)}\\"${'{'.repeat(1000)}"}`)).toBe(false)
    expect(nestedDeeperThan(`["\\\\",${'['.repeat(300)}`)).toBe(true)
  })

  test('lines are joined across chunks, lose their CR, and stop for good past the limit', () => {
    const lines = new FrameLines(10)
    expect(lines.push(Buffer.from('ab')).map(String)).toEqual([])
    expect(lines.push(Buffer.from('c\r\nde\nf')).map(String)).toEqual(['abc', 'de'])
    expect(lines.push(Buffer.from('123456789')).map(String)).toEqual([])
    expect(lines.overflowed).toBe(false)
    expect(lines.push(Buffer.from('0')).map(String)).toEqual([])
    expect(lines.overflowed).toBe(true)
    expect(lines.push(Buffer.from('\nok\n'))).toEqual([])
  })

  test('an SSE answer split anywhere, CRLF across chunks too, is screened whole', async () => {
    const deep = '{"a":'.repeat(300) + '1' + '}'.repeat(300)
    const text = `event: message\r\nid: 1\r\ndata: {"jsonrpc":"2.0","id":4,"result":${deep}}\r\n\r\ndata: {"jsonrpc":"2.0","method":"x"}\r\n\r\n`
    const cuts = [3, 15, 16, 40, 900, text.length - 3, text.length - 2]
    const chunks = cuts.map((cut, i) => text.slice(i ? cuts[i - 1] : 0, cut)).concat(text.slice(cuts.at(-1)))
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk))
        controller.close()
      }
    })
    const fetch = screenedFetch(async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }))
    const response = await fetch('http://127.0.0.1:9/mcp', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call' }) })
    const events = (await response.text()).split('\n\n').filter(Boolean)
    expect(events).toHaveLength(2)
    expect(events[0]).toMatch(/^event: message\nid: 1\ndata: \{"jsonrpc":"2.0","id":4,"error":\{"code":-32700,"message":"the server's answer was not read: nested deeper than 256 levels"/)
    expect(events[1]).toBe('data: {"jsonrpc":"2.0","method":"x"}')
  })
})
