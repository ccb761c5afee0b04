import { afterEach, describe, expect, test } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'
import { createInterface } from 'node:readline'
import { fixturePath } from '../__fixtures__/harness.js'
import { startHttpServer } from '../__fixtures__/servers/http-server.mjs'
import type { ServerConfig } from '../src/config/types.js'
import { conformancePassed, runConformance } from '../src/conformance/run.js'
import { MRTR_CHECKS } from '../src/conformance/checks/mrtr.js'
import type { ConformanceReport } from '../src/conformance/types.js'

const FIXTURE = fixturePath('servers/conformance-server.mjs')
const stdioFixture = (defect = ''): ServerConfig => ({ kind: 'stdio', command: process.execPath, args: [FIXTURE], env: { DEFECT: defect } })

const running: ChildProcess[] = []

/** A port nothing listens on right now, for a server that takes its port from the environment. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
afterEach(() => {
  for (const child of running.splice(0)) child.kill()
})

async function httpFixture(defect = ''): Promise<ServerConfig> {
  const child = spawn(process.execPath, [FIXTURE, '--http'], { env: { ...process.env, DEFECT: defect } })
  running.push(child)
  const [url] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string]
  return { kind: 'http', url, headers: {} }
}

const AUTH_IDS = ['auth-www-authenticate', 'auth-protected-resource-metadata', 'auth-invalid-token', 'auth-insufficient-scope']

/** Checks that did not pass, as "id:status". */
const findings = (report: ConformanceReport) => report.checks.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => `${c.id}:${c.status}`)
const errors = (report: ConformanceReport) => report.checks.filter((c) => c.status === 'fail').map((c) => c.id)
/** The 2025-11-25 lifecycle checks, skipped on a server that serves 2026-07-28 only. */
/** The MRTR checks, skipped where no call asks for input (conformance-mrtr.test.ts has the fixture that asks). */
const MRTR_IDS = MRTR_CHECKS.map((c) => c.id)
const LEGACY_LIFECYCLE = ['legacy-initialize-result', 'legacy-ping', 'legacy-logging-set-level', 'legacy-session-lifecycle', 'legacy-session-required', 'legacy-get-stream']

describe('a spec-faithful modern server passes every check', () => {
  test('over stdio', async () => {
    const report = await runConformance(stdioFixture())
    expect(report).toMatchObject({ era: 'modern', negotiated_version: '2026-07-28', transport: 'stdio', server_info: { name: 'conformance-fixture' }, error: null })
    expect(findings(report)).toEqual([])
    // The tasks checks skip: the fixture does not declare the extension (conformance-tasks.test.ts).
    expect(report.checks.filter((c) => c.status === 'skip' && !c.id.startsWith('tasks-')).map((c) => c.id)).toEqual([
      'http-mcp-method-header',
      'http-mcp-name-header',
      'http-protocol-version-header',
      'http-get-delete-405',
      'http-no-session-id',
      'http-unknown-method-404',
      'http-mcp-param-header',
      'http-dns-rebinding-protection',
      ...LEGACY_LIFECYCLE,
      ...MRTR_IDS,
      ...AUTH_IDS,
      'http-header-case-and-whitespace',
      'http-header-value-case',
      'http-mcp-name-base64'
    ])
    expect(conformancePassed(report, 'warning')).toBe(true)
  })

  test('over Streamable HTTP, headers included', async () => {
    const { url } = (await httpFixture()) as { url: string }
    const report = await runConformance({ kind: 'http', url, headers: { Authorization: 'Bearer conformance-secret' } })
    expect(JSON.stringify(report)).not.toContain('conformance-secret')
    expect(report).toMatchObject({ era: 'modern', transport: 'http' })
    expect(findings(report)).toEqual([])
    expect(report.checks.filter((c) => c.status === 'skip' && !c.id.startsWith('tasks-')).map((c) => `${c.id}: ${c.message.split(' (')[0]}`)).toEqual([
      ...LEGACY_LIFECYCLE.map((id) => `${id}: this server serves 2026-07-28 only`),
      ...MRTR_IDS.map((id) => `${id}: no call answered input_required`),
      ...AUTH_IDS.map((id) => `${id}: the server answered without credentials: not protected`)
    ])
  })

  test('every check has a stable kebab-case id, a severity and a spec reference', async () => {
    const report = await runConformance(stdioFixture())
    for (const check of report.checks) {
      expect(check.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
      expect(['error', 'warning']).toContain(check.severity)
      expect(check.spec.length).toBeGreaterThan(3)
    }
    expect(new Set(report.checks.map((c) => c.id)).size).toBe(report.checks.length)
  })
})

describe('each seeded defect is flagged by the check that owns it, and by no other error', () => {
  test.each([
    ['shuffled-order', 'tools-list-deterministic-order:warn'],
    ['missing-ttl', 'list-cache-fields:fail'],
    ['bad-cache-scope', 'list-cache-fields:fail'],
    ['missing-result-type', 'result-type-present:fail'],
    ['dangling-ref', 'tool-input-schema-valid:fail'],
    ['remote-ref', 'schema-no-remote-ref:fail'],
    ['unknown-tool-code', 'unknown-tool-error:fail'],
    ['draft-version-code', 'unsupported-version-error:fail'],
    ['retired-resource-code', 'missing-resource-error:fail']
  ])('%s over stdio → %s', async (defect, finding) => {
    const report = await runConformance(stdioFixture(defect))
    expect(findings(report)).toEqual([finding])
    expect(report.checks.find((c) => `${c.id}:${c.status}` === finding)?.evidence?.response).toBeTruthy()
  })

  test.each([
    ['no-name-check', 'http-mcp-name-header:fail'],
    ['mints-session', 'http-no-session-id:fail'],
    ['missing-ttl', 'list-cache-fields:fail']
  ])('%s over HTTP → %s', async (defect, finding) => {
    const report = await runConformance(await httpFixture(defect))
    expect(findings(report)).toEqual([finding])
  })

  test('evidence names what was sent and what came back', async () => {
    const report = await runConformance(stdioFixture('draft-version-code'))
    const check = report.checks.find((c) => c.id === 'unsupported-version-error')!
    expect(check.message).toContain('-32004 is the draft code')
    expect(check.evidence!.request).toContain('2099-01-01')
    expect(check.evidence!.response).toContain('-32004')
  })
})

describe('era detection and legacy servers', () => {
  test('server-everything (2025-era, from npm) is classified legacy with its migration steps', async () => {
    const report = await runConformance({
      kind: 'stdio',
      command: process.execPath,
      args: [fixturePath('../node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
      env: {}
    })
    expect(report).toMatchObject({ era: 'legacy', negotiated_version: '2025-11-25', server_info: { name: 'mcp-servers/everything' } })
    expect(report.migration.join('\n')).toMatch(/Implement server\/discover/)
    expect(report.migration.join('\n')).toMatch(/resultType/)
    expect(report.migration.join('\n')).toMatch(/unknown tool with the JSON-RPC error -32602/)
    // Held to its own era, not failed for being legacy.
    expect(errors(report)).toEqual([])
    expect(report.unreachable).toBeNull()
    expect(report.checks.find((c) => c.id === 'legacy-initialize')?.status).toBe('pass')
    expect(report.checks.find((c) => c.id === 'discover-responds')?.status).toBe('skip')
  })

  test('server-everything over Streamable HTTP: legacy (400 without a modern body), with the HTTP migration step', async () => {
    const port = await freePort()
    const child = spawn(process.execPath, [fixturePath('../node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) }
    })
    running.push(child)
    await new Promise<void>((resolve) => child.stderr!.on('data', (c: Buffer) => c.toString().includes('listening') && resolve()))
    const report = await runConformance({ kind: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {} })
    expect(report).toMatchObject({ era: 'legacy', negotiated_version: '2025-11-25', transport: 'http', unreachable: null })
    // It listens on all interfaces and serves a foreign Origin (§13): an error, with its step. And
    // a request on a session it ended with DELETE gets 400, not the 404 2025-11-25 requires.
    expect(errors(report)).toEqual(['http-dns-rebinding-protection', 'legacy-session-lifecycle'])
    expect(report.checks.find((c) => c.id === 'legacy-session-lifecycle')?.message).toContain('got HTTP 400 with error -32000 (Bad Request: No valid session ID provided); an ended session MUST get HTTP 404')
    expect(report.migration.join('\n')).toContain('stop minting Mcp-Session-Id')
    expect(report.migration.join('\n')).toContain('Origin header is not your own with 403')
  })

  test('a legacy server that answers discover with -32601 is legacy; one that stays silent too', async () => {
    const report = await runConformance({ kind: 'stdio', command: process.execPath, args: [fixturePath('servers/legacy-server.mjs')], env: {} })
    expect(report).toMatchObject({ era: 'legacy', server_info: { name: 'legacy-adder' } })
    expect(report.migration.join('\n')).toContain('draft-07')
    expect(report.migration[0]).toContain('Today server/discover gets error -32601')
    const silent = await runConformance(
      { kind: 'stdio', command: process.execPath, args: [fixturePath('servers/legacy-server.mjs')], env: { SILENT_UNKNOWN: '1' } },
      { discoverTimeoutMs: 500 }
    )
    expect(silent).toMatchObject({ era: 'legacy', negotiated_version: '2025-11-25', error: null })
    expect(silent.migration[0]).toContain('Today server/discover gets no answer before the timeout')
  })

  test('the example server (MCP SDK 2.4.0) is modern and passes the gate, over stdio and HTTP', async () => {
    const stdio = await runConformance({ kind: 'stdio', command: process.execPath, args: [fixturePath('../examples/server/server.mjs')], env: {} })
    expect(stdio.era).toBe('modern')
    expect(errors(stdio)).toEqual([])
    // The SDK serves a request without a version claim as a 2025-era one: a warning, explained.
    expect(findings(stdio)).toEqual(['missing-version-error:warn'])
    expect(conformancePassed(stdio, 'error')).toBe(true)
    expect(conformancePassed(stdio, 'warning')).toBe(false)
    const http = await startHttpServer()
    try {
      const report = await runConformance({ kind: 'http', url: http.url, headers: {} })
      expect(errors(report)).toEqual([])
    } finally {
      await http.close()
    }
  })

  test('a server that does not start is unreachable (not legacy): an error, not a crash', async () => {
    const report = await runConformance({ kind: 'stdio', command: 'definitely-not-a-command-xyz', args: [], env: {} })
    expect(report).toMatchObject({ era: 'unreachable', unreachable: { cause: 'ENOENT' }, migration: [] })
    expect(report.error).toBe("server could not start: 'definitely-not-a-command-xyz' was not found on PATH")
    expect(conformancePassed(report, 'error')).toBe(false)
    expect(conformancePassed(report, 'never')).toBe(true)
  })
})
