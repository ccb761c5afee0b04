import { afterAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import { runCliProcess } from '../__fixtures__/cli.js'
import { v1Problems } from '../__fixtures__/evals-v1.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { convertCommand } from '../src/cli/convert.js'
import { parseSuite } from '../src/config/suite.js'
import { convertSuite } from '../src/convert/convert.js'
import { readSuiteText } from '../src/convert/read.js'



const TEMPLATES = fixturePath('../examples/evals-v1')
const EXAMPLE_CASES = fixturePath('../examples/eval_cases.yaml')
const SERVER = fixturePath('../examples/server/server.mjs')
const work = mkdtempSync(join(tmpdir(), 'convert-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const convertText = (text: string, file = 'suite.yaml') => convertSuite(readSuiteText(text, file), file)
const template = (name: string) => readFileSync(join(TEMPLATES, name), 'utf8')

/** Run the command in-process: exit status, stdout, stderr. */
function run(argv: string[]): { code: number; stdout: string; stderr: string } {
  let stdout = ''
  let stderr = ''
  const code = convertCommand(argv, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } }, work)
  return { code, stdout, stderr }
}

describe('evals/v1 → eval_cases', () => {
  test('the starter and mcp-apps templates convert into suites our loader accepts', () => {
    for (const name of ['starter.suite.yaml', 'mcp-apps.suite.yaml']) {
      const out = convertText(template(name), name)
      expect(out.to).toBe('eval-cases')
      expect(() => parseSuite(out.text, name)).not.toThrow()
    }
  })

  test('the overlap maps: executionError ↔ is_error, $.structuredContent.x ↔ $.x, scenarios ↔ turns, judge ↔ rubric, forbidden ↔ forbidden_tools', () => {
    const out = convertText(template('mcp-apps.suite.yaml'))
    const suite = parse(out.text)
    expect(suite.tool_tests).toEqual([{ id: 'search-tokyo-direct', tool: 'search_destinations', args: { query: 'tokyo' }, expect: { is_error: false, json: { '$.results[0].city': { equals: 'Tokyo' }, '$.query': { equals: 'tokyo' } } } }])
    // Widget fields are JSON equality with structuredContent's keys: a json matcher each, said in a comment.
    expect(out.text).toContain('# flows[0].checks[0].assert[2] (kind: widget): widget fields as json matchers on structuredContent ($.query: equals)')
    expect(suite.cases).toEqual([
      {
        id: 'destination-search-agent',
        kind: 'hard',
        tags: ['agent'],
        turns: [{ user: 'Find destinations for tokyo and show them to me.', required_tools: [{ name: 'search_destinations', args: { query: 'tokyo' } }] }],
        forbidden_tools: ['book_hotel']
      }
    ])
    // What has no counterpart: a comment at its place and a line on stderr.
    const losses = [
      'flows[0].scenarios[0].turns[0].expect.result (tool: search_destinations): no counterpart in eval_cases: a case asserts on the calls\' arguments, not on their results',
      'flows[0].scenarios[0].turns[0].expect.widget.fields: no counterpart in eval_cases: a case has no widget fields',
      'flows[0].scenarios[0].turns[0].expect.widget.screenshot: no counterpart in eval_cases: a widget screenshot needs a host page and a browser'
    ]
    for (const line of losses) {
      expect(out.losses).toContain(line)
      expect(out.text).toContain(`# ${line}`)
    }
    // The widget comment sits right above the tool test it came from.
    expect(out.text).toMatch(/# flows\[0\]\.checks\[0\]\.assert\[2\] \(kind: widget\).*\n {2}- id: search-tokyo-direct/)
    expect(out.losses.some((l) => l.includes('kind: widget'))).toBe(false)
  })

  test('outputSchemaValid is a comment, not a loss; a resource check is a loss; the server is printed as server_config', () => {
    const out = convertText(template('starter.suite.yaml'))
    expect(out.text).toContain("(kind: outputSchemaValid): nothing to write: eval_cases tool tests always check structuredContent against the tool's outputSchema")
    expect(out.losses.some((l) => l.includes('outputSchemaValid'))).toBe(false)
    expect(out.losses).toContain('flows[0].checks[0] (resource: travel://cities): no counterpart in eval_cases tool tests (they call tools only): the check is left out')
    expect(out.losses).toContain(`server: no counterpart in eval_cases: pass it as server_config (--server-config): '{"command":"node","args":["examples/server/server.mjs"]}'`)
    expect(parse(out.text).tool_tests[0].expect).toEqual({ is_error: false, json: { '$.city': { equals: 'Paris' } } })
  })

  test('the blank template: its one check is a list call, so nothing is left to run, and that is said', () => {
    const out = convertText(template('blank.suite.yaml'))
    expect(out.losses).toContain('flows[0].checks[0] (mcp: listTools): no counterpart in eval_cases tool tests (they call tools only): the check is left out')
    expect(parse(out.text)).toEqual({})
    expect(out.empty).toBe(true)
    expect(run([join(TEMPLATES, 'blank.suite.yaml')]).stderr).toContain('warning: nothing is left to run')
  })

  test('an eval_cases suite whose only tool test has steps: nothing is left to run, and that is said', () => {
    const file = join(work, 'chain.yaml')
    writeFileSync(file, 'tool_tests:\n  - id: chain\n    steps:\n      - { tool: list_sections }\n      - { tool: get_page, args: { path: /intro } }\n')
    const out = convertText(readFileSync(file, 'utf8'), 'chain.yaml')
    expect([out.to, out.empty]).toEqual(['evals-v1', true])
    expect(out.text).toContain('# Nothing here runs yet: an evals/v1 suite needs at least one check or scenario.')
    expect(run([file]).stderr).toContain('warning: nothing is left to run: an evals/v1 suite needs at least one check or scenario to load')
    expect(convertText(readFileSync(fixturePath('../examples/eval_cases.yaml'), 'utf8'), 'eval_cases.yaml').empty).toBe(false)
  })

  test('every item without a counterpart is reported, and the rest maps', () => {
    const suite = `apiVersion: mcp-use.com/evals/v1
kind: EvalSuite
name: everything
intent: all of it
triggers: { manual: true }
server: { url: "\${MCP_SERVER_URL}" }
defaults: { timeoutMs: 60000, maxAgentSteps: 12, judgeModel: openai/gpt-4o, rubricThreshold: 0.6, client: mcp-use }
metrics: { collect: [tokens], report: md, gates: { toolErrorRateMax: 0.1, agentStepsP95Max: 8, tokensPerSuccessP95Max: 5000 } }
ci: { failOn: [checks], parallelCases: false }
flows:
  - id: main
    type: agent
    clients:
      - { target: mcp-use, models: [m1, m2], framework: x, runOn: [ci], disallowedTools: [book_hotel] }
      - { target: chatgpt, models: [m3] }
    systemPrompts: { default: "Be brief." }
    checks:
      - id: list
        call: { mcp: listResources }
        assert: [{ kind: jsonpath, path: $ }]
      - id: weather
        call: { tool: get_weather, args: { city: "Paris \${x}" } }
        assert:
          - { kind: executionError }
          - { kind: jsonpath, path: $.structuredContent.temp, type: number }
          - { kind: jsonpath, path: $.isError, equals: true }
          - { kind: contains, contains: rain }
          - { kind: pattern, path: $.structuredContent.city, pattern: "^par" }
          - { kind: resource, uri: "travel://cities", assert: [{ kind: contains, contains: tokyo }] }
          - { kind: schema, schema: { type: object } }
    scenarios:
      - id: s1
        turns:
          - user: hello
            expect:
              tools: [{ name: get_weather, args: { city: any, units: { any: true, requirePresent: true }, q: { contains: par } }, afterTurn: 0 }]
        expect: { judge: { rubric: good, screenshot: true }, tools: { forbidden: [] } }
`
    const out = convertText(suite, 'everything.yaml')
    expect(out.losses).toEqual([
      'name: no counterpart in eval_cases (a suite is named by its file): "everything"',
      'intent: no counterpart in eval_cases: "all of it"',
      'triggers: no counterpart in eval_cases: when it runs is the workflow\'s on: (push, pull_request, schedule, workflow_dispatch)',
      `server: no counterpart in eval_cases: pass it as server_config (--server-config): '{"url":"\${MCP_SERVER_URL}"}'`,
      'defaults.timeoutMs: no counterpart in eval_cases: pass timeout_seconds: 60 (--timeout-seconds)',
      'defaults.maxAgentSteps: no counterpart in eval_cases: pass max_steps: 12 (--max-steps)',
      'defaults.client: no counterpart in eval_cases',
      'metrics.collect: no counterpart in eval_cases: every metric is collected',
      'metrics.report: no counterpart in eval_cases',
      'ci.failOn: no counterpart in eval_cases: the gate decides (see the gate input)',
      'ci.parallelCases: no counterpart in eval_cases: pass parallel: false (--parallel / --no-parallel)',
      'flows[0].clients[0].framework: no counterpart in eval_cases',
      "flows[0].clients[0].runOn: no counterpart in eval_cases: when it runs is the workflow's on:",
      'flows[0].clients[0].disallowedTools: no counterpart in eval_cases: no tool is hidden from a model (forbidden_tools on a case fails a run that calls one)',
      "flows[0].clients[1] (target: chatgpt): no counterpart in eval_cases: that client runs only in mcp-use's hosted service",
      'flows[0].checks[0] (mcp: listResources): no counterpart in eval_cases tool tests (they call tools only): the check is left out',
      'flows[0].checks[1].assert[2] (kind: jsonpath): no counterpart in eval_cases tool tests (json paths read structuredContent; this path is $.isError)',
      'flows[0].checks[1].assert[5] (kind: resource): no counterpart in eval_cases tool tests (a tool test reads no resource: travel://cities)',
      'flows[0].scenarios[0].turns[0].expect.tools[0].afterTurn: no counterpart in eval_cases: a turn\'s required_tools are checked on that turn\'s calls',
      'flows[0].scenarios[0].expect.judge.screenshot: no counterpart in eval_cases: the judge is not shown the widget (a screenshot needs a host page and a browser)'
    ])
    for (const line of out.losses) expect(out.text).toContain(`# ${line}`)
    // It loads, the gates as the three budgets included.
    expect(parseSuite(out.text, 'everything.eval_cases.yaml').budgets).toMatchObject({ max_tool_error_rate: 0.1, max_agent_steps_p95: 8, max_tokens_per_success_p95: 5000 })
    const converted = parse(out.text)
    expect(converted).toMatchObject({
      judge_model: 'openai/gpt-4o',
      models: ['m1', 'm2'],
      system_prompts: { default: 'Be brief.' },
      budgets: { max_tool_error_rate: 0.1, max_agent_steps_p95: 8, max_tokens_per_success_p95: 5000 }
    })
    expect(converted.tool_tests[0]).toEqual({
      id: 'weather',
      tool: 'get_weather',
      args: { city: 'Paris $${x}' },
      expect: { is_error: true, contains: ['rain'], json: { '$.city': { pattern: '^par' } }, schema: { allOf: [{ type: 'object', required: ['temp'], properties: { temp: { type: 'number' } } }, { type: 'object' }] } }
    })
    // "any" matches an absent argument there: left out here; {any, requirePresent} is our "any".
    expect(converted.cases).toEqual([{ id: 's1', kind: 'hard', turns: [{ user: 'hello', required_tools: [{ name: 'get_weather', args: { units: 'any', q: { contains: 'par' } } }] }], rubric: 'good', threshold: 0.6 }])
    expect(out.text).toContain('contains on the text: ours reads the text (its text content, else the JSON of structuredContent); evals/v1 reads structuredContent')
  })
})

describe('eval_cases → evals/v1', () => {
  test('examples/eval_cases.yaml converts into a suite of the evals/v1 shape, saying what it leaves out', () => {
    const out = convertText(readFileSync(EXAMPLE_CASES, 'utf8'), 'eval_cases.yaml')
    expect(out.to).toBe('evals-v1')
    const suite = parse(out.text)
    expect(v1Problems(out.text)).toEqual([])
    expect(suite.flows[0].clients).toEqual([{ target: 'mcp-use', models: ['openai/gpt-4o-mini', 'anthropic/claude-haiku-4.5'] }])
    expect(suite.flows[0].checks[0].assert).toEqual([
      { kind: 'executionError', equals: false },
      { kind: 'contains', path: '$.content[0].text', contains: 'light rain' },
      { kind: 'pattern', path: '$.structuredContent.condition', pattern: '^light rain$' },
      { kind: 'jsonpath', path: '$.structuredContent.units', equals: 'celsius' }
    ])
    for (const line of [
      'attacks: no counterpart in evals/v1 (Layer 2 attacks)',
      'tool_tests[3] (steps): no counterpart in evals/v1 checks: a check is one call (and has no captures); the test is left out',
      'tool_tests[4].expect.snapshot: no counterpart in evals/v1 checks',
      'cases[6].faults: no counterpart in evals/v1 scenarios',
      'cases[5].turns[0].rubric: no counterpart in evals/v1 scenarios: evals/v1 judges the whole scenario only'
    ]) {
      expect(out.losses).toContain(line)
      expect(out.text).toContain(`# ${line}`)
    }
    // The conversation keeps its turns; the case's rubric is the scenario's judge.
    const conversation = suite.flows[0].scenarios.find((s: { id: string }) => s.id === 'weather-then-hotel')
    expect(conversation.turns.map((t: { user: string }) => t.user)).toEqual(["What's the weather in Tokyo?", 'Book me a hotel there for 2 nights.'])
    expect(conversation.turns[1].expect.tools).toEqual([{ name: 'book_hotel', args: { city: 'Tokyo', nights: 2 } }])
  })
})

test('a scenario is a hard case: kind hard maps, kind soft is said to have no counterpart', () => {
  const out = convertText('system_prompts: { default: hi }\ncases:\n  - { id: a, prompt: p, rubric: r, kind: hard }\n  - { id: b, prompt: p, rubric: r, kind: soft }\n')
  expect(out.losses).toEqual(['cases[1].kind: no counterpart in evals/v1 scenarios: every run of a scenario must pass'])
  expect(parse(convertText(out.text).text).cases.map((c: { kind: string }) => c.kind)).toEqual(['hard', 'hard'])
})

describe('round trips of the overlap are stable', () => {
  const once = (text: string) => convertText(text).text
  test.each(['starter.suite.yaml', 'mcp-apps.suite.yaml'])('%s → eval_cases → evals/v1 → eval_cases', (name) => {
    const cases1 = once(template(name))
    const v1 = once(cases1)
    expect(v1Problems(v1)).toEqual([])
    const cases2 = once(v1)
    expect(parse(cases2)).toEqual(parse(cases1))
  })

  test('examples/eval_cases.yaml → evals/v1 → eval_cases → evals/v1', () => {
    const v1a = once(readFileSync(EXAMPLE_CASES, 'utf8'))
    const cases = once(v1a)
    expect(() => parseSuite(cases, 'back.yaml')).not.toThrow()
    const v1b = parse(once(cases))
    // The name comes from the file; everything else is the same suite.
    expect({ ...v1b, name: 'x' }).toEqual({ ...parse(v1a), name: 'x' })
  })

  test('a tool test with the overlapping expectations comes back as it went', () => {
    const text = `tool_tests:
  - id: t
    tool: get_forecast
    args: { city: paris }
    expect: { is_error: false, json: { "$.city": { equals: Paris }, "$.days[0].day": { equals: 1 } }, schema: { type: object } }
`
    expect(parse(once(once(text)))).toEqual(parse(text))
  })
})

describe('the command', () => {
  test('stdout by default; losses on stderr; exit 0', () => {
    const r = run([join(TEMPLATES, 'starter.suite.yaml')])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('tool_tests:')
    expect(r.stderr).toContain('flows[0].checks[0] (resource: travel://cities): no counterpart in eval_cases tool tests')
    expect(r.stderr).toMatch(/items? without a counterpart/)
  })

  test('--output writes the file and never overwrites one; --to must be the other format', () => {
    expect(run([EXAMPLE_CASES, '--output', 'v1.yaml', '--to', 'evals-v1']).code).toBe(0)
    expect(v1Problems(readFileSync(join(work, "v1.yaml"), "utf8"))).toEqual([])
    const again = run([EXAMPLE_CASES, '--output', 'v1.yaml'])
    expect(again).toMatchObject({ code: 2, stdout: '' })
    expect(again.stderr).toContain('already exists')
    expect(run([EXAMPLE_CASES, '--to', 'eval-cases']).stderr).toContain('is already an eval_cases suite')
    expect(run([EXAMPLE_CASES, '--to', 'yaml']).code).toBe(2)
    expect(run([]).code).toBe(2)
  })

  test('a bad suite exits 2 naming file, line and path', () => {
    writeFileSync(join(work, 'bad.yaml'), 'apiVersion: mcp-use.com/evals/v1\nkind: EvalSuite\nname: bad\nflows:\n  - id: main\n    type: agent\n    scenarios: []\n    checks:\n      - id: c\n        call: { tool: x }\n        asert: []\n')
    const r = run(['bad.yaml'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("bad.yaml:11:9 at flows[0].checks[0].asert: unknown key 'asert'")
    expect(r.stderr).toContain("bad.yaml:9:9 at flows[0].checks[0]: missing required key 'assert'")
    writeFileSync(join(work, 'bad-cases.yaml'), 'cases:\n  - id: a\n    promt: hi\n')
    const c = run(['bad-cases.yaml'])
    expect(c.code).toBe(2)
    expect(c.stderr).toMatch(/bad-cases\.yaml:3:5 at cases\[0\]\.promt: unknown key 'promt'/)
  })
})

describe('converted templates against the example server', () => {
  test('the tool checks of starter and mcp-apps, converted, pass as tool tests against the example server', async () => {
    for (const name of ['starter.suite.yaml', 'mcp-apps.suite.yaml']) {
      const file = join(work, `${name}.eval_cases.yaml`)
      writeFileSync(file, convertText(template(name), name).text)
      const config = JSON.stringify({ command: process.execPath, args: [SERVER] })
      const r = await runCliProcess(['--server-config', config, '--eval-cases', file, '--only-tool-tests', '--output', join(work, `${name}.json`), '--report', join(work, `${name}.md`), '--conformance', 'off'], work)
      expect({ name, code: r.code, stderr: r.stderr }).toEqual({ name, code: 0, stderr: '' })
    }
  })
})
