import { afterAll, beforeAll, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../__fixtures__/cli.js'
import { fixturePath } from '../__fixtures__/harness.js'
import type { ResultsDocument } from '../src/results/types.js'

/** An evals/v1 suite's checks end to end, as a user runs them: the CLI, the loader, a real server, no key. */

const SUITE = `apiVersion: mcp-use.com/evals/v1
kind: EvalSuite
name: weather-checks
server:
  command: ${JSON.stringify(process.execPath)}
  args: [${JSON.stringify(fixturePath('servers/evals-v1-server.mjs'))}]
flows:
  - id: main
    type: agent
    checks:
      - id: settings
        call: { resource: "config://settings" }
        assert:
          - { kind: contains, path: "$.contents[0].text", contains: DARK }
          - { kind: jsonpath, path: "$.contents[0].mimeType", equals: application/json }
      - id: weather
        call: { tool: get_weather, args: { city: Paris } }
        assert:
          - { kind: outputSchemaValid }
          - { kind: widget, fields: { city: Paris } }
          - { kind: resource, uri: "\${fromResult:structuredContent.widget}", assert: [{ kind: contains, path: "$.text", contains: weather }] }
          - { kind: jsonpath, path: "$.structuredContent.city", equals: paris }
      - id: refused
        call: { tool: delete_city, args: { city: Paris } }
        assert: [{ kind: executionError }]
      - id: listed
        call: { mcp: listTools }
        assert: [{ kind: jsonpath, path: '$[?@.name == "echo"].inputSchema.type', equals: object }]
    scenarios: []
`

let dir = ''
let run: Awaited<ReturnType<typeof runCli>>
let doc: ResultsDocument
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'evals-v1-checks-'))
  writeFileSync(join(dir, 'suite.yaml'), SUITE)
  run = await runCli(['--eval-suite', join(dir, 'suite.yaml'), '--conformance', 'off', '--output-dir', join(dir, 'out')])
  doc = JSON.parse(readFileSync(join(dir, 'out', 'eval-results.json'), 'utf8')) as ResultsDocument
}, 120_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('each check is a tool test of its own rules; the one that fails fails the job, saying why', () => {
  expect(run.code).toBe(1)
  expect(run.stdout).toContain('✗ tool test weather')
  expect(run.stdout).toContain('jsonpath: $.structuredContent.city: "Paris" does not equal "paris"')
  const byId = Object.fromEntries(doc.tool_tests!.tests.map((t) => [t.id, t]))
  expect(Object.fromEntries(Object.entries(byId).map(([id, t]) => [id, t.status]))).toEqual({ settings: 'passed', weather: 'failed', refused: 'passed', listed: 'passed' })
  const weather = byId.weather.attempts[0].steps[0]
  expect(weather.checks.map((c) => [c.check, c.passed])).toEqual([
    ['output_schema', true],
    ['widget', true],
    ['resource', true],
    ['jsonpath', false]
  ])
  expect(byId.settings.attempts[0].steps[0]).toMatchObject({ tool: 'resources/read config://settings', response: { kind: 'value' } })
  expect(byId.listed.attempts[0].steps[0].tool).toBe('tools/list')
})

test('the report shows the failing rule with its path, expected and actual', () => {
  const report = readFileSync(join(dir, 'out', 'report.md'), 'utf8')
  expect(report).toContain('- ✗ **jsonpath** at `$.structuredContent.city` —')
  expect(report).toContain('  - expected: `"paris"`')
  expect(report).toContain('  - actual: `"Paris"`')
})
