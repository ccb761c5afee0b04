import type { ProbeData } from '../probe-data.js'
import type { CheckResult } from '../types.js'
import type { Exchange } from '../wire.js'
import { dialectOf, validatorFor } from '../../util/json-schema.js'
import { PatternError } from '../../util/matcher-pattern.js'
import { firstLine } from '../../util/text.js'
import { NAMES_SHOWN, someOf } from '../../util/words.js'
import { describeResponse, failed, isObject, passed, resultOf, skipped, type CheckSpec } from './common.js'
import { toolListProblem, unreadableToolList } from './responses.js'
import { checkSchemaKeywords } from './schema-dialect.js'

/** Checks on the tools themselves: schemas, names, and description lint. */

export const INPUT_SCHEMA: CheckSpec = { id: 'tool-input-schema-valid', severity: 'error', spec: '§8 inputSchema: root type object, valid JSON Schema (2020-12 unless $schema says otherwise)' }
export const OUTPUT_SCHEMA: CheckSpec = { id: 'tool-output-schema-valid', severity: 'error', spec: '§8 outputSchema: valid JSON Schema' }
export const REMOTE_REF: CheckSpec = { id: 'schema-no-remote-ref', severity: 'error', spec: '§8 $ref to a network URI: clients must not fetch it, so the schema cannot be resolved' }
export const TOOL_NAMES: CheckSpec = {
  id: 'tool-names-valid',
  severity: 'warning',
  spec: '§9 server/tools "Tool Names" (2025-11-25, 2026-07-28): SHOULD be 1–128 characters, only A-Z a-z 0-9 _ - .'
}
export const TOOL_NAMES_UNIQUE: CheckSpec = { id: 'tool-names-unique', severity: 'error', spec: '§9 tool names identify tools' }
export const LINT_DESCRIPTIONS: CheckSpec = { id: 'lint-tool-descriptions', severity: 'warning', spec: 'lint: models choose tools by their descriptions' }
export const LINT_PARAMETERS: CheckSpec = { id: 'lint-parameter-descriptions', severity: 'warning', spec: 'lint: models fill arguments from parameter descriptions' }
export const LINT_NEAR_DUPLICATES: CheckSpec = {
  id: 'lint-near-duplicate-names',
  severity: 'warning',
  spec: 'lint: names that differ only in case or separators (getItem, get_item, get-item) make models pick the wrong one'
}
export const TASK_SUPPORT_REQUIRED: CheckSpec = {
  id: 'tool-task-support-required',
  severity: 'warning',
  spec: '§10 Tasks moved to an extension: a tool with execution.taskSupport "required" only runs as a task'
}
export const LINT_SCHEMA_SIZE: CheckSpec = { id: 'lint-schema-size', severity: 'warning', spec: 'lint: large schemas crowd the model’s context' }

/** A tool schema over this many characters of JSON costs a model real context on every turn. */
export const LARGE_SCHEMA_CHARS = 8000
/**
 * The spec's text (server/tools "Tool Names", 2025-11-25 and 2026-07-28), not SEP-986's draft
 * (1–64 characters, `/` allowed), which the conformance suite's tools-name-format followed up to
 * 0.2.0-alpha.11.
 */
const NAME_RULE = /^[A-Za-z0-9_.-]{1,128}$/

export interface Tool {
  name: string
  description?: unknown
  inputSchema?: unknown
  outputSchema?: unknown
  annotations?: unknown
  execution?: unknown
}

/** The tools a list of pages lists, in page order; undefined when the first page lists none. */
export function toolsOfPages(pages: (Exchange | undefined)[]): Tool[] | undefined {
  const all = pages.map((p) => resultOf(p)?.tools)
  if (!Array.isArray(all[0])) return undefined
  return all.flatMap((tools) => (Array.isArray(tools) ? tools : [])).filter(isObject).map((t) => ({ ...t, name: String(t.name) }))
}

/** The tools/list page that lists `name`, for evidence (page 1 when none does). */
export function pageListing(probe: ProbeData, name: string): Exchange | undefined {
  const pages = probe.listPages?.['tools/list'] ?? probe.toolsList
  return pages.find((p) => toolsOfPages([p])?.some((t) => t.name === name)) ?? probe.toolsList[0]
}

/** Every listed tool, over all pages of the first listing. */
export function listedTools(probe: ProbeData): Tool[] | undefined {
  return toolsOfPages(probe.listPages?.['tools/list'] ?? [probe.toolsList[0]])
}

/** Every `$ref` in a schema, with where it is. */
function refs(schema: unknown, path = '#'): { ref: string; at: string }[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => refs(s, `${path}/${i}`))
  if (!isObject(schema)) return []
  const own = typeof schema.$ref === 'string' ? [{ ref: schema.$ref, at: path }] : []
  return [...own, ...Object.entries(schema).flatMap(([k, v]) => (k === 'enum' || k === 'const' ? [] : refs(v, `${path}/${k}`)))]
}

const isRemote = (ref: string) => !ref.startsWith('#')

/** The schema with remote `$ref`s dropped: they are another check's finding, not this one's. */
function withoutRemoteRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutRemoteRefs)
  if (!isObject(schema)) return schema
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$ref' && typeof v === 'string' && isRemote(v)) continue
    out[k] = k === 'enum' || k === 'const' ? v : withoutRemoteRefs(v)
  }
  return out
}

/** Compile under the dialect the schema names (2020-12 when it names none). */
function compileProblem(schema: unknown): string | undefined {
  if (typeof schema === 'boolean') return undefined
  if (!isObject(schema)) return 'is not a JSON Schema object'
  const dialect = dialectOf(schema)
  const ajv = validatorFor(dialect)
  if (!ajv) return `declares an unsupported dialect ${dialect}`
  try {
    const cleaned = withoutRemoteRefs(schema) as Record<string, unknown>
    // A schema's own $id must not clash across compiles, and must not send the resolver out.
    delete cleaned.$id
    ajv.compile(cleaned)
    return undefined
  } catch (error) {
    // A valid pattern the harness's RE2 cannot run (a lookahead…) is no fault of the server's.
    if (error instanceof PatternError) return undefined
    return firstLine((error as Error).message)
  }
}

export function checkSchemas(probe: ProbeData): CheckResult[] {
  const tools = listedTools(probe)
  if (!tools) {
    const why = `tools/list got ${describeResponse(probe.toolsList[0])}`
    return [...[INPUT_SCHEMA, OUTPUT_SCHEMA, REMOTE_REF].map((c) => skipped(c, why)), checkSchemaKeywords(undefined)]
  }
  const inputProblems: string[] = []
  const outputProblems: string[] = []
  const remote: string[] = []
  let outputs = 0
  for (const tool of tools) {
    const input = tool.inputSchema
    if (!isObject(input)) inputProblems.push(`${tool.name}: no inputSchema object`)
    else {
      if (input.type !== 'object') inputProblems.push(`${tool.name}: root type must be "object" (is ${JSON.stringify(input.type) ?? 'missing'})`)
      const problem = compileProblem(input)
      if (problem) inputProblems.push(`${tool.name}: ${problem}`)
    }
    if (tool.outputSchema !== undefined) {
      outputs++
      const problem = compileProblem(tool.outputSchema)
      if (problem) outputProblems.push(`${tool.name}: ${problem}`)
    }
    for (const [field, schema] of [
      ['inputSchema', input],
      ['outputSchema', tool.outputSchema]
    ] as const) {
      for (const { ref, at } of refs(schema).filter((r) => isRemote(r.ref))) remote.push(`${tool.name}.${field} ${at}: $ref ${ref}`)
    }
  }
  const evidence = probe.toolsList[0]
  return [
    inputProblems.length ? failed(INPUT_SCHEMA, inputProblems.join('; '), evidence) : passed(INPUT_SCHEMA, `${tools.length} input schemas compile`),
    outputs === 0
      ? skipped(OUTPUT_SCHEMA, 'no tool declares an outputSchema')
      : outputProblems.length
        ? failed(OUTPUT_SCHEMA, outputProblems.join('; '), evidence)
        : passed(OUTPUT_SCHEMA, `${outputs} output schemas compile`),
    remote.length ? failed(REMOTE_REF, `remote references (not fetched): ${remote.join('; ')}`, evidence) : passed(REMOTE_REF, 'every $ref is local'),
    checkSchemaKeywords(tools, evidence)
  ]
}

export function checkToolNames(probe: ProbeData): CheckResult[] {
  const tools = listedTools(probe)
  // A list the server made unreadable is no pass by default: the names were not checked.
  const unreadable = toolListProblem(probe)
  if (unreadable) return [unreadableToolList(TOOL_NAMES, unreadable), unreadableToolList(TOOL_NAMES_UNIQUE, unreadable)]
  if (!tools) return [skipped(TOOL_NAMES, 'no tool list'), skipped(TOOL_NAMES_UNIQUE, 'no tool list')]
  const bad = tools.filter((t) => !NAME_RULE.test(t.name)).map((t) => JSON.stringify(t.name))
  const counts = new Map<string, number>()
  for (const t of tools) counts.set(t.name, (counts.get(t.name) ?? 0) + 1)
  const duplicates = [...counts].filter(([, n]) => n > 1).map(([name, n]) => `${name} (${n}×)`)
  return [
    bad.length ? failed(TOOL_NAMES, `names outside the rule: ${someOf(bad)}`, probe.toolsList[0]) : passed(TOOL_NAMES, 'every name follows the rule'),
    duplicates.length ? failed(TOOL_NAMES_UNIQUE, `duplicate names: ${someOf(duplicates)}`, probe.toolsList[0]) : passed(TOOL_NAMES_UNIQUE, 'every name is unique')
  ]
}

/** The schema a local `{"$ref": "#/..."}` points at, within the same root. */
function resolveLocalRef(root: unknown, schema: unknown): unknown {
  if (!isObject(schema) || typeof schema.$ref !== 'string' || !schema.$ref.startsWith('#/')) return undefined
  let node: unknown = root
  for (const part of schema.$ref.slice(2).split('/')) node = isObject(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined
  return node
}

/** Most tool-selection failures are description failures: warn about the usual ones. */
export function lintTools(probe: ProbeData): CheckResult[] {
  const tools = listedTools(probe)
  if (!tools) return [LINT_DESCRIPTIONS, LINT_PARAMETERS, LINT_NEAR_DUPLICATES, LINT_SCHEMA_SIZE].map((c) => skipped(c, 'no tool list'))
  const thin = tools.filter((t) => typeof t.description !== 'string' || t.description.trim().split(/\s+/).filter(Boolean).length < 2)
  const undescribed: string[] = []
  for (const tool of tools) {
    const properties = isObject(tool.inputSchema) && isObject(tool.inputSchema.properties) ? tool.inputSchema.properties : {}
    for (const [name, schema] of Object.entries(properties)) {
      const described = [schema, resolveLocalRef(tool.inputSchema, schema)].some((s) => isObject(s) && typeof s.description === 'string' && s.description.trim() !== '')
      if (!described) undescribed.push(`${tool.name}.${name}`)
    }
  }
  // Only case and separator variants: an edit-distance rule flagged deliberate pairs such as
  // browser_network_request / browser_network_requests (one request, or the list of them).
  const normal = (name: string) => name.toLowerCase().replace(/[-_.]/g, '')
  // Grouped by the normal form rather than compared pair by pair (10,000 tools are 50 million pairs).
  const alike = new Map<string, number[]>()
  tools.forEach((t, i) => {
    const key = normal(t.name)
    const group = alike.get(key)
    if (group) group.push(i)
    else alike.set(key, [i])
  })
  // Every confusable pair counted, the first few named.
  const close: string[] = []
  let closeCount = 0
  for (let i = 0; i < tools.length; i++) {
    for (const j of alike.get(normal(tools[i].name))!) {
      if (j <= i || tools[i].name === tools[j].name) continue
      if (close.length < NAMES_SHOWN) close.push(`${tools[i].name} ~ ${tools[j].name}`)
      closeCount++
    }
  }
  const large = tools
    .map((t) => ({ name: t.name, size: JSON.stringify(t.inputSchema ?? {}).length + JSON.stringify(t.outputSchema ?? {}).length }))
    .filter((t) => t.size > LARGE_SCHEMA_CHARS)
  return [
    thin.length
      ? failed(LINT_DESCRIPTIONS, `missing or one-word descriptions: ${someOf(thin.map((t) => t.name))}`)
      : passed(LINT_DESCRIPTIONS, 'every tool has a description of more than one word'),
    undescribed.length ? failed(LINT_PARAMETERS, `parameters without a description: ${someOf(undescribed)}`) : passed(LINT_PARAMETERS, 'every parameter is described'),
    close.length ? failed(LINT_NEAR_DUPLICATES, `confusable names: ${close.join('; ')}${closeCount > close.length ? `; and ${(closeCount - close.length).toLocaleString('en-US')} more` : ''}`) : passed(LINT_NEAR_DUPLICATES, 'no confusable names'),
    large.length
      ? failed(LINT_SCHEMA_SIZE, `schemas over ${LARGE_SCHEMA_CHARS} characters: ${someOf(large.map((t) => `${t.name} (${t.size})`))}`)
      : passed(LINT_SCHEMA_SIZE, `every schema is under ${LARGE_SCHEMA_CHARS} characters`)
  ]
}

/**
 * Tools that only run as tasks. A 2026-07-28 client without the tasks extension never starts a
 * task, so it cannot call them: they are not offered to the model at all.
 */
export function checkTaskSupport(probe: ProbeData): CheckResult {
  const tools = listedTools(probe)
  if (!tools) return skipped(TASK_SUPPORT_REQUIRED, 'no tool list')
  const required = tools.filter((t) => isObject(t.execution) && t.execution.taskSupport === 'required').map((t) => t.name)
  if (required.length === 0) return passed(TASK_SUPPORT_REQUIRED, 'no tool requires a task')
  return failed(
    TASK_SUPPORT_REQUIRED,
    `${someOf(required)}: execution.taskSupport is "required", so they only run as tasks, which a 2026-07-28 client without the tasks extension does not start; they are not offered to the model`,
    pageListing(probe, required[0])
  )
}
