import { describe, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import schema from '../schema/results.schema.json' with { type: 'json' }
import suiteSchema from '../schema/eval-cases.schema.json' with { type: 'json' }
import { FAULTY_SERVER, evaluateWith, fixturePath, suiteOf } from '../__fixtures__/harness.js'
import { scriptedBrain } from '../__fixtures__/scripted-llm.js'
import { fatalDocument } from '../src/output/documents.js'
import { appsShape, appsSkippedShape, conversationShape, resilienceShape, SHAPES } from '../__fixtures__/report-shapes.js'
import { upgradeRun } from '../src/results/upgrade.js'
import { upgradeDocument } from '../src/aggregate/upgrade-document.js'
import type { InputExchange, ResultsDocument, RunResult } from '../src/results/types.js'
import { asVersion } from '../__fixtures__/older-documents.js'

const ajv = new Ajv2020({ allErrors: true, strict: false })
addFormats.default(ajv)
const validate = ajv.compile(schema)
const valid = (doc: unknown) => (validate(doc) ? [] : validate.errors)

describe('schema/results.schema.json describes what we write', () => {
  test('the golden document', () => {
    expect(valid(JSON.parse(readFileSync(fixturePath('golden/results.json'), 'utf8')))).toEqual([])
  })

  test('every report shape, Layer 2 included (faults, attacks, their verdicts, the summary and the changes against a baseline)', () => {
    for (const [name, shape] of SHAPES) expect({ name, errors: valid(JSON.parse(JSON.stringify(shape()))) }).toEqual({ name, errors: [] })
    const doc = resilienceShape()
    expect(doc.summary.resilience?.by_model.length).toBeGreaterThan(0)
    expect(doc.changes?.resilience?.length).toBeGreaterThan(0)
    expect(doc.runs.some((r) => r.tool_calls.some((c) => c.fault) && r.recovery)).toBe(true)
    expect(doc.runs.some((r) => r.security?.attacks.some((a) => a.evidence.length > 0))).toBe(true)
  })

  test('conversations and server input: dialogue, turns, input rounds (MRTR and legacy), the input verdict, sampling LLM calls', () => {
    const doc = JSON.parse(JSON.stringify(conversationShape())) as ResultsDocument
    expect(valid(doc)).toEqual([])
    expect(doc.runs.map((r) => r.dialogue?.kind ?? null)).toEqual(['turns', 'simulated', null, null])
    expect(doc.runs.flatMap((r) => r.tool_calls.flatMap((c) => c.input_rounds ?? [])).map((r) => r.via)).toEqual(['input_required', 'input_required', 'server_request'])
    expect(doc.runs.flatMap((r) => r.inputs?.outside_calls ?? []).map((r) => r.exchanges[0].method)).toEqual(['roots/list'])
    expect(doc.runs.some((r) => r.llm_calls.some((c) => c.purpose === 'sampling'))).toBe(true)
    expect(doc.runs.some((r) => r.conversation.some((e) => e.simulated === true && e.turn === 1))).toBe(true)
    expect(doc.runs.map((r) => r.inputs?.passed ?? null)).toEqual([null, null, true, false])
  })

  test('the schema is strict about the new shapes', () => {
    const accepts = (mutate: (doc: ResultsDocument) => void) => {
      const doc = JSON.parse(JSON.stringify(conversationShape())) as ResultsDocument
      mutate(doc)
      return validate(doc)
    }
    const scripted = (doc: ResultsDocument) => doc.runs[0]
    const firstRound = (doc: ResultsDocument) => doc.runs[2].tool_calls[0].input_rounds![0]
    expect(accepts(() => undefined)).toBe(true)
    expect(accepts((doc) => (scripted(doc).dialogue!.ended = 'bored' as never))).toBe(false)
    expect(accepts((doc) => Object.assign(scripted(doc).dialogue!.turns[0], { extra: 1 }))).toBe(false)
    expect(accepts((doc) => (scripted(doc).conversation[0].simulated = false as never))).toBe(false)
    expect(accepts((doc) => delete (scripted(doc) as Partial<RunResult>).inputs)).toBe(false)
    expect(accepts((doc) => (firstRound(doc).via = 'maybe' as never))).toBe(false)
    expect(accepts((doc) => delete (firstRound(doc).exchanges[0] as Partial<InputExchange>).answered_by)).toBe(false)
    expect(accepts((doc) => (doc.runs[2].inputs!.asked = ['telepathy' as never]))).toBe(false)
    expect(accepts((doc) => (doc.runs[2].llm_calls[0].purpose = 'judging' as never))).toBe(false)
  })

  test('MCP Apps: renders on tool test steps and runs, the call’s render id, the section; strict about each', () => {
    const accepts = (mutate: (doc: ResultsDocument) => void, shape = appsShape) => {
      const doc = JSON.parse(JSON.stringify(shape())) as ResultsDocument
      mutate(doc)
      return validate(doc) ? [] : validate.errors!.map((e) => `${e.instancePath} ${e.message}`)
    }
    const step = (doc: ResultsDocument, i = 2) => doc.tool_tests!.tests[i].attempts[0].steps[0]
    expect(accepts(() => undefined)).toEqual([])
    expect(accepts(() => undefined, appsSkippedShape)).toEqual([])
    const doc = appsShape()
    expect(doc.runs[0].tool_calls[0].app_render).toBe('run-1.call-1')
    expect(doc.runs[0].app_renders?.[0].visual_diff?.changed).toBe(true)
    expect(doc.tool_tests!.tests.filter((t) => t.attempts[0].steps[0].app).length).toBe(9)
    const rejected = (mutate: (doc: ResultsDocument) => void) => expect(accepts(mutate)).not.toEqual([])
    rejected((d) => (step(d).app!.findings[0].id = 'app-looks-nice' as never))
    rejected((d) => (step(d).app!.findings[0].status = 'maybe' as never))
    rejected((d) => Object.assign(step(d).app!, { html: '<p>' }))
    rejected((d) => (step(d).app!.status = 'rendering' as never))
    rejected((d) => (step(d).app!.screenshot_sha256 = 'not-a-hash'))
    rejected((d) => delete (step(d).app as Partial<NonNullable<ReturnType<typeof step>['app']>>).console_errors)
    rejected((d) => (d.runs[0].app_renders![0].visual_diff!.changed_ratio = 2))
    rejected((d) => (d.runs[0].tool_calls[0].app_render = 3 as never))
    rejected((d) => (d.apps!.status = 'maybe' as never))
    rejected((d) => Object.assign(d.apps!.findings, { 'app-other': { passed: 1 } }))
    rejected((d) => (d.apps!.browser!.source = 'guess' as never))
  })

  test('a fresh document with passes, failures and errors', async () => {
    const { doc } = await evaluateWith({
      suite: suiteOf(`  - id: ok\n    prompt: echo hello\n    rubric: r\n    required_tools: [echo]\n  - id: crash\n    prompt: please crash\n    rubric: r\n`),
      server: FAULTY_SERVER,
      responder: scriptedBrain(
        { 'echo hello': { turns: [[{ name: 'echo', args: { text: 'hi' } }]], answer: 'hi' }, 'please crash': { turns: [[{ name: 'crash', args: {} }]], answer: 'x' } },
        () => 8
      )
    })
    expect(doc.runs.map((r) => r.status)).toEqual(['passed', 'error'])
    expect(valid(JSON.parse(JSON.stringify(doc)))).toEqual([])
  })

  test("a media record's preview is a raster image's data: URL, nothing else", () => {
    const doc = JSON.parse(JSON.stringify(resilienceShape())) as ResultsDocument
    const call = doc.runs[0].tool_calls[0]
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
    call.media = [{ type: 'image', mime_type: 'image/png', bytes: 70, sent: false, reason: 'x', preview: `data:image/png;base64,${png}` }]
    expect(valid(doc)).toEqual([])
    for (const preview of ['data:image/svg+xml;base64,PHN2Zz4=', 'javascript:alert(1)', `data:image/png;base64,${png}"><img src=x>`]) {
      call.media = [{ type: 'image', mime_type: 'image/png', bytes: 70, sent: false, reason: 'x', preview }]
      expect(validate(doc)).toBe(false)
    }
  })

  test('the fatal document', () => {
    expect(valid(JSON.parse(JSON.stringify(fatalDocument('bad'))))).toEqual([])
  })

  test('the schema rejects what it should', () => {
    const doc = JSON.parse(readFileSync(fixturePath('golden/results.json'), 'utf8'))
    doc.runs[0].status = 'maybe'
    expect(validate(doc)).toBe(false)
  })

  test('the suite schema is a valid 2020-12 schema', () => {
    expect(() => new Ajv2020({ strict: true, strictRequired: false }).compile(suiteSchema)).not.toThrow()
  })
})

/** The golden document as versions 7, 6 and 5 wrote it: no shards; no record of what the model was shown; and no conversations or server input. */
const goldenDocument = () => JSON.parse(readFileSync(fixturePath('golden/results.json'), 'utf8')) as object
const version7 = () => asVersion(goldenDocument(), 7)
const version6 = () => asVersion(goldenDocument(), 6)
const version5 = () => asVersion(goldenDocument(), 5)

describe('older documents and journals read as version 9', () => {
  test('version 8 (before evals/v1): read as it is, with no evals_v1 section, and it matches the schema', () => {
    const old = { ...goldenDocument(), version: 8 }
    expect(old).not.toHaveProperty('evals_v1')
    const doc = upgradeDocument(old)!
    expect(doc.version).toBe(9)
    expect(doc.evals_v1 ?? null).toBeNull()
    expect({ ...doc, version: 8 }).toEqual(old)
    expect(valid(JSON.parse(JSON.stringify(doc)))).toEqual([])
  })

  test('version 7: shard null and config.server_reuse run, and it matches the schema', () => {
    const old = version7()
    expect(old).not.toHaveProperty('shard')
    const doc = upgradeDocument(old)!
    expect(doc.version).toBe(9)
    expect(doc.shard).toBeNull()
    expect(doc.config?.server_reuse).toBe('run')
    expect(valid(JSON.parse(JSON.stringify(doc)))).toEqual([])
  })

  test('version 6: runs get model_view and run_dir null, the telemetry is kept as written, and it matches the schema', () => {
    const old = version6()
    const doc = upgradeDocument(old)!
    expect(doc.version).toBe(9)
    expect(doc.runs.every((r) => r.model_view === null && r.run_dir === null)).toBe(true)
    expect(doc.telemetry).toEqual((old as { telemetry: unknown }).telemetry)
    expect(valid(JSON.parse(JSON.stringify(doc)))).toEqual([])
  })

  test('version 5: runs get dialogue and inputs null, the telemetry is kept as written, and it matches the schema', () => {
    const old = version5()
    const doc = upgradeDocument(old)!
    expect(doc.version).toBe(9)
    expect(doc.runs.every((r) => r.dialogue === null && r.inputs === null && r.model_view === null)).toBe(true)
    expect(doc.telemetry).toEqual((old as { telemetry: unknown }).telemetry)
    expect(valid(JSON.parse(JSON.stringify(doc)))).toEqual([])
  })

  test('version 4 (before Layer 3): the same, with its telemetry computed from its runs', () => {
    const old = version5() as Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
    old.version = 4
    delete old.telemetry
    const doc = upgradeDocument(old)!
    expect(doc.version).toBe(9)
    expect(doc.runs.every((r) => r.dialogue === null && r.inputs === null)).toBe(true)
    expect(doc.telemetry?.tools.length).toBeGreaterThan(0)
  })

  test('a run journaled before version 6 gets dialogue and inputs null; a version 6 run keeps them', () => {
    const [run] = (version5() as unknown as ResultsDocument).runs
    expect(upgradeRun(run)).toMatchObject({ dialogue: null, inputs: null })
    const modern = conversationShape().runs[2]
    expect(upgradeRun(modern).inputs).toEqual(modern.inputs)
    expect(upgradeRun(conversationShape().runs[0]).dialogue?.turns).toHaveLength(2)
  })

  test('an unknown version is not read', () => {
    expect(upgradeDocument({ ...version5(), version: 10 })).toBeNull()
  })
})
