import type { ErrorObject } from 'ajv'
import { isObject } from '../../util/objects.js'
import { passesSafely } from '../../util/json-schema.js'
import { revisionSchema, type RevisionSchema, type SchemaRevision } from './schemas.js'

/**
 * One message the server sent, checked against its revision's schema: which definition it is
 * checked against (as the official suite picks it), and what the schema says is wrong with it,
 * one problem per place, readable. Pure; never throws.
 */

/** One problem with one message: the definition, where in it (a JSON Pointer into the part checked), and what. */
export interface SchemaProblem {
  def: string
  path: string
  message: string
  /**
   * Set when another check owns this rule and reports it itself (result-type-present,
   * list-cache-fields, error-response-id): wire-schema-valid names it, but does not fail on it.
   */
  owner?: string
}

export interface FrameVerdict {
  /** The definition the message was checked against. */
  def: string
  problems: SchemaProblem[]
}

/** How many problems one message yields at most: a broken list of 500 tools is one finding per kind of fault, not 500. */
const PROBLEMS_PER_FRAME = 12

/**
 * Rules of the schema that a dedicated check reports, with its own wording and severity: the
 * `resultType` of a result (result-type-present), its `ttlMs` and `cacheScope` (list-cache-fields),
 * an error response's `id` (error-response-id). Counting them again would fail two checks for one
 * fault; they are named in wire-schema-valid's message and left to their owner.
 */
const RESULT_OWNERS: Record<string, string> = { resultType: 'result-type-present', ttlMs: 'list-cache-fields', cacheScope: 'list-cache-fields' }

/**
 * Check one message. `requestMethod` is the method of the request a response answers (unknown:
 * the response is checked as any JSON-RPC response).
 */
export function validateFrame(revision: SchemaRevision, frame: unknown, requestMethod: string | undefined): FrameVerdict {
  try {
    return check(revisionSchema(revision), frame, requestMethod)
  } catch {
    // Only a bug of ours lands here (a definition missing): it proves nothing about the server.
    return { def: 'JSONRPCMessage', problems: [] }
  }
}

function check(schema: RevisionSchema, frame: unknown, requestMethod: string | undefined): FrameVerdict {
  const pick = (...names: string[]) => names.find((n) => schema.has(n)) ?? names[names.length - 1]
  if (!isObject(frame)) return { def: 'JSONRPCMessage', problems: [{ def: 'JSONRPCMessage', path: '', message: 'is not a JSON-RPC message (not an object)' }] }
  if (typeof frame.method === 'string') {
    const def = schema.methodDefs.get(frame.method) ?? ('id' in frame ? 'JSONRPCRequest' : 'JSONRPCNotification')
    return { def, problems: run(schema, def, frame) }
  }
  if (frame.error !== undefined && frame.error !== null) {
    const code = isObject(frame.error) ? frame.error.code : undefined
    const def = (typeof code === 'number' ? schema.errorDefs.get(code) : undefined) ?? pick('JSONRPCErrorResponse', 'JSONRPCError')
    const problems = run(schema, def, frame).map((p) => (p.path === '/id' ? { ...p, owner: 'error-response-id' } : p))
    return { def, problems }
  }
  if (frame.result !== undefined) {
    const envelope = pick('JSONRPCResultResponse', 'JSONRPCResponse')
    const type = isObject(frame.result) ? frame.result.resultType : undefined
    // An input_required answer has its own definition; an extension's result type (a task) is checked as a result only.
    const def = type === 'input_required' && schema.has('InputRequiredResult') ? 'InputRequiredResult' : type === 'task' ? undefined : requestMethod ? schema.resultDefs.get(requestMethod) : undefined
    const problems = def ? run(schema, def, frame.result).map((p) => (requestMethod === 'initialize' ? initializeOwned(p) : resultOwned(p))) : []
    // The envelope (jsonrpc, id), its result checked only as a result: the result's own rules were checked above.
    const bare = { ...frame, result: schema.revision === '2026-07-28' ? { resultType: 'complete' } : {} }
    const own = run(schema, envelope, bare)
    if (!def) problems.push(...run(schema, envelope, frame).filter((p) => p.path.startsWith('/result')).map((p) => resultOwned({ ...p, path: p.path.slice('/result'.length) })))
    return { def: def ?? envelope, problems: [...problems, ...own].slice(0, PROBLEMS_PER_FRAME) }
  }
  return { def: 'JSONRPCMessage', problems: [{ def: 'JSONRPCMessage', path: '', message: 'is not a JSON-RPC request, notification or response (no method, result or error)' }] }
}

/** The initialize result's protocolVersion, capabilities and serverInfo are legacy-initialize-result's (its own wording, for both sides of a dual-era server). */
const INITIALIZE_FIELDS = new Set(['protocolVersion', 'capabilities', 'serverInfo'])

function initializeOwned(problem: SchemaProblem): SchemaProblem {
  const field = problem.path === '' ? /^must have required property '(\w+)'$/.exec(problem.message)?.[1] : problem.path.split('/')[1]
  return field !== undefined && INITIALIZE_FIELDS.has(field) ? { ...problem, owner: 'legacy-initialize-result' } : resultOwned(problem)
}

function resultOwned(problem: SchemaProblem): SchemaProblem {
  const field = problem.path === '' ? /^must have required property '(\w+)'$/.exec(problem.message)?.[1] : problem.path.slice(1)
  const owner = field !== undefined ? RESULT_OWNERS[field] : undefined
  return owner ? { ...problem, owner } : problem
}

function run(schema: RevisionSchema, def: string, value: unknown): SchemaProblem[] {
  const validate = schema.validator(def)
  // A validation that blows up (nesting too deep) proves nothing about the server.
  if (passesSafely(validate, value) !== false) return []
  return readable(validate.errors ?? []).map(({ path, message }) => ({ def, path, message }))
}

/**
 * Ajv's errors as one problem per place: the branches of an anyOf that all failed are one
 * problem ("matches none of the allowed shapes", with what the branches wanted), the `if` of a
 * discriminated union (schemas.ts) is dropped (its `then` said what was wrong), and an enum names
 * its values.
 */
export function readable(errors: ErrorObject[]): { path: string; message: string }[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').sort((a, b) => a.instancePath.length - b.instancePath.length)
  const consumed = new Set<ErrorObject>()
  const out: { path: string; message: string }[] = []
  for (const union of unions) {
    if (consumed.has(union)) continue
    consumed.add(union)
    const inside = errors.filter((e) => !consumed.has(e) && (e.instancePath === union.instancePath || e.instancePath.startsWith(`${union.instancePath}/`)))
    for (const e of inside) consumed.add(e)
    const wanted = [...new Set(inside.filter((e) => e.instancePath === union.instancePath && e.keyword !== 'if').map(describe))].slice(0, 3)
    out.push({ path: union.instancePath, message: `matches none of the allowed shapes${wanted.length ? ` (${wanted.join('; ')})` : ''}` })
  }
  for (const e of errors) {
    if (consumed.has(e) || e.keyword === 'if') continue
    out.push({ path: e.instancePath, message: describe(e) })
  }
  // One problem per place and wording.
  const seen = new Set<string>()
  return out.filter((p) => {
    const key = `${p.path}\u0000${p.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) return `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
  if (error.keyword === 'const') return `must be ${JSON.stringify(params.allowedValue)}`
  return error.message ?? `fails ${error.keyword}`
}
