import { describe, expect, test } from '@jest/globals'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import MarkdownIt from 'markdown-it'
import schema from '../schema/results.schema.json' with { type: 'json' }
import { HOSTILE, toolTestsFailedShape } from '../__fixtures__/report-shapes.js'
import type { Json } from '../src/config/types.js'
import { renderJUnit } from '../src/report/junit.js'
import { renderMarkdownReport } from '../src/report/markdown.js'
import { openBlocks } from '../src/report/trim.js'
import { NO_BUDGETS, type EvalsV1Assertion } from '../src/results/suite.js'
import { emptyUsage } from '../src/results/usage.js'
import type { ResultsDocument, StepResponse, ToolTestResult, ToolTestsSection } from '../src/results/types.js'
import { runEvalsV1Assertions, type AssertionContext } from '../src/scoring/evals-v1-assertions.js'
import { summarizeTelemetry } from '../src/telemetry/summarize.js'

/** evals/v1 checks in the report, JUnit and the document: their records come from the real engine, on hostile server text. */

const gfm = new MarkdownIt({ html: true, linkify: true })
const prose = (markdown: string) =>
  gfm
    .render(markdown)
    .replace(/<pre>[\s\S]*?<\/pre>/g, '')
    .replace(/<code>[\s\S]*?<\/code>/g, '')

const readResource = async (uri: string): Promise<Json> => {
  if (uri === 'ui://widget') return { contents: [{ uri, mimeType: 'text/html', text: `<div>${HOSTILE}</div>` }] }
  throw new Error(`Resource not found: ${HOSTILE}`)
}

async function checkRecord(id: string, tool: string, response: StepResponse, ctx: Omit<AssertionContext, 'readResource'>, rules: EvalsV1Assertion[]): Promise<ToolTestResult> {
  const checks = await runEvalsV1Assertions(rules, { ...ctx, readResource })
  const passed = checks.every((c) => c.passed)
  const step = { index: 1, tool, args: {}, latency_ms: 4, response, checks, captured: {}, passed, observed: { calls: tool.includes('/') ? 0 : 1, findings: [] } }
  const status = passed ? 'passed' : 'failed'
  return { id, tags: [], status, passed, runs: 1, attempts: [{ attempt: 1, status, error: null, stderr_tail: null, steps: [step], duration_ms: 5 }], duration_ms: 5 }
}

async function evalsV1Document(): Promise<ResultsDocument> {
  const weather = { city: HOSTILE, temp: '21' }
  const result: Json = { content: [{ type: 'text', text: HOSTILE }], structuredContent: weather, isError: false }
  const contents: Json = { contents: [{ uri: 'config://settings', mimeType: 'application/json', text: `{"note":${JSON.stringify(HOSTILE)}}` }] }
  const tools: Json = [{ name: 'get_weather', description: HOSTILE, inputSchema: { type: 'object' } }]
  const tests = [
    await checkRecord('weather', 'get_weather', { kind: 'result', is_error: false, content: [{ type: 'text', text: HOSTILE }], structured_content: weather }, { root: result, outputSchema: { type: 'object', properties: { temp: { type: 'number' } } } }, [
      { kind: 'outputSchemaValid' },
      { kind: 'jsonpath', path: '$.structuredContent.city', equals: 'Paris' },
      { kind: 'contains', contains: 'sunny' },
      { kind: 'resource', uri: 'ui://widget', assert: [{ kind: 'pattern', path: '$.text', pattern: '<iframe' }] }
    ]),
    await checkRecord('settings', 'resources/read config://settings', { kind: 'value', value: contents }, { root: contents }, [{ kind: 'contains', path: '$.contents[0].text', contains: 'dark' }]),
    await checkRecord('tools', 'tools/list', { kind: 'value', value: tools }, { root: tools }, [{ kind: 'jsonpath', path: '$[?@.name == "search"]' }]),
    await checkRecord('refused', 'resources/read config://missing', { kind: 'error', code: -32602, message: `Resource not found: ${HOSTILE}`, data: null }, { root: { error: { code: -32602, message: HOSTILE } }, protocolError: { code: -32602, message: HOSTILE } }, [
      { kind: 'executionError', equals: false }
    ]),
    await checkRecord('listed', 'prompts/list', { kind: 'value', value: [] }, { root: [] }, [{ kind: 'jsonpath', type: 'array' }])
  ]
  const n = (status: string) => tests.filter((t) => t.status === status).length
  const section: ToolTestsSection = { status: 'ran', reason: null, snapshot_dir: 'evals/__snapshots__', total: tests.length, passed: n('passed'), failed: n('failed'), errored: 0, cancelled: 0, tests }
  return { ...toolTestsFailedShape(), tool_tests: section }
}

describe('evals/v1 checks in what we write', () => {
  test('the records are valid results documents (the value response, the new check names)', async () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false })
    addFormats.default(ajv)
    const validate = ajv.compile(schema)
    const doc = JSON.parse(JSON.stringify(await evalsV1Document())) as ResultsDocument
    expect(validate(doc) ? [] : validate.errors).toEqual([])
  })

  test('the report: the call label, the check and its path, expected and actual, the response, all escaped', async () => {
    const report = renderMarkdownReport(await evalsV1Document())
    const section = report.slice(report.indexOf('## Tool tests'), report.indexOf('## Protocol conformance'))
    const html = gfm.render(section)
    expect(html).not.toMatch(/<img|<div>|<iframe/)
    expect(prose(section)).not.toContain('@octocat')
    expect(openBlocks(section)).toEqual({ fence: null, details: 0 })
    expect(section).toContain("- ✗ **output\\_schema** at `$.structuredContent` — structuredContent does not conform to the tool's outputSchema: /temp must be number")
    expect(section).toContain('- ✗ **jsonpath** at `$.structuredContent.city` —')
    expect(section).toContain('  - expected: `"Paris"`')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    // A read and a list show their label and what came back, without an empty Arguments block.
    expect(section).toContain('**Step 1:** `resources/read config://settings` · 4 ms')
    expect(section).toContain('<details><summary>Response: the contents read</summary>')
    expect(section).toContain('<details><summary>Response: the list as the server listed it</summary>')
    expect(section).toContain('- ✗ **call** —')
    expect(section).toContain('Response: JSON-RPC error `-32602`')
    const settings = section.slice(section.indexOf('<code>settings</code>:'))
    expect(settings.slice(0, settings.indexOf('</details>'))).not.toContain('Arguments:')
    // The table's first failing check, per test.
    expect(html).toContain('<td>jsonpath: no value at $[?@.name == &quot;search&quot;]</td>')
  })

  test('JUnit: the label, the check, its path, expected and actual; no arguments for a read or a list', async () => {
    const xml = renderJUnit(await evalsV1Document())
    expect(XMLValidator.validate(xml)).toBe(true)
    type Case = { name: string; failure?: { message: string; '#text': string } }
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as { testsuites: { testsuite: { name: string; testcase: Case[] }[] } }
    const cases = new Map(parsed.testsuites.testsuite.find((s) => s.name === 'tool tests')!.testcase.map((c) => [c.name, c]))
    expect(cases.get('settings')?.failure?.['#text']).toContain('step 1: resources/read config://settings (4 ms)\n  ✗ contains $.contents[0].text: $.contents[0].text does not contain "dark" (case-insensitive)\n    expected: "dark"\n')
    expect(cases.get('weather')?.failure?.message).toMatch(/^output_schema \$\.structuredContent: /)
    expect(cases.get('weather')?.failure?.['#text']).toContain('step 1: get_weather {} (4 ms)')
    expect(cases.get('refused')?.failure?.['#text']).toContain(`JSON-RPC error -32602: Resource not found: ${HOSTILE}`)
    expect(cases.get('listed')).toEqual({ name: 'listed', classname: 'tool tests', time: '0.005' })
    expect(xml).not.toContain('<img')
  })

  test('telemetry: a read or a list is not a tool call', async () => {
    const doc = await evalsV1Document()
    const telemetry = summarizeTelemetry({ runs: [], tool_tests: doc.tool_tests, wall_s: 1, overhead: emptyUsage(), cache: null, judge_model: 'judge', pricing: {}, budgets: NO_BUDGETS })
    expect(telemetry.tools.map((t) => t.name)).toEqual(['get_weather'])
  })
})
