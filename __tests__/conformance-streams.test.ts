import { afterEach, describe, expect, test } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fixturePath } from '../__fixtures__/harness.js'
import { startHttpServer } from '../__fixtures__/servers/http-server.mjs'
import type { ServerConfig } from '../src/config/types.js'
import { STREAMS_CATALOG, checkStreams } from '../src/conformance/checks/streams.js'
import type { ProbeData } from '../src/conformance/probe-data.js'
import { listenFilters } from '../src/conformance/probe-streams.js'
import { runConformance } from '../src/conformance/run.js'
import type { CheckResult, ConformanceReport } from '../src/conformance/types.js'
import type { Exchange } from '../src/conformance/wire.js'

const STREAMS = fixturePath('servers/streams-server.mjs')
const CONFORMANCE = fixturePath('servers/conformance-server.mjs')
const IDS = [
  'subscriptions-listen-acknowledged',
  'subscriptions-listen-subscription-id',
  'subscriptions-listen-filter',
  'subscriptions-list-changed',
  'no-log-without-log-level',
  'log-notifications-declared',
  'no-server-requests',
  'concurrent-requests'
]

const running: ChildProcess[] = []
afterEach(() => {
  for (const child of running.splice(0)) child.kill()
})

async function fixture(path: string, transport: 'stdio' | 'http', defect = ''): Promise<ServerConfig> {
  if (transport === 'stdio') return { kind: 'stdio', command: process.execPath, args: [path], env: { DEFECT: defect } }
  const child = spawn(process.execPath, [path, '--http'], { env: { ...process.env, DEFECT: defect } })
  running.push(child)
  const [url] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string]
  return { kind: 'http', url, headers: {} }
}

/** The streams checks of a report, by id. */
function streamsChecks(report: ConformanceReport): Record<string, CheckResult> {
  return Object.fromEntries(report.checks.filter((c) => IDS.includes(c.id)).map((c) => [c.id, c]))
}
const statuses = (report: ConformanceReport) => Object.fromEntries(Object.entries(streamsChecks(report)).map(([id, c]) => [id, c.status]))

describe.each(['stdio', 'http'] as const)('streams checks over %s', (transport) => {
  test('a clean server passes every one of them, the change notification delivered on its listen', async () => {
    const report = await runConformance(await fixture(STREAMS, transport))
    expect(statuses(report)).toEqual(Object.fromEntries(IDS.map((id) => [id, 'pass'])))
    const checks = streamsChecks(report)
    expect(checks['subscriptions-list-changed'].message).toContain('notifications/tools/list_changed')
    expect(checks['no-log-without-log-level'].message).toContain('the server does log when asked')
    // The listens were closed within their window, and the run stays short.
    expect(report.duration_ms).toBeLessThan(10000)
  })

  const DEFECTS: [string, string, 'fail' | 'warn', string][] = [
    ['no-ack', 'subscriptions-listen-acknowledged', 'fail', 'not notifications/subscriptions/acknowledged'],
    ['ack-wrong-id', 'subscriptions-listen-acknowledged', 'fail', 'io.modelcontextprotocol/subscriptionId "'],
    ['ack-superset', 'subscriptions-listen-acknowledged', 'fail', 'honours what was not asked for: resourcesListChanged'],
    ['no-listen', 'subscriptions-listen-acknowledged', 'fail', '-32601'],
    ['untagged', 'subscriptions-listen-subscription-id', 'fail', 'carries no io.modelcontextprotocol/subscriptionId'],
    ['ignore-filter', 'subscriptions-listen-filter', 'fail', 'notifications/tools/list_changed (not asked for)'],
    ['list-changed-on-call', 'subscriptions-list-changed', 'warn', 'change notifications ride only on a subscriptions/listen stream'],
    ['log-always', 'no-log-without-log-level', 'fail', 'tools/list'],
    ['log-undeclared', 'log-notifications-declared', 'fail', 'declares no logging capability'],
    ['server-request', 'no-server-requests', 'fail', 'elicitation/create'],
    ['busy', 'concurrent-requests', 'warn', 'each should get its own answer']
  ]
  test.each(DEFECTS)('DEFECT=%s fails %s', async (defect, id, status, fragment) => {
    const report = await runConformance(await fixture(STREAMS, transport, defect), { requestTimeoutMs: 2000 })
    const check = streamsChecks(report)[id]
    expect(check.status).toBe(status)
    expect(check.message).toContain(fragment)
    expect(check.evidence).toBeDefined()
  })

  test('the clean conformance fixture passes them: a listen acknowledged, no log, nothing elsewhere', async () => {
    const report = await runConformance(await fixture(CONFORMANCE, transport))
    expect(statuses(report)).toEqual(Object.fromEntries(IDS.map((id) => [id, 'pass'])))
    expect(streamsChecks(report)['subscriptions-list-changed'].message).toContain('no change happened')
  })
})

describe('the example server (SDK 2.4.0)', () => {
  const expected = {
    'subscriptions-listen-acknowledged': 'pass',
    'subscriptions-listen-subscription-id': 'pass',
    'subscriptions-listen-filter': 'pass',
    'subscriptions-list-changed': 'pass',
    'no-log-without-log-level': 'pass',
    'log-notifications-declared': 'pass',
    'no-server-requests': 'pass',
    'concurrent-requests': 'pass'
  }
  test('over stdio: acknowledged listens, nothing outside the filters, no false finding', async () => {
    const report = await runConformance({ kind: 'stdio', command: process.execPath, args: [fixturePath('../examples/server/server.mjs')], env: {} })
    expect(statuses(report)).toEqual(expected)
  })
  test('over Streamable HTTP', async () => {
    const http = await startHttpServer()
    try {
      expect(statuses(await runConformance({ kind: 'http', url: http.url, headers: {} }))).toEqual(expected)
    } finally {
      await http.close()
    }
  })
})

test('a legacy server: the 2026-07-28 rules are skipped with the reason, concurrent requests still checked', async () => {
  const report = await runConformance({ kind: 'stdio', command: process.execPath, args: [fixturePath('servers/legacy-server.mjs')], env: {} })
  const checks = streamsChecks(report)
  for (const id of IDS.filter((i) => i !== 'concurrent-requests')) expect(checks[id]).toMatchObject({ status: 'skip', message: 'legacy server: applies from 2026-07-28' })
  expect(checks['concurrent-requests'].status).toBe('pass')
})

test('every check the module emits has its catalog entry', () => {
  expect(Object.keys(STREAMS_CATALOG).sort()).toEqual([...IDS].sort())
  const probe = { transport: 'stdio', era: 'legacy', probes: 'safe', discover: {} as Exchange, toolsList: [], otherLists: [] } as unknown as ProbeData
  expect(checkStreams(probe).map((c) => c.id)).toEqual(IDS)
})

test('a server that declares nothing a listen delivers: the listen checks skip and say why', () => {
  const probe = {
    transport: 'http',
    era: 'modern',
    probes: 'safe',
    discover: { method: 'server/discover', request: { id: 1 }, response: { frame: { id: 1, result: { capabilities: { tools: {} } } } } },
    toolsList: [],
    otherLists: [],
    streams: { listens: [], listenSkipped: 'the server declares no listChanged', concurrent: { method: 'tools/list', exchanges: [] } }
  } as unknown as ProbeData
  const checks = checkStreams(probe)
  for (const id of IDS.slice(0, 3)) expect(checks.find((c) => c.id === id)).toMatchObject({ status: 'skip', message: 'the server declares no listChanged' })
})

describe('listen filters', () => {
  test('the declared listen asks for what the capabilities enable, the narrow one for a single other kind', () => {
    const capabilities = { tools: { listChanged: true }, resources: { subscribe: true } }
    expect(listenFilters({ capabilities, resources: [{ uri: 'docs://a' }] })).toEqual([
      { role: 'declared', filter: { toolsListChanged: true, resourceSubscriptions: ['docs://a'] } },
      { role: 'narrow', filter: { promptsListChanged: true } }
    ])
    expect(listenFilters({ capabilities: { prompts: { listChanged: true }, resources: { listChanged: true } }, resources: [] })[1].filter).toEqual({ resourcesListChanged: true })
    expect(listenFilters({ capabilities: { tools: {}, prompts: { listChanged: false } }, resources: [] })).toEqual([])
  })
})

describe('on stdio, what is whose', () => {
  const listen = (id: number, stream: Record<string, unknown>[]) => ({
    role: 'declared' as const,
    filter: { toolsListChanged: true },
    exchange: { method: 'subscriptions/listen', request: { id, method: 'subscriptions/listen', params: {} }, response: { messages: stream } },
    stream,
    ended: 'window' as const,
    windowMs: 500
  })
  const ack = (id: unknown) => ({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/subscriptionId': id } } })
  const probeWith = (messages: Record<string, unknown>[], others: Exchange[] = []): ProbeData =>
    ({
      transport: 'stdio',
      era: 'modern',
      probes: 'safe',
      discover: { method: 'server/discover', request: { id: 1 }, response: { frame: { id: 1, result: { capabilities: { tools: { listChanged: true } } } } } },
      toolsList: others,
      otherLists: [],
      streams: { listens: [listen(7, messages)], concurrent: { method: 'tools/list', exchanges: [] } }
    }) as unknown as ProbeData
  const byId = (probe: ProbeData) => Object.fromEntries(checkStreams(probe).map((c) => [c.id, c]))

  test('another request\u2019s progress on the shared channel is not the listen\u2019s', () => {
    const checks = byId(probeWith([{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'x', progress: 1 } }, ack(7)]))
    expect(checks['subscriptions-listen-acknowledged'].status).toBe('pass')
    expect(checks['subscriptions-listen-filter'].status).toBe('pass')
  })

  test('a log notification tagged for the listen is outside its filter', () => {
    const checks = byId(probeWith([ack(7), { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x', _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } } }]))
    expect(checks['subscriptions-listen-filter']).toMatchObject({ status: 'fail', message: expect.stringContaining('request-scoped') })
    expect(checks['no-log-without-log-level'].status).toBe('fail')
  })

  test('a silent listen fails on a quick server, and proves nothing on a slow one', () => {
    const list = (ms: number): Exchange => ({ method: 'tools/list', request: { id: 2 }, response: { frame: { id: 2, result: { tools: [] } } }, ms })
    expect(byId(probeWith([], [list(20)]))['subscriptions-listen-acknowledged']).toMatchObject({ status: 'fail', message: expect.stringContaining('no acknowledgement within 500 ms') })
    expect(byId(probeWith([], [list(400)]))['subscriptions-listen-acknowledged']).toMatchObject({ status: 'skip', message: expect.stringContaining('tools/list took 400 ms') })
  })

  test('no change during the window passes with what was checked, never a guessed failure', () => {
    expect(byId(probeWith([ack(7)]))['subscriptions-list-changed']).toMatchObject({ status: 'pass', message: expect.stringContaining('no change happened') })
  })

  test('an untagged change notification on the shared channel is the listen’s finding, not another request’s', () => {
    const change = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }
    const call: Exchange = { method: 'tools/call', request: { id: 9, method: 'tools/call' }, response: { frame: { id: 9, result: {} }, messages: [change] } }
    const checks = byId(probeWith([ack(7), change], [call]))
    expect(checks['subscriptions-listen-subscription-id']).toMatchObject({ status: 'fail', message: expect.stringContaining('carries no io.modelcontextprotocol/subscriptionId') })
    expect(checks['subscriptions-listen-filter'].status).toBe('pass')
    expect(checks['subscriptions-list-changed']).toMatchObject({ status: 'warn', methods: ['tools/call'] })
  })
})
