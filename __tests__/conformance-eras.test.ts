import { afterEach, describe, expect, test } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fixturePath } from '../__fixtures__/harness.js'
import { startLegacyHttpServer } from '../__fixtures__/servers/legacy-http-server.mjs'
import type { ServerConfig } from '../src/config/types.js'
import { ERAS_CATALOG, checkEras } from '../src/conformance/checks/eras.js'
import { checkHttp, checkUnknownTool } from '../src/conformance/checks/errors.js'
import { namedProbeFor, otherMethod, probeMethodFor } from '../src/conformance/probe-methods.js'
import type { ProbeData } from '../src/conformance/probe-data.js'
import type { SessionProbes } from '../src/conformance/probe-eras-data.js'
import { runConformance } from '../src/conformance/run.js'
import type { CheckResult, ConformanceReport } from '../src/conformance/types.js'

/**
 * The eras a server speaks: the three false positives (a prompts-only server, a resources-only
 * one, a dual-era one whose 2025 sessions use GET) as regression fixtures, the HTTP
 * missing-version error, the methods 2026-07-28 removed, and the 2025-11-25 lifecycle of
 * legacy servers and of a dual-era server's 2025 side.
 */

const ERAS_IDS = [
  'removed-methods-unknown',
  'initialize-error-names-versions',
  'legacy-initialize-result',
  'legacy-ping',
  'legacy-logging-set-level',
  'legacy-session-lifecycle',
  'legacy-session-required',
  'legacy-get-stream'
]

const running: ChildProcess[] = []
afterEach(() => {
  for (const child of running.splice(0)) child.kill()
})

const stdio = (file: string, defect = ''): ServerConfig => ({ kind: 'stdio', command: process.execPath, args: [fixturePath(`servers/${file}`)], env: { DEFECT: defect } })

async function http(file: string, defect = ''): Promise<ServerConfig> {
  const child = spawn(process.execPath, [fixturePath(`servers/${file}`), '--http'], { env: { ...process.env, DEFECT: defect } })
  running.push(child)
  const [url] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string]
  return { kind: 'http', url, headers: {} }
}

const on = async (transport: 'stdio' | 'http', file: string, defect = '') => runConformance(transport === 'stdio' ? stdio(file, defect) : await http(file, defect))
const findings = (report: ConformanceReport) => report.checks.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => `${c.id}:${c.status}`)
const check = (report: ConformanceReport, id: string): CheckResult => {
  const found = report.checks.find((c) => c.id === id)
  if (!found) throw new Error(`no check ${id}`)
  return found
}

describe('false positives: checks about what a server does not declare', () => {
  for (const [file, method, named] of [
    ['prompts-only-server.mjs', 'prompts/list', 'prompts/get'],
    ['resources-only-server.mjs', 'resources/list', 'resources/read']
  ] as const) {
    for (const transport of ['stdio', 'http'] as const) {
      test(`${file} over ${transport}: no finding; unknown-tool-error skips, saying why; the negative probes are sent as ${method}`, async () => {
        const report = await on(transport, file)
        expect(report.era).toBe('modern')
        expect(findings(report)).toEqual([])
        const unknown = check(report, 'unknown-tool-error')
        expect(unknown.status).toBe('skip')
        expect(unknown.message).toContain('server/discover declares no tools capability')
        for (const id of ['unsupported-version-error', 'missing-envelope-error', 'missing-version-error']) {
          expect(check(report, id).status).toBe('pass')
          expect(check(report, id).message).toContain(method)
          expect(check(report, id).evidence?.request).toContain(`"method":"${method}"`)
        }
        if (transport === 'http') {
          expect(check(report, 'http-mcp-method-header').message).toContain(`${method} without Mcp-Method`)
          expect(check(report, 'http-mcp-name-header').message).toContain(`${named} without Mcp-Name`)
          expect(check(report, 'http-protocol-version-header').status).toBe('pass')
        }
      })
    }
  }
})

describe('a dual-era server: the 2025 side is held to the 2025 rules', () => {
  test('over HTTP: GET and DELETE on its 2025 sessions are legal; http-get-delete-405 says which rule applied; the 2025 lifecycle passes', async () => {
    const report = await on('http', 'dual-era-http-server.mjs')
    expect(findings(report)).toEqual([])
    const getDelete = check(report, 'http-get-delete-405')
    expect(getDelete.status).toBe('skip')
    expect(getDelete.message).toContain('the 2025-11-25 rule applied')
    expect(getDelete.message).toContain('initialize (2025-11-25) on a fresh connection → a result')
    for (const id of ['legacy-initialize-result', 'legacy-ping', 'legacy-logging-set-level', 'legacy-session-lifecycle', 'legacy-session-required', 'legacy-get-stream']) {
      expect(`${id}:${check(report, id).status}`).toBe(`${id}:pass`)
    }
    expect(check(report, 'legacy-get-stream').message).toContain('text/event-stream')
    expect(check(report, 'legacy-session-lifecycle').message).toMatch(/DELETE → HTTP 200, then tools\/list with its id → 404/)
    // Like the SDK's createMcpHandler, it answers an initialize carrying the envelope as unknown: held to the rule.
    expect(check(report, 'removed-methods-unknown').message).toBe('ping, logging/setLevel, resources/subscribe, resources/unsubscribe, initialize with the 2026-07-28 envelope → HTTP 404 with -32601')
    // The session probes kept their own session: the main connection never carried one.
    expect(check(report, 'http-no-session-id').status).toBe('pass')
  })

  test('over HTTP, a dual-era server that takes an enveloped initialize for a 2025 one is not failed for it; the message says so', async () => {
    const report = await on('http', 'dual-era-http-server.mjs', 'enveloped-initialize-served')
    expect(findings(report)).toEqual([])
    expect(check(report, 'removed-methods-unknown').message).toMatch(/^ping, logging\/setLevel, resources\/subscribe, resources\/unsubscribe with the 2026-07-28 envelope → HTTP 404 with -32601 \(initialize left out: it got HTTP 200 with a result, and this server also serves 2025-11-25 clients/)
  })

  test('over stdio: initialize on a fresh process opens the 2025 side; ping and logging/setLevel pass', async () => {
    const report = await on('stdio', 'dual-era-http-server.mjs')
    expect(findings(report)).toEqual([])
    for (const id of ['legacy-initialize-result', 'legacy-ping', 'legacy-logging-set-level', 'removed-methods-unknown']) expect(`${id}:${check(report, id).status}`).toBe(`${id}:pass`)
    expect(check(report, 'legacy-session-lifecycle')).toMatchObject({ status: 'skip', message: 'stdio server: no HTTP sessions' })
  })
})

describe('each seeded defect is the finding it should be', () => {
  const cases: [string, string, ('stdio' | 'http')[], string][] = [
    ['session-survives-delete', 'legacy-session-lifecycle:fail', ['http'], 'an ended session MUST get HTTP 404'],
    ['session-optional', 'legacy-session-required:warn', ['http'], 'expected HTTP 400'],
    ['get-json', 'legacy-get-stream:fail', ['http'], 'expected an event stream or 405'],
    ['ping-payload', 'legacy-ping:fail', ['stdio', 'http'], 'expected an empty result {}'],
    ['set-level-error', 'legacy-logging-set-level:fail', ['stdio', 'http'], 'though initialize declares logging'],
    ['modern-ping', 'removed-methods-unknown:fail', ['stdio', 'http'], 'ping with the 2026-07-28 envelope got'],
    ['init-no-server-info', 'legacy-initialize-result:fail', ['stdio', 'http'], 'no serverInfo with name and version']
  ]
  for (const [defect, finding, transports, words] of cases) {
    for (const transport of transports) {
      test(`${defect} over ${transport} → ${finding}`, async () => {
        const report = await on(transport, 'dual-era-http-server.mjs', defect)
        expect(findings(report)).toEqual([finding])
        const found = check(report, finding.split(':')[0])
        expect(found.message).toContain(words)
        expect(found.evidence?.response).toBeTruthy()
      })
    }
  }

  test('initialize-bare-error: a 2026-07-28-only server whose initialize error names no version → initialize-error-names-versions:warn', async () => {
    const report = await on('http', 'prompts-only-server.mjs', 'initialize-bare-error')
    expect(findings(report)).toEqual(['initialize-error-names-versions:warn'])
  })
})

describe('missing-version-error: an error where the header claims 2026-07-28, a warning on stdio', () => {
  test('over HTTP a request with MCP-Protocol-Version: 2026-07-28 and no _meta version, served, is an error', async () => {
    const report = await on('http', 'dual-era-http-server.mjs', 'missing-version-served')
    expect(findings(report)).toEqual(['missing-version-error:fail'])
    expect(check(report, 'missing-version-error')).toMatchObject({ severity: 'error' })
    expect(check(report, 'missing-version-error').message).toContain('the header claims 2026-07-28, so it cannot be taken for a 2025-era request')
  })

  test('over stdio the same answer is a warning: nothing but _meta carries a version there', async () => {
    const report = await on('stdio', 'dual-era-http-server.mjs', 'missing-version-served')
    expect(findings(report)).toEqual(['missing-version-error:warn'])
    expect(check(report, 'missing-version-error').message).toContain('fine for a dual-era server')
  })

  test('a server that answers -32602 passes, at the severity of its transport', async () => {
    const overHttp = await on('http', 'conformance-server.mjs')
    expect(check(overHttp, 'missing-version-error')).toMatchObject({ status: 'pass', severity: 'error' })
    expect(check(overHttp, 'missing-version-error').message).toContain('with MCP-Protocol-Version: 2026-07-28 but no protocolVersion in _meta → -32602 with HTTP 400')
    const overStdio = await on('stdio', 'conformance-server.mjs')
    expect(check(overStdio, 'missing-version-error')).toMatchObject({ status: 'pass', severity: 'warning' })
  })
})

describe('the clean conformance server (2026-07-28 only, though it serves a versionless tools/list 2025-style)', () => {
  test('over HTTP: GET/DELETE → 405 under the 2026-07-28-only rule, and the message says why; the removed methods are unknown', async () => {
    const report = await on('http', 'conformance-server.mjs')
    const getDelete = check(report, 'http-get-delete-405')
    expect(getDelete.status).toBe('pass')
    expect(getDelete.message).toContain('the 2026-07-28-only rule applied, as no 2025-11-25 session can be opened')
    expect(getDelete.message).toContain('a request with no version at all may still be served as 2025-era')
    expect(check(report, 'removed-methods-unknown').message).toBe('ping, logging/setLevel, resources/subscribe, resources/unsubscribe, initialize with the 2026-07-28 envelope → HTTP 404 with -32601')
    expect(check(report, 'initialize-error-names-versions').status).toBe('pass')
    for (const id of ['legacy-initialize-result', 'legacy-ping', 'legacy-session-lifecycle']) expect(check(report, id).message).toContain('this server serves 2026-07-28 only')
  })
})

describe('legacy servers: the 2025-11-25 lifecycle', () => {
  test('HTTP: session minted, refused without it, 404 after DELETE; every minted session ended once', async () => {
    const server = await startLegacyHttpServer({ checkOrigin: true })
    try {
      const report = await runConformance({ kind: 'http', url: server.url, headers: {} })
      expect(report.era).toBe('legacy')
      for (const id of ['legacy-initialize-result', 'legacy-ping', 'legacy-session-lifecycle', 'legacy-session-required', 'legacy-get-stream']) expect(`${id}:${check(report, id).status}`).toBe(`${id}:pass`)
      expect(check(report, 'legacy-logging-set-level')).toMatchObject({ status: 'skip', message: 'initialize declares no logging capability' })
      expect(check(report, 'removed-methods-unknown')).toMatchObject({ status: 'skip', message: 'legacy server: applies from 2026-07-28' })
      expect(check(report, 'http-get-delete-405').status).toBe('skip')
      const deleted = server.requests.filter((r) => r.method === 'DELETE').map((r) => r.session)
      expect(deleted.sort()).toEqual([...server.minted].sort())
      expect([...server.open]).toEqual([])
    } finally {
      await server.close()
    }
  })

  test('stdio: initialize result and ping', async () => {
    const report = await runConformance(stdio('legacy-server.mjs'))
    expect(check(report, 'legacy-initialize-result').message).toBe('initialize → protocolVersion 2025-11-25, capabilities, serverInfo legacy-adder')
    expect(check(report, 'legacy-ping')).toMatchObject({ status: 'pass', message: 'ping → an empty result' })
  })
})

describe('the checks as functions of the probe data', () => {
  const session = (overrides: Partial<SessionProbes>): ProbeData => {
    const exchange = (method: string, response: Record<string, unknown>) => ({ method, request: { method }, response })
    const initialize = exchange('initialize', { status: 200, headers: { 'mcp-session-id': 'abc' }, frame: { id: 1, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } } })
    const raw = (method: string, status: number) => ({ method, sent: {}, got: { status } })
    return {
      transport: 'http',
      era: 'legacy',
      probes: 'safe',
      discover: exchange('server/discover', { status: 400 }),
      toolsList: [],
      otherLists: [],
      initialize,
      eras: {
        legacy: {
          ping: exchange('ping', { frame: { id: 2, result: {} } }),
          session: {
            initialize,
            sessionId: 'abc',
            withSession: exchange('ping', { frame: { id: 3, result: {} } }),
            withoutSession: raw('ping', 400),
            get: raw('HTTP GET', 405),
            delete: raw('HTTP DELETE', 200),
            afterDelete: raw('ping', 404),
            ...overrides
          }
        }
      }
    }
  }
  const status = (probe: ProbeData, id: string) => checkEras(probe).find((c) => c.id === id)
  test('DELETE answered 405 (clients may not end sessions) passes; the 404 rule then does not apply', () => {
    expect(status(session({ delete: { method: 'HTTP DELETE', sent: {}, got: { status: 405 } }, afterDelete: { method: 'ping', sent: {}, got: { status: 200 } } }), 'legacy-session-lifecycle')).toMatchObject({ status: 'pass' })
  })
  test('a session id outside visible ASCII fails', () => {
    const probe = session({ sessionId: 'a b' })
    expect(status(probe, 'legacy-session-lifecycle')?.message).toContain('visible ASCII')
  })
  test('a DELETE answered 500 fails, and no 404 is expected after it', () => {
    expect(status(session({ delete: { method: 'HTTP DELETE', sent: {}, got: { status: 500 } } }), 'legacy-session-lifecycle')?.message).toContain('expected 2xx (ended) or 405')
  })
  test('without a minted session the session checks skip, saying so', () => {
    const probe = session({ sessionId: undefined })
    for (const id of ['legacy-session-lifecycle', 'legacy-session-required', 'legacy-get-stream']) expect(status(probe, id)?.message).toContain('minted no Mcp-Session-Id')
  })
  test('every eras check is emitted on every server, and has a catalog entry', () => {
    expect(checkEras(session({})).map((c) => c.id)).toEqual(ERAS_IDS)
    const unreachable: ProbeData = { transport: 'stdio', era: 'unreachable', probes: 'safe', discover: { method: 'server/discover', request: {}, response: { timedOut: true } }, toolsList: [], otherLists: [] }
    expect(checkEras(unreachable).map((c) => c.id)).toEqual(ERAS_IDS)
    expect(Object.keys(ERAS_CATALOG).sort()).toEqual([...ERAS_IDS].sort())
  })

  test('a server that declares no tools, resources or prompts: the negative probes use server/discover, and the Mcp-Name rule skips', () => {
    expect(probeMethodFor({})).toBe('server/discover')
    expect(probeMethodFor({ prompts: {}, resources: {} })).toBe('resources/list')
    expect(probeMethodFor({ tools: {}, prompts: {} })).toBe('tools/list')
    expect(probeMethodFor({}, 'ping')).toBe('ping')
    expect(otherMethod('prompts/list')).toBe('tools/list')
    expect(namedProbeFor({ prompts: {} }).method).toBe('prompts/get')
    const exchange = { method: 'server/discover', request: {}, response: { status: 200, frame: { id: 1, result: { supportedVersions: ['2026-07-28'], capabilities: {} } } } }
    const answered = { method: 'x', request: {}, response: { status: 405 } }
    const probe: ProbeData = {
      transport: 'http',
      era: 'modern',
      probes: 'safe',
      discover: exchange,
      toolsList: [],
      otherLists: [],
      unknownTool: { method: 'tools/call', request: {}, response: { status: 404, frame: { id: 2, error: { code: -32601, message: 'Method not found' } } } },
      http: {
        missingMethodHeader: answered,
        mismatchedMethodHeader: answered,
        missingNameHeader: answered,
        mismatchedNameHeader: answered,
        mismatchedVersionHeader: answered,
        get: answered,
        delete: answered,
        unknownMethod: answered
      }
    }
    expect(checkHttp(probe).find((c) => c.id === 'http-mcp-name-header')).toMatchObject({ status: 'skip', message: 'server/discover declares no tools, resources or prompts: no method that carries Mcp-Name is served' })
    expect(checkUnknownTool(probe)).toMatchObject({ status: 'skip' })
    // A modern error code showed the era, with no discover result: nothing says what is declared, so the check runs.
    expect(checkUnknownTool({ ...probe, discover: { ...exchange, response: { status: 400, frame: { id: 1, error: { code: -32022, message: 'Unsupported' } } } } })).toMatchObject({ status: 'fail' })
  })
})
