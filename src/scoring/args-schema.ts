import type { Json } from '../config/types.js'
import { compileSchema } from '../util/json-schema.js'

/**
 * Validate a call's arguments against the tool's own `inputSchema`. Returns null when there is
 * no schema to hold them to (an unknown tool, a resource) or the schema itself does not compile.
 */
export function validateArgs(schema: Record<string, unknown> | undefined, args: Record<string, Json>): { valid: boolean; errors?: string } | null {
  if (!schema) return null
  const compiled = compileSchema(schema)
  if (!('validate' in compiled)) return null
  const { validate } = compiled
  if (validate(args)) return { valid: true }
  const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`).join('; ')
  return { valid: false, errors }
}
