import { afterAll, beforeEach, describe, expect, test } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../__fixtures__/cli.js'
import { fixturePath } from '../__fixtures__/harness.js'
import type { ResultsDocument } from '../src/results/types.js'

/** The tool tests end to end, as a user runs them: the CLI, a real server process, no key. */

const INVENTORY = fixturePath('servers/inventory-server.mjs')
const server = (settings: Record<string, string> = {}, path = INVENTORY) =>
  JSON.stringify({ command: process.execPath, args: [path, ...Object.entries(settings).map(([k, v]) => `${k}=${v}`)] })


let dir = ''
const startDir = process.cwd()
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tooltests-'))
  process.chdir(dir)
})
afterAll(() => process.chdir(startDir))

function suite(yaml: string): string {
  const path = join(dir, 'eval_cases.yaml')
  writeFileSync(path, yaml)
  return path
}
const results = (): ResultsDocument => JSON.parse(readFileSync(join(dir, 'eval-results.json'), 'utf8')) as ResultsDocument

const BIN_OF_SKILLET = `tool_tests:
  - id: bin-of-skillet
    tool: get_item
    args: { id: ITM-005 }
    expect:
      contains: K-17-ZETA
      json: { "$.bin": "K-17-ZETA", "$.stock": { gte: 1 }, "$.price": { number: 39, tolerance: 0.01 } }
      schema: { type: object, required: [bin] }
      max_ms: 10000
  - id: order-then-read
    steps:
      - { tool: create_order, args: { item_id: ITM-001, quantity: 2 }, capture: { order: "$.order_id" } }
      - { tool: get_order, args: { id: "\${order}" }, expect: { json: { "$.quantity": 2, "$.order_id": { pattern: "^ORD-" } } } }
  - id: unknown-item-is-refused
    tool: get_item
    args: { id: ITM-404 }
    expect: { is_error: true, contains: no item }
`

describe('tool tests run without a model or a key', () => {
  test('a suite of tool tests alone passes, with captures across steps, and says the behaviour runs were skipped', async () => {
    const { code, stdout } = await runCli(['--server-config', server(), '--eval-cases', suite(BIN_OF_SKILLET), '--conformance', 'off'])
    expect(stdout).toMatch(/✓ tool test bin-of-skillet \(\d+ ms\) \[\d\/3\]/)
    expect(code).toBe(0)
    const doc = results()
    expect(doc.behaviour).toEqual({ status: 'skipped', reason: expect.stringContaining('no API key') })
    expect(doc.tool_tests).toMatchObject({ status: 'ran', total: 3, passed: 3, failed: 0 })
    const order = doc.tool_tests!.tests.find((t) => t.id === 'order-then-read')!
    const [create, read] = order.attempts[0].steps
    expect(create.captured.order).toMatch(/^ORD-\d+$/)
    expect(read.args).toEqual({ id: create.captured.order })
    expect(doc.passed).toBe(true)
  })

  test('a changed answer fails its test with expected and actual, and the exit code says so', async () => {
    const { code, stdout } = await runCli(['--server-config', server({ SKILLET_BIN: 'B-01-BETA' }), '--eval-cases', suite(BIN_OF_SKILLET), '--conformance', 'off'])
    expect(code).toBe(1)
    expect(stdout).toContain('✗ tool test bin-of-skillet')
    const test = results().tool_tests!.tests.find((t) => t.id === 'bin-of-skillet')!
    expect(test.status).toBe('failed')
    const failed = test.attempts[0].steps[0].checks.filter((c) => !c.passed)
    expect(failed.map((c) => [c.check, c.path])).toEqual([
      ['contains', null],
      ['json', '$.bin']
    ])
    expect(failed[1]).toMatchObject({ expected: 'K-17-ZETA', actual: 'B-01-BETA' })
    expect(results().passed).toBe(false)
  })

  test('pass^k: every attempt runs in a fresh process and a flaky tool fails the test on the attempt that failed', async () => {
    const flaky = join(dir, 'flaky-count')
    const yaml = `tool_tests:\n  - id: flaky\n    tool: get_item\n    args: { id: ITM-001 }\n    runs: 4\n`
    const { code } = await runCli(['--server-config', server({ FLAKY_FILE: flaky }), '--eval-cases', suite(yaml), '--conformance', 'off', '--concurrency', '1'])
    expect(code).toBe(1)
    const test = results().tool_tests!.tests[0]
    expect(test.attempts.map((a) => a.status)).toEqual(['passed', 'failed', 'passed', 'failed'])
    expect(test.attempts[1].steps[0].checks[0]).toMatchObject({ check: 'is_error', passed: false })
    expect(readFileSync(flaky, 'utf8')).toBe('4')
  })

  test('max_ms fails a slow call', async () => {
    const yaml = `tool_tests:\n  - id: quick\n    tool: get_item\n    args: { id: ITM-001 }\n    expect: { max_ms: 50 }\n`
    const { code } = await runCli(['--server-config', server({ SLOW_MS: '300' }), '--eval-cases', suite(yaml), '--conformance', 'off'])
    expect(code).toBe(1)
    const check = results().tool_tests!.tests[0].attempts[0].steps[0].checks.find((c) => c.check === 'max_ms')!
    expect(check.passed).toBe(false)
    expect(check.actual as number).toBeGreaterThanOrEqual(300)
  })

  test('a server that dies mid-test is that attempt’s error, with its last stderr line, and the other tests still run', async () => {
    const { code } = await runCli(['--server-config', server({ EXIT_ON: 'create_order' }), '--eval-cases', suite(BIN_OF_SKILLET), '--conformance', 'off'])
    expect(code).toBe(1)
    const doc = results()
    const order = doc.tool_tests!.tests.find((t) => t.id === 'order-then-read')!
    expect(order.status).toBe('error')
    expect(order.attempts[0].stderr_tail).toContain('Error: create_order lost its database connection')
    expect(doc.tool_tests!.tests.find((t) => t.id === 'bin-of-skillet')!.status).toBe('passed')
  })
})

describe('snapshots', () => {
  const yaml = `tool_tests:\n  - id: new-order\n    tool: create_order\n    args: { item_id: ITM-005, quantity: 1 }\n    expect: { snapshot: { ignore: ["$.created_at"] } }\n`

  test('written locally when missing, matched next time, a changed one fails with a diff; under CI a missing one fails', async () => {
    const cases = suite(yaml)
    const file = join(dir, '__snapshots__', 'new-order.json')

    const ci = await runCli(['--server-config', server(), '--eval-cases', cases, '--conformance', 'off'], { CI: 'true' })
    expect(ci.code).toBe(1)
    expect(existsSync(file)).toBe(false)
    expect(results().tool_tests!.tests[0].attempts[0].steps[0].checks.find((c) => c.check === 'snapshot')!.reason).toContain('--update-snapshots')

    expect((await runCli(['--server-config', server(), '--eval-cases', cases, '--conformance', 'off'])).code).toBe(0)
    const written = JSON.parse(readFileSync(file, 'utf8')) as { value: Record<string, unknown> }
    expect(written.value).toEqual({ item_id: 'ITM-005', order_id: 'ORD-1001', quantity: 1 })

    expect((await runCli(['--server-config', server(), '--eval-cases', cases, '--conformance', 'off'], { CI: 'true' })).code).toBe(0)

    writeFileSync(file, readFileSync(file, 'utf8').replace('ORD-1001', 'ORD-9999'))
    expect((await runCli(['--server-config', server(), '--eval-cases', cases, '--conformance', 'off'], { CI: 'true' })).code).toBe(1)
    const check = results().tool_tests!.tests[0].attempts[0].steps[0].checks.find((c) => c.check === 'snapshot')!
    expect(check.diff).toContain('-    "order_id": "ORD-9999"')
    expect(check.diff).toContain('+    "order_id": "ORD-1001"')

    expect((await runCli(['--server-config', server(), '--eval-cases', cases, '--conformance', 'off', '--update-snapshots'], { CI: 'true' })).code).toBe(0)
    expect(readFileSync(file, 'utf8')).toContain('ORD-1001')
  })
})

describe('conformance observed on real calls', () => {
  test('a structuredContent that breaks the outputSchema fails the tool test and becomes a conformance finding naming the test', async () => {
    const yaml = `tool_tests:\n  - id: skillet-price\n    tool: get_item\n    args: { id: skillet }\n`
    const { code } = await runCli(['--server-config', server({}, fixturePath('servers/observed-server.mjs')), '--eval-cases', suite(yaml)])
    expect(code).toBe(1)
    const doc = results()
    const step = doc.tool_tests!.tests[0].attempts[0].steps[0]
    expect(step.checks.find((c) => c.check === 'output_schema')).toMatchObject({ passed: false })
    expect(step.observed.findings.map((f) => f.check)).toEqual(['observed-output-schema'])
    const finding = doc.conformance!.checks.find((c) => c.id === 'observed-output-schema')!
    expect(finding.status).toBe('fail')
    expect(finding.message).toContain('tool test skillet-price')
    expect(doc.conformance!.passed).toBe(false)
  })
})

describe('what is asked for is what runs', () => {
  test('--only-tool-tests skips the behaviour runs even with a key, and says so', async () => {
    const yaml = `system_prompts: { default: hi }\ncases:\n  - { id: c1, prompt: hi, rubric: says hi }\n${BIN_OF_SKILLET}`
    const { code } = await runCli(['--server-config', server(), '--eval-cases', suite(yaml), '--conformance', 'off', '--only-tool-tests', '--api-key', 'sk-x'])
    expect(code).toBe(0)
    expect(results().behaviour).toEqual({ status: 'skipped', reason: '--only-tool-tests was given' })
    expect(results().runs).toEqual([])
  })

  test('a filter picks tool tests by id', async () => {
    const { code } = await runCli(['--server-config', server(), '--eval-cases', suite(BIN_OF_SKILLET), '--conformance', 'off', '--filter', 'order'])
    expect(code).toBe(0)
    expect(results().tool_tests!.tests.map((t) => t.id)).toEqual(['order-then-read'])
  })

  test('a capture no earlier step makes is a configuration error naming the file, line and field', async () => {
    const yaml = `tool_tests:\n  - id: t\n    steps:\n      - { tool: get_order, args: { id: "\${order}" } }\n`
    const { code, stderr } = await runCli(['--server-config', server(), '--eval-cases', suite(yaml)])
    expect(code).toBe(2)
    expect(stderr).toMatch(/eval_cases\.yaml:4:\d+ at tool_tests\[0\]\.steps\[0\]\.args: \$\{order\} is not captured by an earlier step/)
  })

  test('a JSONPath that is not RFC 9535 is a configuration error', async () => {
    const yaml = `tool_tests:\n  - id: t\n    tool: get_item\n    args: { id: ITM-001 }\n    expect: { json: { "$.[": 1 } }\n`
    const { code, stderr } = await runCli(['--server-config', server(), '--eval-cases', suite(yaml)])
    expect(code).toBe(2)
    expect(stderr).toContain('invalid JSONPath "$.[": unexpected shorthand selector')
  })
})

describe('a server that cannot be started', () => {
  test('is said once: tool tests and behaviour runs are skipped with the reason, and it fails even with conformance_fail_on never', async () => {
    const yaml = `system_prompts: { default: hi }\ncases:\n  - { id: c1, prompt: hi, rubric: says hi }\n${BIN_OF_SKILLET}`
    const missing = JSON.stringify({ command: process.execPath, args: [join(dir, 'no-such-server.mjs')] })
    const { code, stdout } = await runCli(['--server-config', missing, '--eval-cases', suite(yaml), '--conformance-fail-on', 'never', '--api-key', 'sk-x', '--base-url', 'http://127.0.0.1:9/v1'])
    expect(code).toBe(1)
    expect(stdout).not.toMatch(/\[\d+\/\d+\]/)
    const doc = results()
    // Its stderr once, apart: the reasons say what happened without quoting it again.
    expect(doc.conformance).toMatchObject({ era: 'unreachable', unreachable: { cause: 'exited with code 1', stderr: expect.stringContaining('Cannot find module') } })
    const reason = 'the server could not be started or reached: server exited (code 1)'
    expect(doc.behaviour).toEqual({ status: 'skipped', reason })
    expect(doc.tool_tests).toMatchObject({ status: 'skipped', reason, tests: [] })
    expect(doc.runs).toEqual([])
    expect(doc.journal?.missing).toBe(0)
    expect(doc.passed).toBe(false)
  })
})

describe('secrets stay out of what tool tests write', () => {
  test('a tool that echoes a server secret: redacted in the snapshot file, the results, the report and the JUnit', async () => {
    const secret = 'tok-very-secret-314159'
    const faulty = JSON.stringify({ command: process.execPath, args: [fixturePath('servers/faulty-server.mjs')], env: { SECRET_TOKEN: secret } })
    const yaml = `tool_tests:\n  - id: echo-secret\n    tool: hostile\n    expect: { contains: "token=", snapshot: true, json: { "$.x": 1 } }\n`
    await runCli(['--server-config', faulty, '--eval-cases', suite(yaml), '--conformance', 'off', '--junit', 'junit.xml'])
    const snapshot = readFileSync(join(dir, '__snapshots__', 'echo-secret.json'), 'utf8')
    expect(snapshot).toContain('token=***')
    for (const file of ['__snapshots__/echo-secret.json', 'eval-results.json', 'eval-report.md', 'junit.xml', 'eval-runs.jsonl']) {
      expect(readFileSync(join(dir, file), 'utf8')).not.toContain(secret)
    }
  })
})

test('a server env value that is also in a right answer does not change the verdict, nor what a capture sends on', async () => {
  // Every server env value counts as a secret (redacted from what is written), here "ITM-005" too.
  const withEnv = JSON.stringify({ command: process.execPath, args: [INVENTORY], env: { DEFAULT_ITEM: 'ITM-005' } })
  const yaml = `tool_tests:
  - id: item-then-describe
    steps:
      - { tool: get_item, args: { id: ITM-005 }, capture: { id: "$.id" }, expect: { json: { "$.id": { equals: ITM-005 } } } }
      - { tool: describe_item, args: { id: "\${id}" }, expect: { contains: Cast-iron skillet } }
`
  const { code } = await runCli(['--server-config', withEnv, '--eval-cases', suite(yaml), '--conformance', 'off'])
  expect(code).toBe(0)
  const [first, second] = results().tool_tests!.tests[0].attempts[0].steps
  expect(first.captured).toEqual({ id: '***' })
  expect(second.args).toEqual({ id: '***' })
  expect(readFileSync(join(dir, 'eval-results.json'), 'utf8')).not.toContain('ITM-005')
})

test('--only-tool-tests on a suite without tool tests is an error, not a green check', async () => {
  const yaml = `system_prompts: { default: hi }\ncases:\n  - { id: c1, prompt: hi, rubric: says hi }\n`
  const { code, stderr } = await runCli(['--server-config', server(), '--eval-cases', suite(yaml), '--only-tool-tests'])
  expect(code).toBe(2)
  expect(stderr).toContain('has no tool_tests, but only tool tests were asked for')
})

describe('the flags reach what they set', () => {
  test('--only-tool-tests with another --tool-tests is a usage error naming both', async () => {
    const { code, stderr } = await runCli(['--server-config', server(), '--eval-cases', suite(BIN_OF_SKILLET), '--only-tool-tests', '--tool-tests', 'off'])
    expect(code).toBe(2)
    expect(stderr).toContain('--only-tool-tests: cannot be combined with --tool-tests off')
  })

  test('--conformance-probes: safe probes the read-only tools only and names them; none calls no tool', async () => {
    const probe = async (set: string[]) => {
      await runCli(['--server-config', server(), '--eval-cases', suite(BIN_OF_SKILLET), ...set])
      return results().conformance!.checks.find((c) => c.id === 'invalid-arguments-result')!
    }
    const safe = await probe([])
    expect(safe.status).toBe('pass')
    expect(safe.message).toBe('called get_item, get_order, describe_item with broken arguments: isError results; not called, not annotated readOnlyHint: true (probes: safe): create_order')
    expect((await probe(['--conformance-probes', 'all'])).message).toContain('called get_item, create_order, get_order, describe_item')
    expect((await probe(['--conformance-probes', 'none'])).status).toBe('skip')
  })
})
