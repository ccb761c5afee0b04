import { escapeCaptures } from '../config/placeholders.js'
import { patternProblem } from '../config/expectations.js'
import type { EvalsV1Assertion, Json } from '../config/types.js'
import type { JsonObject, Notes, Path } from './notes.js'
import { rfcPath, underStructuredContent, type Token } from './paths.js'
import type { V1Check } from './v1-types.js'

const NO_TOOL_TESTS = 'no counterpart in eval_cases tool tests'
/** The path eval-action reads `equals`, `contains`, `pattern` (and here `schema`) at by default. */
const DEFAULT_PATH = '$.structuredContent'
/** The one path outside structuredContent that has a near counterpart: the first text block (ours joins them all). */
const FIRST_TEXT = '$.content[0].text'

/**
 * One evals/v1 check as an eval_cases tool test (single-call form), or null when it calls no
 * tool (a resource read, a list). `from` is the check's place in the input, `at` the tool test's
 * place in the output; what has no counterpart goes to `notes`.
 */
export function checkToToolTest(check: V1Check, id: string, from: string, at: Path, notes: Notes): JsonObject | null {
  const call = check.call
  if (call.tool === undefined) {
    const what = call.resource !== undefined ? `resource: ${call.resource}` : `mcp: ${call.mcp ?? '?'}`
    notes.lost(`${from} (${what})`, at, `${NO_TOOL_TESTS} (they call tools only): the check is left out`)
    return null
  }
  const expect = new ExpectBuilder(from, at, notes)
  check.assert.forEach((rule, i) => expect.add(rule, `${from}.assert[${i}]`))
  const test: JsonObject = { id, tool: call.tool, args: escapeCaptures((call.args ?? {}) as Json) }
  const built = expect.build()
  if (Object.keys(built).length > 0) test.expect = built
  return test
}

/** Collects one check's rules as the keys of a tool test's `expect`. */
class ExpectBuilder {
  private isError: boolean | undefined
  private readonly contains: string[] = []
  private pattern: string | undefined
  private readonly json: Record<string, JsonObject> = {}
  private readonly schemas: Json[] = []

  constructor(
    private readonly from: string,
    private readonly at: Path,
    private readonly notes: Notes
  ) {}

  add(rule: EvalsV1Assertion, from: string): void {
    const label = `${from} (kind: ${rule.kind})`
    const lost = (why = '') => this.notes.lost(label, this.at, `${NO_TOOL_TESTS}${why}`)
    const remark = (text: string) => this.notes.remark(label, this.at, text)
    switch (rule.kind) {
      case 'executionError':
        this.isError = rule.equals !== false
        if (this.isError) remark('is_error: true (a JSON-RPC error answer also counts as the refusal here)')
        return
      case 'outputSchemaValid':
        remark("nothing to write: eval_cases tool tests always check structuredContent against the tool's outputSchema (evals/v1 checks only that it is present)")
        return
      case 'jsonpath':
      case 'equals':
        return this.value(rule, rule.path ?? (rule.kind === 'jsonpath' ? '$' : DEFAULT_PATH), label, lost)
      case 'contains':
      case 'pattern':
        return this.text(rule, rule.path ?? DEFAULT_PATH, label, lost, remark)
      case 'schema': {
        const tail = underStructuredContent(rule.path ?? DEFAULT_PATH)
        if (tail === null) return lost(` (schema reads structuredContent; this path is ${rule.path})`)
        if (rule.schema === undefined) return lost(' (the rule gives no schema)')
        this.schemas.push(nest(tail, rule.schema))
        return
      }
      case 'widget': {
        // Each field is JSON equality with structuredContent's key: a json matcher per key.
        const fields = Object.entries(rule.fields ?? {})
        if (fields.length === 0) return lost(' (the rule gives no fields)')
        for (const [key, value] of fields) this.matcher([key], { equals: value }, label)
        remark(`widget fields as json matchers on structuredContent (${fields.map(([key]) => rfcPath([key])).join(', ')}: equals)`)
        return
      }
      default:
        lost(rule.kind === 'resource' ? ` (a tool test reads no resource${rule.uri ? `: ${rule.uri}` : ''})` : '')
    }
  }

  /** jsonpath / equals: a json matcher on structuredContent. */
  private value(rule: EvalsV1Assertion, path: string, label: string, lost: (why?: string) => void): void {
    const tail = underStructuredContent(path)
    if (tail === null) return lost(` (json paths read structuredContent; this path is ${path})`)
    if (rule.kind === 'jsonpath' && rule.equals === undefined && rule.type !== undefined) {
      this.schemas.push(nest(tail, { type: rule.type }))
      return
    }
    const matcher: JsonObject = rule.kind === 'equals' || rule.equals !== undefined ? { equals: rule.equals ?? null } : { exists: true }
    this.matcher(tail, matcher, label)
  }

  /** contains / pattern: a json matcher below structuredContent, else the text (with the difference said). */
  private text(rule: EvalsV1Assertion, path: string, label: string, lost: (why?: string) => void, remark: (t: string) => void): void {
    const needle = rule.kind === 'contains' ? (rule.contains ?? '') : (rule.pattern ?? '')
    if (rule.kind === 'pattern') {
      const problem = patternProblem(needle)
      if (problem) return lost(` (${problem})`)
    }
    const tail = underStructuredContent(path)
    if (tail !== null && tail.length > 0) return this.matcher(tail, { [rule.kind]: needle }, label)
    if (tail === null && path !== FIRST_TEXT) return lost(` (contains and pattern read the text or structuredContent; this path is ${path})`)
    const difference =
      tail === null
        ? 'ours reads the text of every text block, joined; evals/v1 the first block only'
        : 'ours reads the text (its text content, else the JSON of structuredContent); evals/v1 reads structuredContent (as JSON here; eval-action\'s own runner reads an object as "[object Object]")'
    if (rule.kind === 'contains') {
      this.contains.push(needle)
      remark(`contains on the text: ${difference}`)
    } else if (this.pattern === undefined) {
      this.pattern = needle
      remark(`pattern on the text: ${difference}`)
    } else {
      lost(' (a tool test has one text pattern)')
    }
  }

  private matcher(tail: Token[], matcher: JsonObject, label: string): void {
    const key = rfcPath(tail)
    const existing = this.json[key]
    if (existing === undefined) {
      this.json[key] = matcher
      return
    }
    for (const [k, v] of Object.entries(matcher)) {
      if (k in existing) this.notes.lost(label, this.at, `${NO_TOOL_TESTS} (a second ${k} on ${key})`)
      else existing[k] = v
    }
  }

  build(): JsonObject {
    const out: JsonObject = {}
    if (this.isError === undefined) {
      this.notes.remark(this.from, this.at, 'is_error: false, which a tool test expects unless it says otherwise (evals/v1 checks isError only when an executionError rule says so)')
    }
    out.is_error = this.isError ?? false
    if (this.contains.length > 0) out.contains = this.contains
    if (this.pattern !== undefined) out.pattern = this.pattern
    if (Object.keys(this.json).length > 0) out.json = this.json
    if (this.schemas.length === 1) out.schema = this.schemas[0]
    else if (this.schemas.length > 1) out.schema = { allOf: this.schemas }
    return out
  }
}

/** A schema for the value at `tail` below the root, as a schema of the root: `{a: S}` is `{type: object, required: [a], properties: {a: S}}`. */
export function nest(tail: Token[], schema: Json): Json {
  let out = schema
  for (let i = tail.length - 1; i >= 0; i--) {
    const step = tail[i]
    out =
      typeof step === 'number'
        ? { type: 'array', minItems: step + 1, prefixItems: [...Array.from({ length: step }, () => ({})), out] }
        : { type: 'object', required: [step], properties: { [step]: out } }
  }
  return out
}
