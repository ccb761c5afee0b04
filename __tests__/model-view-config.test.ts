import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse as parseYaml } from 'yaml'
import { errorOf } from '../__fixtures__/config-error.js'
import { Inputs, Outputs } from '../src/constants.js'
import { ConfigErrors } from '../src/config/errors.js'
import { rootProblem } from '../src/config/inputs.js'
import { resolveOptions, type RawOption, type RawOptions } from '../src/config/options.js'
import { resolveRunDir, usesRunDir } from '../src/config/run-dir.js'
import { parseServerConfig } from '../src/config/server-config.js'
import { parseSuite, type SuiteOverrides } from '../src/config/suite.js'
import { DEFAULT_MAX_TOOL_RESULT_CHARS, type ServerConfig } from '../src/config/types.js'
import { readActionOptions } from '../src/github/inputs.js'
import { useActionInputs } from '../__fixtures__/env-vars.js'
import { cliCommand } from '../src/cli/invocation.js'

// Issue 15's configuration: max_tool_result_chars, vision (models: entries, vision_models),
// tool_error_patterns, keep_run_dirs, and where ${RUN_DIR} may and may not be written.

// Lines 1-6; a test's own keys start on line 7.
const head = 'system_prompts:\n  default: You help.\ncases:\n  - id: a\n    prompt: p\n    rubric: r\n'

const suiteOf = (yaml: string, overrides: SuiteOverrides = {}) => parseSuite(head + yaml, 'e.yaml', overrides)

/** Every message the loader reports for the suite, one per problem. */
function problems(yaml: string): string[] {
  const error = errorOf(() => suiteOf(yaml))
  return error instanceof ConfigErrors ? error.errors.map((e) => e.message) : [error.message]
}

describe('max_tool_result_chars in the YAML', () => {
  test('100,000 unless set; 0 (no limit) and the largest allowed value are taken as written', () => {
    expect(DEFAULT_MAX_TOOL_RESULT_CHARS).toBe(100_000)
    expect(suiteOf('').max_tool_result_chars).toBe(100_000)
    expect(suiteOf('max_tool_result_chars: 5000\n').max_tool_result_chars).toBe(5000)
    expect(suiteOf('max_tool_result_chars: 0\n').max_tool_result_chars).toBe(0)
    expect(suiteOf('max_tool_result_chars: 100000000\n').max_tool_result_chars).toBe(100_000_000)
  })

  test.each([
    ['max_tool_result_chars: -1\n', 'e.yaml:7:24 at max_tool_result_chars: must be >= 0'],
    ['max_tool_result_chars: 100000001\n', 'e.yaml:7:24 at max_tool_result_chars: must be <= 100000000'],
    ['max_tool_result_chars: 2.5\n', 'e.yaml:7:24 at max_tool_result_chars: must be integer'],
    ['max_tool_result_chars: lots\n', 'e.yaml:7:24 at max_tool_result_chars: must be integer'],
    ['max_tool_results_chars: 10\n', "e.yaml:7:1 at max_tool_results_chars: unknown key 'max_tool_results_chars' (did you mean 'max_tool_result_chars'?)"]
  ])('%j is an error at its line and path', (yaml, message) => {
    expect(problems(yaml)).toEqual([message])
  })

  test('the input (or flag) wins over the YAML, 0 included; null or absent leaves the YAML its say', () => {
    const yaml = 'max_tool_result_chars: 5000\n'
    expect(suiteOf(yaml, { maxToolResultChars: 0 }).max_tool_result_chars).toBe(0)
    expect(suiteOf(yaml, { maxToolResultChars: 250_000 }).max_tool_result_chars).toBe(250_000)
    expect(suiteOf(yaml, { maxToolResultChars: null }).max_tool_result_chars).toBe(5000)
    expect(suiteOf(yaml, {}).max_tool_result_chars).toBe(5000)
    expect(suiteOf('', { maxToolResultChars: 42 }).max_tool_result_chars).toBe(42)
    expect(suiteOf('', { maxToolResultChars: null }).max_tool_result_chars).toBe(100_000)
  })
})

describe('tool_error_patterns and vision_models', () => {
  test('empty unless set; kept as written, in order (Python spellings allowed)', () => {
    expect(suiteOf('')).toMatchObject({ tool_error_patterns: [], vision: { models: {}, patterns: [] } })
    const suite = suiteOf('tool_error_patterns:\n  - "^Error searching"\n  - "(?P<what>failed|denied)"\nvision_models: ["llava", "(?i)^my-vl-"]\n')
    expect(suite.tool_error_patterns).toEqual(['^Error searching', '(?P<what>failed|denied)'])
    expect(suite.vision.patterns).toEqual(['llava', '(?i)^my-vl-'])
  })

  test('a pattern that does not compile is an error naming its line and index; every one is said', () => {
    const said = problems('tool_error_patterns: ["^Error", "(unclosed"]\nvision_models:\n  - ok\n  - "[bad"\n')
    expect(said).toHaveLength(2)
    expect(said).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^e\.yaml:7:33 at tool_error_patterns\[1\]: invalid regular expression: .*\(unclosed/),
        expect.stringMatching(/^e\.yaml:10:5 at vision_models\[1\]: invalid regular expression: .*\[bad/)
      ])
    )
  })

  test.each([
    ['tool_error_patterns: [""]\n', 'e.yaml:7:23 at tool_error_patterns[0]: must NOT have fewer than 1 characters'],
    ['tool_error_patterns: "^Error"\n', 'e.yaml:7:22 at tool_error_patterns: must be array'],
    ['vision_models: [""]\n', 'e.yaml:7:17 at vision_models[0]: must NOT have fewer than 1 characters'],
    ['vision_models: [3]\n', 'e.yaml:7:17 at vision_models[0]: must be string'],
    ['visoin_models: [a]\n', "e.yaml:7:1 at visoin_models: unknown key 'visoin_models' (did you mean 'vision_models'?)"]
  ])('%j is a schema error at its line and path', (yaml, message) => {
    expect(problems(yaml)).toEqual([message])
  })
})

describe('models: entries', () => {
  const models = 'models:\n  - openai/gpt-4o\n  - { id: local/llava, vision: true }\n  - { id: openai/gpt-3.5-turbo, vision: false }\n  - { id: x/plain }\n'

  test('a string or { id, vision }: the ids in order, vision by id where it is said', () => {
    const suite = suiteOf(models)
    expect(suite.models).toEqual(['openai/gpt-4o', 'local/llava', 'openai/gpt-3.5-turbo', 'x/plain'])
    expect(suite.vision.models).toEqual({ 'local/llava': true, 'openai/gpt-3.5-turbo': false })
  })

  test("a models input or EVAL_MODELS replaces the list, and the YAML's vision still applies by id", () => {
    const byInput = suiteOf(models, { models: 'local/llava, other/model' })
    expect(byInput.models).toEqual(['local/llava', 'other/model'])
    expect(byInput.vision.models).toEqual({ 'local/llava': true, 'openai/gpt-3.5-turbo': false })
    const byEnv = suiteOf(models, { envModels: 'openai/gpt-3.5-turbo' })
    expect(byEnv.models).toEqual(['openai/gpt-3.5-turbo'])
    expect(byEnv.vision.models).toEqual({ 'local/llava': true, 'openai/gpt-3.5-turbo': false })
  })

  test('an id written twice in the YAML is an error (its runs would be planned twice); twice in the input or EVAL_MODELS it runs once', () => {
    expect(() => suiteOf('models: [a/x, a/x]\n')).toThrow("e.yaml:7:15 at models[1]: duplicate model id 'a/x' (first given at models[0])")
    expect(suiteOf('models: [a/x]\n', { models: 'b/y, a/x,b/y' }).models).toEqual(['b/y', 'a/x'])
    expect(suiteOf('models: [a/x]\n', { envModels: 'c/z,c/z' }).models).toEqual(['c/z'])
  })

  test.each([
    ['models: [{ id: a/x, visoin: true }]\n', ["e.yaml:7:21 at models[0].visoin: unknown key 'visoin' (did you mean 'vision'?)"]],
    ['models: [{ id: a/x, name: y }]\n', ["e.yaml:7:21 at models[0].name: unknown key 'name'; known keys: id, vision"]],
    ['models: [{ vision: true }]\n', ["e.yaml:7:10 at models[0]: missing required key 'id'"]],
    // Only the branch that fits is heard: no "must be string" for a map.
    ['models: [{ id: a/x, vision: maybe }]\n', ['e.yaml:7:29 at models[0].vision: must be boolean']],
    ['models: [{ id: "" }]\n', ['e.yaml:7:16 at models[0].id: must NOT have fewer than 1 characters']],
    ['models: [3]\n', ['e.yaml:7:10 at models[0]: must be a model id or { id: "…", vision: true|false }']],
    ['models: [""]\n', ['e.yaml:7:10 at models[0]: must NOT have fewer than 1 characters']],
    ['models:\n  - a/x\n  - { id: a/x, vision: true }\n', ["e.yaml:9:11 at models[1].id: duplicate model id 'a/x' (first given at models[0])"]],
    ['models:\n  - { id: a/x, vision: true }\n  - { id: b }\n  - a/x\n', ["e.yaml:10:5 at models[2]: duplicate model id 'a/x' (first given at models[0])"]]
  ])('%j is an error at its line and path', (yaml, said) => {
    expect(problems(yaml)).toEqual(said)
  })
})

describe('the max_tool_result_chars and keep_run_dirs options', () => {
  const raw = (extra: Partial<RawOptions>): RawOptions => {
    const option = (name: string, value = ''): RawOption => ({ value, name })
    return {
      serverConfig: option('server_config', '{"command":"node"}'),
      evalCases: option('eval_cases', 'evals.yaml'),
      apiKey: option('openrouter_api_key', 'k'),
      filter: option('filter'),
      maxSteps: option('max_steps'),
      parallel: option('parallel'),
      concurrency: option('concurrency'),
      baseUrl: option('base_url'),
      judgeModel: option('judge_model'),
      models: option('models'),
      timeoutSeconds: option('timeout_seconds'),
      ...extra
    }
  }

  test('not given: null (the YAML decides) and false; given: the number and the boolean', () => {
    expect(resolveOptions(raw({}))).toMatchObject({ maxToolResultChars: null, keepRunDirs: false })
    expect(resolveOptions(raw({ maxToolResultChars: { value: ' ', name: 'max_tool_result_chars' }, keepRunDirs: { value: '', name: 'keep_run_dirs' } }))).toMatchObject({
      maxToolResultChars: null,
      keepRunDirs: false
    })
    expect(resolveOptions(raw({ maxToolResultChars: { value: '0', name: 'max_tool_result_chars' } })).maxToolResultChars).toBe(0)
    expect(resolveOptions(raw({ maxToolResultChars: { value: '100000000', name: 'max_tool_result_chars' } })).maxToolResultChars).toBe(100_000_000)
    expect(resolveOptions(raw({ keepRunDirs: { value: 'true', name: 'keep_run_dirs' } })).keepRunDirs).toBe(true)
    expect(resolveOptions(raw({ keepRunDirs: { value: 'FALSE', name: 'keep_run_dirs' } })).keepRunDirs).toBe(false)
  })

  test.each([
    ['max_tool_result_chars', '100000001', "input 'max_tool_result_chars': must be between 0 and 100000000, got 100000001"],
    ['max_tool_result_chars', '-1', "input 'max_tool_result_chars': must be a whole number, got '-1'"],
    ['max_tool_result_chars', '1e5', "input 'max_tool_result_chars': must be a whole number, got '1e5'"],
    ['--max-tool-result-chars', 'lots', "--max-tool-result-chars: must be a whole number, got 'lots'"],
    ['--max-tool-result-chars', '200000000', '--max-tool-result-chars: must be between 0 and 100000000, got 200000000']
  ])('%s %j is an error naming it', (name, value, message) => {
    expect(errorOf(() => resolveOptions(raw({ maxToolResultChars: { value, name } }))).message).toBe(message)
  })

  test('a keep_run_dirs that is no boolean is an error naming it', () => {
    expect(errorOf(() => resolveOptions(raw({ keepRunDirs: { value: 'yes', name: 'keep_run_dirs' } }))).message).toBe("input 'keep_run_dirs': must be true or false, got 'yes'")
  })
})

describe('the action', () => {
  const inputs = useActionInputs()
  const needed = { server_config: '{"command":"node"}', eval_cases: 'evals.yaml', conformance: 'only' }

  test('max_tool_result_chars and keep_run_dirs reach RunOptions', () => {
    inputs({ ...needed, max_tool_result_chars: '2500', keep_run_dirs: 'true' })
    expect(readActionOptions()).toMatchObject({ maxToolResultChars: 2500, keepRunDirs: true })
  })

  test('unset, they are null and false', () => {
    inputs(needed)
    expect(readActionOptions()).toMatchObject({ maxToolResultChars: null, keepRunDirs: false })
  })

  test('a bad value is named by its input', () => {
    inputs({ ...needed, max_tool_result_chars: 'all' })
    expect(errorOf(() => readActionOptions()).message).toBe("input 'max_tool_result_chars': must be a whole number, got 'all'")
  })

  test('action.yml declares both inputs and the run_dirs output under the names the code reads', () => {
    const action = parseYaml(readFileSync(fileURLToPath(new URL('../action.yml', import.meta.url)), 'utf8')) as {
      inputs: Record<string, { description: string; required: boolean; default: string }>
      outputs: Record<string, { description: string }>
    }
    expect(action.inputs[Inputs.MaxToolResultChars]).toMatchObject({ required: false, default: '' })
    expect(action.inputs[Inputs.MaxToolResultChars].description).toContain('100,000')
    expect(action.inputs[Inputs.KeepRunDirs]).toMatchObject({ required: false, default: 'false' })
    expect(action.outputs[Outputs.RunDirs].description).toBe('The directory holding the kept run directories of failed runs (keep_run_dirs); empty when none was kept.')
  })
})

describe('the CLI flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'i15-cli-'))
  writeFileSync(join(dir, 'evals.yaml'), 'tool_tests:\n  - id: ping\n    tool: ping\n')
  const base = ['--server-config', '{"command":"node","args":["server.js"]}', '--eval-cases', join(dir, 'evals.yaml'), '--conformance', 'only', '--output', join(dir, 'out.json')]
  // The CLI module loads the whole engine: imported here, so the tests above do not depend on it.
  const cli = async (argv: string[]) => (await import('../__fixtures__/cli.js')).runCli(argv)

  test.each([
    [['--max-tool-result-chars', 'lots'], "error: --max-tool-result-chars: must be a whole number, got 'lots'\n"],
    [['--max-tool-result-chars=100000001'], 'error: --max-tool-result-chars: must be between 0 and 100000000, got 100000001\n'],
    [['--keep-run-dirs=yes'], "error: Option '--keep-run-dirs' does not take an argument\n"]
  ])('%j exits 2 naming the flag', async (flags, message) => {
    const { code, stderr } = await cli([...base, ...flags])
    expect(code).toBe(2)
    expect(stderr).toBe(`${message}Run '${cliCommand()} --help' for the options.\n`)
  })

  test('--help lists both', async () => {
    const { stdout } = await cli(['--help'])
    expect(stdout).toContain('  --max-tool-result-chars N ')
    expect(stdout).toContain('  --keep-run-dirs ')
    expect(stdout).toContain('${RUN_DIR}')
  })
})

describe('${RUN_DIR} in server_config', () => {
  const parse = (config: unknown, env: NodeJS.ProcessEnv = {}) => parseServerConfig(JSON.stringify(config), { env })
  const stdioWhy = "${RUN_DIR} is a per-run directory for a stdio server's args, env, cwd and roots; it cannot be used in"
  const httpWhy = "${RUN_DIR} is a per-run directory for a stdio server's args, env, cwd and roots; an HTTP server runs elsewhere: it cannot be used in"

  test.each([
    [{ command: '${RUN_DIR}/bin/server' }, 'command', `${stdioWhy} command`],
    [{ url: 'http://127.0.0.1:3000/${RUN_DIR}' }, 'url', `${httpWhy} url`],
    [{ url: 'http://127.0.0.1:3000/mcp', headers: { Accept: 'application/json', 'X-State': '${RUN_DIR}/state' } }, 'headers.X-State', `${httpWhy} headers`],
    [{ url: 'http://127.0.0.1:3000/mcp', auth: 'Bearer ${RUN_DIR}' }, 'auth', `${httpWhy} auth`],
    [{ mcpServers: { memory: { command: 'node ${RUN_DIR}' } } }, 'mcpServers.memory.command', `${stdioWhy} command`]
  ])('where nothing resolves it, it is an error naming the path (%j)', (config, path, message) => {
    // Never read from the environment, not even to make it valid.
    const error = errorOf(() => parse(config, { RUN_DIR: '/from/env' }))
    expect(error.where).toMatchObject({ input: 'server_config', path })
    expect(error.message).toBe(`input 'server_config' at ${path}: ${message}`)
  })

  test("in a stdio server's args, env, cwd and roots it stays as written, to be resolved per run, never from the environment", () => {
    const config = parse(
      { command: 'npx', args: ['-y', 'server-memory', '--dir=${RUN_DIR}'], env: { MEMORY_FILE_PATH: '${RUN_DIR}/memory.jsonl' }, cwd: '${RUN_DIR}', roots: ['file://${RUN_DIR}', 'file://${RUN_DIR}/data'] },
      { RUN_DIR: '/from/env' }
    )
    expect(config).toEqual({
      kind: 'stdio',
      command: 'npx',
      args: ['-y', 'server-memory', '--dir=${RUN_DIR}'],
      env: { MEMORY_FILE_PATH: '${RUN_DIR}/memory.jsonl' },
      cwd: '${RUN_DIR}',
      roots: ['file://${RUN_DIR}', 'file://${RUN_DIR}/data']
    })
    expect(usesRunDir(config)).toBe(true)
    expect(resolveRunDir(config, '/tmp/run-1')).toMatchObject({
      args: ['-y', 'server-memory', '--dir=/tmp/run-1'],
      env: { MEMORY_FILE_PATH: '/tmp/run-1/memory.jsonl' },
      cwd: '/tmp/run-1',
      roots: ['file:///tmp/run-1', 'file:///tmp/run-1/data']
    })
  })

  test("an HTTP server's roots may hold it (the client's side)", () => {
    const config = parse({ url: 'http://127.0.0.1:3000/mcp', roots: ['file://${RUN_DIR}/shared'] })
    expect(config).toMatchObject({ kind: 'http', roots: ['file://${RUN_DIR}/shared'] })
    expect(usesRunDir(config)).toBe(true)
  })

  test('$${RUN_DIR} is a literal ${RUN_DIR}: at once where nothing resolves it, per run in args', () => {
    const config = parse({ command: 'echo-$${RUN_DIR}', args: ['$${RUN_DIR}', '${RUN_DIR}'] })
    expect(config).toMatchObject({ kind: 'stdio', command: 'echo-${RUN_DIR}', args: ['$${RUN_DIR}', '${RUN_DIR}'] })
    expect((resolveRunDir(config, '/tmp/run-2') as Extract<ServerConfig, { kind: 'stdio' }>).args).toEqual(['${RUN_DIR}', '/tmp/run-2'])
    expect(parse({ url: 'http://127.0.0.1:3000/mcp', headers: { 'X-Note': '$${RUN_DIR}' } })).toMatchObject({ headers: { 'X-Note': '${RUN_DIR}' } })
  })

  test('a root where ${RUN_DIR} does not make a local file:// directory keeps its error', () => {
    const error = errorOf(() => parse({ command: 'node', roots: ['file:///ok', '${RUN_DIR}'] }))
    expect(error.message).toBe("input 'server_config' at roots[1]: '${RUN_DIR}' is not a file:// URI (roots are file:// URIs, e.g. file:///workspace)")
  })
})

describe('${RUN_DIR} in roots', () => {
  test.each(['file://${RUN_DIR}', 'file://${RUN_DIR}/data', 'file://localhost${RUN_DIR}/data'])('%s is a root', (uri) => {
    expect(rootProblem(uri)).toBeNull()
  })

  test.each([
    ['file://host${RUN_DIR}', "'file://host${RUN_DIR}' names the host 'host': a root is a local directory, file:///path (three slashes)"],
    ['${RUN_DIR}', "'${RUN_DIR}' is not a file:// URI (roots are file:// URIs, e.g. file:///workspace)"],
    ['${RUN_DIR}/data', "'${RUN_DIR}/data' is not a file:// URI (roots are file:// URIs, e.g. file:///workspace)"],
    [
      'file://$${RUN_DIR}/data',
      "'file://$${RUN_DIR}/data' holds a placeholder that nothing expands (roots in eval_cases are taken as written, apart from ${RUN_DIR}; in server_config only environment variables and ${RUN_DIR} are expanded)"
    ],
    [
      'file://${RUN_DIR}/${OTHER}',
      "'file://${RUN_DIR}/${OTHER}' holds a placeholder that nothing expands (roots in eval_cases are taken as written, apart from ${RUN_DIR}; in server_config only environment variables and ${RUN_DIR} are expanded)"
    ]
  ])('%s is not, and the message quotes it as written', (uri, message) => {
    expect(rootProblem(uri)).toBe(message)
  })

  test("a case's roots may hold it; they are kept as written", () => {
    const suite = suiteOf('    roots: ["file://${RUN_DIR}", "file://${RUN_DIR}/data"]\n')
    expect(suite.cases[0].inputs?.roots).toEqual(['file://${RUN_DIR}', 'file://${RUN_DIR}/data'])
  })

  test("a case's root that is no local file:// directory with it is an error at its line and path", () => {
    expect(problems('    roots: ["${RUN_DIR}", "file://nas${RUN_DIR}"]\n')).toEqual([
      "e.yaml:7:13 at cases[0].roots[0]: '${RUN_DIR}' is not a file:// URI (roots are file:// URIs, e.g. file:///workspace)",
      "e.yaml:7:27 at cases[0].roots[1]: 'file://nas${RUN_DIR}' names the host 'nas': a root is a local directory, file:///path (three slashes)"
    ])
  })
})
