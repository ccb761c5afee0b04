import { describe, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import schema from '../schema/results.schema.json' with { type: 'json' }
import suiteSchema from '../schema/eval-cases.schema.json' with { type: 'json' }
import { FAULTY_SERVER, evaluateWith, fixturePath, suiteOf } from '../__fixtures__/harness.js'
import { scriptedBrain } from '../__fixtures__/scripted-llm.js'
import { fatalDocument } from '../src/evaluate.js'
import { resilienceShape, SHAPES } from '../__fixtures__/report-shapes.js'

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
