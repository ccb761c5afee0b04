import type { EvalsV1Assertion, Json } from '../config/types.js'
import type { JsonObject, Notes, Path } from './notes.js'
import { rfcTokens, v1Path } from './paths.js'
import { unescapeCaptures } from '../config/placeholders.js'
import { escapeRegExp } from '../util/text.js'

const NO_CHECKS = 'no counterpart in evals/v1 checks'
/** Where evals/v1 finds the text ours reads (its first text block; ours joins them all). */
const FIRST_TEXT = '$.content[0].text'
/** Matcher keywords with a counterpart; the others (numbers, lengths, exists: false) have none. */
const MATCHER_RULES = new Set(['equals', 'contains', 'pattern', 'exists'])

type RawTest = Record<string, Json>

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** One eval_cases tool test as an evals/v1 check, or null (a multi-step test). */
export function toolTestToCheck(test: RawTest, from: string, at: Path, notes: Notes): JsonObject | null {
  if (test.steps !== undefined) {
    notes.lost(`${from} (steps)`, at, `${NO_CHECKS}: a check is one call (and has no captures); the test is left out`)
    return null
  }
  for (const key of ['runs', 'tags', 'capture'] as const) {
    if (test[key] !== undefined) notes.lost(`${from}.${key}`, at, NO_CHECKS)
  }
  const expect = isObject(test.expect) ? test.expect : {}
  const rules: EvalsV1Assertion[] = [{ kind: 'executionError', equals: expect.is_error === true }]
  if (expect.is_error === true) notes.remark(`${from}.expect.is_error`, at, 'a JSON-RPC error answer is a refusal here; evals/v1 fails the check on one')
  const texts = expect.contains === undefined ? [] : Array.isArray(expect.contains) ? expect.contains : [expect.contains]
  for (const needle of texts) rules.push({ kind: 'contains', path: FIRST_TEXT, contains: String(needle) })
  if (typeof expect.pattern === 'string') rules.push({ kind: 'pattern', path: FIRST_TEXT, pattern: expect.pattern })
  if (texts.length > 0 || expect.pattern !== undefined) {
    notes.remark(`${from}.expect`, at, 'contains and pattern read the first text block here (ours read every text block, joined, else the JSON of structuredContent); a Python-only pattern spelling would not compile there')
  }
  if (isObject(expect.json)) {
    for (const [path, matcher] of Object.entries(expect.json)) rules.push(...jsonRules(path, matcher, `${from}.expect.json["${path}"]`, at, notes))
    notes.remark(`${from}.expect.json`, at, 'evals/v1 paths read structuredContent only; ours also read the text parsed as JSON when there is none')
  }
  if (expect.schema !== undefined) rules.push({ kind: 'schema', path: '$.structuredContent', schema: expect.schema })
  for (const key of ['max_ms', 'snapshot'] as const) {
    if (expect[key] !== undefined) notes.lost(`${from}.expect.${key}`, at, NO_CHECKS)
  }
  return { id: String(test.id), call: { tool: String(test.tool), args: unescapeCaptures(test.args ?? {}) }, assert: rules as unknown as Json }
}

/** One `json` entry as evals/v1 rules on `$.structuredContent…`. */
function jsonRules(path: string, matcher: Json, from: string, at: Path, notes: Notes): EvalsV1Assertion[] {
  const tokens = rfcTokens(path)
  const v1 = tokens === null ? null : v1Path(['structuredContent', ...tokens])
  if (v1 === null) {
    notes.lost(from, at, `${NO_CHECKS}: evals/v1 paths are $.a.b[0] steps only (no wildcards, filters or slices)`)
    return []
  }
  if (matcher === 'any') return [{ kind: 'jsonpath', path: v1 }]
  if (typeof matcher === 'string') return [{ kind: 'pattern', path: v1, pattern: `^${escapeRegExp(matcher)}$` }]
  if (!isObject(matcher) || !Object.keys(matcher).every((k) => [...MATCHER_RULES, 'gte', 'gt', 'lte', 'lt', 'number', 'tolerance', 'length'].includes(k))) {
    return [{ kind: 'jsonpath', path: v1, equals: matcher }]
  }
  const rules: EvalsV1Assertion[] = []
  for (const [keyword, value] of Object.entries(matcher)) {
    if (keyword === 'equals') rules.push({ kind: 'jsonpath', path: v1, equals: value })
    else if (keyword === 'contains') rules.push({ kind: 'contains', path: v1, contains: String(value) })
    else if (keyword === 'pattern') rules.push({ kind: 'pattern', path: v1, pattern: String(value) })
    else if (keyword === 'exists' && value === true) rules.push({ kind: 'jsonpath', path: v1 })
    else notes.lost(`${from}.${keyword}`, at, NO_CHECKS)
  }
  return rules
}
