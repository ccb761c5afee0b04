import { describe, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { errorOf } from '../__fixtures__/config-error.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { ConfigErrors } from '../src/config/errors.js'
import { contextOf } from '../src/config/evals-v1-matrix.js'
import { isEvalsV1Text, parseEvalsV1Suite, type EvalsV1Overrides } from '../src/config/evals-v1-suite.js'
import { selectToolTests } from '../src/config/filter.js'
import { noResilience } from '../src/config/resilience.js'
import schema from '../schema/evals-v1.schema.json' with { type: 'json' }

// An evals/v1 suite read and translated into our Suite: the upstream templates, every error path
// located (file:line:column at a path), the matrix of clients, models and system prompts.

const template = (name: string) => readFileSync(fixturePath(`evals-v1/upstream-${name}.suite.yaml`), 'utf8')
const load = (text: string, overrides: EvalsV1Overrides = {}) => parseEvalsV1Suite(text, 'suite.yaml', { context: 'ci', ...overrides })
const messages = (fn: () => unknown) => {
  const error = errorOf(fn)
  return error instanceof ConfigErrors ? error.errors.map((e) => e.message) : [error.message]
}

const HEAD = 'apiVersion: mcp-use.com/evals/v1\nkind: EvalSuite\nname: t\n'
/** A suite with one flow holding `body` (indented under the flow). */
const flow = (body: string, top = '') => `${HEAD}${top}flows:\n  - id: main\n    type: agent\n${body}`
const SCENARIO = `    scenarios:
      - id: s1
        turns:
          - user: hi
`

describe('the upstream templates', () => {
  test('starter: a resource read and a tool call as tool tests, one step each, one run, their assertions as written', () => {
    const { suite, server } = load(template('starter'))
    expect(suite.tool_tests).toEqual([
      {
        id: 'config-resource',
        steps: [{ tool: 'resources/read config://settings', call: { kind: 'resource', uri: 'config://settings' }, args: {}, expect: { asserts: [{ kind: 'contains', path: '$.contents[0].text', contains: 'dark' }] }, capture: {} }],
        runs: 1,
        tags: []
      },
      {
        id: 'fetch-weather-paris',
        steps: [{ tool: 'fetch-weather', args: { city: 'paris' }, expect: { asserts: [{ kind: 'outputSchemaValid' }, { kind: 'jsonpath', path: '$.structuredContent.city', equals: 'paris' }] }, capture: {} }],
        runs: 1,
        tags: []
      }
    ])
    expect(suite.cases).toEqual([])
    expect(server?.data).toEqual({ url: '${MCP_SERVER_URL}' })
    expect(suite.evals_v1).toMatchObject({ api_version: 'mcp-use.com/evals/v1', name: 'starter-template-smoke', intent: 'Deterministic checks for create-mcp-use-app starter template', flows: [{ id: 'smoke', checks: ['config-resource', 'fetch-weather-paris'], scenarios: [] }], not_run: [] })
  })

  test('blank: a list call, labelled tools/list', () => {
    const step = load(template('blank')).suite.tool_tests[0].steps[0]
    expect(step).toEqual({ tool: 'tools/list', call: { kind: 'list', method: 'tools/list' }, args: {}, expect: { asserts: [{ kind: 'equals', path: '$', equals: [] }] }, capture: {} })
  })

  test('mcp-apps: the scenario is a hard conversation case that renders its apps, its turn carries the evals/v1 expectations', () => {
    const { suite, defaults } = load(template('mcp-apps'))
    expect(defaults).toEqual({ timeoutMs: 90000, maxAgentSteps: null, parallelCases: null })
    const [scenario] = suite.cases
    expect(scenario).toEqual({
      id: 'fruit-search-agent',
      prompt: 'search for mango',
      rubric: '',
      threshold: 0.7,
      required_tools: [],
      golden: null,
      runs: 1,
      kind: 'hard',
      tags: ['agent'],
      resilience: noResilience(),
      inputs: null,
      apps: 'render',
      conversation: {
        kind: 'turns',
        turns: [
          {
            user: 'search for mango',
            rubric: null,
            threshold: 0.7,
            required_tools: [],
            golden: null,
            evals_v1: {
              tools: [{ name: 'search-tools', args: { query: 'mango' }, after_turn: null }],
              result: { tool: 'search-tools', assert: [{ kind: 'jsonpath', path: '$.structuredContent.results[0].fruit', equals: 'mango' }] },
              widget_fields: { query: 'mango' },
              widget_screenshot: { rubric: expect.stringContaining('fruit carousel') as unknown as string, threshold: 0.7, tool: 'search-tools', args: { query: 'mango' } }
            }
          }
        ]
      }
    })
    // The widget screenshot is judged on the rendered view: the scenario renders its apps.
    expect(suite.evals_v1?.not_run).toEqual([])
  })
})

describe('the translation', () => {
  const full = flow(
    `    clients:
      - target: mcp-use
        models: [m/a, m/b]
        disallowedTools: [delete-all]
      - target: mcp-use
        models: [m/b, m/c]
        disallowedTools: [delete-all]
      - target: chatgpt
    systemPrompts:
      terse: Be brief.
      kind: Be kind.
    scenarios:
      - id: s1
        tags: [x]
        turns:
          - user: first
          - user: second
            expect:
              tools: [{name: t, args: {q: {pattern: '^a'}}, afterTurn: 1}]
        expect:
          judge: {rubric: '  Helps.  ', screenshot: true}
          tools: {forbidden: [delete-all]}
      - id: s2
        turns: [{user: only}]
        expect:
          judge: {rubric: Fine, threshold: 0.9}
`,
    `intent: everything
triggers: {manual: true}
defaults: {rubricThreshold: 0.6, judgeModel: j/suite, maxAgentSteps: 7, timeoutMs: 1500}
metrics: {gates: {toolErrorRateMax: 0.1, agentStepsP95Max: 12, tokensPerSuccessP95Max: 5000}}
ci: {failOn: [gates], parallelCases: false}
`
  )

  test('scenarios: prompt, rubric, threshold (defaults.rubricThreshold when the judge sets none), forbidden tools, tags, turns', () => {
    const { suite } = load(full)
    const [s1, s2] = suite.cases
    expect(s1).toMatchObject({ id: 's1', prompt: 'first', rubric: 'Helps.', threshold: 0.6, golden: { forbidden_tools: ['delete-all'] }, kind: 'hard', tags: ['x'] })
    expect(s1.conversation?.kind === 'turns' && s1.conversation.turns.map((t) => [t.user, t.threshold, t.evals_v1?.tools])).toEqual([
      ['first', 0.6, []],
      ['second', 0.6, [{ name: 't', args: { q: { pattern: '^a' } }, after_turn: 1 }]]
    ])
    expect(s2).toMatchObject({ rubric: 'Fine', threshold: 0.9, golden: null })
  })

  test('the matrix: the running clients’ models once each in order, the system prompts in order, disallowedTools by model, the hosted client not run, the judge’s screenshot run', () => {
    const { suite } = load(full)
    expect(suite.models).toEqual(['m/a', 'm/b', 'm/c'])
    expect(suite.system_prompts).toEqual([
      { name: 'terse', text: 'Be brief.' },
      { name: 'kind', text: 'Be kind.' }
    ])
    expect(suite.disallowed_tools).toEqual({ 'm/a': ['delete-all'], 'm/b': ['delete-all'], 'm/c': ['delete-all'] })
    expect(suite.evals_v1?.clients.map((c) => [c.target, c.run, c.models])).toEqual([
      ['mcp-use', true, ['m/a', 'm/b']],
      ['mcp-use', true, ['m/b', 'm/c']],
      ['chatgpt', false, ['openai/gpt-4o-mini']]
    ])
    expect(suite.evals_v1?.not_run.map((n) => [n.what, n.where])).toEqual([['client', 'flows[0].clients[2]']])
    // The judge's screenshot is run: the scenario renders its apps, and its judge is shown the last view.
    expect(suite.cases[0]).toMatchObject({ apps: 'render', judge_screenshot: true })
  })

  test('the gates become the three budgets; defaults, ci and triggers are recorded', () => {
    const { suite, defaults } = load(full)
    expect(suite.budgets).toMatchObject({ max_tool_error_rate: 0.1, max_agent_steps_p95: 12, max_tokens_per_success_p95: 5000, max_cost_usd: null })
    expect(suite.evals_v1).toMatchObject({ intent: 'everything', triggers: { manual: true }, gates: { toolErrorRateMax: 0.1, agentStepsP95Max: 12, tokensPerSuccessP95Max: 5000 }, fail_on: ['gates'], parallel_cases: false, context: 'ci' })
    expect(defaults).toEqual({ timeoutMs: 1500, maxAgentSteps: 7, parallelCases: false })
  })

  test('the judge model: the input, then EVAL_JUDGE_MODEL, then defaults.judgeModel, then the default', () => {
    expect(load(full, { judgeModel: 'j/input', envJudgeModel: 'j/env' }).suite.judge_model).toBe('j/input')
    expect(load(full, { envJudgeModel: 'j/env' }).suite.judge_model).toBe('j/env')
    expect(load(full).suite.judge_model).toBe('j/suite')
    expect(load(flow(SCENARIO)).suite.judge_model).toBe('openai/gpt-4o-mini')
  })

  test('the models input (else EVAL_MODELS) replaces every client’s models; two clients then must hide the same tools', () => {
    const suite = load(flow(`    clients: [{target: mcp-use, models: [m/a]}]\n${SCENARIO}`), { models: 'x/1, x/2,x/1', envModels: 'y/1' }).suite
    expect(suite.models).toEqual(['x/1', 'x/2'])
    expect(suite.evals_v1?.clients[0].models).toEqual(['x/1', 'x/2'])
    expect(load(flow(SCENARIO), { envModels: 'y/1' }).suite.models).toEqual(['y/1'])
    const hiding = flow(`    clients: [{target: mcp-use, models: [m/a]}, {target: mcp-use, models: [m/b], disallowedTools: [x]}]\n${SCENARIO}`)
    expect(load(hiding).suite.disallowed_tools).toEqual({ 'm/b': ['x'] })
    expect(messages(() => load(hiding, { models: 'x/1' }))).toEqual([expect.stringMatching(/at flows\[0\]\.clients\[1\]\.disallowedTools: model x\/1 runs in flows\[0\]\.clients\[0\] and in flows\[0\]\.clients\[1\] with different disallowedTools \(\[\] and \[x\]\)/)])
  })

  test('without clients: one mcp-use client with openai/gpt-4o-mini and the default system prompt', () => {
    const { suite } = load(flow(SCENARIO))
    expect(suite.models).toEqual(['openai/gpt-4o-mini'])
    expect(suite.system_prompts).toEqual([{ name: 'default', text: 'You are a helpful assistant with MCP tools.' }])
    expect(suite.disallowed_tools).toBeUndefined()
    expect(suite.evals_v1?.clients).toEqual([{ flow: 'main', target: 'mcp-use', models: ['openai/gpt-4o-mini'], disallowed_tools: [], run_on: null, run: true, reason: null }])
  })

  test('runOn is matched against the context; no client runs: the scenarios do not run, the checks do', () => {
    const text = flow(`    clients: [{target: mcp-use, models: [m/r], runOn: [release, manual]}]
    checks: [{id: c1, call: {mcp: listTools}, assert: []}]
${SCENARIO}`)
    expect(load(text, { context: 'release' }).suite.cases.map((c) => c.id)).toEqual(['s1'])
    const onCi = load(text, { context: 'ci' }).suite
    expect(onCi.cases).toEqual([])
    expect(onCi.tool_tests.map((t) => t.id)).toEqual(['c1'])
    expect(onCi.evals_v1?.clients[0]).toMatchObject({ run: false, run_on: ['release', 'manual'], reason: "runOn [release, manual] does not include this run's context (ci)" })
    expect(onCi.evals_v1?.not_run).toEqual([{ what: 'client', where: 'flows[0].clients[0]', reason: "runOn [release, manual] does not include this run's context (ci)" }])
  })

  test.each([
    [{ GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request' }, 'ci'],
    [{ GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request_target' }, 'ci'],
    [{ GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'push' }, 'ci'],
    [{ GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'merge_group' }, 'ci'],
    [{ GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'workflow_dispatch' }, 'manual'],
    [{ GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'repository_dispatch' }, 'manual'],
    [{ GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'release' }, 'release'],
    [{ GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'schedule' }, 'cron'],
    [{ GITHUB_EVENT_NAME: 'schedule' }, 'manual'],
    [{}, 'manual']
  ])('the context of %j is %s', (env, context) => {
    expect(contextOf(env)).toBe(context)
  })

  test('the same model in two running clients with different disallowedTools: an error naming both', () => {
    const text = flow(`    clients:
      - {target: mcp-use, models: [m/a], disallowedTools: [x]}
      - {target: mcp-use, models: [m/a], disallowedTools: [y]}
${SCENARIO}`)
    expect(messages(() => load(text))).toEqual([
      'suite.yaml:9:59 at flows[0].clients[1].disallowedTools: model m/a runs in flows[0].clients[0] and in flows[0].clients[1] with different disallowedTools ([x] and [y]): a model runs once per scenario and system prompt here, so its clients must hide the same tools'
    ])
    // A client that does not run here hides nothing from anyone.
    expect(load(text.replace('disallowedTools: [y]}', 'disallowedTools: [y], runOn: [cron]}')).suite.disallowed_tools).toEqual({ 'm/a': ['x'] })
  })

  test('flows must agree on clients and system prompts: an error naming the flow', () => {
    const two = (second: string) => `${HEAD}flows:\n  - id: a\n    type: agent\n    scenarios: []\n  - id: b\n    type: agent\n    scenarios: []\n${second}`
    expect(messages(() => load(two('    systemPrompts: {x: y}\n')))).toEqual([
      "suite.yaml:11:20 at flows[1].systemPrompts: flow 'b' has other systemPrompts than flow 'a': one matrix of clients × models × system prompts runs for every flow, so the flows must agree on systemPrompts (give them the same, or one flow)"
    ])
    expect(load(two('')).suite.evals_v1?.flows.map((f) => f.id)).toEqual(['a', 'b'])
  })

  test('a check’s arguments are sent as written: ${ is no capture', () => {
    const { suite } = load(flow(`    checks: [{id: c, call: {tool: t, args: {a: '\${X}', b: [{c: 'x\${y}'}]}}, assert: []}]\n    scenarios: []\n`))
    expect(suite.tool_tests[0].steps[0].args).toEqual({ a: '$${X}', b: [{ c: 'x$${y}' }] })
  })

  test('the filter selects scenarios only: every check runs, as in @mcp-use/evals (an eval_cases suite filters its tool tests)', () => {
    const { suite } = load(flow(`    checks: [{id: c1, call: {mcp: listTools}, assert: []}]\n${SCENARIO}`))
    expect(selectToolTests(suite, 'nothing-like-it').map((t) => t.id)).toEqual(['c1'])
    expect(selectToolTests({ ...suite, evals_v1: undefined }, 'nothing-like-it')).toEqual([])
  })

  test('content detection: apiVersion at the top level, quoted or not, with a comment', () => {
    expect(isEvalsV1Text(template('blank'))).toBe(true)
    expect(isEvalsV1Text('kind: EvalSuite\napiVersion: "mcp-use.com/evals/v1" # v1\n')).toBe(true)
    expect(isEvalsV1Text("apiVersion: 'mcp-use.com/evals/v1'\n")).toBe(true)
    expect(isEvalsV1Text('cases:\n  - id: x\n    prompt: "apiVersion: mcp-use.com/evals/v1"\n')).toBe(false)
    expect(isEvalsV1Text('  apiVersion: mcp-use.com/evals/v1\n')).toBe(false)
    expect(isEvalsV1Text('apiVersion: mcp-use.com/evals/v2\n')).toBe(false)
  })
})

describe('every error names file:line:column and the path', () => {
  test.each([
    ['an unknown key, with did you mean', flow(`    scenarios:\n      - id: s\n        turns: [{user: hi}]\n        expct: {}\n`), ["suite.yaml:10:9 at flows[0].scenarios[0].expct: unknown key 'expct' (did you mean 'expect'?)"]],
    ['an unknown top-level key', `${HEAD}flow: []\nflows: [{id: a, type: agent, scenarios: []}]\n`, ["suite.yaml:4:1 at flow: unknown key 'flow' (did you mean 'flows'?)"]],
    [
      'a misspelt assertion kind, with did you mean',
      flow(`    checks:\n      - id: c\n        call: {mcp: listTools}\n        assert: [{kind: contians}]\n    scenarios: []\n`),
      ["suite.yaml:10:25 at flows[0].checks[0].assert[0].kind: must be equal to one of the allowed values (executionError, outputSchemaValid, jsonpath, equals, contains, pattern, schema, resource, widget) (did you mean 'contains'?)"]
    ],
    [
      'a check without a call target',
      flow(`    checks:\n      - id: c\n        call: {}\n        assert: []\n    scenarios: []\n`),
      ["suite.yaml:9:15 at flows[0].checks[0].call: missing required key 'tool' (or 'resource', or 'mcp'): a check calls a tool, reads a resource or lists"]
    ],
    [
      'a check with two targets',
      flow(`    checks:\n      - id: c\n        call: {resource: 'x://y', mcp: listTools}\n        assert: []\n    scenarios: []\n`),
      ["suite.yaml:9:35 at flows[0].checks[0].call.mcp: give one of 'tool', 'resource', 'mcp', not both 'resource' and 'mcp'"]
    ],
    ['args without tool', flow(`    checks:\n      - id: c\n        call: {mcp: listTools, args: {}}\n        assert: []\n    scenarios: []\n`), ["suite.yaml:9:32 at flows[0].checks[0].call.args: 'args' goes with 'tool' only: a resource read and a list take no arguments"]],
    ['a scenario without turns', flow(`    scenarios:\n      - id: s\n        turns: []\n`), ['suite.yaml:9:16 at flows[0].scenarios[0].turns: must have at least one turn']],
    ['a threshold over 1', flow(`    scenarios:\n      - id: s\n        turns: [{user: hi}]\n        expect: {judge: {rubric: r, threshold: 70}}\n`), ['suite.yaml:10:48 at flows[0].scenarios[0].expect.judge.threshold: must be <= 1']],
    ['the wrong apiVersion', 'apiVersion: mcp-use.com/evals/v2\nkind: EvalSuite\nname: t\nflows: [{id: a, type: agent, scenarios: []}]\n', ['suite.yaml:1:13 at apiVersion: must be mcp-use.com/evals/v1']],
    ['no flow', `${HEAD}flows: []\n`, ['suite.yaml:4:8 at flows: must have at least one flow']],
    [
      'duplicate check and scenario ids',
      `${HEAD}flows:\n  - id: a\n    type: agent\n    checks: [{id: c, call: {mcp: listTools}, assert: []}]\n    scenarios: [{id: s, turns: [{user: hi}]}]\n  - id: b\n    type: agent\n    checks: [{id: c, call: {mcp: listPrompts}, assert: []}]\n    scenarios: [{id: s, turns: [{user: hi}]}]\n`,
      ["suite.yaml:11:19 at flows[1].checks[0].id: duplicate check id 'c' (first used at flows[0].checks[0])", "suite.yaml:12:22 at flows[1].scenarios[0].id: duplicate scenario id 's' (first used at flows[0].scenarios[0])"]
    ],
    ['an argument matcher’s bad pattern', flow(`    scenarios:\n      - id: s\n        turns:\n          - user: hi\n            expect: {tools: [{name: t, args: {q: {pattern: '(('}}}]}\n`), [expect.stringMatching(/^suite\.yaml:11:60 at flows\[0\]\.scenarios\[0\]\.turns\[0\]\.expect\.tools\[0\]\.args\.q\.pattern: invalid regular expression/)]],
    [
      'a bad pattern in a check’s and a turn result’s rules (the assertion engine’s own checks)',
      flow(`    checks:\n      - id: c\n        call: {tool: t}\n        assert: [{kind: pattern, pattern: '(('}]\n    scenarios:\n      - id: s\n        turns:\n          - user: hi\n            expect: {result: {tool: t, assert: [{kind: resource, uri: 'x://y', assert: [{kind: pattern, pattern: '[z'}]}]}}\n`),
      [
        expect.stringMatching(/^suite\.yaml:10:43 at flows\[0\]\.checks\[0\]\.assert\[0\]\.pattern: /),
        expect.stringMatching(/^suite\.yaml:15:\d+ at flows\[0\]\.scenarios\[0\]\.turns\[0\]\.expect\.result\.assert\[0\]\.assert\[0\]\.pattern: /)
      ]
    ],
    [
      'an afterTurn later than its turn',
      flow(`    scenarios:\n      - id: s\n        turns:\n          - user: hi\n            expect: {tools: [{name: t, afterTurn: 1}]}\n`),
      ['suite.yaml:11:51 at flows[0].scenarios[0].turns[0].expect.tools[0].afterTurn: afterTurn 1 is later than this turn (0, counting from 0): the expectation is checked after this turn, when no call of a later turn exists yet, so it could never pass']
    ],
    ['an eval_cases.yaml read as evals/v1', 'system_prompts: {d: hi}\ncases: []\n', ['suite.yaml:1:1 at (top level): is not an evals/v1 suite: it has no apiVersion: mcp-use.com/evals/v1 (and no kind: EvalSuite); an eval_cases.yaml is given as eval_cases']],
    ['invalid YAML', `${HEAD}flows: [\n`, [expect.stringMatching(/^suite\.yaml:5:1: invalid YAML/)]]
  ])('%s', (_, text, expected) => {
    expect(messages(() => load(text))).toEqual(expected)
  })

  test('an alias bomb and deep nesting are refused as for eval_cases', () => {
    const bomb = `${HEAD}a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nflows: [*c]\n`
    expect(messages(() => load(bomb))[0]).toMatch(/^suite\.yaml:\d+:\d+: too many aliases/)
    const deep = `${HEAD}flows: ${'['.repeat(70)}${']'.repeat(70)}\n`
    expect(messages(() => load(deep))[0]).toMatch(/^suite\.yaml:\d+:\d+: nested deeper than 64 levels/)
  })
})

describe('the published schema', () => {
  test('every key has a description and every object refuses unknown keys', () => {
    const undescribed: string[] = []
    const open: string[] = []
    const walk = (node: unknown, at: string) => {
      if (node === null || typeof node !== 'object') return
      const n = node as { properties?: Record<string, { description?: string }>; type?: unknown; additionalProperties?: unknown }
      if (n.properties) {
        if (n.additionalProperties !== false) open.push(at)
        for (const [key, value] of Object.entries(n.properties)) if (!value.description) undescribed.push(`${at}.${key}`)
      }
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`)
    }
    walk(schema, '#')
    expect(undescribed).toEqual([])
    expect(open).toEqual([])
  })
})
