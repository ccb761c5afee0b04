import { Ajv, type ValidateFunction } from 'ajv'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { schemaRegExp } from './matcher-pattern.js'

type Validator = Ajv | Ajv2019 | Ajv2020
const validators = new Map<string, Validator>()

/**
 * One validator per JSON Schema dialect, made once (building one costs far more than compiling a
 * schema): 2020-12 when `$schema` names none, as MCP 2026-07-28 says; undefined for a dialect we
 * do not support. Remote `$ref`s are never fetched: no loader is configured.
 */
export function validatorFor(dialect: string): Validator | undefined {
  const key = dialect === '' || dialect.includes('2020-12') ? '2020-12' : dialect.includes('2019-09') ? '2019-09' : /draft-0[67]/.test(dialect) ? 'draft-07' : undefined
  if (!key) return undefined
  let ajv = validators.get(key)
  if (!ajv) {
    // A schema's `pattern` runs on RE2 (linear time): a server's schema cannot hang the job.
    const options = { strict: false, validateFormats: false, allErrors: false, code: { regExp: schemaRegExp } }
    ajv = key === '2020-12' ? new Ajv2020(options) : key === '2019-09' ? new Ajv2019(options) : new Ajv(options)
    validators.set(key, ajv)
  }
  return ajv
}

export function dialectOf(schema: Record<string, unknown>): string {
  return typeof schema.$schema === 'string' ? schema.$schema : ''
}

/** A compiled schema, or why it cannot be used. */
export type CompiledSchema = { validate: ValidateFunction } | { problem: string }

// Compiling costs far more than validating, and the same schema (a tool's outputSchema, its
// inputSchema) is checked on every call: one compile per distinct schema text, failures kept too.
const compiledByText = new Map<string, CompiledSchema>()
const compiledByObject = new WeakMap<object, CompiledSchema>()
let compilations = 0

/**
 * Compile a JSON Schema once, under the dialect it names (2020-12 when it names none). Its `$id`
 * is dropped (it would clash with another schema of the same id in the shared validator), and a
 * remote `$ref` is never fetched: the compile fails with a problem that says so.
 */
export function compileSchema(schema: unknown): CompiledSchema {
  const byObject = typeof schema === 'object' && schema !== null ? compiledByObject.get(schema) : undefined
  if (byObject) return byObject
  let key: string
  try {
    key = JSON.stringify(schema) ?? 'undefined'
  } catch {
    return { problem: 'the schema is not JSON' }
  }
  let result = compiledByText.get(key)
  if (!result) {
    result = compile(schema)
    compiledByText.set(key, result)
  }
  if (typeof schema === 'object' && schema !== null) compiledByObject.set(schema, result)
  return result
}

/** How many schemas compileSchema has compiled (not served from its cache): for tests. */
export function schemaCompilations(): number {
  return compilations
}

function compile(schema: unknown): CompiledSchema {
  compilations++
  if (typeof schema !== 'boolean' && (schema === null || typeof schema !== 'object' || Array.isArray(schema))) {
    return { problem: 'the schema is not a JSON Schema (an object or a boolean)' }
  }
  const dialect = typeof schema === 'boolean' ? '' : dialectOf(schema as Record<string, unknown>)
  const ajv = validatorFor(dialect)
  if (!ajv) return { problem: `the schema declares an unsupported dialect ${dialect}` }
  try {
    const body = typeof schema === 'boolean' ? schema : (({ $id: _id, ...rest }) => rest)(schema as Record<string, unknown>)
    return { validate: ajv.compile(body) }
  } catch (error) {
    const message = (error as Error).message.split('\n')[0]
    return { problem: /resolve reference/i.test(message) ? `the schema cannot be compiled: ${message} (remote $refs are not fetched)` : `the schema cannot be compiled: ${message}` }
  }
}

/** Whether `value` conforms to `schema`, and if not why (Ajv's errors, or why the schema cannot be used). */
export function validateAgainst(schema: unknown, value: unknown): { ok: true } | { ok: false; reason: string } {
  const result = compileSchema(schema)
  if ('problem' in result) return { ok: false, reason: result.problem }
  if (result.validate(value)) return { ok: true }
  const errors = (result.validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`)
  return { ok: false, reason: errors.join('; ') || 'invalid' }
}

/** Whether `value` passes `validate`; undefined when the validation itself throws (nesting too deep): that proves nothing about the value. */
export function passesSafely(validate: ValidateFunction, value: unknown): boolean | undefined {
  try {
    return validate(value) as boolean
  } catch {
    return undefined
  }
}
