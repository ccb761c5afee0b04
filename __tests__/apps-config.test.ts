import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse as parseYaml } from 'yaml'
import { errorOf } from '../__fixtures__/config-error.js'
import { useActionInputs } from '../__fixtures__/env-vars.js'
import { runOptions } from '../__fixtures__/options.js'
import { Inputs } from '../src/constants.js'
import { appsSettingsOf, normaliseAppTest } from '../src/config/app-test.js'
import { ConfigErrors } from '../src/config/errors.js'
import { resolveOptions, type RawOption, type RawOptions } from '../src/config/options.js'
import { prepare } from '../src/config/prepare.js'
import { journalHash, suiteHash } from '../src/execute/suite-hash.js'
import { parseSuite, type SuiteOverrides } from '../src/config/suite.js'
import { DEFAULT_APPS_SETTINGS, type AppTest } from '../src/config/types.js'
import { readActionOptions } from '../src/github/inputs.js'
import { cliCommand } from '../src/cli/invocation.js'

// Issue 30's configuration: a tool test's `app:`, the suite's and a case's `apps:`, and the
// chrome_path and app_visual_diff inputs.

const suiteOf = (yaml: string, overrides: SuiteOverrides = {}) => parseSuite(yaml, 't.yaml', overrides)

/** Every message the loader reports for the suite, one per problem. */
function problems(yaml: string): string[] {
  const error = errorOf(() => suiteOf(yaml))
  return error instanceof ConfigErrors ? error.errors.map((e) => e.message) : [error.message]
}

/** A single-call tool test whose `app:` is `app` (YAML, indented under the key); its app starts on line 5. */
const single = (app: string) => `tool_tests:\n  - id: a\n    tool: show\n    app:${app}\n`

const EMPTY: AppTest = { actions: [], text_contains: [], selector: [], fields: {}, judge: null }

describe("a tool test's app:", () => {
  test('absent: the step has no app key (nothing renders)', () => {
    expect(suiteOf('tool_tests:\n  - { id: a, tool: show }\n').tool_tests[0].steps[0]).not.toHaveProperty('app')
  })

  test('app: true renders and checks the host findings only: an app test with empty lists', () => {
    expect(suiteOf(single(' true')).tool_tests[0].steps[0].app).toEqual(EMPTY)
    expect(suiteOf(single(' {}')).tool_tests[0].steps[0].app).toEqual(EMPTY)
  })

  test('every key, normalised: actions in order, a string as a list, one selector object as a list, a rubric string as a judge at 0.5', () => {
    const yaml = single(`
      actions:
        - { fill: "input[name=city]", value: Lyon }
        - { click: "button#go" }
      text_contains: Lyon
      selector: { selector: h1, text: Lyon }
      fields: { "$.city": Lyon, "$.days": { length: 5 } }
      judge: "  A weather card for Lyon  "`)
    expect(suiteOf(yaml).tool_tests[0].steps[0].app).toEqual({
      actions: [
        { action: 'fill', selector: 'input[name=city]', value: 'Lyon' },
        { action: 'click', selector: 'button#go' }
      ],
      text_contains: ['Lyon'],
      selector: [{ selector: 'h1', text: 'Lyon' }],
      fields: { '$.city': 'Lyon', '$.days': { length: 5 } },
      judge: { rubric: 'A weather card for Lyon', threshold: 0.5, model: null }
    })
  })

  test('lists stay lists; a judge object keeps its threshold and model', () => {
    const yaml = single(`
      text_contains: [Lyon, "°C"]
      selector: [{ selector: ".day", count: 5 }, { selector: ".icon" }]
      judge: { rubric: Shows five days, threshold: 0.8, model: openai/gpt-4o }`)
    expect(suiteOf(yaml).tool_tests[0].steps[0].app).toEqual({
      ...EMPTY,
      text_contains: ['Lyon', '°C'],
      selector: [{ selector: '.day', count: 5 }, { selector: '.icon' }],
      judge: { rubric: 'Shows five days', threshold: 0.8, model: 'openai/gpt-4o' }
    })
  })

  test('on steps: each step its own, a step without app: none', () => {
    const yaml = 'tool_tests:\n  - id: a\n    steps:\n      - { tool: list }\n      - tool: show\n        app: { text_contains: Lyon }\n'
    const steps = suiteOf(yaml).tool_tests[0].steps
    expect(steps[0]).not.toHaveProperty('app')
    expect(steps[1].app).toEqual({ ...EMPTY, text_contains: ['Lyon'] })
  })

  test.each([
    ['a JSONPath that does not parse', single('\n      fields: { "$.a[": 1 }'), 't.yaml:5:25 at tool_tests[0].app.fields.$.a[: invalid JSONPath "$.a[": unclosed bracketed selection (at offset 4) (RFC 9535)'],
    ['a matcher that is not valid', single('\n      fields: { "$.n": { gte: ten } }'), 't.yaml:5:24 at tool_tests[0].app.fields.$.n: gte must be a number (got "ten")'],
    ['a blank selector', single('\n      selector: [{ selector: "  " }]'), 't.yaml:5:30 at tool_tests[0].app.selector[0].selector: must be a CSS selector, not blank'],
    ['a blank action selector', single('\n      actions: [{ click: " " }]'), 't.yaml:5:26 at tool_tests[0].app.actions[0].click: must be a CSS selector, not blank'],
    ['an empty selector list', single('\n      selector: []'), 't.yaml:5:17 at tool_tests[0].app.selector: must NOT have fewer than 1 items'],
    ['an empty selector string', single('\n      selector: { selector: "" }'), 't.yaml:5:29 at tool_tests[0].app.selector.selector: must NOT have fewer than 1 characters'],
    ['a judge threshold over 1', single('\n      judge: { rubric: r, threshold: 7 }'), 't.yaml:5:38 at tool_tests[0].app.judge.threshold: must be <= 1'],
    ['a judge threshold under 0', single('\n      judge: { rubric: r, threshold: -0.1 }'), 't.yaml:5:38 at tool_tests[0].app.judge.threshold: must be >= 0'],
    ['a blank rubric', single('\n      judge: " "'), 't.yaml:5:14 at tool_tests[0].app.judge: must not be empty'],
    ['a misspelt key', single('\n      text_contain: x'), "t.yaml:5:7 at tool_tests[0].app.text_contain: unknown key 'text_contain' (did you mean 'text_contains'?)"],
    ['a misspelt judge key', single('\n      judge: { rubric: r, treshold: 0.5 }'), "t.yaml:5:27 at tool_tests[0].app.judge.treshold: unknown key 'treshold' (did you mean 'threshold'?)"],
    ['a misspelt selector key', single('\n      selector: { selector: h1, txt: x }'), "t.yaml:5:33 at tool_tests[0].app.selector.txt: unknown key 'txt' (did you mean 'text'?)"],
    ['app: false', single(' false'), 't.yaml:4:10 at tool_tests[0].app: must be true (render and check the host findings) or a map of actions and checks'],
    ['fill without value', single('\n      actions: [{ fill: "#q" }]'), "t.yaml:5:17 at tool_tests[0].app.actions[0]: missing required key 'value' (needed by fill)"],
    ['click with value', single('\n      actions: [{ click: b, value: x }]'), "t.yaml:5:29 at tool_tests[0].app.actions[0].value: 'value' is the text fill types: it goes with fill, not click"],
    ['click and fill', single('\n      actions: [{ click: b, fill: c, value: x }]'), "t.yaml:5:29 at tool_tests[0].app.actions[0].fill: give one of 'click', 'fill', not both 'click' and 'fill'"],
    ['a negative count', single('\n      selector: { selector: li, count: -1 }'), 't.yaml:5:40 at tool_tests[0].app.selector.count: must be >= 0']
  ])('%s is an error naming the line and the field', (_, yaml, message) => {
    expect(problems(yaml)).toEqual([message])
  })

  test('an action with neither key says both, and suggests the misspelt one', () => {
    expect(problems(single('\n      actions: [{ clik: b }]'))).toEqual([
      "t.yaml:5:19 at tool_tests[0].app.actions[0].clik: unknown key 'clik' (did you mean 'click'?)",
      "t.yaml:5:17 at tool_tests[0].app.actions[0]: missing required key 'click' (or 'fill')"
    ])
  })

  test('a step reports at its own path; several problems at once', () => {
    const yaml = 'tool_tests:\n  - id: a\n    steps:\n      - tool: show\n        app:\n          fields: { "$[": 1 }\n          selector: { selector: " " }\n'
    expect(problems(yaml)).toEqual([
      't.yaml:7:33 at tool_tests[0].steps[0].app.selector.selector: must be a CSS selector, not blank',
      expect.stringMatching(/^t\.yaml:6:27 at tool_tests\[0\]\.steps\[0\]\.app\.fields\.\$\[: invalid JSONPath "\$\[": .* \(RFC 9535\)$/)
    ])
  })

  test('the steps form takes no app at the top (it belongs to a step)', () => {
    expect(problems('tool_tests:\n  - id: a\n    app: true\n    steps: [{ tool: show }]\n')).not.toEqual([])
  })

  test('on a step that reads a resource or lists (evals/v1), app: is an error naming the step', () => {
    const found: [string, (string | number)[]][] = []
    const sink = (message: string, path: (string | number)[]) => found.push([message, path])
    normaliseAppTest(true, ['flows', 0, 'checks', 1, 'app'], sink, { kind: 'resource', uri: 'ui://weather/card' })
    normaliseAppTest({ text_contains: 'x' }, ['flows', 0, 'checks', 2, 'app'], sink, { kind: 'list', method: 'tools/list' })
    expect(found).toEqual([
      ['app: needs a tool call, whose tool links a ui:// resource; this step is a resource read (ui://weather/card), which has no app to render', ['flows', 0, 'checks', 1, 'app']],
      ['app: needs a tool call, whose tool links a ui:// resource; this step is a list (tools/list), which has no app to render', ['flows', 0, 'checks', 2, 'app']]
    ])
    // A tool call is fine.
    const none: unknown[] = []
    normaliseAppTest(true, ['tool_tests', 0, 'app'], (m) => none.push(m))
    expect(none).toEqual([])
  })
})

describe("the suite's apps: and a case's", () => {
  const tools = 'tool_tests:\n  - { id: a, tool: show }\n'
  const withCase = (apps: string) => `system_prompts: { d: x }\ncases:\n  - { id: c, prompt: p, rubric: r${apps} }\n`

  test('absent: the defaults, always set', () => {
    expect(DEFAULT_APPS_SETTINGS).toEqual({ render: false, render_timeout_ms: 15_000, visual_diff: 'review', visual_threshold: 0.01 })
    expect(suiteOf(tools).apps).toEqual(DEFAULT_APPS_SETTINGS)
  })

  test.each([
    ['apps: render', { ...DEFAULT_APPS_SETTINGS, render: true }],
    ['apps: off', DEFAULT_APPS_SETTINGS],
    ['apps: { render: true }', { ...DEFAULT_APPS_SETTINGS, render: true }],
    ['apps: { render: false, timeout_ms: 30000, visual_threshold: 0.05 }', { ...DEFAULT_APPS_SETTINGS, render_timeout_ms: 30_000, visual_threshold: 0.05 }]
  ])('%s', (line, settings) => {
    expect(suiteOf(`${line}\n${tools}`).apps).toEqual(settings)
  })

  test('app_visual_diff (the override) sets visual_diff; not given, review', () => {
    expect(suiteOf(`apps: render\n${tools}`, { appVisualDiff: 'fail' }).apps).toEqual({ ...DEFAULT_APPS_SETTINGS, render: true, visual_diff: 'fail' })
    expect(appsSettingsOf(undefined)).toEqual(DEFAULT_APPS_SETTINGS)
    expect(appsSettingsOf('off', 'review').visual_diff).toBe('review')
  })

  test.each([
    ['apps: sometimes', 't.yaml:1:7 at apps: must be equal to one of the allowed values (render, off)'],
    ['apps: { render: true, timeout_ms: 500 }', 't.yaml:1:35 at apps.timeout_ms: must be >= 1000'],
    ['apps: { render: true, visual_threshold: 2 }', 't.yaml:1:41 at apps.visual_threshold: must be <= 1'],
    ['apps: { render: true, visual_treshold: 0.1 }', "t.yaml:1:23 at apps.visual_treshold: unknown key 'visual_treshold' (did you mean 'visual_threshold'?)"],
    ['apps: { timeout_ms: 20000 }', "t.yaml:1:7 at apps: missing required key 'render'"]
  ])('%s is an error naming the line and the field', (line, message) => {
    expect(problems(`${line}\n${tools}`)).toEqual([message])
  })

  test("a case's apps: render or off; absent: no key (the suite's applies)", () => {
    expect(suiteOf(withCase(', apps: render')).cases[0].apps).toBe('render')
    expect(suiteOf(withCase(', apps: off')).cases[0].apps).toBe('off')
    expect(suiteOf(withCase('')).cases[0]).not.toHaveProperty('apps')
    expect(problems(withCase(', apps: always'))).toEqual(['t.yaml:3:42 at cases[0].apps: must be equal to one of the allowed values (render, off)'])
  })
})

describe('chrome_path and app_visual_diff', () => {
  const raw = (over: Partial<Record<keyof RawOptions, RawOption>> = {}): RawOptions =>
    ({
      serverConfig: { value: '{"command":"x"}', name: 'server_config' },
      evalCases: { value: 'e.yaml', name: 'eval_cases' },
      apiKey: { value: 'k', name: 'openrouter_api_key' },
      ...Object.fromEntries(['filter', 'maxSteps', 'parallel', 'concurrency', 'baseUrl', 'judgeModel', 'models', 'timeoutSeconds'].map((k) => [k, { value: '', name: k }])),
      ...over
    }) as RawOptions

  test("not given: '' and review; given: as written (the path trimmed)", () => {
    expect(resolveOptions(raw())).toMatchObject({ chromePath: '', appVisualDiff: 'review' })
    expect(resolveOptions(raw({ chromePath: { value: ' /opt/chrome/chrome ', name: 'chrome_path' }, appVisualDiff: { value: 'fail', name: 'app_visual_diff' } }))).toMatchObject({
      chromePath: '/opt/chrome/chrome',
      appVisualDiff: 'fail'
    })
    expect(resolveOptions(raw({ appVisualDiff: { value: 'review', name: 'app_visual_diff' } })).appVisualDiff).toBe('review')
  })

  test.each([
    ['app_visual_diff', 'strict', "input 'app_visual_diff': must be one of review, fail, got 'strict'"],
    ['--app-visual-diff', 'Fail', "--app-visual-diff: must be one of review, fail, got 'Fail'"]
  ])('%s %j is an error naming it', (name, value, message) => {
    expect(errorOf(() => resolveOptions(raw({ appVisualDiff: { value, name } }))).message).toBe(message)
  })

  test("prepare: app_visual_diff ends in the suite's apps.visual_diff, over the YAML's apps:", () => {
    const dir = mkdtempSync(join(tmpdir(), 'i30-config-'))
    writeFileSync(join(dir, 'evals.yaml'), 'apps: { render: true, visual_threshold: 0.2 }\ntool_tests:\n  - { id: a, tool: show, app: true }\n')
    const given = { serverConfig: '{"command":"node","args":["server.js"]}', baseUrl: 'http://127.0.0.1:1/v1' }
    const failing = prepare(runOptions(dir, { ...given, appVisualDiff: 'fail', chromePath: '/usr/bin/chromium' }), {})
    expect(failing.suite.apps).toEqual({ render: true, render_timeout_ms: 15_000, visual_diff: 'fail', visual_threshold: 0.2 })
    expect(failing.options.chromePath).toBe('/usr/bin/chromium')
    expect(prepare(runOptions(dir, given), {}).suite.apps?.visual_diff).toBe('review')
  })

  test("the suite hash and the journal's change with app: and apps: (the file is hashed as written)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'i30-hash-'))
    const given = { serverConfig: '{"command":"node","args":["server.js"]}', baseUrl: 'http://127.0.0.1:1/v1' }
    const hashes = ['', '    app: true\n', '    app: { text_contains: x }\n', 'apps: render\n'].map((extra) => {
      writeFileSync(join(dir, 'evals.yaml'), extra.startsWith('apps') ? `${extra}tool_tests:\n  - id: a\n    tool: show\n` : `tool_tests:\n  - id: a\n    tool: show\n${extra}`)
      const prepared = prepare(runOptions(dir, given), {})
      return [suiteHash(prepared), journalHash(prepared)]
    })
    expect(new Set(hashes.map(([s]) => s)).size).toBe(4)
    expect(new Set(hashes.map(([, j]) => j)).size).toBe(4)
  })

  describe('the action', () => {
    const inputs = useActionInputs()
    const needed = { server_config: '{"command":"node"}', eval_cases: 'evals.yaml', conformance: 'only' }

    test('both inputs reach RunOptions', () => {
      inputs({ ...needed, chrome_path: '/opt/google/chrome/chrome', app_visual_diff: 'fail' })
      expect(readActionOptions()).toMatchObject({ chromePath: '/opt/google/chrome/chrome', appVisualDiff: 'fail' })
    })

    test("unset: '' and review", () => {
      inputs(needed)
      expect(readActionOptions()).toMatchObject({ chromePath: '', appVisualDiff: 'review' })
    })

    test('a bad app_visual_diff names the input', () => {
      inputs({ ...needed, app_visual_diff: 'yes' })
      expect(errorOf(() => readActionOptions()).message).toBe("input 'app_visual_diff': must be one of review, fail, got 'yes'")
    })

    test('action.yml declares both under the names the code reads', () => {
      const action = parseYaml(readFileSync(fileURLToPath(new URL('../action.yml', import.meta.url)), 'utf8')) as { inputs: Record<string, { description: string; required: boolean; default: string }> }
      expect(action.inputs[Inputs.ChromePath]).toMatchObject({ required: false, default: '' })
      expect(action.inputs[Inputs.ChromePath].description).toContain('CHROME_PATH')
      expect(action.inputs[Inputs.AppVisualDiff]).toMatchObject({ required: false, default: 'review' })
    })
  })

  describe('the CLI', () => {
    const dir = mkdtempSync(join(tmpdir(), 'i30-cli-'))
    writeFileSync(join(dir, 'evals.yaml'), 'tool_tests:\n  - id: ping\n    tool: ping\n')
    const base = ['--server-config', '{"command":"node","args":["server.js"]}', '--eval-cases', join(dir, 'evals.yaml'), '--conformance', 'only', '--output', join(dir, 'out.json')]
    const cli = async (argv: string[]) => (await import('../__fixtures__/cli.js')).runCli(argv)

    test('a bad --app-visual-diff exits 2 naming the flag', async () => {
      const { code, stderr } = await cli([...base, '--app-visual-diff', 'never'])
      expect(code).toBe(2)
      expect(stderr).toBe(`error: --app-visual-diff: must be one of review, fail, got 'never'\nRun '${cliCommand()} --help' for the options.\n`)
    })

    test('--help lists both flags', async () => {
      const { stdout } = await cli(['--help'])
      expect(stdout).toContain('  --chrome-path PATH ')
      expect(stdout).toContain('  --app-visual-diff MODE ')
      expect(stdout).toContain('CHROME_PATH')
    })
  })
})
