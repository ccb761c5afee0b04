import { afterEach, describe, expect, test } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fixturePath } from '../__fixtures__/harness.js'
import { startHttpServer } from '../__fixtures__/servers/http-server.mjs'
import type { ServerConfig } from '../src/config/types.js'
import { AUTH_CATALOG } from '../src/conformance/checks/auth.js'
import { resourceMatch } from '../src/conformance/checks/auth-resource.js'
import { metadataUrls } from '../src/conformance/probe-auth.js'
import { runConformance } from '../src/conformance/run.js'
import type { ConformanceReport } from '../src/conformance/types.js'
import { parseChallenges } from '../src/conformance/www-authenticate.js'

const PROTECTED = fixturePath('servers/protected-http-server.mjs')
const CONFORMANCE = fixturePath('servers/conformance-server.mjs')
const TOKEN = 'fixture-token-0123456789'
const READ_TOKEN = 'fixture-read-token-0123456789'
const AUTH_IDS = ['auth-www-authenticate', 'auth-protected-resource-metadata', 'auth-invalid-token', 'auth-insufficient-scope']

const running: ChildProcess[] = []
afterEach(() => {
  for (const child of running.splice(0)) child.kill()
})

async function start(script: string, args: string[], defect: string): Promise<string> {
  const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, DEFECT: defect, TOKEN, READ_TOKEN } })
  running.push(child)
  const [url] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string]
  return url
}

/** The protected fixture with these defects, probed with this token (none: no Authorization header). */
async function probeProtected(defect: string, token?: string): Promise<ConformanceReport> {
  const url = await start(PROTECTED, [], defect)
  const config: ServerConfig = { kind: 'http', url, headers: token ? { Authorization: `Bearer ${token}` } : {} }
  return runConformance(config)
}

const statuses = (report: ConformanceReport) => Object.fromEntries(report.checks.filter((c) => AUTH_IDS.includes(c.id)).map((c) => [c.id, c.status]))
const check = (report: ConformanceReport, id: string) => report.checks.find((c) => c.id === id)!

describe('a protected server (HTTP)', () => {
  test('with a token: its 401, its RFC 9728 document and a made-up token are right, and the token is nowhere in the report', async () => {
    const report = await probeProtected('', TOKEN)
    expect(report.era).toBe('modern')
    expect(statuses(report)).toEqual({ 'auth-www-authenticate': 'pass', 'auth-protected-resource-metadata': 'pass', 'auth-invalid-token': 'pass', 'auth-insufficient-scope': 'skip' })
    expect(check(report, 'auth-www-authenticate').message).toMatch(/→ 401 with a Bearer challenge: resource_metadata http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp; scope "mcp:read"/)
    expect(check(report, 'auth-protected-resource-metadata').message).toMatch(/names resource "http:\/\/127\.0\.0\.1:\d+\/mcp" and 1 authorization server\(s\): https:\/\/auth\.example\.com/)
    expect(check(report, 'auth-invalid-token').message).toContain('with error="invalid_token"')
    expect(JSON.stringify(report)).not.toContain(TOKEN)
  })

  test('without a token: still unreachable, and the auth checks say whether the 401 is right and how to pass a token', async () => {
    const report = await probeProtected('')
    expect(report.era).toBe('unreachable')
    expect(report.error).toMatch(/^the server refused the request: HTTP 401/)
    expect(report.checks.map((c) => `${c.id}:${c.status}`)).toEqual([
      'server-reachable:fail',
      'auth-www-authenticate:pass',
      'auth-protected-resource-metadata:pass',
      'auth-invalid-token:pass',
      'auth-insufficient-scope:skip'
    ])
    expect(check(report, 'auth-www-authenticate').message).toContain('give it a token in server_config ("auth": "${TOKEN}"')
  })

  test('server/discover open, the rest protected, no token given: reachable, and the refused list shows the protection', async () => {
    const report = await probeProtected('open-discover')
    expect(report.era).toBe('modern')
    expect(statuses(report)).toEqual({ 'auth-www-authenticate': 'pass', 'auth-protected-resource-metadata': 'pass', 'auth-invalid-token': 'pass', 'auth-insufficient-scope': 'skip' })
    expect(check(report, 'auth-www-authenticate').message).toMatch(/^tools\/list without credentials → 401 with a Bearer challenge/)
  })

  test('a token whose scope is too small: tools/call → 403 insufficient_scope', async () => {
    const report = await probeProtected('', READ_TOKEN)
    expect(check(report, 'auth-insufficient-scope')).toMatchObject({ status: 'pass', message: expect.stringMatching(/→ 403 error="insufficient_scope", scope "mcp:write"$/) })
    expect(JSON.stringify(report)).not.toContain(READ_TOKEN)
  })

  test.each([
    ['bare-403', 'tools/call got 403 without a Bearer challenge from a protected server'],
    ['scope-403-no-scope', 'error="insufficient_scope" without scope']
  ])('%s: auth-insufficient-scope warns', async (defect, message) => {
    const report = await probeProtected(defect, READ_TOKEN)
    expect(check(report, 'auth-insufficient-scope')).toMatchObject({ status: 'warn', message: expect.stringContaining(message) })
  })

  test.each([
    [
      'no-www-authenticate,wrong-resource,accepts-any-token',
      { 'auth-www-authenticate': 'fail', 'auth-protected-resource-metadata': 'fail', 'auth-invalid-token': 'fail' },
      ['401 without a WWW-Authenticate header', 'resource "https://elsewhere.example/mcp" is not this server\'s URL', 'accepted a token it never issued']
    ],
    [
      'basic-challenge,no-authorization-servers',
      { 'auth-www-authenticate': 'fail', 'auth-protected-resource-metadata': 'fail', 'auth-invalid-token': 'pass' },
      ['no Bearer challenge', 'authorization_servers is []']
    ],
    ['no-resource-metadata,root-metadata', { 'auth-www-authenticate': 'pass', 'auth-protected-resource-metadata': 'pass', 'auth-invalid-token': 'pass' }, ['no resource_metadata', '(well-known (root))']],
    [
      'no-resource-metadata,no-metadata',
      { 'auth-www-authenticate': 'pass', 'auth-protected-resource-metadata': 'fail', 'auth-invalid-token': 'pass' },
      ['/.well-known/oauth-protected-resource/mcp (well-known (path)) → HTTP 404; GET', '/.well-known/oauth-protected-resource (well-known (root)) → HTTP 404']
    ],
    ['prefix-resource', { 'auth-www-authenticate': 'pass', 'auth-protected-resource-metadata': 'warn', 'auth-invalid-token': 'pass' }, ['is a prefix of this server\'s URL']],
    ['forbidden-without-token', { 'auth-www-authenticate': 'fail', 'auth-protected-resource-metadata': 'pass', 'auth-invalid-token': 'pass' }, ['without credentials got HTTP 403; a missing token is answered 401']]
  ])('DEFECT=%s', async (defect, expected, messages) => {
    const report = await probeProtected(defect, TOKEN)
    expect(statuses(report)).toMatchObject(expected)
    const text = report.checks.filter((c) => AUTH_IDS.includes(c.id)).map((c) => c.message).join('\n')
    for (const message of messages) expect(text).toContain(message)
  })

  test('the SDK travel server behind a bare 401: no challenge, no metadata (the token is refused as it should be)', async () => {
    const http = await startHttpServer({ token: 'secret-token-0123' })
    try {
      const report = await runConformance({ kind: 'http', url: http.url, headers: {} })
      expect(statuses(report)).toEqual({ 'auth-www-authenticate': 'fail', 'auth-protected-resource-metadata': 'fail', 'auth-invalid-token': 'pass', 'auth-insufficient-scope': 'skip' })
    } finally {
      await http.close()
    }
  })
})

describe('a server that needs no token', () => {
  test('HTTP: every auth check skips, saying why', async () => {
    const report = await runConformance({ kind: 'http', url: await start(CONFORMANCE, ['--http'], ''), headers: {} })
    for (const id of AUTH_IDS) expect(check(report, id)).toMatchObject({ status: 'skip', message: expect.stringContaining('the server answered without credentials: not protected') })
  })

  test('stdio: every auth check skips (no HTTP authorization)', async () => {
    const report = await runConformance({ kind: 'stdio', command: process.execPath, args: [CONFORMANCE], env: {} })
    for (const id of AUTH_IDS) expect(check(report, id)).toMatchObject({ status: 'skip', message: expect.stringContaining('stdio server: no HTTP authorization') })
  })
})

describe('the pieces', () => {
  test('WWW-Authenticate: several challenges, quoted and bare values, a token68', () => {
    expect(parseChallenges('Basic dXNlcg==, Bearer error="insufficient_scope", scope="a b", error_description="say \\"hi\\"", DPoP resource_metadata=x')).toEqual([
      { scheme: 'Basic', params: {} },
      { scheme: 'Bearer', params: { error: 'insufficient_scope', scope: 'a b', error_description: 'say "hi"' } },
      { scheme: 'DPoP', params: { resource_metadata: 'x' } }
    ])
    expect(parseChallenges('bearer Resource_Metadata="https://x/y"')).toEqual([{ scheme: 'bearer', params: { resource_metadata: 'https://x/y' } }])
  })

  test('metadata URLs: resource_metadata alone, else the path-inserted well-known URI before the root one', () => {
    expect(metadataUrls('https://a.example/public/mcp', 'https://a.example/prm')).toEqual([{ url: 'https://a.example/prm', source: 'resource_metadata' }])
    expect(metadataUrls('https://a.example/public/mcp/', undefined).map((u) => u.url)).toEqual([
      'https://a.example/.well-known/oauth-protected-resource/public/mcp',
      'https://a.example/.well-known/oauth-protected-resource'
    ])
    expect(metadataUrls('https://a.example', undefined).map((u) => u.url)).toEqual(['https://a.example/.well-known/oauth-protected-resource'])
  })

  test('resource: the canonical URI, the origin at the root well-known URI, a prefix warns, anything else fails', () => {
    const server = 'https://mcp.example.com/mcp'
    expect(resourceMatch('HTTPS://MCP.example.com:443/mcp/', server, 'resource_metadata').kind).toBe('ok')
    expect(resourceMatch('https://mcp.example.com', server, 'well-known (root)').kind).toBe('ok')
    expect(resourceMatch('https://mcp.example.com', server, 'resource_metadata').kind).toBe('warning')
    expect(resourceMatch('https://mcp.example.com/m', server, 'resource_metadata').kind).toBe('error')
    expect(resourceMatch('https://mcp.example.com/mcp#x', server, 'resource_metadata').kind).toBe('error')
    expect(resourceMatch(undefined, server, 'resource_metadata').kind).toBe('error')
  })

  test('AUTH_CATALOG names every auth check', () => {
    expect(Object.keys(AUTH_CATALOG).sort()).toEqual([...AUTH_IDS].sort())
  })
})
