import { ProtocolErrorCode } from '@modelcontextprotocol/client'
import type { ValidateFunction } from 'ajv'
import type { McpTool, RawToolCall } from '../mcp/session.js'
import type { ObservedCalls, Observation } from '../results/types.js'
import { compileSchema, passesSafely } from '../util/json-schema.js'
import { trimEvidence } from '../util/text.js'
import type { CheckSpec } from './checks/common.js'
import type { CheckResult, CheckSeverity } from './types.js'
import { isObject } from '../util/objects.js'
import { OBSERVED_INPUT_CHECKS } from './observed-inputs.js'

const INPUT_CHECK_IDS = new Set(OBSERVED_INPUT_CHECKS.map((spec) => spec.id))

/**
 * Conformance observed on real calls: every tool result a tool test or a behaviour run sees is
 * held to the rules a probe can only sample. Pure: no I/O, never throws; what the server sent is
 * data to describe (the renderers escape it), never something to act on.
 */

export const OBSERVED_OUTPUT_SCHEMA: CheckSpec = { id: 'observed-output-schema', severity: 'error', spec: "§8 structuredContent MUST conform to the tool's outputSchema" }
export const OBSERVED_INVALID_ARGUMENTS: CheckSpec = {
  id: 'observed-invalid-arguments-result',
  severity: 'error',
  spec: '§5 tool argument failures are results with isError: true, not JSON-RPC errors'
}
export const OBSERVED_UNKNOWN_TOOL: CheckSpec = { id: 'observed-unknown-tool-error', severity: 'error', spec: '§5 unknown tool → -32602' }
export const OBSERVED_CONTENT_BLOCKS: CheckSpec = { id: 'observed-content-blocks', severity: 'error', spec: 'tool result content must be valid content blocks' }

/** Every observed check, in the order the report lists them: the tool-result checks, then the server-input ones (observed-inputs.ts). */
export const OBSERVED_CHECKS: readonly CheckSpec[] = [OBSERVED_OUTPUT_SCHEMA, OBSERVED_INVALID_ARGUMENTS, OBSERVED_UNKNOWN_TOOL, OBSERVED_CONTENT_BLOCKS, ...OBSERVED_INPUT_CHECKS]

export interface ObserveContext {
  era: 'modern' | 'legacy'
  /** Whether the caller found the arguments valid against the tool's inputSchema; null when it could not tell. */
  argsValid: boolean | null
}

const EVIDENCE_CHARS = 600
const VALUE_CHARS = 60
/** How many schema errors one finding names. */
const SCHEMA_ERRORS = 3
/** How many bad content blocks one finding names. */
const BLOCK_PROBLEMS = 3
/** How many distinct findings a check's message lists, and how many places each names. */
const MESSAGES = 5
const LABELS = 3

/** The MCP error codes about the envelope or headers (§5): a right answer to a different problem than the call's own. -32020 (header mismatch) has no SDK export. */
const ENVELOPE_CODES = new Set<number>([-32020, ProtocolErrorCode.MissingRequiredClientCapability, ProtocolErrorCode.UnsupportedProtocolVersion])
const INVALID_PARAMS: number = ProtocolErrorCode.InvalidParams

/** Check one tools/call and its raw answer; the findings, if any. */
export function observeToolCall(call: RawToolCall, tool: McpTool | undefined, context: ObserveContext): Observation[] {
  try {
    return observe(call, tool, context)
  } catch {
    // Only a bug of ours lands here; a broken check must not break the run that called the tool.
    return []
  }
}

function observe(call: RawToolCall, tool: McpTool | undefined, context: ObserveContext): Observation[] {
  const findings: Observation[] = []
  const name = typeof call.name === 'string' ? call.name : String(call.name)
  // §5's split (unknown tool → -32602, bad arguments → isError result) is required from 2026-07-28;
  // legacy servers commonly did otherwise (§13), so for them it warns, as the probe's check does.
  const protocolSeverity: CheckSeverity = context.era === 'legacy' ? 'warning' : 'error'
  const add = (spec: CheckSpec, severity: CheckSeverity, message: string, focus?: string) =>
    findings.push({ check: spec.id, severity, tool: name, message: `${name}: ${message}`, evidence: evidenceOf(call, focus) })

  const response = call.response
  if (response.kind === 'error') {
    const code = isObject(response.error) ? response.error.code : undefined
    const described = describeError(response.error)
    const envelope = typeof code === 'number' && ENVELOPE_CODES.has(code)
    if (context.argsValid === false && !envelope) {
      add(OBSERVED_INVALID_ARGUMENTS, protocolSeverity, `arguments that fail its inputSchema got JSON-RPC ${described}, not a result with isError: true`)
    }
    if (!tool && !envelope && code !== INVALID_PARAMS) add(OBSERVED_UNKNOWN_TOOL, protocolSeverity, `an unlisted tool got JSON-RPC ${described}, not -32602`)
    return findings
  }

  const result = response.result
  if (!isObject(result)) {
    add(OBSERVED_CONTENT_BLOCKS, 'error', 'the result is not an object')
    return findings
  }
  if (!tool) add(OBSERVED_UNKNOWN_TOOL, protocolSeverity, `an unlisted tool got a result${result.isError === true ? ' (isError: true)' : ''}, not JSON-RPC error -32602`)
  // An input_required answer (§7) that the client did not follow up carries no content to check.
  if (result.resultType !== undefined && result.resultType !== 'complete') return findings

  const blockProblems = contentProblems(result.content)
  if (blockProblems.length) {
    const shown = blockProblems.slice(0, BLOCK_PROBLEMS).join(', ')
    const more = blockProblems.length > BLOCK_PROBLEMS ? ` and ${blockProblems.length - BLOCK_PROBLEMS} more` : ''
    add(OBSERVED_CONTENT_BLOCKS, 'error', shown + more, 'content')
  }

  // §8: servers MUST conform; a tool error result need not carry structuredContent.
  if (tool?.outputSchema !== undefined && result.isError !== true) {
    const validate = compiledOutputSchema(tool)
    if (validate) {
      if (!('structuredContent' in result) || result.structuredContent === undefined) {
        add(OBSERVED_OUTPUT_SCHEMA, 'error', 'the tool declares an outputSchema but the result has no structuredContent', 'structuredContent')
      } else {
        const errors = schemaErrors(validate, result.structuredContent)
        if (errors.length) add(OBSERVED_OUTPUT_SCHEMA, 'error', errors.join(', '), 'structuredContent')
      }
    }
  }
  return findings
}

// ---- outputSchema ------------------------------------------------------------------------------

/**
 * The validator for a tool's outputSchema (each distinct schema compiled once per process); null
 * when it does not compile: tool-output-schema-valid owns that finding, and no loader is set, so
 * a remote $ref is never fetched (§8) and such a schema is skipped here.
 */
function compiledOutputSchema(tool: McpTool): ValidateFunction | null {
  const compiled = compileSchema(tool.outputSchema)
  return 'validate' in compiled ? compiled.validate : null
}

function schemaErrors(validate: ValidateFunction, value: unknown): string[] {
  // A validation that blows up (recursion too deep) proves nothing about the server.
  if (passesSafely(validate, value) !== false) return []
  const errors = validate.errors ?? []
  if (!errors.length) return ['structuredContent does not match the outputSchema']
  return errors.slice(0, SCHEMA_ERRORS).map((e) => {
    const at = `structuredContent${e.instancePath}`
    const got = e.keyword === 'required' ? '' : ` (got ${preview(valueAt(value, e.instancePath))})`
    return `${at} ${e.message ?? 'is invalid'}${got}`
  })
}

/** The value a JSON Pointer (ajv's instancePath) points at. */
function valueAt(root: unknown, pointer: string): unknown {
  if (!pointer) return root
  let node: unknown = root
  for (const raw of pointer.slice(1).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (Array.isArray(node)) node = node[Number(part)]
    else if (isObject(node)) node = Object.prototype.hasOwnProperty.call(node, part) ? node[part] : undefined
    else return undefined
  }
  return node
}

// ---- content blocks ----------------------------------------------------------------------------

const BLOCK_TYPES = new Set(['text', 'image', 'audio', 'resource_link', 'resource'])
/** RFC 4648 §4 base64: the standard alphabet, whole quanta, `=` padding only at the end. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

const isBase64 = (value: unknown): boolean => typeof value === 'string' && BASE64.test(value)
const isString = (value: unknown): value is string => typeof value === 'string'

/** What is wrong with a result's `content`: one entry per bad block, naming its index. */
function contentProblems(content: unknown): string[] {
  if (content === undefined) return ['the result has no content array']
  if (!Array.isArray(content)) return [`content is ${kindOf(content)}, not an array`]
  const problems: string[] = []
  content.forEach((block, i) => {
    const problem = blockProblem(block)
    if (problem) problems.push(`content[${i}]${problem}`)
  })
  return problems
}

function blockProblem(block: unknown): string | undefined {
  if (!isObject(block)) return ` is ${kindOf(block)}, not a content block`
  const type = block.type
  if (!isString(type)) return ' has no string type'
  if (!BLOCK_TYPES.has(type)) return ` has unknown type ${preview(type)}`
  const missing = (fields: string[]) => ` (${type}) has no string ${fields.join(' or ')}`
  switch (type) {
    case 'text':
      return isString(block.text) ? undefined : missing(['text'])
    case 'image':
    case 'audio':
      if (!isString(block.data)) return missing(['data'])
      if (!isString(block.mimeType)) return missing(['mimeType'])
      return isBase64(block.data) ? undefined : ` (${type}) data is not valid base64`
    case 'resource_link':
      if (!isString(block.uri)) return missing(['uri'])
      return isString(block.name) ? undefined : missing(['name'])
    default: {
      const resource = block.resource
      if (!isObject(resource)) return ' (resource) has no resource object'
      if (!isString(resource.uri)) return ' (resource) has no string resource.uri'
      if (isString(resource.text)) return undefined
      if (!isString(resource.blob)) return ' (resource) has neither string resource.text nor resource.blob'
      return isBase64(resource.blob) ? undefined : ' (resource) resource.blob is not valid base64'
    }
  }
}

// ---- evidence and words ------------------------------------------------------------------------

function evidenceOf(call: RawToolCall, focus?: string): Observation['evidence'] {
  const response = call.response
  let shown: unknown
  if (response.kind === 'error') shown = { error: response.error }
  else if (focus && isObject(response.result) && focus in response.result) {
    // The field the finding is about goes first, so the trimmed evidence still shows it.
    const { [focus]: first, ...rest } = response.result
    shown = { result: { [focus]: first, ...rest } }
  } else shown = { result: response.result }
  return { request: trimEvidence(call.request, EVIDENCE_CHARS), response: trimEvidence(shown, EVIDENCE_CHARS) }
}


/** A value as JSON (a string in quotes, so "39 USD" reads as the string it is), cut short. */
function preview(value: unknown): string {
  if (value === undefined) return 'nothing'
  let json: string | undefined
  try {
    json = JSON.stringify(value)
  } catch {
    json = undefined
  }
  return trimEvidence(json ?? String(value), VALUE_CHARS)
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

function describeError(error: unknown): string {
  if (!isObject(error)) return 'error (malformed)'
  const code = typeof error.code === 'number' ? error.code : preview(error.code)
  return typeof error.message === 'string' ? `error ${code} (${trimEvidence(error.message, VALUE_CHARS)})` : `error ${code}`
}


// ---- the checks --------------------------------------------------------------------------------

/** One place the observations came from: `tool test bin-of-skillet`, `run #3 find-skillet · gpt-4o · default`. */
export interface ObservedSource {
  label: string
  observed: ObservedCalls
}

/**
 * The observed checks as conformance results: one per check, always all of them, in a fixed
 * order. Identical findings from several places are one line naming where they were seen.
 */
export function observedChecks(sources: ObservedSource[]): CheckResult[] {
  let calls = 0
  let asked = 0
  for (const source of sources) {
    calls += Number(source.observed?.calls) || 0
    asked += Number(source.observed?.asked) || 0
  }
  return OBSERVED_CHECKS.map((spec): CheckResult => {
    // A session finding (an input_required answer to a list) can come without any tool result.
    const found = sources.some((source) => (source.observed?.findings ?? []).some((f) => f?.check === spec.id))
    if (calls === 0 && !found) return { ...spec, status: 'skip', message: 'no tool result was observed' }
    // The input checks hold what the server asked to the rules: with nothing asked, nothing was checked.
    if (INPUT_CHECK_IDS.has(spec.id) && asked === 0 && !found) return { ...spec, status: 'skip', message: 'the server asked for no input' }
    const grouped = new Map<string, { labels: string[]; error: boolean; evidence: Observation['evidence'] }>()
    for (const source of sources) {
      for (const finding of source.observed?.findings ?? []) {
        if (finding?.check !== spec.id) continue
        const message = String(finding.message)
        let group = grouped.get(message)
        if (!group) {
          group = { labels: [], error: false, evidence: finding.evidence }
          grouped.set(message, group)
        }
        if (!group.labels.includes(source.label)) group.labels.push(source.label)
        if (finding.severity !== 'warning') group.error = true
      }
    }
    if (grouped.size === 0) return { ...spec, status: 'pass', message: `${calls} tool result${calls === 1 ? '' : 's'} checked; none broke it` }
    const entries = [...grouped]
    const lines = entries.slice(0, MESSAGES).map(([message, { labels }]) => `${message} (seen in ${listed(labels, LABELS, '; ')})`)
    const more = entries.length > MESSAGES ? `; and ${entries.length - MESSAGES} more` : ''
    // Only warnings (a legacy server): the check warns, as the probe's downgraded checks do.
    const error = entries.some(([, g]) => g.error)
    const severity: CheckSeverity = error ? spec.severity : 'warning'
    return {
      ...spec,
      severity,
      status: severity === 'error' ? 'fail' : 'warn',
      message: lines.join('; ') + more,
      evidence: entries[0][1].evidence
    }
  })
}

function listed(items: string[], max: number, separator: string): string {
  const shown = items.slice(0, max).join(separator)
  return items.length > max ? `${shown}${separator}and ${items.length - max} more` : shown
}
