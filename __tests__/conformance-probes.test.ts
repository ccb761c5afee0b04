import { afterEach, describe, expect, test } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer as createHttpServer } from 'node:http'
import { createServer, type AddressInfo } from 'node:net'
import { createInterface } from 'node:readline'
import { Client } from '@modelcontextprotocol/client'
import { fixturePath } from '../__fixtures__/harness.js'
import { startHttpServer } from '../__fixtures__/servers/http-server.mjs'
import { startLegacyHttpServer } from '../__fixtures__/servers/legacy-http-server.mjs'
import type { ServerConfig } from '../src/config/types.js'
import { checkParamHeaders, encodeHeaderValue, scanHeaderMarkers } from '../src/conformance/checks/param-headers.js'
import {
  brokenArguments,
  checkCapabilities,
  checkDnsRebinding,
  checkErrorResponseIds,
  checkInvalidArguments,
  checkPagination,
  planInvalidArguments
} from '../src/conformance/checks/probes.js'
import { checkTaskSupport, checkToolNames, lintTools } from '../src/conformance/checks/schemas.js'
import type { ProbeData } from '../src/conformance/probe.js'
import { conformancePassed, evaluateProbe, runConformance } from '../src/conformance/run.js'
import type { ConformanceReport } from '../src/conformance/types.js'
import { StdioWire, type Exchange } from '../src/conformance/wire.js'
import { GroupStdioTransport } from '../src/mcp/stdio-transport.js'

const FIXTURE = fixturePath('servers/conformance-server.mjs')
const stdioFixture = (defect = ''): ServerConfig => ({ kind: 'stdio', command: process.execPath, args: [FIXTURE], env: { DEFECT: defect } })

const running: ChildProcess[] = []
afterEach(() => {
  for (const child of running.splice(0)) child.kill()
})

async function httpFixture(defect = ''): Promise<ServerConfig & { kind: 'http' }> {
  const child = spawn(process.execPath, [FIXTURE, '--http'], { env: { ...process.env, DEFECT: defect } })
  running.push(child)
  const [url] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string]
  return { kind: 'http', url, headers: {} }
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Checks that did not pass, as "id:status". */
const findings = (report: ConformanceReport) => report.checks.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => `${c.id}:${c.status}`)
const check = (report: ConformanceReport, id: string) => report.checks.find((c) => c.id === id)!

/** The checks this layer added, with what a clean server gets from each over each transport. */
const EVERY_TRANSPORT = {
  'server-reachable': 'pass',
  'discover-capabilities-honest': 'pass',
  'discover-capabilities-complete': 'pass',
  'list-pagination-cache-scope': 'pass',
  'tool-x-mcp-header-valid': 'pass',
  'tool-task-support-required': 'pass',
  'invalid-arguments-result': 'pass',
  'error-response-id': 'pass'
} as const
const NEW_CHECKS = {
  stdio: { ...EVERY_TRANSPORT, 'http-mcp-param-header': 'skip', 'http-dns-rebinding-protection': 'skip' },
  http: { ...EVERY_TRANSPORT, 'http-mcp-param-header': 'pass', 'http-dns-rebinding-protection': 'pass' }
} as const

/** The new checks' statuses, except the one a defect is seeded for. */
function otherNewChecks(report: ConformanceReport, except: string): Record<string, string> {
  const expected = NEW_CHECKS[report.transport]
  return Object.fromEntries(Object.keys(expected).filter((id) => id !== except).map((id) => [id, check(report, id)?.status]))
}
const expectedOthers = (transport: 'stdio' | 'http', except: string) => Object.fromEntries(Object.entries(NEW_CHECKS[transport]).filter(([id]) => id !== except))

// ---------------------------------------------------------------------------------------------
// Hand-built probe data for the pure checks.

let nextId = 1
function ex(method: string, response: Exchange['response'], params: Record<string, unknown> = {}): Exchange {
  return { method, request: { jsonrpc: '2.0', id: nextId++, method, params }, response }
}
const result = (method: string, result: Record<string, unknown>, params?: Record<string, unknown>) => ex(method, { frame: { jsonrpc: '2.0', result } }, params)
const rpcError = (method: string, code: number, id?: unknown) => {
  const exchange = ex(method, {})
  exchange.response.frame = { jsonrpc: '2.0', id: id === undefined ? exchange.request.id : id, error: { code, message: 'x' } }
  return exchange
}

function probeWith(parts: Partial<ProbeData>): ProbeData {
  return {
    transport: 'stdio',
    era: 'modern',
    probes: 'safe',
    discover: result('server/discover', { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'public' }),
    toolsList: [result('tools/list', { tools: [] })],
    otherLists: [],
    ...parts
  }
}

const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, description: 'Does a thing well.', inputSchema: { type: 'object' }, ...extra })

describe('x-mcp-header markers (SEP-2243)', () => {
  test('valid markers, nested through properties only', () => {
    const scan = scanHeaderMarkers({
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        options: { type: 'object', properties: { tenant: { type: 'integer', 'x-mcp-header': 'Tenant-Id' }, dry: { type: 'boolean', 'x-mcp-header': 'Dry_Run' } } }
      }
    })
    expect(scan).toEqual({
      valid: true,
      markers: [
        { path: ['region'], header: 'Region', type: 'string' },
        { path: ['options', 'tenant'], header: 'Tenant-Id', type: 'integer' },
        { path: ['options', 'dry'], header: 'Dry_Run', type: 'boolean' }
      ]
    })
  })

  test.each([
    ['empty', { a: { type: 'string', 'x-mcp-header': '' } }, /non-empty/],
    ['not a token', { a: { type: 'string', 'x-mcp-header': 'Docs Region' } }, /not an HTTP token/],
    ['a CR/LF', { a: { type: 'string', 'x-mcp-header': 'A\r\nX-Evil: 1' } }, /not an HTTP token/],
    ['duplicate, case-insensitively', { a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'region' } }, /repeats "Region"/],
    ['on a number', { a: { type: 'number', 'x-mcp-header': 'Amount' } }, /number property/],
    ['on an object', { a: { type: 'object', 'x-mcp-header': 'Obj' } }, /object property/],
    ['untyped', { a: { 'x-mcp-header': 'A' } }, /untyped property/],
    ['under items', { a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }, /reached through "properties" alone/],
    ['under anyOf', { a: { anyOf: [{ type: 'string', 'x-mcp-header': 'A' }] } }, /reached through "properties" alone/]
  ])('invalid: %s', (_what, properties, problem) => {
    const scan = scanHeaderMarkers({ type: 'object', properties })
    expect(scan.valid).toBe(false)
    expect(scan.valid === false && scan.problems.join('; ')).toMatch(problem)
  })

  test('a marker on the root or in $defs is invalid', () => {
    expect(scanHeaderMarkers({ type: 'object', 'x-mcp-header': 'Root' }).valid).toBe(false)
    expect(scanHeaderMarkers({ type: 'object', $defs: { r: { type: 'string', 'x-mcp-header': 'R' } } }).valid).toBe(false)
  })

  test('header values: plain ASCII as is, everything else as the base64 sentinel', () => {
    expect(encodeHeaderValue('us-west1')).toBe('us-west1')
    expect(encodeHeaderValue(42)).toBe('42')
    expect(encodeHeaderValue(false)).toBe('false')
    expect(encodeHeaderValue('Hello, 世界')).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=')
    expect(encodeHeaderValue(' padded ')).toBe('=?base64?IHBhZGRlZCA=?=')
    expect(encodeHeaderValue('line1\nline2')).toBe('=?base64?bGluZTEKbGluZTI=?=')
    expect(encodeHeaderValue('=?base64?literal?=')).toBe('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=')
  })
})

describe('invalid-arguments-result, planned and judged', () => {
  test('arguments that break the schema: a required property left out, else a wrong type', () => {
    expect(brokenArguments({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] })).toEqual({ args: {}, broken: 'without the required "q"' })
    expect(brokenArguments({ type: 'object', properties: { n: { $ref: '#/$defs/n' } }, $defs: { n: { type: 'integer' } } })).toEqual({ args: { n: 'not a number' }, broken: 'with "n" (integer) given "not a number"' })
    expect(brokenArguments({ type: 'object', properties: { s: { type: 'string' } } })?.args).toEqual({ s: 12345 })
    expect(brokenArguments({ type: 'object', additionalProperties: false })).toBeUndefined()
    expect(brokenArguments({ type: 'object', properties: { any: { description: 'anything' } } })).toBeUndefined()
  })

  test('safe calls only read-only tools; all calls every tool; none calls nothing', () => {
    const tools = [
      tool('read', { annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }),
      tool('write', { annotations: { readOnlyHint: false }, inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }),
      tool('unannotated', { inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }),
      tool('noargs', { annotations: { readOnlyHint: true }, inputSchema: { type: 'object', additionalProperties: false } })
    ]
    expect(planInvalidArguments(tools, 'safe')).toMatchObject({ calls: [{ tool: 'read' }], notReadOnly: ['write', 'unannotated'], untestable: ['noargs'] })
    expect(planInvalidArguments(tools, 'all').calls.map((c) => c.tool)).toEqual(['read', 'write', 'unannotated'])
    expect(planInvalidArguments(tools, 'none').calls).toEqual([])
    const many = Array.from({ length: 12 }, (_, i) => tool(`t${i}`, { inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }))
    expect(planInvalidArguments(many, 'all')).toMatchObject({ capped: ['t10', 't11'] })
  })

  const judged = (exchange: Exchange) =>
    checkInvalidArguments(probeWith({ invalidArguments: { calls: [{ tool: 'read', broken: 'without the required "q"', exchange }], notReadOnly: ['write'], untestable: ['noargs'], capped: [] } }))

  test('an isError result passes; the message names what was and was not called', () => {
    const verdict = judged(result('tools/call', { isError: true, content: [] }))
    expect(verdict.status).toBe('pass')
    expect(verdict.message).toMatch(/called read with broken arguments/)
    expect(verdict.message).toMatch(/not annotated readOnlyHint: true \(probes: safe\): write/)
    expect(verdict.message).toMatch(/no required or typed property to break: noargs/)
  })

  test('a JSON-RPC error fails, and so does a tool that ran anyway', () => {
    expect(judged(rpcError('tools/call', -32602))).toMatchObject({ status: 'fail', severity: 'error' })
    expect(judged(rpcError('tools/call', -32602)).message).toMatch(/read without the required "q" got error -32602/)
    expect(judged(result('tools/call', { content: [{ type: 'text', text: 'ran' }] })).status).toBe('fail')
  })

  test('probes: none is a skip, said so', () => {
    expect(checkInvalidArguments(probeWith({ probes: 'none' }))).toMatchObject({ status: 'skip', message: expect.stringMatching(/probes: none/) })
  })
})

describe('list-pagination-cache-scope', () => {
  const page = (scope: unknown, next?: string) => result('tools/list', { tools: [], cacheScope: scope, ttlMs: 0, ...(next ? { nextCursor: next } : {}) })
  const verdict = (...pages: Exchange[]) => checkPagination(probeWith({ listPages: { 'tools/list': pages } }), 20)

  test('one scope on every page passes; two scopes fail, naming the pages', () => {
    expect(verdict(page('public', 'p2'), page('public')).status).toBe('pass')
    const mixed = verdict(page('public', 'p2'), page('public', 'p3'), page('private'))
    expect(mixed).toMatchObject({ status: 'fail', message: 'tools/list: page 1 says cacheScope "public", page 3 "private"' })
  })

  test('a page that fails, and a cursor that repeats, fail', () => {
    expect(verdict(page('public', 'p2'), rpcError('tools/list', -32602)).message).toMatch(/page 2 .* got error -32602/)
    expect(verdict(page('public', 'p2'), page('public', 'p2')).message).toMatch(/nextCursor "p2" repeats/)
  })

  test('a missing scope is list-cache-fields’ finding, not this one; no pagination is a skip', () => {
    expect(verdict(page('public', 'p2'), page(undefined)).status).toBe('pass')
    expect(verdict(page('public')).status).toBe('skip')
  })
})

describe('error-response-id', () => {
  test('an error with another id, or a null id for a readable request, fails', () => {
    const wrong = rpcError('tools/call', -32602, 999)
    const nulled = rpcError('resources/read', -32602, null)
    const verdict = checkErrorResponseIds(probeWith({ unknownTool: wrong, missingResource: nulled }))
    expect(verdict).toMatchObject({ status: 'fail', severity: 'error' })
    expect(verdict.message).toContain('tools/call (id')
    expect(verdict.message).toContain('with id 999')
    expect(verdict.message).toContain('with id null')
  })

  test('a null id is fine for a parse error, and the DNS-rebinding refusals are not held to it (a 403 body MAY have no id)', () => {
    const badOrigin = rpcError('server/discover', -32000, null)
    const verdict = checkErrorResponseIds(
      probeWith({ transport: 'http', unknownTool: rpcError('tools/call', -32700, null), dnsRebinding: { local: true, badOrigin, badHostAndOrigin: badOrigin } })
    )
    expect(verdict).toMatchObject({ status: 'pass', message: 'all 1 error responses carry their request\'s id' })
  })

  test('errors anywhere in the probe data are seen, pages and HTTP probes included', () => {
    const deep = rpcError('tools/list', -32602, 'other')
    expect(checkErrorResponseIds(probeWith({ listPages: { 'tools/list': [result('tools/list', { tools: [] }), deep] } })).status).toBe('fail')
  })
})

describe('discover-capabilities-honest and -complete', () => {
  const discover = (capabilities: Record<string, unknown>) => result('server/discover', { supportedVersions: ['2026-07-28'], capabilities })
  test('an advertised capability whose list fails is an error', () => {
    const [honest, complete] = checkCapabilities(probeWith({ discover: discover({ tools: {}, prompts: {} }), listPages: { 'prompts/list': [rpcError('prompts/list', -32601)] } }))
    expect(honest).toMatchObject({ status: 'fail', message: expect.stringMatching(/prompts is advertised but prompts\/list got error -32601/) })
    expect(complete.status).toBe('pass')
  })

  test('an unadvertised capability that lists something is a warning; an empty list hides nothing', () => {
    const listing = (n: number) => ({ 'resources/list': [result('resources/list', { resources: Array.from({ length: n }, (_, i) => ({ uri: `x://${i}`, name: `r${i}` })) })] })
    const [, complete] = checkCapabilities(probeWith({ listPages: listing(2) }))
    expect(complete).toMatchObject({ status: 'warn', severity: 'warning', message: expect.stringMatching(/resources\/list lists 2 resources but discover does not advertise resources/) })
    expect(checkCapabilities(probeWith({ listPages: listing(0) }))[1].status).toBe('pass')
  })
})

describe('tool checks', () => {
  const listing = (...tools: Record<string, unknown>[]) => probeWith({ toolsList: [result('tools/list', { tools })] })

  test('tool-task-support-required names the tools and says why', () => {
    const verdict = checkTaskSupport(listing(tool('render'), tool('export_video', { execution: { taskSupport: 'required' } }), tool('other', { execution: { taskSupport: 'optional' } })))
    expect(verdict).toMatchObject({ status: 'warn', severity: 'warning' })
    expect(verdict.message).toMatch(/^export_video: execution.taskSupport is "required".*without the tasks extension does not start; they are not offered to the model/)
  })

  test('tool names: the spec’s 1–128 of A-Z a-z 0-9 _ - . (no slash, no 129th character)', () => {
    const names = (name: string) => checkToolNames(listing(tool(name)))[0].status
    expect(names('admin.tools.list')).toBe('pass')
    expect(names('a'.repeat(128))).toBe('pass')
    expect(names('a'.repeat(129))).toBe('warn')
    expect(names('user-profile/update')).toBe('warn')
    expect(names('get user')).toBe('warn')
  })

  test('lint-near-duplicate-names: case and separator variants only, not a deliberate singular/plural pair', () => {
    const near = (...names: string[]) => lintTools(listing(...names.map((n) => tool(n)))).find((c) => c.id === 'lint-near-duplicate-names')!
    expect(near('browser_network_request', 'browser_network_requests').status).toBe('pass')
    expect(near('get_items', 'get_item').status).toBe('pass')
    const variants = near('getItem', 'get_item', 'get-item')
    expect(variants.status).toBe('warn')
    expect(variants.message).toBe('confusable names: getItem ~ get_item; getItem ~ get-item; get_item ~ get-item')
  })

  test('the existing checks see every page’s tools', () => {
    const pages = [result('tools/list', { tools: [tool('a')], nextCursor: 'p2' }), result('tools/list', { tools: [tool('a')] })]
    const verdict = checkToolNames(probeWith({ toolsList: [pages[0]], listPages: { 'tools/list': pages } }))
    expect(verdict[1]).toMatchObject({ id: 'tool-names-unique', status: 'fail', message: 'duplicate names: a (2×)' })
  })
})

describe('HTTP-only probes, judged', () => {
  const status = (code: number, status: number) => {
    const exchange = rpcError('tools/call', code)
    exchange.response.status = status
    return exchange
  }

  test('Mcp-Param: 400 + -32020 for both cases passes; anything else fails; nothing marked or allowed is a skip saying why', () => {
    const probed = (missing: Exchange, mismatched: Exchange) =>
      checkParamHeaders(
        probeWith({
          transport: 'http',
          paramHeaders: {
            probed: [
              { tool: 'search', header: 'Region', case: 'missing', exchange: missing },
              { tool: 'search', header: 'Region', case: 'mismatched', exchange: mismatched }
            ],
            note: ''
          }
        })
      )
    expect(probed(status(-32020, 400), status(-32020, 400))).toMatchObject({ status: 'pass', message: 'missing and mismatched Mcp-Param headers → 400 + -32020 on search (Mcp-Param-Region)' })
    expect(probed(status(-32020, 400), status(-32602, 400))).toMatchObject({ status: 'fail', message: expect.stringMatching(/^a search call whose Mcp-Param-Region differs from the argument got HTTP 400 with error -32602/) })
    const note = 'not called, not annotated readOnlyHint: true (probes: safe): write'
    expect(checkParamHeaders(probeWith({ transport: 'http', paramHeaders: { probed: [], note } }))).toMatchObject({ status: 'skip', message: note })
    expect(checkParamHeaders(probeWith({}))).toMatchObject({ status: 'skip', message: 'stdio server: no HTTP binding' })
  })

  test('DNS rebinding: 403 to both passes, a served request fails, a remote server is a skip', () => {
    const forbidden = status(-32000, 403)
    const served = result('server/discover', { supportedVersions: ['2026-07-28'] })
    served.response.status = 200
    const dns = (badOrigin: Exchange, badHostAndOrigin: Exchange) => checkDnsRebinding(probeWith({ transport: 'http', dnsRebinding: { local: true, badOrigin, badHostAndOrigin } }))
    expect(dns(forbidden, forbidden).status).toBe('pass')
    expect(dns(forbidden, served)).toMatchObject({ status: 'fail', message: expect.stringMatching(/^a request with Host and Origin evil.example got HTTP 200 with a result; expected HTTP 403/) })
    expect(checkDnsRebinding(probeWith({ transport: 'http', dnsRebinding: { local: false, host: 'mcp.example.com' } }))).toMatchObject({
      status: 'skip',
      message: 'mcp.example.com is not a loopback address: DNS rebinding targets local servers'
    })
  })
})

describe('an unreachable server, as a report', () => {
  test('one failing check, no migration, no tools; the gate fails', () => {
    const discover = ex('server/discover', { failure: 'server could not start: spawn nope ENOENT', cause: 'ENOENT' })
    const report = evaluateProbe(
      probeWith({
        era: 'unreachable',
        discover,
        toolsList: [],
        unreachable: { http_status: null, body: null, cause: 'ENOENT', stderr: null, stdout: null, reason: 'server could not start: spawn nope ENOENT', exchange: discover }
      })
    )
    expect(report).toMatchObject({
      era: 'unreachable',
      negotiated_version: null,
      migration: [],
      tools: null,
      error: 'server could not start: spawn nope ENOENT',
      unreachable: { http_status: null, body: null, cause: 'ENOENT', stderr: null, stdout: null }
    })
    expect(report.checks.map((c) => `${c.id}:${c.status}`)).toEqual(['server-reachable:fail'])
    expect(conformancePassed(report, 'error')).toBe(false)
    expect(conformancePassed(report, 'never')).toBe(true)
  })
})

// ---------------------------------------------------------------------------------------------
// Real servers.

describe('the clean fixture passes every new check', () => {
  test.each(['stdio', 'http'] as const)('over %s', async (transport) => {
    const report = await runConformance(transport === 'stdio' ? stdioFixture() : await httpFixture())
    expect(findings(report)).toEqual([])
    expect(Object.fromEntries(Object.keys(NEW_CHECKS[transport]).map((id) => [id, check(report, id).status]))).toEqual(NEW_CHECKS[transport])
    expect(report.unreachable).toBeNull()
    // Pagination was followed: page 2 of tools/list is in the tool list.
    expect(report.tools?.map((t) => t.name)).toEqual(['delete_page', 'get_page', 'list_sections', 'search_docs'])
    expect(check(report, 'list-pagination-cache-scope').message).toBe('one cacheScope across every page: tools/list (2 pages), resources/list (2 pages)')
    expect(check(report, 'invalid-arguments-result').message).toBe(
      'called search_docs, get_page with broken arguments: isError results; not called, not annotated readOnlyHint: true (probes: safe): delete_page; skipped, no required or typed property to break: list_sections'
    )
  })

  test('the HTTP missing-version probe keeps the MCP-Protocol-Version header: a dual-era server answers it -32602', async () => {
    const report = await runConformance(await httpFixture())
    const missing = check(report, 'missing-version-error')
    expect(missing.status).toBe('pass')
    expect(missing.evidence?.request).toContain('"mcp-protocol-version":"2026-07-28"')
    expect(missing.evidence?.request).not.toContain('"io.modelcontextprotocol/protocolVersion"')
  })

  test('probes: all also calls tools that are not read-only; none calls no tool', async () => {
    const all = await runConformance(await httpFixture(), { probes: 'all' })
    expect(check(all, 'invalid-arguments-result')).toMatchObject({ status: 'pass', message: expect.stringMatching(/^called search_docs, get_page, delete_page with broken arguments/) })
    const none = await runConformance(await httpFixture(), { probes: 'none' })
    expect(check(none, 'invalid-arguments-result')).toMatchObject({ status: 'skip', message: 'probes: none (no tool is called)' })
    expect(check(none, 'http-mcp-param-header')).toMatchObject({ status: 'skip', message: 'probes: none (no tool is called)' })
  })
})

describe('each seeded defect is flagged by exactly its check; the other new checks pass', () => {
  test.each([
    ['invalid-args-protocol-error', 'invalid-arguments-result:fail'],
    ['page-scope-mismatch', 'list-pagination-cache-scope:fail'],
    ['wrong-error-id', 'error-response-id:fail'],
    ['advertised-prompts-fail', 'discover-capabilities-honest:fail'],
    ['bad-header-marker', 'tool-x-mcp-header-valid:fail'],
    ['task-required', 'tool-task-support-required:warn']
  ])('%s over stdio → %s', async (defect, finding) => {
    const report = await runConformance(stdioFixture(defect))
    expect(findings(report)).toEqual([finding])
    const id = finding.split(':')[0]
    expect(otherNewChecks(report, id)).toEqual(expectedOthers('stdio', id))
    expect(check(report, id).evidence?.response).toBeTruthy()
  })

  test.each([
    ['no-origin-check', 'http-dns-rebinding-protection:fail'],
    ['no-param-header-check', 'http-mcp-param-header:fail'],
    ['wrong-error-id', 'error-response-id:fail'],
    ['invalid-args-protocol-error', 'invalid-arguments-result:fail']
  ])('%s over HTTP → %s', async (defect, finding) => {
    const report = await runConformance(await httpFixture(defect))
    expect(findings(report)).toEqual([finding])
    const id = finding.split(':')[0]
    expect(otherNewChecks(report, id)).toEqual(expectedOthers('http', id))
  })

  test('the messages say what was seen', async () => {
    const origin = check(await runConformance(await httpFixture('no-origin-check')), 'http-dns-rebinding-protection')
    expect(origin.message).toMatch(/^a request with Origin: http:\/\/evil.example got HTTP 200 with a result; expected HTTP 403/)
    expect(origin.evidence?.request).toContain('"origin":"http://evil.example"')
    const param = check(await runConformance(await httpFixture('no-param-header-check')), 'http-mcp-param-header')
    expect(param.message).toMatch(/^a search_docs call without Mcp-Param-Region got HTTP 200 with a result/)
    const marker = check(await runConformance(stdioFixture('bad-header-marker')), 'tool-x-mcp-header-valid')
    expect(marker.message).toBe('Streamable HTTP clients must drop these tools, so a model never sees them: search_docs (region: x-mcp-header "Docs Region" is not an HTTP token)')
    const ids = check(await runConformance(stdioFixture('wrong-error-id')), 'error-response-id')
    expect(ids.message).toMatch(/tools\/call \(id \d+\) → error -32602 with id null/)
    const prompts = check(await runConformance(stdioFixture('advertised-prompts-fail')), 'discover-capabilities-honest')
    expect(prompts.message).toBe('prompts is advertised but prompts/list got error -32603 (Internal error: prompt store unavailable)')
  })
})

describe('stdout that is not JSON-RPC', () => {
  test('before any message: the server is unreachable within about a second, the lines quoted', async () => {
    const started = Date.now()
    const report = await runConformance(stdioFixture('stdout-noise'))
    expect(Date.now() - started).toBeLessThan(4000)
    expect(report).toMatchObject({ era: 'unreachable', unreachable: { stdout: 'listening on :3000', cause: 'non-JSON-RPC output on stdout', http_status: null }, migration: [] })
    expect(report.error).toBe('server wrote to stdout what is not JSON-RPC: "listening on :3000"')
    expect(findings(report)).toEqual(['server-reachable:fail'])
  })

  test('a banner before valid traffic, and log lines after it, are tolerated', async () => {
    for (const defect of ['stdout-banner', 'stdout-log-after']) expect(findings(await runConformance(stdioFixture(defect)))).toEqual([])
  })

  test('the wire fails pending requests at once instead of at their timeout', async () => {
    const wire = new StdioWire(process.execPath, [FIXTURE], { DEFECT: 'stdout-noise' })
    try {
      const exchange = await wire.request({ method: 'tools/list', params: {} }, 20_000)
      expect(exchange.ms).toBeLessThan(3000)
      expect(exchange.response).toMatchObject({ failure: 'server wrote to stdout what is not JSON-RPC: "listening on :3000"', stdout: 'listening on :3000' })
    } finally {
      await wire.close()
    }
  })

  test('the agent transport: the SDK connect rejects quickly, quoting the line; a banner still connects', async () => {
    const connect = async (defect: string, prior?: { kind: 'legacy' }) => {
      const client = new Client({ name: 'test', version: '1' }, { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 20_000 } } })
      const transport = new GroupStdioTransport({ command: process.execPath, args: [FIXTURE], env: { ...process.env, DEFECT: defect } as Record<string, string>, stderr: 'pipe' })
      const started = Date.now()
      try {
        await client.connect(transport, { ...(prior ? { prior } : {}), timeout: 20_000 })
        return { ok: true as const, ms: Date.now() - started, era: client.getProtocolEra() }
      } catch (error) {
        return { ok: false as const, ms: Date.now() - started, message: (error as Error).message }
      } finally {
        await client.close().catch(() => undefined)
        await transport.close()
      }
    }
    // Through the SDK's discover probe (a sibling process), and straight into initialize.
    for (const prior of [undefined, { kind: 'legacy' as const }]) {
      const noisy = await connect('stdout-noise', prior)
      expect(noisy).toMatchObject({ ok: false, message: expect.stringContaining('the server wrote to stdout what is not JSON-RPC: "listening on :3000"') })
      expect(noisy.ms).toBeLessThan(5000)
    }
    expect(await connect('stdout-banner')).toMatchObject({ ok: true, era: 'modern' })
  })
})

describe('a server that refuses or cannot be reached is unreachable, not legacy', () => {
  test('a command that does not exist: ENOENT', async () => {
    const report = await runConformance({ kind: 'stdio', command: 'definitely-not-a-command-xyz', args: [], env: {} })
    expect(report).toMatchObject({ era: 'unreachable', negotiated_version: null, unreachable: { cause: 'ENOENT' }, migration: [] })
    expect(report.error).toBe("server could not start: 'definitely-not-a-command-xyz' was not found on PATH")
    expect(report.checks.map((c) => c.id)).toEqual(['server-reachable'])
  })

  test('a process that exits at start: the exit code and its stderr', async () => {
    const report = await runConformance({ kind: 'stdio', command: process.execPath, args: [fixturePath('servers/faulty-server.mjs')], env: { FAIL_AT_START: '1' } })
    expect(report).toMatchObject({ era: 'unreachable', unreachable: { cause: 'exited with code 7', stderr: 'fatal: could not open database at /nonexistent/db.sqlite' } })
    // The stderr is said once, apart (unreachable.stderr): not inside the error too.
    expect(report.error).toBe('server exited (code 7)')
    expect(conformancePassed(report, 'error')).toBe(false)
  })

  test('a Node crash: the Error line is kept, not "} | | Node.js v20"', async () => {
    const crash = "const e = new Error('config file /etc/docs.json is missing'); e.code = 'ENOCONF'; throw e"
    const report = await runConformance({ kind: 'stdio', command: process.execPath, args: ['-e', crash], env: {} })
    expect(report.era).toBe('unreachable')
    expect(report.unreachable?.stderr).toContain('Error: config file /etc/docs.json is missing')
    expect(report.unreachable?.stderr).not.toMatch(/^}$|Node\.js v/m)
    expect(report.error).toBe('server exited (code 1)')
  })

  test('nothing listening: ECONNREFUSED', async () => {
    const report = await runConformance({ kind: 'http', url: `http://127.0.0.1:${await freePort()}/mcp`, headers: {} })
    expect(report).toMatchObject({ era: 'unreachable', transport: 'http', unreachable: { cause: 'ECONNREFUSED', http_status: null } })
    expect(report.error).toMatch(/^request failed: connect ECONNREFUSED 127\.0\.0\.1:\d+$/)
  })

  test('401 without the token: the status and the body', async () => {
    const http = await startHttpServer({ token: 'secret-token' })
    try {
      const report = await runConformance({ kind: 'http', url: http.url, headers: {} })
      expect(report).toMatchObject({ era: 'unreachable', unreachable: { http_status: 401, body: '{"error":"unauthorized"}', cause: 'HTTP 401' } })
      expect(report.error).toBe('the server refused the request: HTTP 401 {"error":"unauthorized"}')
      // With the token, the same server is reachable and modern.
      expect(await runConformance({ kind: 'http', url: http.url, headers: { Authorization: 'Bearer secret-token' } })).toMatchObject({ era: 'modern', unreachable: null })
    } finally {
      await http.close()
    }
  })

  test('5xx: unreachable, not legacy', async () => {
    const server = createHttpServer((_req, res) => res.writeHead(503, { 'content-type': 'text/plain' }).end('upstream unavailable'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const report = await runConformance({ kind: 'http', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, headers: {} })
      expect(report).toMatchObject({ era: 'unreachable', unreachable: { http_status: 503, body: 'upstream unavailable' } })
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  test('legacy detection still works, and sets unreachable: null', async () => {
    const legacy = await runConformance({ kind: 'stdio', command: process.execPath, args: [fixturePath('servers/legacy-server.mjs')], env: {} })
    expect(legacy).toMatchObject({ era: 'legacy', unreachable: null, error: null })
    const silent = await runConformance({ kind: 'stdio', command: process.execPath, args: [fixturePath('servers/legacy-server.mjs')], env: { SILENT_UNKNOWN: '1' } }, { discoverTimeoutMs: 500 })
    expect(silent).toMatchObject({ era: 'legacy', unreachable: null, error: null })
  })
})

describe('legacy servers', () => {
  test('HTTP: every session the probes minted is ended with DELETE', async () => {
    const server = await startLegacyHttpServer()
    try {
      const report = await runConformance({ kind: 'http', url: server.url, headers: {} })
      expect(report).toMatchObject({ era: 'legacy', negotiated_version: '2025-11-25' })
      expect(server.minted.length).toBeGreaterThanOrEqual(2)
      expect([...server.open]).toEqual([])
      const deleted = server.requests.filter((r) => r.method === 'DELETE').map((r) => r.session)
      expect(deleted.sort()).toEqual([...server.minted].sort())
    } finally {
      await server.close()
    }
  })

  test('HTTP: a missing Origin check is an error with its migration step; a server that checks passes', async () => {
    const open = await startLegacyHttpServer()
    const checking = await startLegacyHttpServer({ checkOrigin: true })
    try {
      const report = await runConformance({ kind: 'http', url: open.url, headers: {} })
      expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual(['http-dns-rebinding-protection'])
      expect(report.migration.join('\n')).toContain('Origin header is not your own with 403')
      const good = await runConformance({ kind: 'http', url: checking.url, headers: {} })
      // Like v1 SDK servers, it answers an unknown tool with an isError result: legal before 2026-07-28.
      expect(findings(good)).toEqual(['unknown-tool-error:warn'])
      expect(check(good, 'http-dns-rebinding-protection').status).toBe('pass')
      expect(check(good, 'invalid-arguments-result').status).toBe('pass')
    } finally {
      await Promise.all([open.close(), checking.close()])
    }
  })

  test('the SDK migration step is right for a v1 server and for a 2.x one on a legacy transport', async () => {
    const stdio = await runConformance({ kind: 'stdio', command: process.execPath, args: [fixturePath('servers/legacy-server.mjs')], env: {} })
    const step = stdio.migration.find((m) => m.startsWith('With the TypeScript SDK'))
    expect(step).toContain('serveStdio from @modelcontextprotocol/server/stdio')
    expect(step).toContain('server.connect(new StdioServerTransport()) speaks 2025-11-25 only: switch it to serveStdio')
    const server = await startLegacyHttpServer({ checkOrigin: true })
    try {
      const http = await runConformance({ kind: 'http', url: server.url, headers: {} })
      expect(http.migration.find((m) => m.startsWith('With the TypeScript SDK'))).toContain('switch it to createMcpHandler')
    } finally {
      await server.close()
    }
  })
})
