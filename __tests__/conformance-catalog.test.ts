import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import schema from '../schema/results.schema.json' with { type: 'json' }
import { createInterface } from 'node:readline'
import { fixturePath } from '../__fixtures__/harness.js'
import { golden } from '../__fixtures__/report-shapes.js'
import { startLegacyHttpServer } from '../__fixtures__/servers/legacy-http-server.mjs'
import { assembleDocument } from '../src/aggregate/document.js'
import type { ServerConfig } from '../src/config/types.js'
import { CATALOG, CATALOG_PARTS, withCatalog } from '../src/conformance/catalog.js'
import { OFFICIAL_SERVER_SCENARIOS } from '../src/conformance/official-scenarios.js'
import { TABLE_END, TABLE_START, catalogTable } from '../src/conformance/catalog-table.js'
import { observedChecks } from '../src/conformance/observed.js'
import { runConformance } from '../src/conformance/run.js'
import type { ConformanceReport } from '../src/conformance/types.js'
import { emptyUsage } from '../src/llm/chat.js'
import { conformanceDigest, renderConformance } from '../src/report/conformance.js'
import type { ConformanceSection } from '../src/results/types.js'

// The check catalog (src/conformance/catalog.ts): every id a check can emit has its revision and
// its official-suite mapping, the document carries them on every check, the report shows them in
// a failure's fold, and docs/conformance.md's table is the catalog's.

const stdio = (script: string, defect = ''): ServerConfig => ({ kind: 'stdio', command: process.execPath, args: [fixturePath(`servers/${script}`)], env: { DEFECT: defect } })
const DOCS = fixturePath('../docs/conformance.md')

const running: ChildProcess[] = []
const closing: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const child of running.splice(0)) child.kill()
  await Promise.all(closing.splice(0).map((close) => close()))
})

/** conformance-server.mjs over Streamable HTTP: it prints its URL. */
async function httpFixture(): Promise<ServerConfig> {
  const child = spawn(process.execPath, [fixturePath('servers/conformance-server.mjs'), '--http'], { env: process.env })
  running.push(child)
  const [url] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string]
  return { kind: 'http', url, headers: {} }
}

/** Every `id: '…'` of a CheckSpec literal under src/conformance/ (in the files that declare CheckSpecs), by file. */
function specIds(): Map<string, string> {
  const root = fixturePath('../src/conformance')
  const found = new Map<string, string>()
  for (const file of readdirSync(root, { recursive: true }) as string[]) {
    if (!file.endsWith('.ts')) continue
    const text = readFileSync(join(root, file), 'utf8')
    if (!/\bCheckSpec\b/.test(text)) continue
    for (const match of text.matchAll(/\bid:\s*'([a-z0-9]+(?:-[a-z0-9]+)+)'/g)) found.set(match[1], file)
  }
  return found
}

/** What the probes report on servers of each kind, the legacy and unreachable ones included. */
const reports: ConformanceReport[] = []
beforeAll(async () => {
  reports.push(
    ...(await Promise.all([
      runConformance(stdio('conformance-server.mjs')),
      runConformance(stdio('legacy-server.mjs')),
      runConformance({ kind: 'stdio', command: 'mcp-server-evals-no-such-command', args: [], env: {} }),
      httpFixture().then((config) => runConformance(config)),
      startLegacyHttpServer().then((server) => {
        closing.push(server.close)
        return runConformance({ kind: 'http', url: server.url, headers: {} })
      })
    ]))
  )
}, 60_000)

const emitted = () => new Set([...reports.flatMap((r) => r.checks.map((c) => c.id)), ...observedChecks([]).map((c) => c.id)])

describe('every check id has a catalog entry', () => {
  test('the servers of every kind were probed (modern and legacy, stdio and HTTP, unreachable)', () => {
    expect(reports.map((r) => `${r.era}/${r.transport}`)).toEqual(['modern/stdio', 'legacy/stdio', 'unreachable/stdio', 'modern/http', 'legacy/http'])
  })

  test('each id a check emitted on them', () => {
    expect([...emitted()].filter((id) => !(id in CATALOG))).toEqual([])
  })

  test('each id of a CheckSpec literal in src/conformance/', () => {
    // The scan itself finds them: one-line and multi-line literals, in run.ts, checks/ and observed*.ts.
    expect(['legacy-initialize', 'missing-version-error', 'unknown-tool-error', 'observed-input-required'].filter((id) => !specIds().has(id))).toEqual([])
    expect([...specIds()].filter(([id]) => !(id in CATALOG)).map(([id, file]) => `${id} (${file})`)).toEqual([])
  })

  test('no entry for an id nothing emits or declares (a renamed check leaves none behind)', () => {
    const known = new Set([...emitted(), ...specIds().keys()])
    expect(Object.keys(CATALOG).filter((id) => !known.has(id))).toEqual([])
  })

  test('each id in one part of the catalog only', () => {
    const owners = new Map<string, string[]>()
    for (const [part, catalog] of Object.entries(CATALOG_PARTS)) for (const id of Object.keys(catalog)) owners.set(id, [...(owners.get(id) ?? []), part])
    expect([...owners].filter(([, parts]) => parts.length > 1).map(([id, parts]) => `${id}: ${parts.join(', ')}`)).toEqual([])
  })
})

describe('each entry is well formed', () => {
  const entries = Object.entries(CATALOG)

  test('a revision, a scoring, scenarios exactly when the suite has a check, a note on each difference', () => {
    const problems = entries.flatMap(([id, { revision, official }]) => [
      ...(['2026-07-28', '2025-11-25', 'both'].includes(revision) ? [] : [`${id}: revision ${revision}`]),
      ...(['scored', 'differs', 'unscored', 'none'].includes(official.scoring) ? [] : [`${id}: scoring ${official.scoring}`]),
      ...((official.scoring === 'none') !== (official.scenarios.length === 0) ? [`${id}: scoring ${official.scoring} with ${official.scenarios.length} scenarios`] : []),
      ...((official.scoring === 'differs' || official.scoring === 'unscored') && !official.note ? [`${id}: ${official.scoring} without a note saying how or why`] : [])
    ])
    expect(problems).toEqual([])
  })

  test('every scenario it names is one of the official suite’s (0.2.0-alpha.12)', () => {
    const unknown = entries.flatMap(([id, { official }]) => official.scenarios.filter((s) => !OFFICIAL_SERVER_SCENARIOS.includes(s.split(':')[0])).map((s) => `${id}: ${s}`))
    expect(unknown).toEqual([])
  })

  test('a kebab-case check after the scenario, when it names one', () => {
    const malformed = entries.flatMap(([id, { official }]) => official.scenarios.filter((s) => !/^[a-z0-9-]+(?::[a-z0-9-]+)?$/.test(s)).map((s) => `${id}: ${s}`))
    expect(malformed).toEqual([])
  })
})

const ajv = new Ajv2020({ allErrors: true, strict: false })
addFormats.default(ajv)
const validate = ajv.compile(schema)

/** A conformance section as the document builds it (the document valid under the published schema). */
function documentSection(report: ConformanceReport): ConformanceSection {
  const g = golden()
  const section: ConformanceSection = { ...report, fail_on: 'error', passed: true }
  const doc = assembleDocument({
    started_at: g.started_at,
    duration_s: 1,
    config: g.config!,
    cases: [],
    behaviour: { status: 'skipped', reason: 'conformance only' },
    conformance: section,
    tool_tests: null,
    runs: [],
    overhead: emptyUsage(),
    cache: null,
    cancelled: null,
    journal: null
  })
  expect(validate(JSON.parse(JSON.stringify(doc))) ? [] : validate.errors).toEqual([])
  return doc.conformance!
}

describe('the document and the report', () => {
  test('every check of the document’s section carries its revision and official mapping, unreachable servers’ too', () => {
    for (const report of reports) {
      const section = documentSection(report)
      expect(section.checks.filter((c) => !c.revision || !c.official).map((c) => c.id)).toEqual([])
    }
    const section = documentSection(reports[0])
    expect(section.checks.find((c) => c.id === 'http-unknown-method-404')).toMatchObject({
      revision: '2026-07-28',
      official: { scenarios: ['server-stateless:sep-2575-http-server-method-not-found-404'], scoring: 'scored' }
    })
  })

  test('what a check set itself stays; an id the catalog lacks is left as it is', () => {
    const own = { id: 'unknown-tool-error', status: 'pass' as const, severity: 'error' as const, spec: 's', message: 'm', revision: '2025-11-25' as const }
    const [kept, unknown] = withCatalog([own, { ...own, id: 'no-such-check', revision: undefined }])
    expect(kept).toMatchObject({ revision: '2025-11-25', official: { scoring: 'none' } })
    expect(unknown).not.toHaveProperty('official')
  })

  test('a failure’s fold says its revision and how the official suite scores it; the comment’s line does not', async () => {
    const report = await runConformance(stdio('conformance-server.mjs', 'unknown-tool-code,retired-resource-code,missing-ttl'))
    const section = documentSection(report)
    const text = renderConformance(section).join('\n')
    const fold = (id: string) => text.slice(text.indexOf(`<code>${id}</code>`), text.indexOf('</details>', text.indexOf(`<code>${id}</code>`)))
    expect(fold('unknown-tool-error')).toContain('**Revision:** 2026-07-28 · **official suite:** no check')
    expect(fold('missing-resource-error')).toContain('**official suite:** scored differently (`sep-2164-resource-not-found`): a code other than \\-32602 only warns there')
    expect(fold('list-cache-fields')).toContain('**official suite:** scored differently (`caching`, `wire-schema-valid`)')
    expect(conformanceDigest(section).join('\n')).not.toContain('official suite')
  }, 30_000)
})

describe('docs/conformance.md', () => {
  test('its table is the catalog’s (UPDATE_GOLDEN=1 regenerates it)', () => {
    const docs = readFileSync(DOCS, 'utf8')
    const start = docs.indexOf(TABLE_START)
    const end = docs.indexOf(TABLE_END)
    expect(start).toBeGreaterThan(-1)
    expect(end).toBeGreaterThan(start)
    const table = catalogTable().join('\n')
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(DOCS, docs.slice(0, start) + table + docs.slice(end + TABLE_END.length))
    else expect(docs.slice(start, end + TABLE_END.length)).toBe(table)
  })

  test('the table names every check once', () => {
    const docs = readFileSync(DOCS, 'utf8')
    const rows = docs.slice(docs.indexOf(TABLE_START), docs.indexOf(TABLE_END)).split('\n').filter((l) => l.startsWith('| `'))
    expect(rows.map((r) => r.match(/^\| `([^`]+)`/)?.[1]).sort()).toEqual(Object.keys(CATALOG).sort())
  })
})

