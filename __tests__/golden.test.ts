import { describe, expect, jest, test } from '@jest/globals'
import { EXAMPLE_SERVER, evaluateWith, suiteOf } from '../__fixtures__/harness.js'
import { kindOf, scriptedBrain } from '../__fixtures__/scripted-llm.js'
import type { ArgMatchMode, GoldenExpectations, Json } from '../src/config/types.js'
import { ConfigError } from '../src/config/errors.js'
import { parseSuite } from '../src/config/suite.js'
import { validateArgs } from '../src/scoring/args-schema.js'
import { argMatches, checkGolden, type SemanticMatcher } from '../src/scoring/golden.js'
import type { RequestedCall } from '../src/scoring/tool-assertions.js'

const never: SemanticMatcher = async () => false
const calls: RequestedCall[] = [
  { name: 'get_weather', args: { city: 'Paris', units: 'celsius' } },
  { name: 'convert_currency', args: { amount: 250.004, from: 'EUR', to: 'USD' } },
  { name: 'plan_trip', args: { city: 'Sydney', days: 2 } }
]

describe('argMatches', () => {
  test.each([
    ['exact', 'Paris', 'Paris', true],
    ['exact', 'paris', 'Paris', false],
    ['exact', 2, 2.0, true],
    ['exact', { a: [1] }, { a: [1] }, true],
    ['contains', 'par', 'Paris', true],
    ['pattern', '^p.r', 'Paris', true],
    ['pattern', '^x', 'Paris', false],
    ['any', 'x', null, true],
    ['number', 250, '250', true],
    ['number', 250, 250.004, false],
    [{ number: 0.01 }, 250, 250.004, true],
    [{ number: 0.01 }, 250, 'lots', false],
    ['number', 1, true, false]
  ] as [ArgMatchMode, Json, Json, boolean][])('%j: expected %j vs actual %j → %s', async (mode, expected, actual, result) => {
    expect(await argMatches(mode, expected, actual, never)).toBe(result)
  })

  test('semantic asks the matcher only when the text differs', async () => {
    const matcher = jest.fn<SemanticMatcher>(async () => true)
    expect(await argMatches('semantic', 'New York', 'new york', matcher)).toBe(true)
    expect(matcher).not.toHaveBeenCalled()
    expect(await argMatches('semantic', 'New York', 'NYC', matcher)).toBe(true)
    expect(matcher).toHaveBeenCalledWith('New York', 'NYC')
  })
})

describe('checkGolden', () => {
  const run = (golden: GoldenExpectations, list = calls) => checkGolden(golden, list, never)

  test('expect_tool: the first call', async () => {
    expect((await run({ expect_tool: 'get_weather' })).passed).toBe(true)
    expect((await run({ expect_tool: 'plan_trip' })).checks[0]).toEqual({
      check: 'expect_tool',
      passed: false,
      reason: 'expected plan_trip first; called get_weather → convert_currency → plan_trip'
    })
  })

  test('expect_tool: null is a negative case: any call fails it', async () => {
    expect((await run({ expect_tool: null }, [])).passed).toBe(true)
    expect((await run({ expect_tool: null })).checks[0].reason).toContain('expected no tool call')
  })

  test('expect_args with arg_match', async () => {
    const golden: GoldenExpectations = { expect_tool: 'get_weather', expect_args: { amount: 250 }, arg_match: { amount: { number: 0.01 } } }
    // convert_currency was not the first call, but its arguments are right.
    const result = await run({ ...golden, expect_tool: 'convert_currency' })
    expect(result.checks.map((c) => [c.check, c.passed])).toEqual([
      ['expect_tool', false],
      ['expect_args', true]
    ])
    const failing = await run({ expect_tool: 'convert_currency', expect_args: { to: 'GBP', from: 'eur' }, arg_match: { from: 'contains' } })
    expect(failing.checks[1]).toEqual({ check: 'expect_args', passed: false, reason: 'no call of convert_currency matched: to="USD" (expected "GBP")' })
  })

  test('expect_sequence in order and exact', async () => {
    expect((await run({ expect_sequence: ['get_weather', 'plan_trip'] })).passed).toBe(true)
    expect((await run({ expect_sequence: ['plan_trip', 'get_weather'] })).checks[0].reason).toContain('stopped before get_weather')
    expect((await run({ expect_sequence: ['get_weather', 'plan_trip'], sequence: 'exact' })).passed).toBe(false)
    expect((await run({ expect_sequence: ['get_weather', 'convert_currency', 'plan_trip'], sequence: 'exact' })).passed).toBe(true)
  })

  test('forbidden_tools and max_tool_calls', async () => {
    expect((await run({ forbidden_tools: ['delete_all', 'plan_trip'] })).checks[0]).toMatchObject({ passed: false, reason: 'called forbidden plan_trip' })
    expect((await run({ max_tool_calls: 3 })).passed).toBe(true)
    expect((await run({ max_tool_calls: 2 })).checks[0].reason).toBe('3 calls, more than 2')
  })
})

describe('golden-set keys in eval_cases.yaml', () => {
  const base = 'system_prompts: {d: x}\ncases:\n  - id: a\n    prompt: p\n    rubric: r\n'
  const errorOf = (yaml: string) => {
    try {
      parseSuite(yaml, 'e.yaml')
    } catch (error) {
      if (error instanceof ConfigError) return error.message
    }
    throw new Error('expected a ConfigError')
  }

  test('parsed into case.golden; absent when unused', () => {
    const suite = parseSuite(`${base}    expect_tool: get_weather\n    expect_args: {city: Paris}\n    arg_match: {city: semantic}\n    forbidden_tools: [x]\n`, 'e.yaml')
    expect(suite.cases[0].golden).toEqual({ expect_tool: 'get_weather', expect_args: { city: 'Paris' }, arg_match: { city: 'semantic' }, forbidden_tools: ['x'] })
    expect(parseSuite(base, 'e.yaml').cases[0].golden).toBeNull()
  })

  test.each([
    [`${base}    expect_args: {city: Paris}\n`, "at cases[0]: missing required key 'expect_tool' (needed by expect_args)"],
    [`${base}    expect_tool: null\n    expect_args: {city: Paris}\n`, 'expect_args needs an expected tool, but expect_tool is null'],
    [`${base}    expect_tool: t\n    expect_args: {city: Paris}\n    arg_match: {town: exact}\n`, "arg_match names 'town', which expect_args does not have"],
    [`${base}    expect_tool: t\n    expect_args: {city: "(["}\n    arg_match: {city: pattern}\n`, 'at cases[0].expect_args.city: invalid regular expression'],
    [`${base}    expect_tool: t\n    expect_args: {n: 1}\n    arg_match: {n: approx}\n`, 'at cases[0].arg_match.n:'],
    [`${base}    sequence: exact\n`, "at cases[0]: missing required key 'expect_sequence' (needed by sequence)"],
    [`${base}    expect_tol: t\n`, "unknown key 'expect_tol' (did you mean 'expect_tool'?)"]
  ])('%#: %s', (yaml, message) => {
    expect(errorOf(yaml)).toContain(message)
  })
})

describe('arguments against the tool’s own inputSchema', () => {
  const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city'] }
  test('valid, invalid, and nothing to check', () => {
    expect(validateArgs(schema, { city: 'Paris', days: 2 })).toEqual({ valid: true })
    expect(validateArgs(schema, { days: 0 })).toEqual({ valid: false, errors: "(root) must have required property 'city'" })
    expect(validateArgs(undefined, {})).toBeNull()
  })
})

describe('golden checks in a real run', () => {
  test('a negative case that over-triggers fails; semantic args are asked of the judge model once; invalid args are counted', async () => {
    const suite = suiteOf(
      `  - id: negative
    prompt: Tell me a joke
    rubric: r
    expect_tool: null
  - id: nyc
    prompt: Weather in the Big Apple?
    rubric: r
    expect_tool: get_weather
    expect_args: { city: New York }
    arg_match: { city: semantic }
    max_tool_calls: 2
`,
      'models: [m/a, m/b]\n'
    )
    const { doc, llm } = await evaluateWith({
      suite,
      server: EXAMPLE_SERVER,
      responder: scriptedBrain(
        {
          'a joke': { turns: [[{ name: 'get_weather', args: { city: 'Paris' } }]], answer: 'Why did the weather change? It was under pressure.' },
          'Big Apple': { turns: [[{ name: 'get_weather', args: { city: 'NYC', units: 'kelvin' } }]], answer: 'Cloudy in New York.' }
        },
        () => 9
      )
    })
    const [negative, , nyc] = doc.runs
    expect(negative).toMatchObject({ status: 'failed', rubric_passed: true, tools_passed: true, success: false })
    expect(negative.golden_assertions).toEqual({ passed: false, checks: [{ check: 'expect_tool', passed: false, reason: 'expected no tool call; called get_weather' }] })
    expect(nyc).toMatchObject({ status: 'passed', golden_assertions: { passed: true } })
    // units: kelvin is outside the tool's enum: recorded and counted, not a failure by itself.
    expect(nyc.tool_calls[0]).toMatchObject({ schema_valid: false, schema_errors: expect.stringContaining('/units must be equal to one of the allowed values') })
    expect(doc.summary.schema_invalid_calls).toBe(2)
    // Two models asked the same semantic question: one judge call, cached.
    expect(llm.requests.filter((r) => kindOf(r) === 'semantic')).toHaveLength(1)
  })
})
