import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { errorOf } from '../__fixtures__/config-error.js'
import { runCli } from '../__fixtures__/cli.js'
import { BUDGET_KEYS, budgetsFromOptions, mergeBudgets, type BudgetKey } from '../src/config/budgets.js'
import { resolveOptions, type RawOption, type RawOptions } from '../src/config/options.js'
import { parseOtlpHeaders, resolveOtlp, tracesUrl } from '../src/config/otlp.js'
import { parseSuite } from '../src/config/suite.js'
import { NO_BUDGETS, type Budgets } from '../src/config/types.js'
import { prepare } from '../src/config/prepare.js'
import { readActionOptions } from '../src/github/inputs.js'
import { useActionInputs } from '../__fixtures__/env-vars.js'
import { cliCommand } from '../src/cli/invocation.js'

// Layer 3 configuration: the YAML's budgets: and pricing:, the inputs and flags, and OTLP.

const head = `tool_tests:
  - id: ping
    tool: ping
`

describe('budgets: and pricing: in the YAML', () => {
  test('every key is read, and what is not set is null', () => {
    const suite = parseSuite(
      `${head}budgets:
  max_cost_usd: 2.5
  max_cost_per_run_usd: 0.05
  max_tokens_per_run: 20000
  max_p95_tool_ms: 1500
  max_p95_run_s: 30
  max_p95_increase: 0.25
  max_cost_increase: 0
  max_tool_error_rate: 0.25
  max_agent_steps_p95: 12
  max_tokens_per_success_p95: 0
  tools:
    search: { max_p95_ms: 800 }
    "db.query": { max_p95_ms: 2000 }
pricing:
  openai/gpt-4o-mini: { input_per_mtok: 0.15, output_per_mtok: 0.6 }
  local/llama: { input_per_mtok: 0, output_per_mtok: 0 }
`,
      'evals.yaml'
    )
    expect(suite.budgets).toEqual({
      max_cost_usd: 2.5,
      max_cost_per_run_usd: 0.05,
      max_tokens_per_run: 20000,
      max_p95_tool_ms: 1500,
      max_p95_run_s: 30,
      max_p95_increase: 0.25,
      // 0 is a budget (no rise at all), not "off".
      max_cost_increase: 0,
      tools: { search: { max_p95_ms: 800 }, 'db.query': { max_p95_ms: 2000 } },
      // The evals/v1 gates (metrics.gates) are keys of eval_cases' budgets: too; 0 is a limit, not "off".
      max_tool_error_rate: 0.25,
      max_agent_steps_p95: 12,
      max_tokens_per_success_p95: 0
    })
    expect(suite.pricing).toEqual({ 'openai/gpt-4o-mini': { input_per_mtok: 0.15, output_per_mtok: 0.6 }, 'local/llama': { input_per_mtok: 0, output_per_mtok: 0 } })
  })

  test('a suite without them has no budget and no pricing', () => {
    const suite = parseSuite(head, 'evals.yaml')
    expect(suite.budgets).toEqual(NO_BUDGETS)
    expect(suite.pricing).toEqual({})
  })

  test('a partial budgets: leaves the rest null', () => {
    const suite = parseSuite(`${head}budgets:\n  max_p95_tool_ms: 900\n`, 'evals.yaml')
    expect(suite.budgets).toEqual({ ...NO_BUDGETS, max_p95_tool_ms: 900 })
  })

  test.each([
    ['a string for a number', 'budgets:\n  max_cost_usd: "5"\n', 'evals.yaml:5:17 at budgets.max_cost_usd: must be number'],
    ['a negative amount', 'budgets:\n  max_cost_per_run_usd: -1\n', 'evals.yaml:5:25 at budgets.max_cost_per_run_usd: must be > 0'],
    ['a zero latency budget', 'budgets:\n  max_p95_tool_ms: 0\n', 'evals.yaml:5:20 at budgets.max_p95_tool_ms: must be > 0'],
    ['a zero run budget', 'budgets:\n  max_p95_run_s: 0\n', 'evals.yaml:5:18 at budgets.max_p95_run_s: must be > 0'],
    ['a fraction of a token', 'budgets:\n  max_tokens_per_run: 1.5\n', 'evals.yaml:5:23 at budgets.max_tokens_per_run: must be integer'],
    ['a negative ratio', 'budgets:\n  max_p95_increase: -0.1\n', 'evals.yaml:5:21 at budgets.max_p95_increase: must be >= 0'],
    ['a typo of a budget', 'budgets:\n  max_cost_usdd: 1\n', "evals.yaml:5:3 at budgets.max_cost_usdd: unknown key 'max_cost_usdd' (did you mean 'max_cost_usd'?)"],
    ['an unknown budget', 'budgets:\n  max_spend: 1\n', "evals.yaml:5:3 at budgets.max_spend: unknown key 'max_spend'; known keys: max_cost_usd, max_cost_per_run_usd, max_tokens_per_run, max_p95_tool_ms, max_p95_run_s, max_p95_increase, max_cost_increase, max_tool_error_rate, max_agent_steps_p95, max_tokens_per_success_p95, tools"],
    ['a typo in a tool budget', 'budgets:\n  tools:\n    search: { max_p95_mss: 800 }\n', "evals.yaml:6:15 at budgets.tools.search.max_p95_mss: unknown key 'max_p95_mss' (did you mean 'max_p95_ms'?)"],
    ['a tool budget without its number', 'budgets:\n  tools:\n    search: {}\n', "evals.yaml:6:13 at budgets.tools.search: missing required key 'max_p95_ms'"],
    ['a negative tool budget', 'budgets:\n  tools:\n    search: { max_p95_ms: -5 }\n', 'evals.yaml:6:27 at budgets.tools.search.max_p95_ms: must be > 0'],
    ['budgets that are not a map', 'budgets: 5\n', 'evals.yaml:4:10 at budgets: must be object'],
    ['a typo of budgets', 'budget:\n  max_cost_usd: 1\n', "evals.yaml:4:1 at budget: unknown key 'budget' (did you mean 'budgets'?)"],
    ['pricing without output_per_mtok', 'pricing:\n  openai/gpt-4o-mini: { input_per_mtok: 1 }\n', "evals.yaml:5:23 at pricing.openai/gpt-4o-mini: missing required key 'output_per_mtok'"],
    ['pricing with a typo', 'pricing:\n  m: { input_per_mtoken: 1, output_per_mtok: 2 }\n', "evals.yaml:5:8 at pricing.m.input_per_mtoken: unknown key 'input_per_mtoken' (did you mean 'input_per_mtok'?)"],
    ['a negative price', 'pricing:\n  m: { input_per_mtok: -1, output_per_mtok: 2 }\n', 'evals.yaml:5:24 at pricing.m.input_per_mtok: must be >= 0'],
    ['a price that is not a map', 'pricing:\n  m: 3\n', 'evals.yaml:5:6 at pricing.m: must be object']
  ])('%s is an error naming file, line and path', (_, yaml, message) => {
    expect(errorOf(() => parseSuite(head + yaml, 'evals.yaml')).message).toContain(message)
  })
})

/** Budget options as the action reads them: each under its input name. */
const asInputs = (values: Partial<Record<BudgetKey, string>>): Partial<Record<BudgetKey, RawOption>> => Object.fromEntries(BUDGET_KEYS.map((key) => [key, { value: values[key] ?? '', name: key }]))

describe('budgets from inputs and flags', () => {
  test('only the keys given, as numbers', () => {
    expect(budgetsFromOptions(asInputs({}))).toEqual({})
    expect(budgetsFromOptions(undefined)).toEqual({})
    expect(budgetsFromOptions(asInputs({ max_cost_usd: ' 5 ', max_tokens_per_run: '20000', max_p95_increase: '0', max_cost_increase: '.5', max_p95_run_s: '12.5' }))).toEqual({
      max_cost_usd: 5,
      max_tokens_per_run: 20000,
      max_p95_increase: 0,
      max_cost_increase: 0.5,
      max_p95_run_s: 12.5
    })
  })

  test.each([
    ['max_cost_usd', '0', "input 'max_cost_usd': must be a number greater than 0, got '0'"],
    ['max_cost_usd', '$5', "input 'max_cost_usd': must be a number greater than 0, got '$5'"],
    ['max_cost_per_run_usd', '-0.1', "input 'max_cost_per_run_usd': must be a number greater than 0, got '-0.1'"],
    ['max_tokens_per_run', '1.5', "input 'max_tokens_per_run': must be a whole number of 1 or more, got '1.5'"],
    ['max_tokens_per_run', '0', "input 'max_tokens_per_run': must be a whole number of 1 or more, got '0'"],
    ['max_p95_tool_ms', 'fast', "input 'max_p95_tool_ms': must be a number greater than 0, got 'fast'"],
    ['max_p95_run_s', 'Infinity', "input 'max_p95_run_s': must be a number greater than 0, got 'Infinity'"],
    ['max_p95_increase', '-1', "input 'max_p95_increase': must be a ratio of 0 or more (0.25 allows a rise of 25 %), got '-1'"],
    ['max_cost_increase', '25%', "input 'max_cost_increase': must be a ratio of 0 or more (0.25 allows a rise of 25 %), got '25%'"]
  ] as [BudgetKey, string, string][])('input %s = %j is an error naming it', (key, value, message) => {
    expect(errorOf(() => budgetsFromOptions(asInputs({ [key]: value }))).message).toBe(message)
  })

  test('a flag is named as typed', () => {
    expect(errorOf(() => budgetsFromOptions({ max_cost_usd: { value: 'ten', name: '--max-cost-usd' } })).message).toBe("--max-cost-usd: must be a number greater than 0, got 'ten'")
  })
})

describe('the YAML wins per key', () => {
  const yaml: Budgets = { ...NO_BUDGETS, max_cost_usd: 1, max_p95_increase: 0, tools: { search: { max_p95_ms: 800 } } }

  test('the inputs fill only the keys the YAML leaves unset', () => {
    expect(mergeBudgets(yaml, { max_cost_usd: 9, max_p95_tool_ms: 1500, max_p95_increase: 0.5 })).toEqual({
      ...NO_BUDGETS,
      max_cost_usd: 1,
      max_p95_tool_ms: 1500,
      // 0 in the YAML is set: the input does not replace it.
      max_p95_increase: 0,
      tools: { search: { max_p95_ms: 800 } }
    })
    expect(mergeBudgets(NO_BUDGETS, {})).toEqual(NO_BUDGETS)
  })

  test('through prepare(): suite.budgets is the merge', () => {
    const dir = mkdtempSync(join(tmpdir(), 'l3-merge-'))
    writeFileSync(join(dir, 'evals.yaml'), `${head}budgets:\n  max_cost_usd: 1\n  tools: { search: { max_p95_ms: 800 } }\n`)
    const prepared = prepare(optionsFor(dir, { budgets: asInputs({ max_cost_usd: '9', max_cost_per_run_usd: '0.02' }) }), {})
    expect(prepared.suite.budgets).toEqual({ ...NO_BUDGETS, max_cost_usd: 1, max_cost_per_run_usd: 0.02, tools: { search: { max_p95_ms: 800 } } })
  })
})

/** Options for a suite in `dir` that runs conformance only (nothing starts in these tests). */
function optionsFor(dir: string, extra: Partial<RawOptions> = {}, names: Record<string, string> = {}) {
  const values: Record<string, string> = { serverConfig: '{"command":"node","args":["server.js"]}', evalCases: join(dir, 'evals.yaml'), apiKey: 'k', conformance: 'only' }
  const keys = ['serverConfig', 'evalCases', 'apiKey', 'filter', 'maxSteps', 'parallel', 'concurrency', 'baseUrl', 'judgeModel', 'models', 'timeoutSeconds', 'conformance']
  const raw = Object.fromEntries(keys.map((k) => [k, { value: values[k] ?? '', name: names[k] ?? k }]))
  return resolveOptions({ ...(raw as unknown as RawOptions), ...extra })
}

describe('the OTLP target', () => {
  const input = { endpoint: '', headers: '', names: { endpoint: 'otlp_endpoint', headers: 'otlp_headers' } }
  const ENDPOINT = 'OTEL_EXPORTER_OTLP_ENDPOINT'
  const TRACES = 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'

  test.each([
    ['nothing set', {}, {}, null],
    ['the input, a base', { endpoint: 'http://localhost:4318' }, {}, 'http://localhost:4318/v1/traces'],
    ['the input with a trailing slash', { endpoint: 'http://localhost:4318/' }, {}, 'http://localhost:4318/v1/traces'],
    ['the input with a path', { endpoint: 'https://otel.example.com/otlp' }, {}, 'https://otel.example.com/otlp/v1/traces'],
    ['the input already ending in /v1/traces', { endpoint: 'https://otel.example.com/otlp/v1/traces' }, {}, 'https://otel.example.com/otlp/v1/traces'],
    ['the input wins over both variables', { endpoint: 'http://mine:4318' }, { [TRACES]: 'http://t:4318/x', [ENDPOINT]: 'http://e:4318' }, 'http://mine:4318/v1/traces'],
    ['the per-signal variable, as is', {}, { [TRACES]: 'http://collector:4318/custom/path', [ENDPOINT]: 'http://e:4318' }, 'http://collector:4318/custom/path'],
    ['the base variable, /v1/traces appended', {}, { [ENDPOINT]: 'http://collector:4318' }, 'http://collector:4318/v1/traces'],
    // The spec's rule for the base variable: always appended.
    ['the base variable with a path', {}, { [ENDPOINT]: 'http://collector:4318/api/' }, 'http://collector:4318/api/v1/traces'],
    ['a query survives', { endpoint: 'https://otel.example.com?tenant=a' }, {}, 'https://otel.example.com/v1/traces?tenant=a'],
    ['blank values are unset', { endpoint: '  ' }, { [TRACES]: ' ', [ENDPOINT]: 'http://collector:4318' }, 'http://collector:4318/v1/traces']
  ])('%s', (_, given, env, url) => {
    expect(resolveOtlp({ ...input, ...given }, env).target?.url ?? null).toBe(url)
  })

  test('headers: the input, else the per-signal variable, else the base one', () => {
    const env = { [ENDPOINT]: 'http://c:4318', OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-from=traces', OTEL_EXPORTER_OTLP_HEADERS: 'x-from=base' }
    expect(resolveOtlp({ ...input, headers: 'x-from=input' }, env).target?.headers).toEqual({ 'x-from': 'input' })
    expect(resolveOtlp(input, env).target?.headers).toEqual({ 'x-from': 'traces' })
    expect(resolveOtlp(input, { ...env, OTEL_EXPORTER_OTLP_TRACES_HEADERS: '' }).target?.headers).toEqual({ 'x-from': 'base' })
    expect(resolveOtlp(input, { [ENDPOINT]: 'http://c:4318' }).target?.headers).toEqual({})
  })

  test('every header value is a secret, the token of a Bearer value too, and a password in the URL', () => {
    const { target, secrets } = resolveOtlp({ ...input, endpoint: 'https://user:p%40ss-word@otel.example.com', headers: 'Authorization=Bearer%20tok-123456,x-tenant=acme-prod' }, {})
    expect(target?.headers).toEqual({ Authorization: 'Bearer tok-123456', 'x-tenant': 'acme-prod' })
    expect(secrets).toEqual(expect.arrayContaining(['Bearer tok-123456', 'tok-123456', 'acme-prod', 'p@ss-word']))
    const fromEnv = resolveOtlp(input, { [ENDPOINT]: 'http://c:4318', OTEL_EXPORTER_OTLP_HEADERS: 'api-key=env-secret-value' })
    expect(fromEnv.secrets).toEqual(['env-secret-value'])
  })

  test("the variables the SDK's exporter merges in anyway are secrets too: the one not chosen, and both beside the input", () => {
    const env = { [ENDPOINT]: 'http://c:4318', OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-a=traces-secret-1', OTEL_EXPORTER_OTLP_HEADERS: 'x-b=base-secret-22,x-c=Bearer%20tok-333' }
    expect(resolveOtlp(input, env).secrets).toEqual(expect.arrayContaining(['traces-secret-1', 'base-secret-22', 'Bearer tok-333', 'tok-333']))
    expect(resolveOtlp({ ...input, headers: 'x-in=input-secret' }, env).secrets).toEqual(expect.arrayContaining(['input-secret', 'traces-secret-1', 'base-secret-22']))
    // Without an endpoint nothing is exported: only what was given here is ours to mask.
    expect(resolveOtlp(input, { OTEL_EXPORTER_OTLP_HEADERS: 'x-b=base-secret-22' }).secrets).toEqual([])
  })

  test('headers given without an endpoint send nothing, and are masked all the same', () => {
    expect(resolveOtlp({ ...input, headers: 'api-key=orphan-secret' }, {})).toEqual({ target: null, secrets: ['orphan-secret'] })
  })

  test.each([
    ['an input that is not a URL', { endpoint: 'localhost:4318' }, {}, "input 'otlp_endpoint': must be an http(s) URL such as http://localhost:4318 (OTLP/HTTP), not localhost"],
    ['an input with no scheme', { endpoint: 'collector' }, {}, "input 'otlp_endpoint': must be an http(s) URL such as http://localhost:4318 (OTLP/HTTP); it does not parse as a URL"],
    ['a gRPC endpoint', { endpoint: 'grpc://collector:4317' }, {}, "input 'otlp_endpoint': must be an http(s) URL such as http://localhost:4318 (OTLP/HTTP), not grpc"],
    ['a bad variable', {}, { [ENDPOINT]: 'not a url' }, 'environment variable OTEL_EXPORTER_OTLP_ENDPOINT: must be an http(s) URL'],
    ['a bad per-signal variable', {}, { [TRACES]: 'ftp://x' }, 'environment variable OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: must be an http(s) URL'],
    ['a bad header input', { endpoint: 'http://c', headers: 'Bearer sk-live-123' }, {}, "input 'otlp_headers': entry 1 is not key=value"],
    ['a bad header variable', {}, { [ENDPOINT]: 'http://c', OTEL_EXPORTER_OTLP_HEADERS: 'a=1,sk-live-123' }, 'environment variable OTEL_EXPORTER_OTLP_HEADERS: entry 2 is not key=value']
  ])('%s is an error naming it', (_, given, env, message) => {
    const error = errorOf(() => resolveOtlp({ ...input, ...given }, env))
    expect(error.message).toContain(message)
    expect(error.message).not.toContain('sk-live-123')
  })

  test('the flag is named as typed, through prepare()', () => {
    const dir = mkdtempSync(join(tmpdir(), 'l3-otlp-'))
    writeFileSync(join(dir, 'evals.yaml'), head)
    const options = optionsFor(dir, { otlpEndpoint: { value: 'ftp://x', name: '--otlp-endpoint' }, otlpHeaders: { value: '', name: '--otlp-headers' } })
    expect(errorOf(() => prepare(options, {})).message).toMatch(/^--otlp-endpoint: must be an http\(s\) URL/)
  })

  test('prepare() sets otlp and adds the header values to its secrets', () => {
    const dir = mkdtempSync(join(tmpdir(), 'l3-otlp-'))
    writeFileSync(join(dir, 'evals.yaml'), head)
    const none = prepare(optionsFor(dir), {})
    expect(none.otlp).toBeNull()
    const options = optionsFor(dir, { otlpEndpoint: { value: 'http://127.0.0.1:4318', name: 'otlp_endpoint' }, otlpHeaders: { value: 'x-honeycomb-team=hc-key-0042', name: 'otlp_headers' } })
    const prepared = prepare(options, { OTEL_EXPORTER_OTLP_HEADERS: 'x-other=ignored-value' })
    expect(prepared.otlp).toEqual({ url: 'http://127.0.0.1:4318/v1/traces', headers: { 'x-honeycomb-team': 'hc-key-0042' } })
    expect(prepared.secrets).toContain('hc-key-0042')
    expect(prepared.secrets).toContain('k')
    const fromEnv = prepare(optionsFor(dir), { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_HEADERS: 'api-key=env-secret-0042' })
    expect(fromEnv.otlp).toEqual({ url: 'http://127.0.0.1:4318/v1/traces', headers: { 'api-key': 'env-secret-0042' } })
    expect(fromEnv.secrets).toContain('env-secret-0042')
  })
})

describe('OTLP header lists (key=value,key2=value2)', () => {
  const source = { name: 'otlp_headers', env: false }

  test.each([
    ['one', 'api-key=abc', { 'api-key': 'abc' }],
    ['several, trimmed', ' a = 1 , b=2 ', { a: '1', b: '2' }],
    ['percent-decoded values', 'Authorization=Basic%20dXNlcjpwYXNz,x-t=a%2Cb%3Dc', { Authorization: 'Basic dXNlcjpwYXNz', 'x-t': 'a,b=c' }],
    ['= inside a value', 'k=a=b', { k: 'a=b' }],
    ['empty entries skipped', 'a=1,,b=2,', { a: '1', b: '2' }],
    ['an empty value', 'a=', { a: '' }],
    ['nothing', '', {}]
  ])('%s', (_, text, headers) => {
    expect(parseOtlpHeaders(text, source)).toEqual(headers)
  })

  test.each([
    ['no =', 'a=1,secret-token', "input 'otlp_headers': entry 2 is not key=value (the format is key=value,key2=value2)"],
    ['an empty key', '=secret-token', "input 'otlp_headers': entry 1: the key is empty"],
    ['a key that is no header name', 'my key=secret-token', "input 'otlp_headers': entry 1: 'my key' is not an HTTP header name"],
    ['a key twice', 'A=1,a=secret-token', "input 'otlp_headers': entry 2: the header 'a' is given twice"],
    ['bad percent-encoding', 'k=secret-token%zz', "input 'otlp_headers': entry 1 ('k'): the value is not valid percent-encoding (write a literal % as %25)"],
    ['an encoded line break', 'k=secret-token%0D%0AX-Injected: 1', "input 'otlp_headers': entry 1 ('k'): the value holds a line break or NUL"]
  ])('%s is an error that names the entry, never the value', (_, text, message) => {
    const error = errorOf(() => parseOtlpHeaders(text, source))
    expect(error.message).toBe(message)
    expect(error.message).not.toContain('secret-token')
  })

  test('a variable is named as a variable', () => {
    expect(errorOf(() => parseOtlpHeaders('x', { name: 'OTEL_EXPORTER_OTLP_HEADERS', env: true })).message).toBe(
      'environment variable OTEL_EXPORTER_OTLP_HEADERS: entry 1 is not key=value (the format is key=value,key2=value2)'
    )
  })

  test('tracesUrl keeps a per-signal URL as it is', () => {
    expect(tracesUrl('http://c:4318/v1/traces', { name: 'X', env: true }, 'base').href).toBe('http://c:4318/v1/traces/v1/traces')
    expect(tracesUrl('http://c:4318/v1/traces', { name: 'X', env: true }, 'as-is').href).toBe('http://c:4318/v1/traces')
  })
})

describe('the CLI flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'l3-cli-'))
  writeFileSync(join(dir, 'evals.yaml'), head)
  const base = ['--server-config', '{"command":"node","args":["server.js"]}', '--eval-cases', join(dir, 'evals.yaml'), '--conformance', 'only', '--output', join(dir, 'out.json')]

  test.each([
    [['--max-cost-usd', 'ten'], "error: --max-cost-usd: must be a number greater than 0, got 'ten'\n"],
    [['--max-cost-per-run-usd', '0'], "error: --max-cost-per-run-usd: must be a number greater than 0, got '0'\n"],
    [['--max-tokens-per-run', '2.5'], "error: --max-tokens-per-run: must be a whole number of 1 or more, got '2.5'\n"],
    [['--max-p95-tool-ms=-1'], "error: --max-p95-tool-ms: must be a number greater than 0, got '-1'\n"],
    [['--max-p95-run-s', 'x'], "error: --max-p95-run-s: must be a number greater than 0, got 'x'\n"],
    [['--max-p95-increase=-0.5'], "error: --max-p95-increase: must be a ratio of 0 or more (0.25 allows a rise of 25 %), got '-0.5'\n"],
    [['--max-cost-increase', 'lots'], "error: --max-cost-increase: must be a ratio of 0 or more (0.25 allows a rise of 25 %), got 'lots'\n"],
    [['--otlp-endpoint', 'collector:4318'], "error: --otlp-endpoint: must be an http(s) URL such as http://localhost:4318 (OTLP/HTTP), not collector\n"],
    [['--otlp-endpoint', 'http://c:4318', '--otlp-headers', 'no-equals-sign'], 'error: --otlp-headers: entry 1 is not key=value (the format is key=value,key2=value2)\n']
  ])('%j exits 2 naming the flag', async (flags, message) => {
    const { code, stderr } = await runCli([...base, ...flags])
    expect(code).toBe(2)
    expect(stderr).toBe(`${message}Run '${cliCommand()} --help' for the options.\n`)
  })

  test('--help lists every new flag', async () => {
    const { stdout } = await runCli(['--help'])
    for (const flag of ['--max-cost-usd', '--max-cost-per-run-usd', '--max-tokens-per-run', '--max-p95-tool-ms', '--max-p95-run-s', '--max-p95-increase', '--max-cost-increase', '--otlp-endpoint', '--otlp-headers']) {
      expect(stdout).toContain(`  ${flag} `)
    }
  })
})

describe('the action inputs', () => {
  const inputs = useActionInputs()

  test('every budget input and the OTLP endpoint reach RunOptions under their names', () => {
    inputs({
      server_config: '{"command":"node"}',
      eval_cases: 'evals.yaml',
      conformance: 'only',
      max_cost_usd: '3',
      max_cost_per_run_usd: '0.1',
      max_tokens_per_run: '5000',
      max_p95_tool_ms: '750',
      max_p95_run_s: '20',
      max_p95_increase: '0.2',
      max_cost_increase: '0.3',
      otlp_endpoint: 'http://127.0.0.1:4318'
    })
    const options = readActionOptions()
    expect(options.budgets).toEqual({ max_cost_usd: 3, max_cost_per_run_usd: 0.1, max_tokens_per_run: 5000, max_p95_tool_ms: 750, max_p95_run_s: 20, max_p95_increase: 0.2, max_cost_increase: 0.3 })
    expect(options.otlpEndpoint).toBe('http://127.0.0.1:4318')
    expect(options.names).toMatchObject({ otlpEndpoint: 'otlp_endpoint', otlpHeaders: 'otlp_headers' })
  })

  test('a bad budget input is named', () => {
    inputs({ server_config: '{"command":"node"}', eval_cases: 'evals.yaml', conformance: 'only', max_p95_run_s: 'slow' })
    expect(errorOf(() => readActionOptions()).message).toBe("input 'max_p95_run_s': must be a number greater than 0, got 'slow'")
  })
})
