import type { Json, ToolTestStep } from '../config/types.js'
import type { McpTool } from '../mcp/session.js'
import { contentToText } from '../mcp/content.js'
import type { AssertionCheck, StepResponse } from '../results/types.js'
import { compileMatcherPattern } from '../scoring/tool-assertions.js'
import type { MatcherPattern } from '../util/matcher-pattern.js'
import { validateAgainst as validate } from '../util/json-schema.js'
import { queryValues } from './jsonpath.js'
import { matchValue, show, trimForReport } from './matchers.js'
import { compareSnapshot, normaliseSnapshot, snapshotFileName, type SnapshotStore } from './snapshot.js'

export interface StepCheckInput {
  testId: string
  step: ToolTestStep
  /** 1-based. */
  stepIndex: number
  stepCount: number
  response: StepResponse
  latencyMs: number
  /** The tool as the server listed it; undefined when it is not listed. */
  tool: McpTool | undefined
  snapshots: SnapshotStore
  /** Applied to the snapshot document before it is compared and written: secrets never reach a snapshot file. */
  redact?: <T>(value: T) => T
}

/**
 * Every assertion of one step, in a fixed order: is_error, output_schema, contains, pattern,
 * json (one check per path), schema, max_ms, snapshot. All of them run even when an earlier one
 * failed, so a report shows everything that is wrong with the answer at once. Captures are not
 * checked here: the runner takes them (captureFromResponse) after this passes.
 */
export function checkStep(input: StepCheckInput): AssertionCheck[] {
  const { step, response } = input
  const expect = step.expect
  const text = responseText(response)
  const value = responseValue(response)
  const checks: AssertionCheck[] = [checkIsError(expect.is_error ?? false, response)]
  const output = checkOutputSchema(input.tool, response)
  if (output) checks.push(output)
  for (const needle of expect.contains ?? []) {
    const passed = text.toLowerCase().includes(needle.toLowerCase())
    checks.push(make('contains', null, passed, needle, text, passed ? `the text contains ${show(needle)}` : `the text does not contain ${show(needle)}`))
  }
  if (expect.pattern !== undefined) checks.push(checkPattern(expect.pattern, text))
  for (const [path, matcher] of Object.entries(expect.json ?? {})) checks.push(checkJson(path, matcher, value))
  if (expect.schema !== undefined) checks.push(checkExtraSchema(expect.schema, value))
  if (expect.max_ms !== undefined) {
    const passed = input.latencyMs <= expect.max_ms
    checks.push(make('max_ms', null, passed, expect.max_ms, input.latencyMs, passed ? `answered in ${input.latencyMs} ms` : `took ${input.latencyMs} ms, more than ${expect.max_ms} ms`))
  }
  if (expect.snapshot !== undefined && expect.snapshot !== null) {
    const name = snapshotFileName(input.testId, input.stepIndex, input.stepCount)
    // A text answer that is not JSON is stored as the string: there is nothing to `ignore` in it.
    const doc = value.ok ? normaliseSnapshot(isRefusal(response), value.value, expect.snapshot.ignore) : normaliseSnapshot(isRefusal(response), text, [])
    checks.push(compareSnapshot(input.snapshots, name, input.redact ? input.redact(doc) : doc))
  }
  return checks
}

/**
 * The text of a response, as `contains` and `pattern` read it: the text content blocks joined
 * with newlines (what a model would be shown), else the JSON of structuredContent; for a
 * JSON-RPC error, its message.
 */
export function responseText(response: StepResponse): string {
  if (response.kind === 'error') return response.message
  if (response.kind === 'value') return typeof response.value === 'string' ? response.value : JSON.stringify(response.value)
  return contentToText(response.content, response.structured_content ?? undefined)
}

/**
 * The value `json`, `schema`, `snapshot` and `capture` read: structuredContent when there is
 * one, else the text content parsed as JSON (servers that predate structured output return JSON
 * as text); for a JSON-RPC error, `{code, message, data}`.
 */
export function responseValue(response: StepResponse): { ok: true; value: Json } | { ok: false; reason: string } {
  if (response.kind === 'error') return { ok: true, value: { code: response.code, message: response.message, data: response.data } }
  if (response.kind === 'value') return { ok: true, value: response.value }
  if (response.structured_content !== null) return { ok: true, value: response.structured_content }
  const text = contentToText(response.content)
  if (text.trim() === '') return { ok: false, reason: 'the result has no structuredContent and no text content' }
  try {
    return { ok: true, value: JSON.parse(text) as Json }
  } catch {
    const head = text.length > 80 ? `${text.slice(0, 80)}…` : text
    return { ok: false, reason: `the result has no structuredContent and its text is not JSON: ${JSON.stringify(head)}` }
  }
}

/** An isError result and a JSON-RPC error are both refusals. */
const isRefusal = (response: StepResponse) => response.kind === 'error' || (response.kind === 'result' && response.is_error)

function checkIsError(expected: boolean, response: StepResponse): AssertionCheck {
  const refused = isRefusal(response)
  const how =
    response.kind === 'error'
      ? `the call got a JSON-RPC error ${response.code}: ${excerpt(response.message, 200)}`
      : response.kind === 'result' && response.is_error
        ? `the result has isError: true${errorText(response)}`
        : 'the result is not an error'
  const passed = refused === expected
  const reason = passed ? how : expected ? `expected the call to be refused; ${how}` : `expected a successful result; ${how}`
  return make('is_error', null, passed, expected, refused, reason)
}

function errorText(response: StepResponse): string {
  const text = responseText(response)
  return text ? ` (${excerpt(text, 200)})` : ''
}

/**
 * The spec: a tool that declares an outputSchema MUST return structuredContent conforming to it.
 * Only successful results are held to it: an error result carries no structured output.
 */
function checkOutputSchema(tool: McpTool | undefined, response: StepResponse): AssertionCheck | undefined {
  if (!tool?.outputSchema || response.kind !== 'result' || response.is_error) return undefined
  const schema = tool.outputSchema as Json
  if (response.structured_content === null) {
    return make('output_schema', null, false, schema, null, `${tool.name} declares an outputSchema, but the result has no structuredContent (the spec requires it)`)
  }
  const verdict = validate(schema, response.structured_content)
  const actual = response.structured_content
  return verdict.ok
    ? make('output_schema', null, true, schema, actual, `structuredContent conforms to ${tool.name}'s outputSchema`)
    : make('output_schema', null, false, schema, actual, `structuredContent does not conform to ${tool.name}'s outputSchema: ${verdict.reason}`)
}

function checkPattern(pattern: string, text: string): AssertionCheck {
  let regex: MatcherPattern
  try {
    regex = compileMatcherPattern(pattern)
  } catch (error) {
    return make('pattern', null, false, pattern, text, `invalid pattern: ${(error as Error).message}`)
  }
  const passed = regex.test(text)
  return make('pattern', null, passed, pattern, text, passed ? `the text matches /${pattern}/` : `the text does not match /${pattern}/`)
}

function checkJson(path: string, matcher: Json, value: ReturnType<typeof responseValue>): AssertionCheck {
  if (!value.ok) return make('json', path, false, matcher, null, value.reason)
  let nodes: Json[]
  try {
    nodes = queryValues(path, value.value)
  } catch (error) {
    return make('json', path, false, matcher, null, (error as Error).message)
  }
  const outcome = matchValue(matcher, nodes, path)
  return make('json', path, outcome.passed, matcher, outcome.actual, outcome.reason)
}

function checkExtraSchema(schema: Json, value: ReturnType<typeof responseValue>): AssertionCheck {
  if (!value.ok) return make('schema', null, false, schema, null, value.reason)
  const verdict = validate(schema, value.value)
  const actual = value.value
  return verdict.ok ? make('schema', null, true, schema, actual, 'the value conforms to the schema') : make('schema', null, false, schema, actual, `the value does not conform to the schema: ${verdict.reason}`)
}

function make(check: AssertionCheck['check'], path: string | null, passed: boolean, expected: Json, actual: Json, reason: string): AssertionCheck {
  return { check, path, passed, expected: trimForReport(expected), actual: trimForReport(actual), reason }
}

const excerpt = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text)
