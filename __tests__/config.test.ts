import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { resolveOptions, type RawOptions } from '../src/config/options.js'
import { resultsConfig } from '../src/engine.js'
import { redactText } from '../src/util/redact.js'
import { parseServerConfig, serverSecrets } from '../src/config/server-config.js'
import { loadSuiteFile, parseSuite } from '../src/config/suite.js'
import { noResilience } from '../src/config/resilience.js'
import { prepare } from '../src/config/prepare.js'
import { evaluate } from '../src/evaluate.js'
import { journalHash, suiteHash } from '../src/execute/suite-hash.js'
import { writeResults } from '../src/output/write-results.js'
import { errorOf } from '../__fixtures__/config-error.js'

const base = `system_prompts:
  default: You help. Today is {today}.
cases:
  - id: one
    prompt: Hello
    rubric: Says hello
`

describe('parseSuite', () => {
  test('applies eval-action defaults', () => {
    const suite = parseSuite(base, 'evals.yaml')
    expect(suite.models).toEqual(['openai/gpt-4o-mini'])
    expect(suite.judge_model).toBe('openai/gpt-4o-mini')
    expect(suite.cases[0]).toEqual({ id: 'one', prompt: 'Hello', rubric: 'Says hello', threshold: 0.7, required_tools: [], golden: null, runs: 1, kind: 'soft', tags: [], resilience: noResilience(), conversation: null, inputs: null })
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
    expect(errorOf(() => parseSuite(base.replace(/^system_prompts:.*\n( {2}.*\n)*/m, ''), 'e.yaml')).message).toContain("missing required key 'system_prompts' (needed by cases)")
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
    expect(parseServerConfig('server.json', { baseDir: dir })).toMatchObject({ kind: 'stdio', command: 'node', args: [] })
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
      conformanceFailOn: 'conformance_fail_on',
      toolTests: 'tool_tests',
      conformanceProbes: 'conformance_probes'
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
    [{ apiKey: '', conformance: 'off', toolTests: 'off' }, "input 'openrouter_api_key': is required (or set conformance to auto or only)"],
    [{ toolTests: 'sometimes' }, "input 'tool_tests': must be one of auto, only, off"],
    [{ conformance: 'only', toolTests: 'only' }, "input 'tool_tests': cannot be only together with conformance only"],
    [{ conformanceProbes: 'some' }, "input 'conformance_probes': must be one of safe, all, none"],
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

describe('${NAME} placeholders in server_config', () => {
  const env = { TOKEN: 'tok-secret-123', HOST: 'mcp.example.com', BIN: 'node', DIR: '/srv/app', EMPTY: '' }
  const parse = (config: unknown, from: NodeJS.ProcessEnv = env) => parseServerConfig(JSON.stringify(config), { env: from })

  test('expanded in command, args, env values and cwd; never in keys', () => {
    expect(parse({ command: '${BIN}', args: ['s.js', '--token=${TOKEN}'], env: { ['${TOKEN}']: 'k', API_TOKEN: '${TOKEN}' }, cwd: '${DIR}/x' })).toEqual({
      kind: 'stdio',
      command: 'node',
      args: ['s.js', '--token=tok-secret-123'],
      env: { ['${TOKEN}']: 'k', API_TOKEN: 'tok-secret-123' },
      cwd: '/srv/app/x',
      expanded: ['tok-secret-123'],
      template: { command: '${BIN}', args: ['s.js', '--token=${TOKEN}'], cwd: '${DIR}/x' }
    })
  })

  test('expanded in url, header values and auth', () => {
    expect(parse({ url: 'https://${HOST}/mcp', headers: { 'X-Key': '${TOKEN}' }, auth: '${TOKEN}' })).toEqual({
      kind: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { 'X-Key': 'tok-secret-123', Authorization: 'Bearer tok-secret-123' },
      // The whole URL as the parser writes it is a secret too (it re-encodes what it holds).
      expanded: ['mcp.example.com', 'tok-secret-123', 'https://mcp.example.com/mcp'],
      template: { url: 'https://${HOST}/mcp' }
    })
  })

  test('inside an mcpServers wrapper too', () => {
    expect(parse({ mcpServers: { x: { command: 'uvx', args: ['${TOKEN}'] } } })).toMatchObject({ args: ['tok-secret-123'] })
  })

  test('$${NAME} is a literal ${NAME}; a $ not followed by { is left alone', () => {
    const config = parse({ command: 'sh', args: ['-c', 'echo $HOME $1 $${TOKEN} ${not-a-name} $$ $'] }, {})
    expect(config).toEqual({ kind: 'stdio', command: 'sh', args: ['-c', 'echo $HOME $1 ${TOKEN} ${not-a-name} $$ $'], env: {} })
    expect(serverSecrets(config)).toEqual([])
  })

  test('${RUN_DIR} is left as it is', () => {
    expect(parse({ command: 'node', args: ['${RUN_DIR}/out'], env: { OUT: '${RUN_DIR}' } }, {})).toEqual({
      kind: 'stdio',
      command: 'node',
      args: ['${RUN_DIR}/out'],
      env: { OUT: '${RUN_DIR}' }
    })
  })

  test.each([
    [{ command: 'node', env: { API_TOKEN: '${SERVER_API_TOKEN}' } }, 'env.API_TOKEN'],
    [{ command: 'node', args: ['a', 'b', '--key=${SERVER_API_TOKEN}'] }, 'args[2]'],
    [{ command: '${SERVER_API_TOKEN}' }, 'command'],
    [{ command: 'node', cwd: '${SERVER_API_TOKEN}' }, 'cwd'],
    [{ url: 'https://x.example/${SERVER_API_TOKEN}' }, 'url'],
    [{ url: 'https://x.example/mcp', headers: { Authorization: 'Bearer ${SERVER_API_TOKEN}' } }, 'headers.Authorization'],
    [{ url: 'https://x.example/mcp', auth: '${SERVER_API_TOKEN}' }, 'auth'],
    [{ mcpServers: { srv: { command: 'node', args: ['${SERVER_API_TOKEN}'] } } }, 'mcpServers.srv.args[0]']
  ])('an unset variable is an error naming the input, the path and the variable (%j)', (config, path) => {
    const error = errorOf(() => parse(config, { PATH: '/bin' }))
    expect(error.where).toMatchObject({ input: 'server_config', path })
    expect(error.message).toBe(
      `input 'server_config' at ${path}: environment variable SERVER_API_TOKEN is not set (placeholder \${SERVER_API_TOKEN}); ` +
        "set it in the step's env: (`SERVER_API_TOKEN: ${{ secrets.SERVER_API_TOKEN }}`) or in the shell, or write $${SERVER_API_TOKEN} for a literal ${SERVER_API_TOKEN}"
    )
  })

  test('a close name is suggested; a file config names the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'))
    writeFileSync(join(dir, 'server.json'), '{"command":"node","env":{"API_TOKEN":"${SERVER_API_TOKN}"}}')
    const error = errorOf(() => parseServerConfig('server.json', { baseDir: dir, env: { SERVER_API_TOKEN: 'x', PATH: '/bin' } }))
    expect(error.where).toMatchObject({ input: 'server_config', file: 'server.json', path: 'env.API_TOKEN' })
    expect(error.message).toContain('environment variable SERVER_API_TOKN is not set (placeholder ${SERVER_API_TOKN}; did you mean SERVER_API_TOKEN?)')
  })

  test('a variable set to an empty string expands to an empty string (a fork gets empty secrets)', () => {
    const config = parse({ command: 'node', args: ['--key=${EMPTY}'], env: { K: '${EMPTY}' } })
    expect(config).toMatchObject({ args: ['--key='], env: { K: '' }, expanded: [] })
    expect(serverSecrets(config)).toEqual([])
    // An empty token adds no Authorization header.
    expect(parse({ url: 'https://x.example/mcp', auth: '${EMPTY}' })).toMatchObject({ headers: {} })
  })

  test('a secret in the URL is redacted as the URL parser re-encodes it, and the document shows the URL as written', () => {
    const secret = 'a+b c$d|e{f'
    const config = parse({ url: 'https://u:${PASS}@h.example/mcp?k=${PASS}' }, { PASS: secret })
    expect(config.kind === 'http' && config.url).not.toContain(secret)
    const written = redactText(JSON.stringify({ url: config.kind === 'http' ? config.url : '', parts: new URL(config.kind === 'http' ? config.url : '').password }), serverSecrets(config))
    expect(written).not.toMatch(/a\+b|c\$d|%20c/)
    expect(resultsConfig(parseSuite('system_prompts: {d: x}\ncases:\n  - {id: a, prompt: p, rubric: r}\n', 'e.yaml'), config, { filter: '', maxSteps: 1, concurrency: 1, timeoutSeconds: 1, baseUrl: 'x' }).server).toEqual({
      kind: 'http',
      url: 'https://u:${PASS}@h.example/mcp?k=${PASS}'
    })
  })

  test('a URL that is invalid after expansion is shown as written, never with the secret', () => {
    const error = errorOf(() => parse({ url: '${TOKEN}' }))
    expect(error.message).toBe("input 'server_config' at url: not a valid URL: ${TOKEN} (after expanding its placeholders)")
  })

  test('a value substituted into args, env, headers or the URL is a secret; one in the command or cwd is not', () => {
    const secrets = serverSecrets(parse({ command: '${BIN}', args: ['--token=${TOKEN}'], env: { PLAIN: 'plain-value' } }))
    expect(secrets).toEqual(expect.arrayContaining(['tok-secret-123', 'plain-value']))
    // "node" redacted would turn every "nodes" in a report into "***s".
    expect(secrets).not.toContain('node')
    expect(serverSecrets(parse({ url: 'https://${HOST}/mcp?key=${TOKEN}' }))).toEqual(expect.arrayContaining(['mcp.example.com', 'tok-secret-123', '?key=tok-secret-123']))
  })

  const optionsIn = (dir: string, values: Record<string, string>) => {
    const all: Record<string, string> = {
      evalCases: join(dir, 'evals.yaml'),
      apiKey: 'k',
      conformance: 'only',
      resultsPath: join(dir, 'eval-results.json'),
      ...values
    }
    const names = ['serverConfig', 'evalCases', 'apiKey', 'filter', 'maxSteps', 'parallel', 'concurrency', 'baseUrl', 'judgeModel', 'models', 'timeoutSeconds', 'conformance', 'resultsPath']
    return resolveOptions(Object.fromEntries(names.map((k) => [k, { value: all[k] ?? '', name: k }])) as unknown as RawOptions)
  }

  test('the suite and journal hashes do not change with a secret', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-hash-'))
    writeFileSync(join(dir, 'evals.yaml'), base)
    const options = optionsIn(dir, {
      serverConfig: JSON.stringify({ command: 'node', args: ['s.js', '--token=${SECRET}'], env: { API_TOKEN: '${SECRET}' }, cwd: '${SECRET}' })
    })
    const one = prepare(options, { SECRET: 'first-secret-value' })
    const two = prepare(options, { SECRET: 'second-secret-value' })
    const fork = prepare(options, { SECRET: '' })
    expect(one.server).toMatchObject({ args: ['s.js', '--token=first-secret-value'] })
    expect(one.secrets).toContain('first-secret-value')
    for (const other of [two, fork]) {
      expect(suiteHash(other)).toBe(suiteHash(one))
      expect(journalHash(other)).toBe(journalHash(one))
    }
    const remote = optionsIn(dir, { serverConfig: JSON.stringify({ url: 'https://mcp.example.com/mcp?key=${SECRET}' }) })
    expect(suiteHash(prepare(remote, { SECRET: 'first-secret-value' }))).toBe(suiteHash(prepare(remote, { SECRET: 'second-secret-value' })))
    // The server as written still counts.
    const otherServer = optionsIn(dir, { serverConfig: JSON.stringify({ command: 'node', args: ['t.js', '--token=${SECRET}'] }) })
    expect(suiteHash(prepare(otherServer, { SECRET: 'first-secret-value' }))).not.toBe(suiteHash(one))
  })

  test('a secret given only through ${X} in args is redacted from everything written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-redact-'))
    writeFileSync(join(dir, 'evals.yaml'), base)
    const secret = 'sk-args-only-4f9e1c'
    const options = optionsIn(dir, { serverConfig: JSON.stringify({ command: process.execPath, args: [fixturePath('../examples/server/server.mjs'), '--token=${ARG_SECRET}'] }) })
    const prepared = prepare(options, { ARG_SECRET: secret })
    expect(prepared.server).toMatchObject({ args: [expect.any(String), `--token=${secret}`] })
    expect(prepared.secrets).toContain(secret)
    // The server really started with the token (its conformance report is in), and the journal the document is built from is redacted already.
    const doc = await evaluate(prepared)
    expect(doc.conformance?.checks.length).toBeGreaterThan(0)
    const paths = { resultsPath: join(dir, 'eval-results.json'), reportPath: join(dir, 'eval-report.md'), transcriptsDir: join(dir, 't') }
    const { files, document } = writeResults(doc, paths, prepared.secrets)
    const written = [...files, ...readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => join(dir, f))].map((f) => readFileSync(f, 'utf8')).join('\n')
    // The document shows the server as written: the placeholder, never its value.
    expect(document.config?.server).toMatchObject({ args: [expect.any(String), '--token=${ARG_SECRET}'] })
    expect(written).toContain('--token=${ARG_SECRET}')
    expect(written).not.toContain(secret)
  })
})

describe('tool_tests in the suite', () => {
  const message = (yaml: string) => {
    try {
      parseSuite(yaml, 't.yaml')
    } catch (error) {
      return (error as Error).message
    }
    return 'no error'
  }
  const single = (id: string) => `  - { id: ${id}, tool: t }\n`

  test('ids name snapshot files: two equal ignoring case, or one ending in .step-N, are errors naming the line', () => {
    expect(message(`tool_tests:\n${single('Foo')}${single('foo')}`)).toBe(
      "t.yaml:3:11 at tool_tests[1].id: duplicate tool test id 'foo' (first used by tool_tests[0] as 'Foo', ignoring case, since ids name snapshot files)"
    )
    expect(message(`tool_tests:\n${single('a.step-1')}`)).toContain('at tool_tests[0].id: a tool test id must not end in .step-N')
    expect(message(`tool_tests:\n${single('a.step-one')}`)).toBe('no error')
  })

  test('a suite of tool tests alone needs neither cases nor system_prompts; a suite of neither says what is missing', () => {
    expect(parseSuite(`tool_tests:\n${single('a')}`, 't.yaml')).toMatchObject({ cases: [], system_prompts: [], tool_tests: [{ id: 'a', runs: 1, steps: [{ tool: 't', args: {}, expect: {}, capture: {} }] }] })
    expect(message('judge_model: m\n')).toBe("t.yaml:1:1 at (top level): missing required key 'cases' (or 'tool_tests' for a suite of tool tests alone)")
    expect(message('cases:\n  - { id: a, prompt: p, rubric: r }\n')).toBe("t.yaml:1:1 at (top level): missing required key 'system_prompts' (needed by cases)")
    // No case, nothing to run under a system prompt: a suite for conformance alone (or tool tests alone) needs none.
    expect(message('cases: []\n')).toBe('no error')
    expect(message(`cases: []\ntool_tests:\n${single('a')}`)).toBe('no error')
  })

  test('the single-call form and steps do not mix; a misspelt expect key gets a did-you-mean', () => {
    expect(message('tool_tests:\n  - { id: a, tool: t, steps: [{ tool: t }] }\n')).not.toBe('no error')
    expect(message('tool_tests:\n  - id: a\n    tool: t\n    expect: { contians: x }\n')).toContain("unknown key 'contians' (did you mean 'contains'?)")
  })
})
