import { EVALS_V1_TYPE_NAMES } from '../config/evals-v1-assertion-problems.js'
import type { Json } from '../config/types.js'
import type { AssertionCheck } from '../results/tool-tests.js'
import type { EvalsV1Assertion } from '../results/suite.js'
import { queryValues } from '../tooltests/jsonpath.js'
import { deepEqual, show, trimForReport } from '../tooltests/matchers.js'
import { matchWidgetFields, textOf } from './evals-v1-args.js'
import { evalsV1Path, fromResultPath } from '../util/evals-v1-paths.js'
import { validateAgainst as validate } from '../util/json-schema.js'
import { compileMatcherPattern } from '../util/matcher-pattern.js'
import { isObject } from '../util/objects.js'

/**
 * evals/v1's `assert[]` rules (an evals/v1 check's, or a scenario turn's `result`), with
 * @mcp-use/evals' semantics and its defects fixed in the open (docs/evals-v1.md lists them):
 *
 * - the root `$` is the raw result (`{content, structuredContent, isError}`, a resource read's
 *   `{contents}`, or a list as the server listed it); `equals`, `contains`, `pattern` and
 *   `schema` read `$.structuredContent` unless given a `path`, `jsonpath` reads `$`; a `resource`
 *   rule's nested rules read `{text, contents}` and default every path to `$`;
 * - a path is RFC 9535 JSONPath (upstream's `$.a.b` / `$.a[0].b` are a subset); a path that
 *   selects several nodes reads as the array of their values, one that selects none fails;
 * - equality is JSON equality (types, array order count; object key order does not);
 * - `contains` and `pattern` are case-insensitive on the value's text: a string as it is, a
 *   number or boolean as written, null as the empty text, an object or array as its JSON;
 *   patterns run on RE2 (linear time);
 * - `executionError` counts a JSON-RPC error as an execution error, and passes when the call was
 *   refused unless `equals: false`; `outputSchemaValid` validates structuredContent against the
 *   tool's outputSchema.
 *
 * Pure: nothing is read but through `ctx.readResource`, and it never throws (a rule that cannot
 * be evaluated is a failed check that says why).
 */
export interface AssertionContext {
  /** The raw result the rules read as `$`: {content, structuredContent, isError} | {contents} | a list (array). */
  root: Json
  /** The called tool's outputSchema, for outputSchemaValid; undefined when none (or not a tool call). */
  outputSchema?: Json
  /** The call was answered with a JSON-RPC error (executionError counts it as an execution error). */
  protocolError?: { code: number; message: string }
  /** Reads a resource for `kind: resource`: resolves to `{contents}` or throws (the check fails with the message). */
  readResource: (uri: string) => Promise<Json>
}

/** A JSON-RPC error as the rules read it: `$` is `{error: {code, message, data}}`, and it is the protocol error executionError counts. */
export function refusalContext(error: { code: number; message: string; data?: unknown }): Pick<AssertionContext, 'root' | 'protocolError'> {
  return { root: { error: { code: error.code, message: error.message, data: (error.data ?? null) as Json } }, protocolError: { code: error.code, message: error.message } }
}

type Defaults = { value: string; jsonpath: string }
const TOP: Defaults = { value: '$.structuredContent', jsonpath: '$' }
const NESTED: Defaults = { value: '$', jsonpath: '$' }

/**
 * Every rule, in order, one check each. When the call was answered with a JSON-RPC error and no
 * `executionError` rule expects a refusal, a failing `call` check says so after them.
 */
export async function runEvalsV1Assertions(rules: EvalsV1Assertion[], ctx: AssertionContext): Promise<AssertionCheck[]> {
  const checks = await runRules(rules, ctx, TOP)
  const expected = rules.some((rule) => rule.kind === 'executionError' && rule.equals !== false)
  if (ctx.protocolError && !expected) {
    const { code, message } = ctx.protocolError
    checks.push(make('call', null, false, 'a result', { code, message }, `the call was answered with JSON-RPC error ${code}: ${excerpt(message)} (no executionError assertion expects a refusal)`))
  }
  return checks
}

async function runRules(rules: EvalsV1Assertion[], ctx: AssertionContext, defaults: Defaults): Promise<AssertionCheck[]> {
  const checks: AssertionCheck[] = []
  for (const rule of rules) checks.push(await runRule(rule, ctx, defaults))
  return checks
}

async function runRule(rule: EvalsV1Assertion, ctx: AssertionContext, defaults: Defaults): Promise<AssertionCheck> {
  switch (rule.kind) {
    case 'executionError':
      return executionError(rule, ctx)
    case 'outputSchemaValid':
      return outputSchemaValid(ctx)
    case 'jsonpath':
      return jsonpathRule(rule, ctx.root, rule.path ?? defaults.jsonpath)
    case 'equals':
    case 'contains':
    case 'pattern':
    case 'schema':
      return valueRule(rule, ctx.root, rule.path ?? defaults.value)
    case 'resource':
      return resourceRule(rule, ctx)
    case 'widget':
      return widgetRule(rule, ctx.root)
    default:
      return make('call', null, false, null, null, `unknown assertion kind ${show(String((rule as { kind: unknown }).kind))}`)
  }
}

function executionError(rule: EvalsV1Assertion, ctx: AssertionContext): AssertionCheck {
  const expectRefusal = rule.equals !== false
  const isError = isObject(ctx.root) && Boolean(ctx.root.isError)
  const refused = ctx.protocolError !== undefined || isError
  const how = ctx.protocolError
    ? `the call was answered with JSON-RPC error ${ctx.protocolError.code}: ${excerpt(ctx.protocolError.message)}`
    : isError
      ? 'the result has isError: true'
      : 'the result is not an error'
  const passed = refused === expectRefusal
  const reason = passed ? how : expectRefusal ? `expected an execution error; ${how}` : `expected no execution error; ${how}`
  return make('is_error', null, passed, expectRefusal, refused, reason)
}

function outputSchemaValid(ctx: AssertionContext): AssertionCheck {
  const path = '$.structuredContent'
  const schema = ctx.outputSchema ?? null
  if (ctx.protocolError) return make('output_schema', path, false, schema, null, `the call was answered with JSON-RPC error ${ctx.protocolError.code}: there is no structuredContent`)
  const structured = isObject(ctx.root) ? ctx.root.structuredContent : undefined
  if (structured === undefined || structured === null) return make('output_schema', path, false, schema, null, 'the result has no structuredContent')
  if (ctx.outputSchema === undefined) return make('output_schema', path, true, null, structured, 'structuredContent is present; the tool declares no outputSchema to validate it against')
  const verdict = validate(ctx.outputSchema, structured)
  return verdict.ok
    ? make('output_schema', path, true, schema, structured, "structuredContent conforms to the tool's outputSchema")
    : make('output_schema', path, false, schema, structured, `structuredContent does not conform to the tool's outputSchema: ${verdict.reason}`)
}

const TYPES: Record<(typeof EVALS_V1_TYPE_NAMES)[number], (value: Json) => boolean> = {
  number: (v) => typeof v === 'number',
  integer: (v) => typeof v === 'number' && Number.isInteger(v),
  string: (v) => typeof v === 'string',
  boolean: (v) => typeof v === 'boolean',
  object: (v) => isObject(v),
  array: (v) => Array.isArray(v),
  null: (v) => v === null
}

function jsonpathRule(rule: EvalsV1Assertion, root: Json, path: string): AssertionCheck {
  const hasEquals = rule.equals !== undefined
  const expected: Json = hasEquals ? (rule.equals as Json) : rule.type !== undefined ? { type: rule.type } : { exists: true }
  const selected = select(root, path)
  if (!selected.ok) return make('jsonpath', path, false, expected, null, selected.reason)
  if (!selected.found) return make('jsonpath', path, false, expected, null, `no value at ${path}`)
  const { value } = selected
  const failures: string[] = []
  if (hasEquals && !deepEqual(value, rule.equals as Json)) failures.push(`${show(value)} does not equal ${show(rule.equals as Json)}`)
  if (rule.type !== undefined) {
    const test = (TYPES as Record<string, ((value: Json) => boolean) | undefined>)[rule.type]
    if (!test) failures.push(`unknown type ${show(rule.type)} (one of ${EVALS_V1_TYPE_NAMES.join(', ')})`)
    else if (!test(value)) failures.push(`${show(value)} is ${typeName(value)}, not ${article(rule.type)}`)
  }
  if (failures.length) return make('jsonpath', path, false, expected, value, `${path}: ${failures.join('; ')}`)
  const said = hasEquals ? `equals ${show(rule.equals as Json)}` : rule.type !== undefined ? `is ${article(rule.type)}` : `exists (${show(value)})`
  return make('jsonpath', path, true, expected, value, `${path} ${said}`)
}

function valueRule(rule: EvalsV1Assertion, root: Json, path: string): AssertionCheck {
  const kind = rule.kind as 'equals' | 'contains' | 'pattern' | 'schema'
  const expected: Json = kind === 'equals' ? (rule.equals ?? null) : kind === 'contains' ? (rule.contains ?? null) : kind === 'pattern' ? (rule.pattern ?? null) : (rule.schema ?? null)
  const selected = select(root, path)
  if (!selected.ok) return make(kind, path, false, expected, null, selected.reason)
  if (!selected.found) return make(kind, path, false, expected, null, `no value at ${path}`)
  const { value } = selected
  switch (kind) {
    case 'equals': {
      if (rule.equals === undefined) return make(kind, path, false, null, value, 'the rule gives no value to equal')
      const passed = deepEqual(value, rule.equals as Json)
      return make(kind, path, passed, expected, value, passed ? `${path} equals ${show(expected)}` : `${path}: ${show(value)} does not equal ${show(expected)}`)
    }
    case 'contains': {
      if (typeof rule.contains !== 'string') return make(kind, path, false, null, value, 'the rule gives no text to look for')
      const text = textOf(value)
      const passed = text.toLowerCase().includes(rule.contains.toLowerCase())
      return make(kind, path, passed, expected, text, passed ? `${path} contains ${show(rule.contains)}` : `${path} does not contain ${show(rule.contains)} (case-insensitive)`)
    }
    case 'pattern': {
      if (typeof rule.pattern !== 'string') return make(kind, path, false, null, value, 'the rule gives no pattern')
      const text = textOf(value)
      let passed: boolean
      try {
        passed = compileMatcherPattern(rule.pattern).test(text)
      } catch (error) {
        return make(kind, path, false, expected, text, `invalid pattern: ${(error as Error).message}`)
      }
      return make(kind, path, passed, expected, text, passed ? `${path} matches /${rule.pattern}/i` : `${path} does not match /${rule.pattern}/i`)
    }
    case 'schema': {
      if (rule.schema === undefined) return make(kind, path, false, null, value, 'the rule gives no schema')
      const verdict = validate(rule.schema, value)
      return verdict.ok ? make(kind, path, true, expected, value, `${path} conforms to the schema`) : make(kind, path, false, expected, value, `${path} does not conform to the schema: ${verdict.reason}`)
    }
  }
}

async function resourceRule(rule: EvalsV1Assertion, ctx: AssertionContext): Promise<AssertionCheck> {
  const written = rule.uri ?? ''
  const fromPath = fromResultPath(written)
  let uri = written
  if (fromPath !== undefined) {
    const selected = select(ctx.root, fromPath)
    if (!selected.ok) return make('resource', fromPath, false, written, null, selected.reason)
    if (!selected.found || typeof selected.value !== 'string') {
      return make('resource', fromPath, false, written, selected.found ? selected.value : null, `${written} did not resolve to a string (${selected.found ? `${fromPath} is ${typeName(selected.value)}` : `no value at ${fromPath}`})`)
    }
    uri = selected.value
  }
  if (uri === '') return make('resource', fromPath ?? null, false, written, null, 'the rule names no resource to read')
  let read: Json
  try {
    read = await ctx.readResource(uri)
  } catch (error) {
    return make('resource', fromPath ?? null, false, uri, null, `reading ${uri} failed: ${excerpt(error instanceof Error ? error.message : String(error))}`)
  }
  const contents: Json[] = isObject(read) && Array.isArray(read.contents) ? (read.contents as Json[]) : []
  const text = contents
    .map((c) => (isObject(c) && typeof c.text === 'string' ? c.text : ''))
    .filter(Boolean)
    .join('\n')
  const nested = await runRules(rule.assert ?? [], { root: { text, contents }, readResource: ctx.readResource }, NESTED)
  const failed = nested.filter((c) => !c.passed)
  const actual: Json = nested.map((c) => ({ check: c.check, path: c.path, passed: c.passed, reason: c.reason }))
  if (failed.length === 0) {
    return make('resource', fromPath ?? null, true, uri, actual, nested.length ? `read ${uri}; ${count(nested.length, 'nested assertion')} passed` : `read ${uri}`)
  }
  const why = failed.map((c) => `${c.check}${c.path ? ` ${c.path}` : ''}: ${c.reason}`).join('; ')
  return make('resource', fromPath ?? null, false, uri, actual, `read ${uri}; ${failed.length} of ${count(nested.length, 'nested assertion')} failed: ${why}`)
}

/** `widget`: its fields against structuredContent, key by key, as a turn's `expect.widget.fields` (matchWidgetFields). */
function widgetRule(rule: EvalsV1Assertion, root: Json): AssertionCheck {
  const path = '$.structuredContent'
  const fields = rule.fields ?? {}
  const structured = isObject(root) ? root.structuredContent : undefined
  const { passed, reason } = matchWidgetFields(fields, structured)
  const actual: Json = isObject(structured) ? Object.fromEntries(Object.keys(fields).filter((k) => Object.hasOwn(structured, k)).map((k) => [k, (structured as Record<string, Json>)[k]])) : null
  return make('widget', path, passed, fields, actual, reason)
}

type Selected = { ok: true; found: false } | { ok: true; found: true; value: Json } | { ok: false; reason: string }

/** The value at `path`: one node's value, the array of several nodes' values; found: false for none. */
function select(root: Json, path: string): Selected {
  let nodes: Json[]
  try {
    nodes = queryValues(evalsV1Path(path), root)
  } catch (error) {
    return { ok: false, reason: (error as Error).message }
  }
  if (nodes.length === 0) return { ok: true, found: false }
  return { ok: true, found: true, value: nodes.length === 1 ? nodes[0] : nodes }
}

function typeName(value: Json): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  return article(typeof value)
}

const article = (type: string) => (type === 'null' ? 'null' : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`)
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`
const excerpt = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text)

function make(check: AssertionCheck['check'], path: string | null, passed: boolean, expected: Json, actual: Json, reason: string): AssertionCheck {
  return { check, path, passed, expected: trimForReport(expected), actual: trimForReport(actual), reason }
}
