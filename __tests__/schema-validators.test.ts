import { describe, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { validate as evalCasesValidator } from '../src/config/eval-cases-validator.generated.js'
import { validate as evalsV1Validator } from '../src/config/evals-v1-validator.generated.js'

interface Generator {
  VALIDATORS: { module: string; schema: string }[]
  validatorModule: (schemaPath: string) => string
}
const script = '../scripts/build-schema-validators.mjs'
const generator = (await import(script)) as Generator
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8')

describe("the suite schemas' generated validators", () => {
  test.each(generator.VALIDATORS)('$module is what the build makes of $schema', ({ module, schema }) => {
    expect(read(module)).toBe(generator.validatorModule(schema))
  })

  // The generated code is Ajv's own for the same options: the same verdicts and the same errors
  // (the suite's error messages are built from them), here on values that break many keywords.
  const suites: [string, (data: unknown) => boolean, unknown[]][] = [
    [
      'schema/eval-cases.schema.json',
      evalCasesValidator,
      [
        { cases: [{ id: 'a', prompt: 'p', rubric: 'r' }] },
        { cases: [{ id: '', prompt: 1, rubric: 'r', expect_tool: 'x', unknown: true }], models: ['a', 'a'], threshold: 2 },
        { cases: [], tool_tests: [{ tool: 't', app: { actions: 3 } }], apps: { render: 'sometimes' } },
        { cases: [{ id: 'a', turns: [{ user: 'u' }], prompt: 'also' }], judge_model: 3 },
        'not a suite'
      ]
    ],
    [
      'schema/evals-v1.schema.json',
      evalsV1Validator,
      [
        { apiVersion: 'mcp-use.com/evals/v1', kind: 'EvalSuite' },
        { apiVersion: 'mcp-use.com/evals/v2', kind: 'Other', spec: { checks: [{ tool: 't', resource: 'r', args: 1 }] } },
        []
      ]
    ]
  ]
  test.each(suites)('%s: the generated code judges as Ajv compiling the schema does', (schemaPath, generated, values) => {
    const compiled = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(read(schemaPath)))
    const withErrors = (validate: (data: unknown) => boolean, value: unknown) => ({ valid: validate(value), errors: (validate as unknown as { errors: unknown }).errors })
    for (const value of values) expect(withErrors(generated, value)).toEqual(withErrors(compiled, value))
    // Not a vacuous comparison: most of these values are invalid.
    expect(values.filter((v) => !generated(v)).length).toBeGreaterThan(0)
  })
})
