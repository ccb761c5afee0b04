import { describe, expect, test } from '@jest/globals'
import { exposeServer, resourceFunctionName } from '../src/agent/exposure.js'
import { parseSuite } from '../src/config/suite.js'
import { fatalDocument } from '../src/output/documents.js'
import { expandMatrix, localDate } from '../src/plan/expand.js'
import { cancelledReason } from '../src/report/progress.js'
import { extractJson, parseScore, weightedScore } from '../src/scoring/geval.js'
import { createPool } from '../src/util/pool.js'
import { redactDeep, redactText, secretForms } from '../src/util/redact.js'
import { nearest } from '../src/util/suggest.js'

describe('GEval scoring', () => {
  const lp = (token: string, alternatives: Record<string, number> = { [token]: 1 }) => ({
    token,
    logprob: Math.log(alternatives[token] ?? 1),
    top_logprobs: Object.entries(alternatives).map(([t, p]) => ({ token: t, logprob: Math.log(p) }))
  })

  test('weights the score token’s integer alternatives with p ≥ 0.01', () => {
    const tokens = [lp('{"reason": "'), lp('8'), lp(' of 10", "score": '), lp('8', { '8': 0.5, '7': 0.3, '9': 0.195, x: 0.3, '6': 0.005 }), lp('}')]
    // The "8" in the reason is not the score; "x" and p < 0.01 are ignored.
    expect(weightedScore(tokens, 8)).toBeCloseTo((8 * 0.5 + 7 * 0.3 + 9 * 0.195) / 0.995, 10)
  })

  test('no logprobs, or no score token: no weighting', () => {
    expect(weightedScore(null, 7)).toBeUndefined()
    expect(weightedScore([lp('{"score": '), lp('7'), lp('}')], 8)).toBeUndefined()
  })

  test('parses {reason, score} around chatter and fences', () => {
    expect(parseScore('```json\n{"reason": "ok", "score": 7}\n```')).toEqual({ score: 7, reason: 'ok' })
    expect(parseScore('{"score": "9", "reason": "fine"}')).toEqual({ score: 9, reason: 'fine' })
  })

  test.each(['{"score": 11}', '{"score": 7.5}', '{"reason": "no score"}', 'eight', '{broken'])('rejects %s', (text) => {
    expect(parseScore(text)).toBeUndefined()
  })

  test('extractJson finds the first object', () => {
    expect(extractJson('Sure! {"steps": ["a"]} hope that helps')).toEqual({ steps: ['a'] })
  })
})

describe('exposeServer', () => {
  test('a tool that only runs as a task (execution.taskSupport: required) is not offered to the model; optional ones are', () => {
    const { functions } = exposeServer({
      tools: [
        { name: 'long_job', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } },
        { name: 'maybe_job', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
        { name: 'plain', inputSchema: { type: 'object' } }
      ],
      resources: [],
      prompts: []
    })
    expect(functions.map((f) => f.function.name)).toEqual(['maybe_job', 'plain'])
  })

  test('tools, resources and prompts become legal, unique function names mapped back', () => {
    const { functions, targets } = exposeServer({
      tools: [
        { name: 'get.weather', description: 'dotted', inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' } },
        { name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } },
        { name: 'x'.repeat(100), inputSchema: { type: 'object' } }
      ],
      resources: [{ name: 'Supported Cities!', uri: 'travel://cities' }],
      prompts: [{ name: 'packing_list', arguments: [{ name: 'city', required: true }, { name: 'style' }] }]
    })
    const names = functions.map((f) => f.function.name)
    expect(names).toEqual(['get_weather', 'get_weather_2', 'x'.repeat(64), 'supported_cities', 'packing_list'])
    expect(names.every((n) => /^[a-zA-Z0-9_-]{1,64}$/.test(n))).toBe(true)
    expect(targets.get('get_weather')).toEqual({ kind: 'tool', name: 'get.weather' })
    expect(targets.get('get_weather_2')).toEqual({ kind: 'tool', name: 'get_weather' })
    expect(targets.get('supported_cities')).toEqual({ kind: 'resource', name: 'supported_cities', uri: 'travel://cities' })
    expect(functions[0].function.parameters).toEqual({ type: 'object', properties: {} })
    expect(functions[3].function.description).toBe('travel://cities')
    expect(functions[4].function.parameters).toEqual({ type: 'object', properties: { city: { type: 'string' }, style: { type: 'string' } }, required: ['city'] })
  })

  test.each([
    ['Supported Cities!', 'supported_cities'],
    ['__a--b__', 'a_b'],
    ['README.md', 'readme_md']
  ])('resource %s → %s', (name, fn) => expect(resourceFunctionName(name)).toBe(fn))
})

describe('expandMatrix', () => {
  const suite = parseSuite(
    `models: [m1, m2]
system_prompts:
  p1: "Day {today}, again {today}"
  p2: plain
cases:
  - { id: alpha, prompt: "a {today}", rubric: r }
  - { id: beta, prompt: b, rubric: r }
`,
    'e.yaml'
  )

  test('case → model → prompt order, 1-based, {today} only in system prompts', () => {
    const runs = expandMatrix(suite, { today: '2026-11-30' })
    expect(runs.map((r) => `${r.index}:${r.case.id}/${r.model}/${r.prompt_name}`)).toEqual([
      '1:alpha/m1/p1',
      '2:alpha/m1/p2',
      '3:alpha/m2/p1',
      '4:alpha/m2/p2',
      '5:beta/m1/p1',
      '6:beta/m1/p2',
      '7:beta/m2/p1',
      '8:beta/m2/p2'
    ])
    expect(runs[0].system_prompt).toBe('Day 2026-11-30, again 2026-11-30')
    expect(runs[0].case.prompt).toBe('a {today}')
  })

  test('filter is a case-sensitive substring of the id', () => {
    expect(expandMatrix(suite, { today: 'x', filter: 'lph' }).map((r) => r.case.id)).toEqual(['alpha', 'alpha', 'alpha', 'alpha'])
    expect(expandMatrix(suite, { today: 'x', filter: 'ALPHA' })).toEqual([])
  })

  test('localDate is the local calendar date', () => {
    expect(localDate(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05')
  })
})

describe('createPool', () => {
  test('never runs more than its size at once, and urgent work jumps the queue', async () => {
    const pool = createPool(2)
    let running = 0
    let peak = 0
    const order: string[] = []
    const task = (name: string, ms: number) => async () => {
      running++
      peak = Math.max(peak, running)
      order.push(name)
      await new Promise((r) => setTimeout(r, ms))
      running--
      return name
    }
    const normal = ['a', 'b', 'c', 'd'].map((n) => pool.run(task(n, 20)))
    const urgent = pool.run(task('judge', 5), { urgent: true })
    expect(await Promise.all([...normal, urgent])).toEqual(['a', 'b', 'c', 'd', 'judge'])
    expect(peak).toBe(2)
    expect(order.indexOf('judge')).toBe(2)
  })

  test('a failing task frees its slot', async () => {
    const pool = createPool(1)
    await expect(pool.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    await expect(pool.run(async () => 'next')).resolves.toBe('next')
  })

  test('rejects a size below 1', () => {
    expect(() => createPool(0)).toThrow('positive integer')
  })
})

describe('redaction', () => {
  test('every string, keys included, longest secret first; short values are left alone', () => {
    const secrets = ['abcd', 'abcdef', 'xyz']
    expect(redactDeep({ k: ['xx abcdef abcd', { abcd: 'xyz' }], n: 5 }, secrets)).toEqual({ k: ['xx *** ***', { '***': 'xyz' }], n: 5 })
    expect(redactText('no secrets here', [])).toBe('no secrets here')
  })

  test('a secret is found in its JSON-escaped, doubly escaped, ASCII-escaped and URL-encoded forms', () => {
    const secret = 'pä"ss w/rd'
    expect(secretForms(secret)).toEqual(['pä"ss w/rd', 'pä\\"ss w/rd', 'pä\\\\\\"ss w/rd', 'p\\u00e4\\"ss w/rd', 'p%C3%A4%22ss%20w%2Frd', 'p%C3%A4%22ss+w%2Frd'])
    const text = `raw ${secret} | ${JSON.stringify({ s: secret })} | ${JSON.stringify(JSON.stringify({ s: secret }))} | ${encodeURIComponent(secret)} | p\\u00e4\\"ss w/rd`
    expect(redactText(text, [secret])).toBe('raw *** | {"s":"***"} | "{\\"s\\":\\"***\\"}" | *** | ***')
  })
})

describe('nearest', () => {
  test('suggests close names only', () => {
    expect(nearest('rubrik', ['id', 'prompt', 'rubric'])).toBe('rubric')
    expect(nearest('zzzzzz', ['id', 'prompt', 'rubric'])).toBeUndefined()
  })
})

describe('cancelledReason', () => {
  test('a cancelled evaluation of tool tests alone counts tool tests, not "0 of 0 planned runs"', () => {
    const base = fatalDocument('x')
    const tool_tests = { status: 'ran' as const, reason: null, snapshot_dir: '__snapshots__', total: 4, passed: 1, failed: 0, errored: 0, cancelled: 3, tests: [] }
    const cancelled = { signal: 'SIGINT' as const, at: '2026-12-01T12:00:00.000Z', planned: 0, finished: 0 }
    expect(cancelledReason({ ...base, fatal_error: null, cancelled, tool_tests })).toBe(
      'Cancelled by SIGINT at 2026-12-01T12:00:00.000Z: 1 of 4 tool tests had finished; the rest are recorded as cancelled. Results, report and journal are written.'
    )
    expect(cancelledReason({ ...base, fatal_error: null, cancelled: { ...cancelled, planned: 4, finished: 2 }, tool_tests })).toContain('2 of 4 planned runs had finished, 1 of 4 tool tests had finished')
  })
})
