import { afterEach, describe, expect, test } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { runCli } from '../__fixtures__/cli.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { startHttpServer } from '../__fixtures__/servers/http-server.mjs'
import type { ServerConfig } from '../src/config/types.js'
import { WIRE_SCHEMA_VALID } from '../src/conformance/checks/wire-schema.js'
import { runConformance } from '../src/conformance/run.js'
import type { CheckResult } from '../src/conformance/types.js'
import { withSessionWireSchema } from '../src/conformance/wire-schema/merge.js'
import { revisionSchema } from '../src/conformance/wire-schema/schemas.js'
import { SessionFrames } from '../src/conformance/wire-schema/session-frames.js'
import { SchemaTally } from '../src/conformance/wire-schema/tally.js'
import { validateFrame } from '../src/conformance/wire-schema/validate.js'
import { createSessionFactory } from '../src/mcp/session.js'
import type { ResultsDocument } from '../src/results/types.js'

const FIXTURE = fixturePath('servers/conformance-server.mjs')
const EXAMPLE = fixturePath('../examples/server/server.mjs')
const SCHEMA_DEFECTS = 'schema-content-type,schema-no-input-schema,schema-bad-notification'
const stdioFixture = (defect = ''): ServerConfig => ({ kind: 'stdio', command: process.execPath, args: [FIXTURE], env: { DEFECT: defect } })

const running: ChildProcess[] = []
afterEach(() => {
  for (const child of running.splice(0)) child.kill()
})

async function httpFixture(defect = ''): Promise<ServerConfig> {
  const child = spawn(process.execPath, [FIXTURE, '--http'], { env: { ...process.env, DEFECT: defect } })
  running.push(child)
  const [url] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string]
  return { kind: 'http', url, headers: {} }
}

const wireSchema = (checks: CheckResult[]) => checks.find((c) => c.id === WIRE_SCHEMA_VALID.id)!
const ok = { jsonrpc: '2.0', id: 1 }

describe('which definition a message is checked against', () => {
  test('the schema tables come from its $defs: method → request, request → result, error code → error response', () => {
    const modern = revisionSchema('2026-07-28')
    expect(modern.resultDefs.get('tools/call')).toBe('CallToolResult')
    expect(modern.resultDefs.get('server/discover')).toBe('DiscoverResult')
    expect(modern.methodDefs.get('notifications/message')).toBe('LoggingMessageNotification')
    expect(modern.errorDefs.get(-32022)).toBe('UnsupportedProtocolVersionError')
    expect(modern.errorDefs.get(-32020)).toBe('HeaderMismatchError')
    const legacy = revisionSchema('2025-11-25')
    expect(legacy.resultDefs.get('initialize')).toBe('InitializeResult')
    expect(legacy.resultDefs.has('server/discover')).toBe(false)
  })

  test('a bad content block is one problem at its type, naming the allowed values', () => {
    const verdict = validateFrame('2026-07-28', { ...ok, result: { resultType: 'complete', content: [{ type: 'weird', text: 'x' }] } }, 'tools/call')
    expect(verdict).toEqual({ def: 'CallToolResult', problems: [{ def: 'CallToolResult', path: '/content/0/type', message: 'must be one of "text", "image", "audio", "resource_link", "resource"' }] })
    // A block of a known type is held to that type's definition.
    const text = validateFrame('2026-07-28', { ...ok, result: { resultType: 'complete', content: [{ type: 'text' }] } }, 'tools/call')
    expect(text.problems).toEqual([{ def: 'CallToolResult', path: '/content/0', message: "must have required property 'text'" }])
  })

  test('a tool without inputSchema, a notification without its level, a -32022 without its data', () => {
    const list = validateFrame('2026-07-28', { ...ok, result: { resultType: 'complete', ttlMs: 0, cacheScope: 'public', tools: [{ name: 'a' }] } }, 'tools/list')
    expect(list.problems).toEqual([{ def: 'ListToolsResult', path: '/tools/0', message: "must have required property 'inputSchema'" }])
    const note = validateFrame('2026-07-28', { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x' } }, undefined)
    expect(note.problems).toEqual([{ def: 'LoggingMessageNotification', path: '/params', message: "must have required property 'level'" }])
    const error = validateFrame('2026-07-28', { ...ok, error: { code: -32022, message: 'Unsupported' } }, 'tools/list')
    expect(error.def).toBe('UnsupportedProtocolVersionError')
    expect(error.problems.map((p) => p.message)).toContain("must have required property 'data'")
  })

  test("another check's rules are marked with their owner, not dropped", () => {
    const verdict = validateFrame('2026-07-28', { jsonrpc: '2.0', id: null, error: { code: -32602, message: 'bad' } }, 'tools/list')
    expect(verdict.problems).toEqual([expect.objectContaining({ path: '/id', owner: 'error-response-id' })])
    const list = validateFrame('2026-07-28', { ...ok, result: { tools: [] } }, 'tools/list')
    expect(list.problems.map((p) => p.owner).sort()).toEqual(['list-cache-fields', 'list-cache-fields', 'result-type-present'])
    // 2025-11-25 has no such fields: a legacy answer without them is valid.
    expect(validateFrame('2025-11-25', { ...ok, result: { tools: [] } }, 'tools/list').problems).toEqual([])
  })

  test('input_required is checked as InputRequiredResult; an unknown method as any response; a non-message as none', () => {
    expect(validateFrame('2026-07-28', { ...ok, result: { resultType: 'input_required', requestState: 'abc' } }, 'tools/call')).toEqual({ def: 'InputRequiredResult', problems: [] })
    expect(validateFrame('2026-07-28', { ...ok, result: { resultType: 'complete', anything: 1 } }, 'vendor/thing')).toEqual({ def: 'JSONRPCResultResponse', problems: [] })
    expect(validateFrame('2026-07-28', { jsonrpc: '2.0', id: 1 }, 'tools/list').problems[0].message).toMatch(/not a JSON-RPC request, notification or response/)
    expect(validateFrame('2026-07-28', { jsonrpc: '1.0', id: 1, result: { resultType: 'complete', content: [] } }, 'tools/call').problems).toEqual([
      { def: 'JSONRPCResultResponse', path: '/jsonrpc', message: 'must be "2.0"' }
    ])
  })
})

describe('findings are grouped by kind and place, bounded', () => {
  test('the same fault on many frames is one group counting them; indices fold when places differ', () => {
    const tally = new SchemaTally('2026-07-28')
    for (let i = 0; i < 12; i++) tally.add({ jsonrpc: '2.0', id: i, result: { resultType: 'complete', content: [{ type: 'weird' }] } }, { requestMethod: 'tools/call', label: `tools/call t${i % 3}` })
    tally.add({ ...ok, result: { resultType: 'complete', ttlMs: 0, cacheScope: 'public', tools: [{ name: 'a', inputSchema: { type: 'object' } }, { name: 'b' }, { name: 'c' }] } }, { requestMethod: 'tools/list', label: 'tools/list' })
    const summary = tally.summary()
    expect(summary).toMatchObject({ frames: 13, invalid: 13, unchecked: 0 })
    expect(summary.groups).toHaveLength(2)
    expect(summary.groups[0]).toMatchObject({ def: 'CallToolResult', path: '/content/0/type', frames: 12, labels: ['tools/call t0', 'tools/call t1', 'tools/call t2'] })
    expect(summary.groups[1]).toMatchObject({ def: 'ListToolsResult', path: '/tools/1', paths: 2, frames: 1 })
  })

  test('at most 500 frames are checked; the rest are counted', () => {
    const tally = new SchemaTally('2026-07-28')
    for (let i = 0; i < 510; i++) tally.add({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, { label: 'n' })
    expect(tally.summary()).toMatchObject({ frames: 500, unchecked: 10, groups: [] })
  })

  test('validation is cheap: 1,000 tool results in well under a second once compiled', () => {
    const frame = (i: number) => ({ jsonrpc: '2.0', id: i, result: { resultType: 'complete', content: [{ type: 'text', text: `result ${i}` }], structuredContent: { n: i } } })
    validateFrame('2026-07-28', frame(0), 'tools/call')
    const started = performance.now()
    let problems = 0
    for (let i = 0; i < 1000; i++) problems += validateFrame('2026-07-28', frame(i), 'tools/call').problems.length
    const ms = performance.now() - started
    expect(problems).toBe(0)
    console.log(`wire-schema-valid: 1,000 tools/call results validated in ${ms.toFixed(1)} ms`)
    expect(ms).toBeLessThan(1000)
  })
})

describe('the probe check', () => {
  test.each([
    ['stdio', async () => stdioFixture(SCHEMA_DEFECTS)],
    ['Streamable HTTP', async () => httpFixture(SCHEMA_DEFECTS)]
  ])('over %s, schema-invalid frames fail it, each fault once with its frames', async (_transport, config) => {
    const check = wireSchema((await runConformance(await config())).checks)
    expect(check.status).toBe('fail')
    expect(check.message).toMatch(/CallToolResult \/content\/0\/type: must be one of "text", "image", "audio", "resource_link", "resource" — \d+ frames \(tools\/call /)
    expect(check.message).toMatch(/ListToolsResult \/tools\/0: must have required property 'inputSchema' — 1 frame \(tools\/list\)/)
    expect(check.message).toMatch(/LoggingMessageNotification \/params: must have required property 'level' — \d+ frames \([^)]*notifications\/message during tools\/call /)
    expect(check.message).toMatch(/messages checked against the 2026-07-28 schema/)
    expect(check.evidence?.response).toBeDefined()
  })

  test.each([
    ['the clean fixture over stdio', async () => stdioFixture()],
    ['the clean fixture over HTTP', async () => httpFixture()],
    ['the example server over stdio', async (): Promise<ServerConfig> => ({ kind: 'stdio', command: process.execPath, args: [EXAMPLE], env: {} })]
  ])('%s passes', async (_name, config) => {
    const check = wireSchema((await runConformance(await config())).checks)
    expect(check).toMatchObject({ status: 'pass', severity: 'error' })
    expect(check.message).toMatch(/^\d+ messages valid against the 2026-07-28 schema/)
  })

  test('the example server over HTTP passes; the null ids of its Origin refusals are named as error-response-id’s', async () => {
    const http = await startHttpServer()
    try {
      const check = wireSchema((await runConformance({ kind: 'http', url: http.url, headers: {} })).checks)
      expect(check.status).toBe('pass')
      expect(check.message).toMatch(/not failed here.*JSONRPCErrorResponse \/id: .* \[error-response-id\]/)
    } finally {
      await http.close()
    }
  })

  test('a legacy server is checked against 2025-11-25', async () => {
    const report = await runConformance({ kind: 'stdio', command: process.execPath, args: [fixturePath('servers/legacy-server.mjs')], env: {} })
    expect(report.era).toBe('legacy')
    expect(wireSchema(report.checks)).toMatchObject({ status: 'pass', message: expect.stringMatching(/valid against the 2025-11-25 schema/) })
  })
})

describe('the sessions of tool tests and runs', () => {
  /** One session on the fixture, its frames watched; one good call of search_docs. */
  async function sessionFindings(config: ServerConfig) {
    const frames = new SessionFrames()
    const session = await createSessionFactory(config, { probeTimeoutMs: 3000, requestTimeoutMs: 10_000 }).open(new AbortController().signal, { serverFrames: frames.sink })
    try {
      // The SDK may refuse the bad block itself; the frame was seen on the wire either way.
      await session.callToolRaw('search_docs', { query: 'intro' }, new AbortController().signal).catch(() => undefined)
    } finally {
      await session.close()
    }
    return frames.take()
  }

  test.each([
    ['stdio', async () => stdioFixture('schema-content-type,schema-bad-notification')],
    ['Streamable HTTP', async () => httpFixture('schema-content-type,schema-bad-notification')]
  ])('over %s, the frames the SDK would hide are found, and merge into the one check', async (_transport, config) => {
    const seen = await sessionFindings(await config())
    expect(seen.frames).toBeGreaterThanOrEqual(3)
    expect(seen.findings.map((f) => [f.tool, f.message])).toEqual(
      expect.arrayContaining([
        // observed-content-blocks sees every tool result of a session: the block is named as its rule.
        ['tools/call search_docs', '[observed-content-blocks] CallToolResult /content/0/type: must be one of "text", "image", "audio", "resource_link", "resource"'],
        ['notifications/message', "LoggingMessageNotification /params: must have required property 'level'"]
      ])
    )
    const probe: CheckResult = { ...WIRE_SCHEMA_VALID, status: 'pass', message: '20 messages valid against the 2026-07-28 schema' }
    const sources = [1, 2].map((n) => ({ label: `tool test t${n}`, observed: { calls: 1, findings: seen.findings, frames: seen.frames } }))
    const merged = withSessionWireSchema([probe], sources, 'modern')
    expect(merged).toHaveLength(1)
    expect(merged[0].status).toBe('fail')
    expect(merged[0].message).toMatch(/^the tool tests and runs: /)
    expect(merged[0].message).toMatch(/not failed here .*CallToolResult \/content\/0\/type: .* — 2 frames \(tools\/call search_docs in tool test t1, tools\/call search_docs in tool test t2\) \[observed-content-blocks\]/)
    expect(merged[0].message).toMatch(/LoggingMessageNotification \/params: must have required property 'level' — 2 frames \(notifications\/message in tool test t1, notifications\/message in tool test t2\)/)
    expect(merged[0].message).toMatch(/; the probes: 20 messages valid against the 2026-07-28 schema$/)
  })

  test('a clean session adds its frame count and keeps the pass', async () => {
    const seen = await sessionFindings(stdioFixture())
    expect(seen.findings).toEqual([])
    const probe: CheckResult = { ...WIRE_SCHEMA_VALID, status: 'pass', message: '20 messages valid against the 2026-07-28 schema' }
    const [merged] = withSessionWireSchema([probe], [{ label: 'run #1', observed: { calls: 1, findings: [], frames: seen.frames } }], 'modern')
    expect(merged).toMatchObject({ status: 'pass', message: `the tool tests and runs: ${seen.frames} messages valid against the 2026-07-28 schema; the probes: 20 messages valid against the 2026-07-28 schema` })
    // Nothing checked by the sessions: the probe's result as it was.
    expect(withSessionWireSchema([probe], [{ label: 'run #1', observed: { calls: 0, findings: [] } }], 'modern')).toEqual([probe])
  })
})

describe('end to end: a tool test and the probe, one check in the document', () => {
  test('the tool test step records the fault and its frames; the document lists wire-schema-valid once, failing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wire-schema-'))
    const start = process.cwd()
    process.chdir(dir)
    try {
      writeFileSync('eval_cases.yaml', 'tool_tests:\n  - id: search\n    tool: search_docs\n    args: { query: intro }\n')
      const config = JSON.stringify({ command: process.execPath, args: [FIXTURE], env: { DEFECT: 'schema-bad-notification' } })
      await runCli(['--server-config', config, '--eval-cases', 'eval_cases.yaml'])
      const doc = JSON.parse(readFileSync(join(dir, 'eval-results.json'), 'utf8')) as ResultsDocument
      const step = doc.tool_tests!.tests[0].attempts[0].steps[0]
      expect(step.observed.frames).toBeGreaterThanOrEqual(2)
      expect(step.observed.findings).toContainEqual(expect.objectContaining({ check: 'wire-schema-valid', tool: 'notifications/message', message: "LoggingMessageNotification /params: must have required property 'level'" }))
      const checks = doc.conformance!.checks.filter((c) => c.id === 'wire-schema-valid')
      expect(checks).toHaveLength(1)
      expect(checks[0].status).toBe('fail')
      expect(checks[0].message).toMatch(/^the tool tests and runs: LoggingMessageNotification \/params: must have required property 'level' — 1 frame \(notifications\/message in tool test search\)/)
      expect(checks[0].message).toMatch(/; the probes: LoggingMessageNotification \/params: /)
    } finally {
      process.chdir(start)
    }
  })
})
