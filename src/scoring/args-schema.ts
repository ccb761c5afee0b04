import type { ValidateFunction } from 'ajv'
import type { Json } from '../config/types.js'
import { dialectOf, validatorFor } from '../util/json-schema.js'

const compiled = new Map<string, ValidateFunction | null>()

/**
 * Validate a call's arguments against the tool's own `inputSchema`. Returns null when there is
 * no schema to hold them to (an unknown tool, a resource) or the schema itself does not compile.
 */
export function validateArgs(schema: Record<string, unknown> | undefined, args: Record<string, Json>): { valid: boolean; errors?: string } | null {
  if (!schema) return null
  const key = JSON.stringify(schema)
  let validate = compiled.get(key)
  if (validate === undefined) {
    const { $id: _id, ...rest } = schema
    try {
      validate = validatorFor(dialectOf(schema))?.compile(rest) ?? null
    } catch {
      validate = null
    }
    compiled.set(key, validate)
  }
  if (!validate) return null
  if (validate(args)) return { valid: true }
  const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`).join('; ')
  return { valid: false, errors }
}
