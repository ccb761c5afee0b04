import { beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { errorOf } from '../__fixtures__/config-error.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { ConfigErrors } from '../src/config/errors.js'
import { ignoredInputsNotice, resolveOptions, type RawOptions } from '../src/config/options.js'
import { prepare } from '../src/config/prepare.js'

// An evals/v1 suite through the inputs (or flags) and prepare(): the loader chosen by input or by
// content, the server from server_url, server_config or the suite, the suite's defaults where no
// input was given, output_dir, and the runner inputs accepted and ignored.

const ACTION: Record<string, string> = {
  serverConfig: 'server_config',
  evalCases: 'eval_cases',
  evalSuite: 'eval_suite',
  serverUrl: 'server_url',
  outputDir: 'output_dir',
  apiKey: 'openrouter_api_key',
  filter: 'filter',
  maxSteps: 'max_steps',
  parallel: 'parallel',
  concurrency: 'concurrency',
  baseUrl: 'base_url',
  judgeModel: 'judge_model',
  models: 'models',
  timeoutSeconds: 'timeout_seconds',
  resultsPath: 'results_path',
  reportPath: 'report_path',
  journal: 'journal',
  toolTests: 'tool_tests'
}
const FLAGS: Record<string, string> = Object.fromEntries(Object.entries(ACTION).map(([k, v]) => [k, `--${v.replaceAll('_', '-')}`]))

/** RunOptions from action inputs (or flags): the keys of `values` given, every other empty. */
function options(values: Record<string, string>, names = ACTION, ignored: Record<string, string> = {}) {
  const raw = Object.fromEntries(Object.entries(names).map(([k, name]) => [k, { value: values[k] ?? '', name }])) as unknown as RawOptions
  raw.ignored = Object.entries(ignored).map(([name, value]) => ({ name, value }))
  return resolveOptions({ ...raw, apiKey: { value: 'k', name: names.apiKey } })
}

let dir: string
const file = (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}
const HEAD = 'apiVersion: mcp-use.com/evals/v1\nkind: EvalSuite\nname: t\n'
const FLOWS = 'flows:\n  - id: main\n    type: agent\n    checks: [{id: c1, call: {mcp: listTools}, assert: []}]\n    scenarios: [{id: s1, turns: [{user: hi}]}, {id: s2, turns: [{user: ho}]}]\n'
const STDIO = JSON.stringify({ command: process.execPath, args: [fixturePath('../examples/server/server.mjs')] })

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'evals-v1-prepare-'))
})

describe('which loader, which suite input', () => {
  test('eval_suite loads an evals/v1 suite; so does an eval_cases file whose apiVersion says so', () => {
    const suite = file('v1.yaml', `${HEAD}server: {url: 'http://127.0.0.1:9/mcp'}\n${FLOWS}`)
    expect(prepare(options({ evalSuite: suite }), {}).suite.evals_v1?.name).toBe('t')
    const byContent = prepare(options({ evalCases: suite }), {})
    expect(byContent.suite.tool_tests.map((t) => t.id)).toEqual(['c1'])
    expect(byContent.server).toEqual({ kind: 'http', url: 'http://127.0.0.1:9/mcp', headers: {} })
  })

  test('eval_cases and eval_suite together: an error naming both', () => {
    expect(errorOf(() => options({ evalCases: 'a.yaml', evalSuite: 'b.yaml' })).message).toBe(
      "input 'eval_suite': cannot be given together with the eval_cases input: give one suite (eval_suite for an evals/v1 suite, eval_cases for eval_cases.yaml, which is also read as evals/v1 when its apiVersion says so)"
    )
    expect(errorOf(() => options({ evalCases: 'a.yaml', evalSuite: 'b.yaml' }, FLAGS)).message).toMatch(/^--eval-suite: cannot be given together with --eval-cases:/)
  })

  test('neither: eval_cases is required, naming eval_suite; an eval_cases.yaml without server_config: server_config is required, as ever', () => {
    expect(errorOf(() => options({ serverConfig: STDIO })).message).toBe("input 'eval_cases': is required (or eval_suite for an evals/v1 suite; no suite is needed with conformance: only)")
    const cases = file('cases.yaml', 'system_prompts: {default: hi}\ncases: [{id: a, prompt: p, rubric: r}]\n')
    expect(errorOf(() => options({ evalCases: cases })).message).toBe("input 'server_config': is required")
    expect(errorOf(() => options({})).message).toBe("input 'server_config': is required")
  })

  test('a v1 error names the input it came through, and the file, line and path', () => {
    const bad = file('bad-v1.yaml', `${HEAD}server: {url: 'http://127.0.0.1:9/mcp'}\nflows: [{id: a, type: agent, scenarios: [], chekcs: []}]\n`)
    expect(errorOf(() => prepare(options({ evalSuite: bad }), {})).message).toMatch(/bad-v1\.yaml:5:45 at flows\[0\]\.chekcs: unknown key 'chekcs' \(did you mean 'checks'\?\)$/)
    expect(errorOf(() => prepare(options({ evalSuite: join(dir, 'absent.yaml') }, FLAGS), {})).message).toMatch(/^--eval-suite .*absent\.yaml: cannot read the evals\/v1 suite/)
  })
})

describe('the server: server_url, then server_config, then the suite’s server', () => {
  const suite = () => file('server.yaml', `${HEAD}server:\n  command: \${NODE_BIN}\n  args: ['--token=\${TOKEN}']\n  env: {KEY: plain}\n${FLOWS}`)
  const env = { NODE_BIN: process.execPath, TOKEN: 'tok-secret-123' }

  test('the suite’s server block, ${NAME} expanded from the environment, the values it put in and env’s values secret', () => {
    const prepared = prepare(options({ evalSuite: suite() }), env)
    expect(prepared.server).toMatchObject({ kind: 'stdio', command: process.execPath, args: ['--token=tok-secret-123'], env: { KEY: 'plain' }, template: { command: '${NODE_BIN}', args: ['--token=${TOKEN}'] } })
    expect(prepared.secrets).toEqual(expect.arrayContaining(['tok-secret-123', 'plain']))
  })

  test('server_config wins over the suite, server_url over both, its ${NAME} expanded and secret', () => {
    expect(prepare(options({ evalSuite: suite(), serverConfig: STDIO }), env).server).toMatchObject({ kind: 'stdio', args: [fixturePath('../examples/server/server.mjs')] })
    const byUrl = prepare(options({ evalSuite: suite(), serverConfig: STDIO, serverUrl: 'http://127.0.0.1:9/mcp?key=${TOKEN}' }), env)
    expect(byUrl.server).toMatchObject({ kind: 'http', url: 'http://127.0.0.1:9/mcp?key=tok-secret-123', template: { url: 'http://127.0.0.1:9/mcp?key=${TOKEN}' } })
    expect(byUrl.secrets).toContain('tok-secret-123')
  })

  test('server_url serves an eval_cases suite too, without server_config', () => {
    const cases = file('cases-url.yaml', 'system_prompts: {default: hi}\ncases: [{id: a, prompt: p, rubric: r}]\n')
    expect(prepare(options({ evalCases: cases, serverUrl: 'https://example.test/mcp' }), {}).server).toEqual({ kind: 'http', url: 'https://example.test/mcp', headers: {} })
  })

  test('errors say which of the three the server came from', () => {
    expect(errorOf(() => prepare(options({ evalSuite: suite() }), { NODE_BIN: process.execPath })).message).toMatch(/server\.yaml:6:10 at server\.args\[0\]: environment variable TOKEN is not set/)
    expect(errorOf(() => prepare(options({ evalSuite: suite(), serverConfig: '{"url": 1}' }), env)).message).toMatch(/^input 'server_config': needs 'command'/)
    expect(errorOf(() => prepare(options({ evalSuite: suite(), serverUrl: 'ftp://x' }), env)).message).toBe("input 'server_url': must be an http(s) URL")
    expect(errorOf(() => prepare(options({ evalSuite: suite(), serverUrl: 'http://x/${NOPE}' }, FLAGS), env)).message).toMatch(/^--server-url: environment variable NOPE is not set/)
  })

  test('no server anywhere: an error naming server_config, server_url and the suite’s server key', () => {
    const bare = file('bare.yaml', `${HEAD}${FLOWS}`)
    expect(errorOf(() => prepare(options({ evalSuite: bare }), {})).message).toBe(
      `${bare}: no server to evaluate: give the server_config input (JSON: {"url"} or {"command","args","env"}), the server_url input, or a server: key in the suite (url, or command with args and env)`
    )
    expect(errorOf(() => prepare(options({ evalSuite: bare }, FLAGS), {})).message).toMatch(/give --server-config .*, --server-url, or a server: key/)
  })
})

describe('the suite’s defaults apply where no input was given', () => {
  const suite = () => file('defaults.yaml', `${HEAD}server: {url: 'http://127.0.0.1:9/mcp'}\ndefaults: {maxAgentSteps: 7, timeoutMs: 1500}\nci: {parallelCases: false}\n${FLOWS}`)

  test('maxAgentSteps, timeoutMs (whole seconds, rounded up), parallelCases: false as concurrency 1', () => {
    const { options: o } = prepare(options({ evalSuite: suite() }), {})
    expect([o.maxSteps, o.timeoutSeconds, o.concurrency]).toEqual([7, 2, 1])
  })

  test('an input given wins: max_steps, timeout_seconds, concurrency or parallel', () => {
    const { options: o } = prepare(options({ evalSuite: suite(), maxSteps: '30', timeoutSeconds: '300', concurrency: '4' }), {})
    expect([o.maxSteps, o.timeoutSeconds, o.concurrency]).toEqual([30, 300, 4])
    expect(prepare(options({ evalSuite: suite(), parallel: 'true' }), {}).options.concurrency).toBe(4)
  })

  test('an eval_cases suite is untouched by any of it: the defaults as ever', () => {
    const cases = file('plain.yaml', 'system_prompts: {default: hi}\ncases: [{id: a, prompt: p, rubric: r}]\n')
    const { options: o } = prepare(options({ evalCases: cases, serverConfig: STDIO }), {})
    expect([o.maxSteps, o.timeoutSeconds, o.concurrency, o.outputDir, o.resultsPath, o.reportPath, o.journalPath]).toEqual([30, 300, 4, '', 'eval-results.json', 'eval-report.md', 'eval-runs.jsonl'])
  })
})

describe('output_dir', () => {
  const suite = () => file('out.yaml', `${HEAD}server: {url: 'http://127.0.0.1:9/mcp'}\n${FLOWS}`)

  test('an evals/v1 suite’s default is eval-results, with our files in it', () => {
    const { options: o } = prepare(options({ evalSuite: suite() }), {})
    expect([o.outputDir, o.resultsPath, o.reportPath, o.journalPath]).toEqual(['eval-results', join('eval-results', 'eval-results.json'), join('eval-results', 'report.md'), join('eval-results', 'eval-runs.jsonl')])
  })

  test('given, it holds the files for eval_cases too; a path given wins', () => {
    const cases = file('out-cases.yaml', 'system_prompts: {default: hi}\ncases: [{id: a, prompt: p, rubric: r}]\n')
    const o = options({ evalCases: cases, serverConfig: STDIO, outputDir: 'out', reportPath: 'mine.md' })
    expect([o.resultsPath, o.reportPath, o.journalPath]).toEqual([join('out', 'eval-results.json'), 'mine.md', join('out', 'eval-runs.jsonl')])
    const v1 = prepare(options({ evalSuite: suite(), resultsPath: 'r.json' }), {}).options
    expect([v1.resultsPath, v1.reportPath, v1.journalPath]).toEqual(['r.json', join('eval-results', 'report.md'), 'eval-runs.jsonl'])
  })
})

describe('the filter and the runner inputs', () => {
  const suite = () => file('filter.yaml', `${HEAD}server: {url: 'http://127.0.0.1:9/mcp'}\n${FLOWS}`)

  test('a filter that selects no scenario is an error listing the scenario ids (the checks would run alone)', () => {
    const error = errorOf(() => prepare(options({ evalSuite: suite(), filter: 'c1' }), {}))
    expect(error).not.toBeInstanceOf(ConfigErrors)
    expect(error.message).toBe("input 'filter': 'c1' matches no scenario id (case-sensitive substring; the checks run whatever the filter); the scenario ids are: s1, s2")
    expect(prepare(options({ evalSuite: suite(), filter: 's2' }), {}).suite.tool_tests).toHaveLength(1)
  })

  test('no check, and no client runs here: nothing would be evaluated, and the error says why', () => {
    const hosted = file('hosted.yaml', `${HEAD}server: {url: 'http://127.0.0.1:9/mcp'}\nflows:\n  - id: main\n    type: agent\n    clients: [{target: chatgpt}]\n    scenarios: [{id: s1, turns: [{user: hi}]}]\n`)
    expect(errorOf(() => prepare(options({ evalSuite: hosted }), {})).message).toBe(
      `${hosted} at flows: has no checks and no scenario to run (no client runs here: flows[0].clients[0]: target chatgpt runs only in its hosted service; MCP Server Evals runs the mcp-use clients): nothing would be evaluated; to run only the protocol checks, set conformance to only`
    )
  })

  test('only tool tests asked of a suite with no check: nothing would be evaluated, said at its flows', () => {
    const scenariosOnly = file('scenarios.yaml', `${HEAD}server: {url: 'http://127.0.0.1:9/mcp'}\nflows:\n  - id: main\n    type: agent\n    scenarios: [{id: s1, turns: [{user: hi}]}]\n`)
    expect(errorOf(() => prepare(options({ evalSuite: scenariosOnly, toolTests: 'only' }), {})).message).toBe(`${scenariosOnly} at flows: has no checks, but only tool tests were asked for: nothing would be evaluated`)
  })

  test('evals_version and node_version: accepted, one notice for both', () => {
    const o = options({ evalSuite: suite() }, ACTION, { evals_version: '0.1.0', node_version: '22', other: '' })
    expect(o.ignoredInputs).toEqual(['evals_version', 'node_version'])
    expect(ignoredInputsNotice(o.ignoredInputs)).toBe(
      'evals_version and node_version: accepted and ignored: MCP Server Evals is the runner itself (it runs no @mcp-use/evals package and sets up no Node.js), so no version is read.'
    )
    expect(ignoredInputsNotice(['--node-version'])).toMatch(/^--node-version: accepted and ignored: .*so the version is not read\.$/)
    expect(ignoredInputsNotice([])).toBeNull()
  })
})
