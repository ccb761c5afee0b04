import { afterEach, describe, expect, test } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { EXAMPLE_SERVER, LEGACY_SERVER, fixturePath } from '../__fixtures__/harness.js'
import { startHttpServer } from '../__fixtures__/servers/http-server.mjs'
import { startLegacyHttpServer } from '../__fixtures__/servers/legacy-http-server.mjs'
import { startRawHttpServer } from '../__fixtures__/servers/raw-http-server.mjs'
import { HEADER_FORMS_CATALOG } from '../src/conformance/checks/header-forms.js'
import { RESOURCE_ERRORS_CATALOG } from '../src/conformance/checks/resource-errors.js'
import { SCHEMA_DIALECT_CATALOG, checkSchemaKeywords } from '../src/conformance/checks/schema-dialect.js'
import { runConformance } from '../src/conformance/run.js'
import type { ConformanceReport } from '../src/conformance/types.js'

/** Header forms (HTTP), resource-not-found data.uri and JSON Schema 2020-12 keywords (stdio and HTTP), on real fixture servers. */

const FIXTURE = fixturePath('servers/conformance-server.mjs')
const HEADER_IDS = ['http-header-case-and-whitespace', 'http-header-value-case', 'http-mcp-name-base64']

const running: ChildProcess[] = []
afterEach(() => {
  for (const child of running.splice(0)) child.kill()
})

async function overHttp(defect = ''): Promise<ConformanceReport> {
  const child = spawn(process.execPath, [FIXTURE, '--http'], { env: { ...process.env, DEFECT: defect } })
  running.push(child)
  const [url] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string]
  return runConformance({ kind: 'http', url, headers: {} })
}
const overStdio = (defect = '') => runConformance({ kind: 'stdio', command: process.execPath, args: [FIXTURE], env: { DEFECT: defect } })
const check = (report: ConformanceReport, id: string) => report.checks.find((c) => c.id === id)!
const findings = (report: ConformanceReport) => report.checks.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => `${c.id}:${c.status}`)
const statuses = (report: ConformanceReport, ids: string[]) => Object.fromEntries(ids.map((id) => [id, check(report, id)?.status]))

describe('header forms (HTTP, §4)', () => {
  test('the clean fixture: other case, padded values and a base64 Mcp-Name are served like the normal request; an upper-case value is refused', async () => {
    const report = await overHttp()
    expect(statuses(report, HEADER_IDS)).toEqual({ 'http-header-case-and-whitespace': 'pass', 'http-header-value-case': 'pass', 'http-mcp-name-base64': 'pass' })
    expect(check(report, 'http-header-case-and-whitespace').message).toContain('MCP-METHOD, MCP-PROTOCOL-VERSION and MCP-NAME in upper case')
    // Sent as written: the evidence shows the upper-case names.
    expect(check(report, 'http-header-case-and-whitespace').evidence?.request).toContain('"MCP-METHOD":"tools/call"')
  })

  test('the SDK travel server (createMcpHandler) passes too', async () => {
    const http = await startHttpServer()
    try {
      const report = await runConformance({ kind: 'http', url: http.url, headers: {} })
      expect(statuses(report, HEADER_IDS)).toEqual({ 'http-header-case-and-whitespace': 'pass', 'http-header-value-case': 'pass', 'http-mcp-name-base64': 'pass' })
    } finally {
      await http.close()
    }
  })

  test.each([
    ['header-name-case', 'http-header-case-and-whitespace', 'with the header names in upper case got HTTP 400 with error -32020'],
    ['header-value-case', 'http-header-value-case', 'Mcp-Method: TOOLS/CALL (the body says tools/call) got HTTP 200 with error -32602'],
    ['no-name-base64', 'http-mcp-name-base64', 'with its Mcp-Name as =?base64?…?= got HTTP 400 with error -32020']
  ])('DEFECT=%s fails %s, and only it', async (defect, id, message) => {
    const report = await overHttp(defect)
    expect(check(report, id)).toMatchObject({ status: 'fail', message: expect.stringContaining(message) })
    for (const other of HEADER_IDS.filter((i) => i !== id)) expect(check(report, other).status).toBe('pass')
  })

  test('a hand-written HTTP parser that keeps the whitespace around values fails; the same server trimming passes', async () => {
    for (const trim of [true, false]) {
      const server = await startRawHttpServer({ trim })
      try {
        const report = await runConformance({ kind: 'http', url: server.url, headers: {} })
        expect(findings(report)).toEqual(trim ? [] : ['http-header-case-and-whitespace:fail'])
        if (!trim) expect(check(report, 'http-header-case-and-whitespace').message).toContain('tools/call with every MCP header value padded with spaces and a tab got HTTP 400 with error -32020')
      } finally {
        await server.close()
      }
    }
  })

  test('stdio and legacy servers: skipped, saying why', async () => {
    const server = await startLegacyHttpServer()
    try {
      const [stdio, legacy] = await Promise.all([overStdio(), runConformance({ kind: 'http', url: server.url, headers: {} })])
      expect(legacy.era).toBe('legacy')
      for (const id of HEADER_IDS) {
        expect(check(stdio, id)).toMatchObject({ status: 'skip', message: 'stdio server: no HTTP headers' })
        expect(check(legacy, id)).toMatchObject({ status: 'skip', message: 'legacy server: applies from 2026-07-28' })
      }
    } finally {
      await server.close()
    }
  })
})

describe('resource-not-found-data-uri', () => {
  test.each(['stdio', 'http'] as const)('%s: the clean fixture names the URI; DEFECT=no-resource-data-uri warns, missing-resource-error still passes', async (transport) => {
    const run = transport === 'stdio' ? overStdio : overHttp
    const [clean, defect] = await Promise.all([run(), run('no-resource-data-uri')])
    expect(check(clean, 'resource-not-found-data-uri')).toMatchObject({ status: 'pass', message: 'error -32602 carries data.uri "mcp-server-evals://no-such-resource"' })
    expect(check(defect, 'resource-not-found-data-uri')).toMatchObject({
      status: 'warn',
      message: 'reading "mcp-server-evals://no-such-resource" got error -32602 with no data; expected data.uri "mcp-server-evals://no-such-resource", so a client can tell which resource is missing'
    })
    expect(check(defect, 'missing-resource-error').status).toBe('pass')
  })

  test('the example server (the SDK) passes; a legacy server without resources skips', async () => {
    const [example, legacy] = await Promise.all([runConformance(EXAMPLE_SERVER), runConformance(LEGACY_SERVER)])
    expect(check(example, 'resource-not-found-data-uri').status).toBe('pass')
    expect(check(legacy, 'resource-not-found-data-uri')).toMatchObject({ status: 'skip', message: 'the server advertises no resources' })
  })
})

describe('json-schema-2020-12-keywords', () => {
  test('stdio: the clean fixture passes and names the 2020-12 keywords it lists; DEFECT=older-dialect-keywords warns on each', async () => {
    const [clean, defect] = await Promise.all([overStdio(), overStdio('older-dialect-keywords')])
    expect(check(clean, 'json-schema-2020-12-keywords')).toMatchObject({ status: 'pass', message: expect.stringContaining('2020-12 keywords listed: $defs (1)') })
    expect(check(defect, 'json-schema-2020-12-keywords')).toMatchObject({
      status: 'warn',
      message:
        'search_docs.inputSchema #: dependencies (not a 2020-12 keyword: use dependentRequired or dependentSchemas); get_page.inputSchema #: then/else without if (ignored: was if dropped?)'
    })
    // Both schemas still compile: only this check sees what 2020-12 makes of them.
    expect(check(defect, 'tool-input-schema-valid').status).toBe('pass')
  })

  test('a draft-07 legacy server: not 2020-12, skipped', async () => {
    const legacy = await runConformance(LEGACY_SERVER)
    expect(check(legacy, 'json-schema-2020-12-keywords')).toMatchObject({ status: 'skip', message: expect.stringMatching(/^no schema is 2020-12; other dialects, not checked: http:\/\/json-schema\.org\/draft-07\/schema#/) })
  })

  test('older keywords anywhere in a schema, a wrong $schema form; a draft-07 schema is left alone', () => {
    const tools = [
      {
        name: 'a',
        inputSchema: {
          $schema: 'http://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: { pair: { type: 'array', items: [{ type: 'string' }], additionalItems: false }, n: { type: 'number', maximum: 3, exclusiveMaximum: true } },
          $defs: { tree: { $recursiveAnchor: true, type: 'object' } }
        },
        outputSchema: { anyOf: [{ id: '#x', type: 'string' }] }
      },
      { name: 'b', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', dependencies: { x: ['y'] } } }
    ]
    const result = checkSchemaKeywords(tools)
    expect(result.status).toBe('warn')
    for (const part of [
      'a.inputSchema: $schema "http://json-schema.org/draft/2020-12/schema" is not the 2020-12 meta-schema URI',
      'a.inputSchema #/properties/pair: items as an array',
      'a.inputSchema #/properties/pair: additionalItems',
      'a.inputSchema #/properties/n: a boolean exclusiveMaximum',
      'a.inputSchema #/$defs/tree: $recursiveAnchor',
      'a.outputSchema #/anyOf/0: id (draft-04'
    ]) {
      expect(result.message).toContain(part)
    }
    expect(result.message).toContain('other dialects, not checked: http://json-schema.org/draft-07/schema#')
    expect(result.message).not.toContain('b.inputSchema')
    expect(checkSchemaKeywords([{ name: 'c', inputSchema: { type: 'object', if: { required: ['a'] }, then: { required: ['b'] }, prefixItems: [] } }]).status).toBe('pass')
  })
})

test('the catalogs name their checks', () => {
  expect(Object.keys(HEADER_FORMS_CATALOG)).toEqual(HEADER_IDS)
  expect(Object.keys(RESOURCE_ERRORS_CATALOG)).toEqual(['resource-not-found-data-uri'])
  expect(Object.keys(SCHEMA_DIALECT_CATALOG)).toEqual(['json-schema-2020-12-keywords'])
})
