import { afterAll, beforeEach, describe, expect, test } from '@jest/globals'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse, parseDocument, type YAMLMap } from 'yaml'
import { runCliProcess } from '../__fixtures__/cli.js'
import { parseSuite } from '../src/config/suite.js'
import { SCHEMA_URL, schemaReference } from '../src/cli/init.js'
import { buildSuite } from '../src/cli/init/suite.js'
import { buildEvalsV1Suite } from '../src/cli/init/evals-v1-suite.js'
import { CLI_ANYWHERE } from '../src/constants.js'
import { readWrittenConfig } from '../src/cli/init/written-config.js'
import { createSessionFactory, type McpSession } from '../src/mcp/session.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const EXAMPLE_SERVER = join(root, 'examples/server/server.mjs')
const INIT_SERVER = join(root, '__fixtures__/servers/init-server.mjs')
const schema = JSON.parse(readFileSync(join(root, 'schema/eval-cases.schema.json'), 'utf8')) as object
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema)


const stdio = (server: string, extra: Record<string, unknown> = {}) => JSON.stringify({ command: 'node', args: [server], ...extra })

interface Suite {
  tool_tests: { id: string; tool: string; args: Record<string, unknown>; expect: Record<string, unknown> }[]
  cases: { id: string; prompt: string; rubric: string; expect_tool?: string | null; required_tools?: string[] | null; forbidden_tools?: string[]; tags?: string[] }[]
  system_prompts: Record<string, string>
  models: string[]
}

const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8')
const listFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [])

/** A session with a server (its tools as init saw them, and calls), closed afterwards. */
async function withServer<T>(server: string, use: (session: McpSession) => Promise<T>): Promise<T> {
  const session = await createSessionFactory({ kind: 'stdio', command: process.execPath, args: [server], env: {} }).open(AbortSignal.timeout(30_000))
  try {
    return await use(session)
  } finally {
    await session.close()
  }
}
const call = (session: McpSession, name: string, args: Record<string, unknown>) => session.callTool(name, args, AbortSignal.timeout(30_000))

const startDir = process.cwd()
let work: string
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'init-test-'))
})
afterAll(() => process.chdir(startDir))

describe('init against the example server', () => {
  test('writes a suite that validates and loads, and a workflow, and says what to do next', async () => {
    const config = stdio(EXAMPLE_SERVER)
    const result = await runCliProcess(['init', '--server-config', config], work)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(listFiles(join(work, 'evals')).sort()).toEqual(['eval_cases.yaml', 'mcp-evals.yml'])
    expect(listFiles(work).sort()).toEqual(['evals', 'evals/eval_cases.yaml', 'evals/mcp-evals.yml'])

    const text = read(work, 'evals/eval_cases.yaml')
    // No local schema is reachable from a temp dir: the published URL.
    expect(text.split('\n')[0]).toBe(`# yaml-language-server: $schema=${SCHEMA_URL}`)
    const data = parse(text) as Suite
    expect(validate(data)).toBe(true)
    expect(validate.errors ?? null).toBeNull()
    const suite = parseSuite(text, 'eval_cases.yaml')
    expect(suite.system_prompts.map((p) => p.name)).toEqual(['default'])
    expect(suite.models).toHaveLength(1)

    const tools = await withServer(EXAMPLE_SERVER, async (s) => s.tools)
    const readOnly = tools.filter((t) => t.annotations?.readOnlyHint === true).map((t) => t.name)
    expect(readOnly).toHaveLength(7)
    // One tool test per read-only tool, expecting only what nothing was called to learn: no error.
    expect(data.tool_tests.map((t) => t.tool)).toEqual(readOnly)
    for (const t of data.tool_tests) expect(t.expect).toEqual({ is_error: false })
    expect(suite.tool_tests.map((t) => t.steps[0].tool)).toEqual(readOnly)
    // Arguments from the schema's examples; a placeholder where there is none.
    const args = Object.fromEntries(data.tool_tests.map((t) => [t.tool, t.args]))
    expect(args.get_weather).toEqual({ city: 'Paris' })
    expect(args.convert_currency).toEqual({ amount: 250, from: 'EUR', to: 'USD' })
    expect(args.plan_trip).toEqual({ city: 'TODO', days: 1 })

    // One behaviour case per tool, each marked for review.
    const positive = data.cases.filter((c) => !c.tags?.includes('negative'))
    expect(positive.map((c) => c.expect_tool)).toEqual(tools.map((t) => t.name))
    for (const c of positive) {
      expect(c.required_tools).toEqual([c.expect_tool])
      const tool = tools.find((t) => t.name === c.expect_tool)
      expect(c.prompt).toContain(tool?.description)
      expect(c.rubric.trim()).not.toBe('')
    }
    for (const c of positive) expect(text).toMatch(new RegExp(`^  - id: ${c.id} # TODO: review$`, 'm'))
    expect(data.cases.find((c) => c.expect_tool === 'get_weather')?.prompt).toContain('Use city = "Paris".')
    // At least two negative cases: no tool may be called.
    const negative = data.cases.filter((c) => c.expect_tool === null)
    expect(negative.length).toBeGreaterThanOrEqual(2)
    for (const c of negative) expect(c.required_tools).toBeNull()
    // No destructive tool here, so no forbidden_tools case.
    expect(data.cases.some((c) => c.forbidden_tools)).toBe(false)

    // Ids: unique across tool tests and cases, kebab-case.
    const ids = [...data.tool_tests.map((t) => t.id), ...data.cases.map((c) => c.id)]
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)

    // Every placeholder line says TODO; no line with a real value does.
    const placeholderLines = text.split('\n').filter((l) => /^ {6}\w+: (TODO|1)\b/.test(l))
    expect(placeholderLines.length).toBeGreaterThanOrEqual(4)
    for (const line of placeholderLines) expect(line).toMatch(/ # TODO: a real /)
    expect(text).toMatch(/^ {6}city: Paris$/m)

    const workflow = parse(read(work, 'evals/mcp-evals.yml')) as {
      on: Record<string, unknown>
      jobs: { evals: { steps: { uses?: string; with?: Record<string, string>; env?: Record<string, string> }[] } }
    }
    expect(Object.keys(workflow.on)).toContain('pull_request')
    const step = workflow.jobs.evals.steps.find((s) => s.uses === 'mcp-server-evals/mcp-server-evals@v1')
    expect(step?.with).toEqual({ server_config: config, eval_cases: 'evals/eval_cases.yaml', openrouter_api_key: '${{ secrets.OPENROUTER_API_KEY }}', baseline: 'auto' })
    expect(step?.env).toBeUndefined()
    expect(workflow.jobs.evals.steps.map((s) => s.uses ?? 'run')).toEqual(['actions/checkout@v5', 'actions/setup-node@v5', 'run', 'mcp-server-evals/mcp-server-evals@v1'])

    expect(result.stdout).toContain('Wrote evals/eval_cases.yaml: 7 tool tests, 10 behaviour cases (2 negative)')
    expect(result.stdout).toContain('Wrote evals/mcp-evals.yml')
    // Runnable in the user's own repository (no mcp-server-evals command is installed anywhere).
    expect(result.stdout).toContain(`       ${CLI_ANYWHERE} --server-config '${config}' --eval-cases evals/eval_cases.yaml --only-tool-tests\n`)
    expect(result.stdout).not.toMatch(/^\s*mcp-server-evals /m)
    expect(result.stdout).toContain('.github/workflows/mcp-evals.yml')
  })

  test('the tool tests whose arguments all came from the schema succeed as generated', async () => {
    expect((await runCliProcess(['init', '--server-config', stdio(EXAMPLE_SERVER), '--out', 'suite'], work)).code).toBe(0)
    const text = read(work, 'suite/eval_cases.yaml')
    const doc = parseDocument(text)
    const tests = doc.get('tool_tests') as { items: YAMLMap[] }
    const complete = tests.items.filter((item) => !String(item).includes('TODO'))
    expect(complete.map((item) => item.get('tool'))).toEqual(['get_weather', 'convert_currency', 'get_forecast', 'search_destinations'])
    await withServer(EXAMPLE_SERVER, async (session) => {
      for (const item of complete) {
        const js = item.toJSON() as { tool: string; args: Record<string, unknown> }
        const outcome = await call(session, js.tool, js.args)
        expect({ tool: js.tool, isError: outcome.isError }).toEqual({ tool: js.tool, isError: false })
      }
    })
  })

  test('a second init writes nothing and names the existing files', async () => {
    expect((await runCliProcess(['init', '--server-config', stdio(EXAMPLE_SERVER)], work)).code).toBe(0)
    const before = [read(work, 'evals/eval_cases.yaml'), read(work, 'evals/mcp-evals.yml')]
    writeFileSync(join(work, 'evals/eval_cases.yaml'), 'mine\n')
    const again = await runCliProcess(['init', '--server-config', stdio(EXAMPLE_SERVER)], work)
    expect(again.code).toBe(2)
    expect(again.stderr).toContain('evals/eval_cases.yaml and evals/mcp-evals.yml already exist')
    expect(again.stdout).toBe('')
    expect(read(work, 'evals/eval_cases.yaml')).toBe('mine\n')
    expect(read(work, 'evals/mcp-evals.yml')).toBe(before[1])
  })

  test('when only one target exists, the other is not written either', async () => {
    mkdirSync(join(work, 'evals'))
    writeFileSync(join(work, 'evals/mcp-evals.yml'), 'theirs\n')
    const result = await runCliProcess(['init', '--server-config', stdio(EXAMPLE_SERVER)], work)
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^error: evals\/mcp-evals\.yml already exists; init never overwrites a file, so nothing was written/)
    expect(listFiles(join(work, 'evals'))).toEqual(['mcp-evals.yml'])
    expect(read(work, 'evals/mcp-evals.yml')).toBe('theirs\n')
  })
})

describe('init against a server with hostile descriptions and destructive tools', () => {
  test('the YAML is valid and gives back every string exactly; only read-only tools get tool tests', async () => {
    const result = await runCliProcess(['init', '--server-config', stdio(INIT_SERVER), '--out', 'out/evals'], work)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const text = read(work, 'out/evals/eval_cases.yaml')
    const doc = parseDocument(text, { uniqueKeys: true })
    expect(doc.errors).toEqual([])
    const data = doc.toJS() as Suite
    expect(validate(data)).toBe(true)
    expect(() => parseSuite(text, 'eval_cases.yaml')).not.toThrow()

    const tools = await withServer(INIT_SERVER, async (s) => s.tools)
    const lookup = tools.find((t) => t.name === 'lookup_item')
    expect(lookup?.description).toContain('\n---\n...\n')
    const hostile = data.cases.find((c) => c.expect_tool === 'lookup_item')
    expect(hostile?.prompt).toContain(lookup?.description)
    expect(hostile?.prompt.startsWith('I need help with this: ')).toBe(true)
    // Still one document: the `---` and `...` lines of the description did not split it.
    expect(Object.keys(data)).toEqual(['judge_model', 'models', 'system_prompts', 'tool_tests', 'cases'])

    expect(data.tool_tests.map((t) => t.tool)).toEqual(['lookup_item', 'notes.search'])
    const byTool = Object.fromEntries(data.tool_tests.map((t) => [t.tool, t]))
    // examples[0], enum[0], const; an optional input only with an example; a default-only one left out.
    expect(byTool.lookup_item.args).toEqual({ id: 'ITM-005', format: 'json', api: 'v2', note: 'a: b # c "d" \'e\'' })
    expect(byTool['notes.search'].args).toEqual({ query: 'TODO', limit: 5, score: 0, exact: false, tags: [], filter: { owner: 'TODO', year: 0 } })
    for (const [name, line] of [
      ['query', 'query: TODO # TODO: a real string'],
      ['limit', 'limit: 5 # TODO: a real integer from 5 to 50'],
      ['tags', 'tags: [] # TODO: a real list'],
      ['owner', 'owner: TODO # TODO: a real string']
    ]) {
      expect({ name, found: text.includes(line) }).toEqual({ name, found: true })
    }
    expect(byTool['notes.search'].id).toBe('call-notes-search')
    // A tool test of a read-only tool whose arguments are all real calls it successfully.
    expect(await withServer(INIT_SERVER, async (session) => (await call(session, 'lookup_item', byTool.lookup_item.args)).isError)).toBe(false)

    // Every tool has a behaviour case; the destructive one is called out, and forbidden elsewhere.
    expect(data.cases.filter((c) => c.expect_tool).map((c) => c.expect_tool)).toEqual(['lookup_item', 'notes.search', 'delete_item', 'restock'])
    expect(text).toMatch(/- id: use-delete-item # TODO: review \(this case lets a model call a destructive tool/)
    const forbidding = data.cases.filter((c) => c.forbidden_tools)
    expect(forbidding.map((c) => c.forbidden_tools)).toEqual([['delete_item']])
    expect(data.cases.filter((c) => c.expect_tool === null).length).toBeGreaterThanOrEqual(2)
    expect(data.cases.find((c) => c.expect_tool === 'restock')?.prompt).toBe('TODO: a request that needs the restock tool.')
    expect(text).toContain('# No tool test for delete_item, restock: not marked read-only')
    expect(result.stdout).toContain('Listed 4 tools (2 read-only, 1 destructive).')
  })

  test('placeholders stay placeholders, and no secret value reaches a file or the output', async () => {
    const secret = 'tok-9f8e7d6c5b4a-very-secret'
    const literal = 'hunter2-literal-password'
    const config = JSON.stringify({ command: 'node', args: [INIT_SERVER], env: { API_TOKEN: '${TOKEN}', ECHO_SECRET: '1', DB_PASSWORD: literal, LOG_LEVEL: 'debug' } })
    const result = await runCliProcess(['init', '--server-config', config], work, { TOKEN: secret })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const files = listFiles(join(work, 'evals')).map((f) => read(join(work, 'evals'), f))
    expect(files).toHaveLength(2)
    for (const text of [...files, result.stdout]) {
      expect(text).not.toContain(secret)
      expect(text).not.toContain(literal)
    }
    // The server put the token into a description: it is redacted there.
    const suite = parse(read(work, 'evals/eval_cases.yaml')) as Suite
    expect(suite.cases.find((c) => c.expect_tool === 'notes.search')?.prompt).toContain('Authenticated as ***.')

    const workflow = parse(read(work, 'evals/mcp-evals.yml')) as { jobs: { evals: { steps: { uses?: string; with?: Record<string, string>; env?: Record<string, string> }[] } } }
    const step = workflow.jobs.evals.steps.find((s) => s.uses === 'mcp-server-evals/mcp-server-evals@v1')
    expect(JSON.parse(step?.with?.server_config ?? '{}')).toEqual({
      command: 'node',
      args: [INIT_SERVER],
      env: { API_TOKEN: '${TOKEN}', ECHO_SECRET: '1', DB_PASSWORD: '${DB_PASSWORD}', LOG_LEVEL: 'debug' }
    })
    expect(step?.env).toEqual({ TOKEN: '${{ secrets.TOKEN }}', DB_PASSWORD: '${{ secrets.DB_PASSWORD }}' })
    expect(read(work, 'evals/mcp-evals.yml')).toMatch(/DB_PASSWORD: \$\{\{ secrets\.DB_PASSWORD \}\} # TODO: add this repository secret/)
    expect(result.stdout).toContain('env.DB_PASSWORD (now ${DB_PASSWORD})')
  })
})

describe('errors', () => {
  test('a bad server config names --server-config, exits 2 and writes nothing', async () => {
    const bad = await runCliProcess(['init', '--server-config', '{"command": "node", "args": [1]}'], work)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe('error: --server-config at args: must be an array of strings\n')
    const json = await runCliProcess(['init', '--server-config', '{"command": '], work)
    expect(json.code).toBe(2)
    expect(json.stderr).toMatch(/^error: --server-config <inline>:1:\d+: invalid JSON/)
    const missing = await runCliProcess(['init'], work)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('error: --server-config: is required')
    const unset = await runCliProcess(['init', '--server-config', stdio(EXAMPLE_SERVER, { env: { K: '${NOT_SET_ANYWHERE}' } })], work)
    expect(unset.code).toBe(2)
    expect(unset.stderr).toContain('--server-config at env.K: environment variable NOT_SET_ANYWHERE is not set')
    expect(listFiles(work)).toEqual([])
  })

  test('a mistyped flag gets a did-you-mean; --help prints the usage', async () => {
    const typo = await runCliProcess(['init', '--server-config', stdio(EXAMPLE_SERVER), '--outt', 'x'], work)
    expect(typo.code).toBe(2)
    expect(typo.stderr).toContain("Unknown option '--outt'; did you mean --out?")
    expect(typo.stderr).toContain(`Run '${CLI_ANYWHERE} init --help' for the flags.`)
    const help = await runCliProcess(['init', '--help'], work)
    expect(help.code).toBe(0)
    expect(help.stdout).toContain(`${CLI_ANYWHERE} init --server-config <json|file> [--out DIR]`)
    const mainHelp = await runCliProcess(['--help'], work)
    expect(mainHelp.stdout).toContain(`${CLI_ANYWHERE} init --server-config <json|file> [--out DIR]`)
    expect(listFiles(work)).toEqual([])
  })

  test('a server that cannot start: exit 1 with the cause and its stderr, nothing written', async () => {
    const config = JSON.stringify({ command: 'node', args: ['-e', "process.stderr.write('fatal: no database here\\n'); process.exit(3)"] })
    const result = await runCliProcess(['init', '--server-config', config], work)
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^error: cannot list the tools of the server \(--server-config\): server failed to start: /)
    expect(result.stderr).toContain('fatal: no database here')
    expect(listFiles(work)).toEqual([])
  })

  test('--out that is a file', async () => {
    writeFileSync(join(work, 'evals'), '')
    const result = await runCliProcess(['init', '--server-config', stdio(EXAMPLE_SERVER)], work)
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--out: evals exists and is not a directory')
  })
})

describe('the $schema reference', () => {
  test('a copy installed in the repository is referenced relatively; none above the repository root', () => {
    const repo = join(work, 'repo')
    const installed = join(repo, 'node_modules/mcp-server-evals/schema')
    mkdirSync(installed, { recursive: true })
    writeFileSync(join(installed, 'eval-cases.schema.json'), '{}')
    mkdirSync(join(repo, 'evals/deep'), { recursive: true })
    expect(schemaReference(join(repo, 'evals/deep'))).toBe('../../node_modules/mcp-server-evals/schema/eval-cases.schema.json')
    // A .git in between marks the repository root: nothing above it is used.
    mkdirSync(join(repo, 'evals/.git'))
    expect(schemaReference(join(repo, 'evals/deep'))).toBe(SCHEMA_URL)
    rmSync(join(repo, 'evals/.git'), { recursive: true })
    // This package's own clone: its schema/ folder.
    expect(schemaReference(join(root, 'evals'))).toBe('../schema/eval-cases.schema.json')
  })
})

describe('the server config as written', () => {
  test('literal credentials become placeholders; settings and placeholders stay', () => {
    const written = readWrittenConfig(
      JSON.stringify({
        url: 'https://user:pa55word@mcp.example.com/mcp?api_key=abc123secret&page=2',
        headers: { Authorization: 'Bearer sk-live-abcdef123456', Accept: 'application/json', 'X-Api-Key': '${KEY}' }
      }),
      work
    )
    expect(written.json).toEqual({
      url: 'https://user:${MCP_URL_PASSWORD}@mcp.example.com/mcp?api_key=${API_KEY}&page=2',
      headers: { Authorization: 'Bearer ${MCP_TOKEN}', Accept: 'application/json', 'X-Api-Key': '${KEY}' }
    })
    expect(written.localUrl).toBe(false)
    expect(readWrittenConfig(JSON.stringify({ url: 'http://127.0.0.1:3000/mcp' }), work).localUrl).toBe(true)
    expect(written.removed).toEqual(expect.arrayContaining(['pa55word', 'abc123secret', 'sk-live-abcdef123456']))
    const args = readWrittenConfig(JSON.stringify({ command: 'srv', args: ['--token=abcd1234', '--api-key', 'zzzz9999', '--port=8080', '--verbose', 'x'] }), work)
    expect(args.json.args).toEqual(['--token=${TOKEN}', '--api-key', '${API_KEY}', '--port=8080', '--verbose', 'x'])
    const nested = readWrittenConfig(JSON.stringify({ mcpServers: { s: { command: 'srv', env: { GITHUB_TOKEN: 'ghp_abcdefghijklmnop1234', AUTH_ENABLED: 'true' } } } }), work)
    expect(nested.json).toEqual({ mcpServers: { s: { command: 'srv', env: { GITHUB_TOKEN: '${MCP_GITHUB_TOKEN}', AUTH_ENABLED: 'true' } } } })
    // Every env value is a secret to the evaluation, whatever it is called: none is written literally.
    const env = readWrittenConfig(JSON.stringify({ command: 'srv', env: { PASS: 'hunter22', WEATHER_API: 'abc123def456', DEBUG: '1' } }), work)
    expect(env.json).toEqual({ command: 'srv', env: { PASS: '${PASS}', WEATHER_API: '${WEATHER_API}', DEBUG: '1' } })
    expect(env.removed).toEqual(expect.arrayContaining(['hunter22', 'abc123def456']))
  })
})

describe('init and MCP Apps', () => {
  test('an app-only tool (its _meta.ui.visibility leaves out "model") gets no behaviour case: no model is offered it', () => {
    const tool = (name: string, ui?: { resource_uri: string | null; visibility: string[] | null }) => ({ name, description: `${name} tool`, inputSchema: { type: 'object', properties: {} }, ...(ui ? { ui } : {}) })
    const tools = [tool('show_dashboard', { resource_uri: 'ui://d/view.html', visibility: null }), tool('refresh_dashboard', { resource_uri: 'ui://d/view.html', visibility: ['app'] }), tool('both', { resource_uri: null, visibility: ['model', 'app'] })]
    const data = parse(String(buildSuite(tools, SCHEMA_URL).doc)) as { cases: { expect_tool?: string | null }[] }
    expect(data.cases.map((c) => c.expect_tool).filter((t) => t)).toEqual(['show_dashboard', 'both'])
  })
})

describe('init and a tool that runs only as a task', () => {
  // execution.taskSupport "required": the model is never offered it, and no direct call of this client can run it.
  const taskOnly = { name: 'export_all', description: 'Export everything', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true }, execution: { taskSupport: 'required' } }
  const plain = { name: 'lookup', description: 'Look one up', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } }

  test('eval_cases: no tool test and no case for it, and a comment at each list that says why', () => {
    const text = String(buildSuite([plain, taskOnly], SCHEMA_URL).doc)
    const data = parse(text) as Suite
    expect(data.tool_tests.map((t) => t.tool)).toEqual(['lookup'])
    expect(data.cases.flatMap((c) => [...(c.required_tools ?? []), c.expect_tool ?? ''])).not.toContain('export_all')
    expect(text).toContain('# No tool test for export_all: execution.taskSupport is "required": it only runs as a task, which this client does not start.')
    expect(text).toContain('# No case for export_all: the model is never offered it (execution.taskSupport is "required": it only runs as a task, which this client does not start), so one could never pass.')
    expect(validate(data)).toBe(true)
  })

  test('evals/v1: no check and no scenario for it, and the same comments', () => {
    const text = String(buildEvalsV1Suite([plain, taskOnly], { block: { command: 'node' }, leftOut: [] }, 's', SCHEMA_URL).doc)
    const flow = (parse(text) as { flows: { checks: { call: { tool: string } }[]; scenarios: { turns: { expect?: { tools: { name: string }[] } }[] }[] }[] }).flows[0]
    expect(flow.checks.map((c) => c.call.tool)).toEqual(['lookup'])
    expect(flow.scenarios.flatMap((sc) => sc.turns.flatMap((t) => t.expect?.tools.map((x) => x.name) ?? []))).toEqual(['lookup'])
    expect(text).toContain('# No check for export_all: execution.taskSupport is "required": it only runs as a task')
    expect(text).toContain('# No scenario for export_all: the model is never offered it')
  })

  test('a server listing one over 2026-07-28 (where the SDK drops the key): init still sees it and drafts no case for it', async () => {
    const config = JSON.stringify({ command: 'node', args: [join(root, '__fixtures__/servers/conformance-server.mjs')], env: { DEFECT: 'task-required' } })
    const result = await runCliProcess(['init', '--server-config', config], work)
    expect(result.code).toBe(0)
    const text = read(work, 'evals/eval_cases.yaml')
    const data = parse(text) as Suite
    expect(data.cases.flatMap((c) => [...(c.required_tools ?? []), c.expect_tool ?? ''])).not.toContain('list_sections')
    expect(data.tool_tests.map((t) => t.tool)).not.toContain('list_sections')
    expect(text).toContain('# No case for list_sections: the model is never offered it')
    expect(result.stdout).toContain('No behaviour case for list_sections: the model is never offered it (the suite says why).')
  })
})
