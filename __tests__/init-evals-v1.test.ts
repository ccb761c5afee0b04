import { beforeEach, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { runCliProcess } from '../__fixtures__/cli.js'
import { v1Problems } from '../__fixtures__/evals-v1.js'
import { serverBlockOf } from '../src/cli/init/evals-v1-suite.js'
import { parseSuite } from '../src/config/suite.js'
import { CLI_ANYWHERE } from '../src/constants.js'
import { convertSuite } from '../src/convert/convert.js'
import { readSuiteText } from '../src/convert/read.js'
import { createSessionFactory } from '../src/mcp/session.js'



const root = fileURLToPath(new URL('..', import.meta.url))
const EXAMPLE_SERVER = join(root, 'examples/server/server.mjs')
const INIT_SERVER = join(root, '__fixtures__/servers/init-server.mjs')

let work: string
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'init-v1-'))
})

interface V1 {
  apiVersion: string
  server: Record<string, unknown>
  flows: { checks: { id: string; call: { tool: string; args: Record<string, unknown> }; assert: { kind: string }[] }[]; scenarios: { id: string; tags?: string[]; turns: { user: string; expect?: { tools: { name: string }[] } }[]; expect: { tools?: { forbidden: string[] } } }[] }[]
}

describe('init --format evals-v1', () => {
  test('drafts an evals/v1 suite from the example server: checks for the read-only tools, a scenario per tool, the server block', async () => {
    const config = JSON.stringify({ command: 'node', args: [EXAMPLE_SERVER] })
    const result = await runCliProcess(['init', '--format', 'evals-v1', '--server-config', config], work)
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
    expect(result.stdout).toContain('Wrote evals/evals.suite.yaml: 7 checks, 10 scenarios (2 negative)')
    expect(result.stdout).toContain(`${CLI_ANYWHERE} --eval-suite evals/evals.suite.yaml --only-tool-tests`)

    const text = readFileSync(join(work, 'evals/evals.suite.yaml'), 'utf8')
    // No local schema is reachable from a temp dir: the published URL of the evals/v1 schema.
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=https://raw.githubusercontent.com/mcp-server-evals/mcp-server-evals/main/schema/evals-v1.schema.json')
    const suite = parse(text) as V1
    expect(v1Problems(text)).toEqual([])
    expect(suite.server).toEqual({ command: 'node', args: [EXAMPLE_SERVER] })

    const session = await createSessionFactory({ kind: 'stdio', command: process.execPath, args: [EXAMPLE_SERVER], env: {} }).open(AbortSignal.timeout(30_000))
    const tools = session.tools
    await session.close()
    const readOnly = tools.filter((t) => t.annotations?.readOnlyHint === true)
    const flow = suite.flows[0]
    expect(flow.checks.map((c) => c.call.tool)).toEqual(readOnly.map((t) => t.name))
    // outputSchemaValid exactly where the tool declares an outputSchema.
    for (const check of flow.checks) {
      const tool = tools.find((t) => t.name === check.call.tool)
      expect({ tool: tool?.name, kinds: check.assert.map((a) => a.kind) }).toEqual({ tool: tool?.name, kinds: tool?.outputSchema ? ['executionError', 'outputSchemaValid'] : ['executionError'] })
    }
    const positive = flow.scenarios.filter((s) => !s.tags?.includes('negative'))
    expect(positive.map((s) => s.turns[0].expect?.tools[0].name)).toEqual(tools.map((t) => t.name))
    for (const s of flow.scenarios.filter((s) => s.tags?.includes('negative'))) expect(s.expect.tools?.forbidden).toEqual(tools.map((t) => t.name))
    expect(text).toMatch(/^ {6}- id: use-get-weather # TODO: review$/m)
    expect(text).toMatch(/^ {12}city: TODO # TODO: a real string$/m)

    // The workflow names the suite with eval_suite; the server is the suite's own block.
    const workflow = parse(readFileSync(join(work, 'evals/mcp-evals.yml'), 'utf8')) as { jobs: { evals: { steps: { uses?: string; with?: Record<string, string> }[] } } }
    const step = workflow.jobs.evals.steps.find((s) => s.uses?.startsWith('mcp-server-evals/'))
    expect(step?.with).toEqual({ eval_suite: 'evals/evals.suite.yaml', openrouter_api_key: '${{ secrets.OPENROUTER_API_KEY }}', baseline: 'auto' })

    // Converted, it is an eval_cases suite our loader takes, and the checks with all their arguments from the schema pass.
    const converted = convertSuite(readSuiteText(text, 'evals.suite.yaml'), 'evals.suite.yaml').text
    parseSuite(converted, 'converted.yaml')
    const complete = parse(converted) as { tool_tests: { args: Record<string, unknown> }[] }
    complete.tool_tests = complete.tool_tests.filter((t) => !JSON.stringify(t.args).includes('TODO'))
    expect(complete.tool_tests.length).toBe(4)
    writeFileSync(join(work, 'complete.yaml'), JSON.stringify(complete))
    const run = await runCliProcess(['--server-config', config, '--eval-cases', 'complete.yaml', '--only-tool-tests', '--conformance', 'off'], work)
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' })
  })

  test('placeholders stay placeholders in the server block, and the workflow sets them from secrets', async () => {
    const config = JSON.stringify({ command: 'node', args: [INIT_SERVER], env: { API_TOKEN: '${SERVER_TOKEN}' } })
    const result = await runCliProcess(['init', '--format', 'evals-v1', '--server-config', config], work, { SERVER_TOKEN: 'tok-1234567890-secret' })
    expect(result.code).toBe(0)
    const text = readFileSync(join(work, 'evals/evals.suite.yaml'), 'utf8')
    expect((parse(text) as V1).server).toEqual({ command: 'node', args: [INIT_SERVER], env: { API_TOKEN: '${SERVER_TOKEN}' } })
    expect(text).not.toContain('tok-1234567890-secret')
    // A destructive tool gets a scenario only with a review note, and a negative scenario forbids it.
    const flow = (parse(text) as V1).flows[0]
    expect(flow.scenarios.find((s) => s.id === 'no-tool-when-only-asking')?.expect.tools?.forbidden).toEqual(['delete_item'])
    expect(text).toContain('TODO: review (this scenario lets a model call a destructive tool')
    const workflow = readFileSync(join(work, 'evals/mcp-evals.yml'), 'utf8')
    expect(workflow).toContain('SERVER_TOKEN: ${{ secrets.SERVER_TOKEN }}')
    expect(workflow).not.toContain('server_config')
  })

  test('a bad --format exits 2 and writes nothing', async () => {
    const result = await runCliProcess(['init', '--format', 'yaml', '--server-config', '{"command":"node"}'], work)
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("--format: 'yaml' is not a format (eval-cases or evals-v1)")
  })
})

describe('the server block', () => {
  test('stdio and HTTP keys that fit; the rest is named, so the workflow passes server_config too', () => {
    expect(serverBlockOf({ command: 'node', args: ['s.js'], env: { A: '${A}' }, cwd: 'srv' })).toEqual({ block: { command: 'node', args: ['s.js'], env: { A: '${A}' } }, leftOut: ['cwd'] })
    expect(serverBlockOf({ url: 'https://x.example/mcp', headers: { Authorization: 'Bearer ${T}' } })).toEqual({ block: { url: 'https://x.example/mcp' }, leftOut: ['headers'] })
    expect(serverBlockOf({ mcpServers: { one: { url: 'https://x.example/mcp' } } })).toEqual({ block: { url: 'https://x.example/mcp' }, leftOut: [] })
  })
})
