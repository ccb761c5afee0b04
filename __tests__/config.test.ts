import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError } from '../src/config/errors.js'
import { resolveOptions, type RawOptions } from '../src/config/options.js'
import { parseServerConfig, serverSecrets } from '../src/config/server-config.js'
import { loadSuiteFile, parseSuite } from '../src/config/suite.js'

const base = `system_prompts:
  default: You help. Today is {today}.
cases:
  - id: one
    prompt: Hello
    rubric: Says hello
`

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn()
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error('expected a ConfigError')
}

describe('parseSuite', () => {
  test('applies eval-action defaults', () => {
    const suite = parseSuite(base, 'evals.yaml')
    expect(suite.models).toEqual(['openai/gpt-4o-mini'])
    expect(suite.judge_model).toBe('openai/gpt-4o-mini')
    expect(suite.cases[0]).toEqual({ id: 'one', prompt: 'Hello', rubric: 'Says hello', threshold: 0.7, required_tools: [], golden: null, runs: 1, kind: 'soft', tags: [] })
    expect(suite.pass_floors).toEqual({ hard: 1, soft: 0.8 })
    expect(suite.system_prompts).toEqual([{ name: 'default', text: 'You help. Today is {today}.' }])
  })

  test('the bundled example suite is valid', () => {
    const suite = loadSuiteFile('examples/eval_cases.yaml')
    expect(suite.cases.map((c) => c.id)).toContain('convert-eur-usd')
    expect(suite.cases.find((c) => c.id === 'greeting')?.required_tools).toEqual([])
  })

  test('normalises required_tools forms', () => {
    const suite = parseSuite(
      base +
        `    required_tools:
      - plain
      - name: with_args
        args: { city: Paris, n: 2 }
      - name: empty_args
        args: {}
`,
      'evals.yaml'
    )
    expect(suite.cases[0].required_tools).toEqual([{ name: 'plain' }, { name: 'with_args', args: { city: 'Paris', n: 2 } }, { name: 'empty_args' }])
  })

  test('malformed YAML names file, line and column', () => {
    const error = errorOf(() => parseSuite('system_prompts:\n  default: "unclosed\ncases: []\n', 'evals.yaml'))
    expect(error.message).toMatch(/^evals\.yaml:\d+:\d+: invalid YAML/)
  })

  test('an unknown key is an error with the nearest known key', () => {
    const error = errorOf(() => parseSuite(base.replace('rubric:', 'rubrik:'), 'evals.yaml'))
    expect(error.message).toContain("evals.yaml:6:5 at cases[0].rubrik: unknown key 'rubrik' (did you mean 'rubric'?)")
    expect(error.message).toContain("missing required key 'rubric'")
  })

  test('an unknown top-level key lists suggestions', () => {
    const error = errorOf(() => parseSuite(`modles: [a]\n${base}`, 'evals.yaml'))
    expect(error.message).toContain("evals.yaml:1:1 at modles: unknown key 'modles' (did you mean 'models'?)")
  })

  test('wrong types point at the value', () => {
    const error = errorOf(() => parseSuite(base + '    threshold: high\n', 'evals.yaml'))
    expect(error.message).toContain('evals.yaml:7:16 at cases[0].threshold: must be number')
  })

  test('duplicate case ids are errors', () => {
    const error = errorOf(() => parseSuite(base + '  - id: one\n    prompt: Again\n    rubric: r\n', 'evals.yaml'))
    expect(error.message).toContain("evals.yaml:7:9 at cases[1].id: duplicate case id 'one' (first used by cases[0])")
  })

  test('an invalid regex is reported before any run', () => {
    const yaml = base + '    required_tools:\n      - name: t\n        args:\n          q: { pattern: "([bad" }\n'
    const error = errorOf(() => parseSuite(yaml, 'evals.yaml'))
    expect(error.message).toMatch(/evals\.yaml:10:\d+ at cases\[0\]\.required_tools\[0\]\.args\.q\.pattern: invalid regular expression/)
  })

  test('a non-string contains is a configuration error, not a crash', () => {
    const yaml = base + '    required_tools:\n      - name: t\n        args:\n          q: { contains: 5 }\n'
    expect(errorOf(() => parseSuite(yaml, 'evals.yaml')).message).toContain('args.q.contains: must be string')
  })

  test('an empty rubric and a missing system_prompts are errors', () => {
    expect(errorOf(() => parseSuite(base.replace('rubric: Says hello', 'rubric: "  "'), 'e.yaml')).message).toContain('cases[0].rubric: must not be empty')
    expect(errorOf(() => parseSuite('cases: []\n', 'e.yaml')).message).toContain("missing required key 'system_prompts'")
  })

  test('inputs beat EVAL_* variables, which beat the YAML', () => {
    const yaml = `models: [y/m]\njudge_model: y/j\n${base}`
    expect(parseSuite(yaml, 'e').models).toEqual(['y/m'])
    expect(parseSuite(yaml, 'e', { envModels: ' a/1 , ,b/2 ', envJudgeModel: 'e/j' })).toMatchObject({ models: ['a/1', 'b/2'], judge_model: 'e/j' })
    expect(parseSuite(yaml, 'e', { models: 'i/m', envModels: 'a/1', judgeModel: 'i/j', envJudgeModel: 'e/j' })).toMatchObject({ models: ['i/m'], judge_model: 'i/j' })
    // eval-action: EVAL_MODELS="," means zero models.
    expect(parseSuite(yaml, 'e', { envModels: ',' }).models).toEqual([])
  })

  test('a missing file is a clear error', () => {
    expect(errorOf(() => loadSuiteFile('nope/evals.yaml')).message).toContain("input 'eval_cases' nope/evals.yaml: cannot read eval cases file")
  })
})

describe('parseServerConfig', () => {
  test('stdio', () => {
    expect(parseServerConfig('{"command":"node","args":["s.js"],"env":{"TOKEN":"abcd1234","N":5}}')).toEqual({
      kind: 'stdio',
      command: 'node',
      args: ['s.js'],
      env: { TOKEN: 'abcd1234', N: '5' }
    })
  })

  test('remote with headers and auth', () => {
    expect(parseServerConfig('{"url":"https://mcp.example.com/mcp","auth":"tok-123456"}')).toEqual({
      kind: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer tok-123456' }
    })
  })

  test('an mcpServers wrapper with one server', () => {
    expect(parseServerConfig('{"mcpServers":{"x":{"command":"uvx","args":["srv"]}}}')).toMatchObject({ kind: 'stdio', command: 'uvx' })
  })

  test('a path to a JSON file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'))
    writeFileSync(join(dir, 'server.json'), '{"command":"node"}')
    expect(parseServerConfig('server.json', 'server_config', dir)).toMatchObject({ kind: 'stdio', command: 'node', args: [] })
  })

  test('bad JSON names the input, line and column', () => {
    const error = errorOf(() => parseServerConfig('{"command": "node",\n "args": [1,}'))
    expect(error.message).toMatch(/^input 'server_config' <inline>:2:\d+: invalid JSON/)
  })

  test.each([
    ['{}', "needs 'command'"],
    ['{"command":"node","args":"s.js"}', 'at args: must be an array of strings'],
    ['{"url":"ftp://x"}', 'must be an http(s) URL'],
    ['{"command":"node","comand":"x"}', "unknown key 'comand'"],
    ['no-such-file.json', 'neither inline JSON nor an existing file'],
    ['', 'is required']
  ])('%s is rejected', (value, message) => {
    expect(errorOf(() => parseServerConfig(value)).message).toContain(message)
  })

  test('env and header values are secrets, bearer tokens alone too', () => {
    expect(serverSecrets({ kind: 'http', url: 'http://x', headers: { Authorization: 'Bearer sk-live-9' } })).toEqual(['Bearer sk-live-9', 'sk-live-9'])
    expect(serverSecrets({ kind: 'stdio', command: 'x', args: [], env: { A: 'secret-value', B: '1' } })).toEqual(['secret-value', '1'])
  })
})

describe('resolveOptions', () => {
  const raw = (over: Partial<Record<keyof RawOptions, string>> = {}): RawOptions => {
    const names: Record<string, string> = {
      serverConfig: 'server_config',
      evalCases: 'eval_cases',
      apiKey: 'openrouter_api_key',
      filter: 'filter',
      maxSteps: 'max_steps',
      parallel: 'parallel',
      concurrency: 'concurrency',
      baseUrl: 'base_url',
      judgeModel: 'judge_model',
      models: 'models',
      timeoutSeconds: 'timeout_seconds',
      conformance: 'conformance',
      conformanceFailOn: 'conformance_fail_on'
    }
    const values: Record<string, string> = { serverConfig: '{"command":"x"}', evalCases: 'e.yaml', apiKey: 'k', ...over }
    return Object.fromEntries(Object.entries(names).map(([k, name]) => [k, { value: values[k] ?? '', name }])) as unknown as RawOptions
  }

  test('defaults', () => {
    expect(resolveOptions(raw())).toMatchObject({ maxSteps: 30, concurrency: 4, timeoutSeconds: 300, baseUrl: 'https://openrouter.ai/api/v1' })
  })

  test('parallel: false really means one at a time', () => {
    expect(resolveOptions(raw({ parallel: 'false', concurrency: '8' })).concurrency).toBe(1)
  })

  test.each([
    [{ apiKey: '', conformance: 'off' }, "input 'openrouter_api_key': is required"],
    [{ conformance: 'sometimes' }, "input 'conformance': must be one of auto, only, off"],
    [{ conformanceFailOn: 'warn' }, "input 'conformance_fail_on': must be one of error, warning, never"],
    [{ maxSteps: 'ten' }, "input 'max_steps': must be a whole number, got 'ten'"],
    [{ concurrency: '0' }, "input 'concurrency': must be between 1 and 256"],
    [{ parallel: 'yes' }, "input 'parallel': must be true or false"],
    [{ baseUrl: 'localhost:11434' }, "input 'base_url': must be an http(s) URL"]
  ])('%j → %s', (over, message) => {
    expect(errorOf(() => resolveOptions(raw(over))).message).toContain(message)
  })

  test('without a key, conformance runs alone and says why', () => {
    expect(resolveOptions(raw({ apiKey: '' }))).toMatchObject({ conformance: 'auto', skipBehaviour: expect.stringContaining('no API key') })
    expect(resolveOptions(raw({ conformance: 'only' })).skipBehaviour).toBe('conformance is "only"')
    expect(resolveOptions(raw()).skipBehaviour).toBeNull()
  })

  test('no key is needed for a non-OpenRouter endpoint (e.g. a local Ollama)', () => {
    expect(resolveOptions(raw({ apiKey: '', baseUrl: 'http://127.0.0.1:11434/v1/' })).baseUrl).toBe('http://127.0.0.1:11434/v1')
  })
})
