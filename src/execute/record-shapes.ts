import type { ErrorObject } from 'ajv'
import schema from '../../schema/results.schema.json' with { type: 'json' }
import { compileSchema } from '../util/json-schema.js'

/**
 * The parts of the results schema a journal's records hold, made lenient: a key the schema does
 * not know is let through (a journal of another patch release may carry one), and `oneOf` is read
 * as `anyOf` (without the closed objects two branches may both match); every type, `required`
 * and `enum` still holds. A record that passes is one the document's assembly and the renderers
 * can read; one that does not is skipped with the first field that is wrong.
 */
function lenient(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(lenient)
  if (!node || typeof node !== 'object') return node
  return Object.fromEntries(
    Object.entries(node as Record<string, unknown>)
      .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
      .map(([key, value]) => [key === 'oneOf' ? 'anyOf' : key, lenient(value)])
  )
}

export type RecordShape = 'run' | 'toolTest' | 'conformance' | 'config' | 'usage' | 'document' | 'evalsV1'

let defs: unknown
const compiled = new Map<RecordShape | 'baseline', ReturnType<typeof compileSchema>>()

function validatorOf(shape: RecordShape | 'baseline', make: () => unknown) {
  let entry = compiled.get(shape)
  if (!entry) {
    entry = compileSchema(make())
    compiled.set(shape, entry)
  }
  if ('problem' in entry) throw new Error(`the schema of a ${shape} does not compile: ${entry.problem}`)
  return entry.validate
}

/** The first field of `value` that is not what the results schema's `shape` says, in words; null when it is. */
export function shapeProblem(shape: RecordShape, value: unknown, name: string = shape): string | null {
  const validate = validatorOf(shape, () => (shape === 'document' ? documentSchema() : { $defs: (defs ??= lenient(schema.$defs)), $ref: `#/$defs/${shape}` }))
  return validate(value) ? null : describeSchemaError(deepest(validate.errors), value, name)
}

/**
 * The error that says most: the one deepest in the value (a null-or-object field that is an
 * object with a wrong field fails both branches; the field is what is wrong, not "is not null").
 */
function deepest(errors: ErrorObject[] | null | undefined): ErrorObject | undefined {
  const depth = (e: ErrorObject) => e.instancePath.split('/').length + (e.keyword === 'required' ? 1 : 0)
  return (errors ?? []).filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf').reduce<ErrorObject | undefined>((best, e) => (!best || depth(e) > depth(best) ? e : best), undefined) ?? errors?.[0]
}

/** The whole document's schema, lenient, without its `$id` and `$schema` (the shared validator is 2020-12). */
function documentSchema(): unknown {
  const { $id: _id, $schema: _schema, ...rest } = lenient(schema) as Record<string, unknown>
  return rest
}

/** Validated against a schema given here (the baseline's, in baseline-shape.ts), compiled once. */
export function problemAgainst(key: 'baseline', make: () => unknown, value: unknown, name: string): string | null {
  const validate = validatorOf(key, make)
  return validate(value) ? null : describeSchemaError(deepest(validate.errors), value, name)
}

/** "run.final_output is a number, not string or null", "metrics.by_model is missing". */
function describeSchemaError(error: ErrorObject | undefined, value: unknown, name: string): string {
  if (!error) return `${name} is not valid`
  const parts = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
  const path = parts.reduce((at, part) => (/^\d+$/.test(part) ? `${at}[${part}]` : at ? `${at}.${part}` : part), name)
  if (error.keyword === 'required') return `${path ? `${path}.` : ''}${(error.params as { missingProperty: string }).missingProperty} is missing`
  const at = parts.reduce<unknown>((v, part) => (v as Record<string, unknown> | undefined)?.[part], value)
  const actual = at === null ? 'null' : Array.isArray(at) ? 'a list' : typeof at === 'object' ? 'an object' : `a ${typeof at}`
  if (error.keyword === 'type') return `${path || 'the document'} is ${actual}, not ${[(error.params as { type: string | string[] }).type].flat().join(' or ')}`
  return `${path || 'the document'} (${actual}) ${error.message ?? 'is not valid'}`
}
