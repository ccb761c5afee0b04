import type { Json } from '../../config/types.js'

/**
 * One drafted argument: a value the schema gave (`examples[0]`, `default`, `const`, `enum[0]`), a
 * placeholder of the right type that the user must replace (`todo` says what is wanted), or an
 * object drafted field by field.
 */
export type Drafted =
  | { kind: 'value'; value: Json }
  | { kind: 'placeholder'; value: Json; todo: string }
  | { kind: 'object'; fields: [string, Drafted][] }

type Schema = Record<string, unknown>

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v)
const MAX_DEPTH = 6

/**
 * The arguments of a first call, from a tool's input schema: every required property, and an
 * optional one only where the schema shows an example (a default is what the server applies
 * anyway). Nothing is invented beyond a placeholder marked TODO.
 */
export function draftArguments(inputSchema: Schema): [string, Drafted][] {
  const drafted = draftObject(inputSchema, inputSchema, 0)
  return drafted ?? []
}

function draftObject(schema: Schema, root: Schema, depth: number): [string, Drafted][] | null {
  const resolved = resolve(schema, root)
  const properties = collectProperties(resolved, root)
  if (properties === null) return null
  const required = new Set(collectRequired(resolved, root))
  const fields: [string, Drafted][] = []
  for (const [name, property] of properties) {
    const known = isSchema(property) ? knownValue(resolve(property, root)) : null
    if (required.has(name)) fields.push([name, draft(property, root, depth + 1)])
    else if (known?.from === 'examples') fields.push([name, { kind: 'value', value: known.value }])
  }
  return fields
}

/** A value for one schema: given by the schema, drafted field by field, or a placeholder. */
export function draft(schema: unknown, root: Schema, depth = 0): Drafted {
  const resolved = isSchema(schema) ? resolve(schema, root) : {}
  const known = knownValue(resolved)
  if (known) return { kind: 'value', value: known.value }
  const type = typeOf(resolved)
  if (type === 'object' && depth < MAX_DEPTH) {
    const fields = draftObject(resolved, root, depth)
    if (fields !== null && fields.length > 0) return { kind: 'object', fields }
  }
  return placeholder(resolved, type)
}

/** `examples[0]`, `default`, `const`, `enum[0]`, in that order (JSON values only). */
function knownValue(schema: Schema): { value: Json; from: 'examples' | 'default' | 'const' | 'enum' } | null {
  if (Array.isArray(schema.examples) && schema.examples.length > 0 && isJson(schema.examples[0])) return { value: schema.examples[0], from: 'examples' }
  if ('default' in schema && isJson(schema.default)) return { value: schema.default, from: 'default' }
  if ('const' in schema && isJson(schema.const)) return { value: schema.const, from: 'const' }
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && isJson(schema.enum[0])) return { value: schema.enum[0], from: 'enum' }
  return null
}

function placeholder(schema: Schema, type: string | undefined): Drafted {
  switch (type) {
    case 'integer':
    case 'number': {
      const value = inRange(schema, type === 'integer')
      return { kind: 'placeholder', value, todo: `TODO: a real ${type}${describeRange(schema)}` }
    }
    case 'boolean':
      return { kind: 'placeholder', value: false, todo: 'TODO: true or false' }
    case 'array':
      return { kind: 'placeholder', value: [], todo: 'TODO: a real list' }
    case 'object':
      return { kind: 'placeholder', value: {}, todo: 'TODO: a real object' }
    case 'null':
      return { kind: 'value', value: null }
    case 'string':
      return { kind: 'placeholder', value: 'TODO', todo: `TODO: a real string${typeof schema.format === 'string' ? ` (format ${schema.format})` : ''}` }
    default:
      return { kind: 'placeholder', value: 'TODO', todo: 'TODO: a real value' }
  }
}

/** 0, moved into [minimum, maximum] (integers rounded into the range). */
function inRange(schema: Schema, integer: boolean): number {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
  const step = integer ? 1 : 0.5
  let low = num(schema.minimum)
  const exclusiveLow = num(schema.exclusiveMinimum)
  if (exclusiveLow !== undefined && (low === undefined || exclusiveLow >= low)) low = exclusiveLow + step
  let high = num(schema.maximum)
  const exclusiveHigh = num(schema.exclusiveMaximum)
  if (exclusiveHigh !== undefined && (high === undefined || exclusiveHigh <= high)) high = exclusiveHigh - step
  let value = 0
  if (low !== undefined && value < low) value = integer ? Math.ceil(low) : low
  if (high !== undefined && value > high) value = integer ? Math.floor(high) : high
  return value
}

function describeRange(schema: Schema): string {
  const low = typeof schema.minimum === 'number' && Math.abs(schema.minimum) < Number.MAX_SAFE_INTEGER ? schema.minimum : undefined
  const high = typeof schema.maximum === 'number' && Math.abs(schema.maximum) < Number.MAX_SAFE_INTEGER ? schema.maximum : undefined
  if (low !== undefined && high !== undefined) return ` from ${low} to ${high}`
  if (low !== undefined) return ` of at least ${low}`
  if (high !== undefined) return ` of at most ${high}`
  return ''
}

/** The first type that is not null; from `type`, else the first branch of anyOf / oneOf. */
function typeOf(schema: Schema): string | undefined {
  const t = schema.type
  if (typeof t === 'string') return t
  if (Array.isArray(t)) return (t.find((x) => x !== 'null') ?? t[0]) as string | undefined
  if (isSchema(schema.properties)) return 'object'
  return undefined
}

/**
 * A schema with a local `$ref` followed and the first usable branch of anyOf / oneOf taken
 * (not null), its own keywords kept over the branch's.
 */
function resolve(schema: Schema, root: Schema, seen = 0): Schema {
  if (seen > MAX_DEPTH) return schema
  if (typeof schema.$ref === 'string') {
    const target = pointer(root, schema.$ref)
    if (target) return { ...resolve(target, root, seen + 1), ...omit(schema, '$ref') }
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key]
    if (schema.type === undefined && Array.isArray(branches)) {
      const branch = branches.find((b) => isSchema(b) && b.type !== 'null') ?? branches[0]
      if (isSchema(branch)) return { ...resolve(branch, root, seen + 1), ...omit(schema, key) }
    }
  }
  return schema
}

function omit(schema: Schema, key: string): Schema {
  return Object.fromEntries(Object.entries(schema).filter(([k]) => k !== key))
}

function collectProperties(schema: Schema, root: Schema): [string, unknown][] | null {
  const out = new Map<string, unknown>()
  let any = false
  const add = (s: Schema) => {
    if (isSchema(s.properties)) {
      any = true
      for (const [k, v] of Object.entries(s.properties)) if (!out.has(k)) out.set(k, v)
    }
  }
  add(schema)
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) if (isSchema(part)) add(resolve(part, root))
  return any ? [...out] : typeOf(schema) === 'object' ? [] : null
}

function collectRequired(schema: Schema, root: Schema): string[] {
  const names: string[] = []
  const add = (s: Schema) => {
    if (Array.isArray(s.required)) for (const n of s.required) if (typeof n === 'string') names.push(n)
  }
  add(schema)
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) if (isSchema(part)) add(resolve(part, root))
  return names
}

/** A local JSON pointer (`#/$defs/x`) into the root schema; null when it is not one or misses. */
function pointer(root: Schema, ref: string): Schema | null {
  if (!ref.startsWith('#')) return null
  let node: unknown = root
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    if (!isSchema(node)) return null
    node = node[part]
  }
  return isSchema(node) ? node : null
}

function isJson(v: unknown, depth = 0): v is Json {
  if (depth > 32) return false
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true
  if (typeof v === 'number') return Number.isFinite(v)
  if (Array.isArray(v)) return v.every((x) => isJson(x, depth + 1))
  if (typeof v === 'object') return Object.values(v).every((x) => isJson(x, depth + 1))
  return false
}

/** The drafted arguments as plain JSON. */
export function toJson(fields: [string, Drafted][]): Record<string, Json> {
  const out: Record<string, Json> = {}
  for (const [name, d] of fields) out[name] = d.kind === 'object' ? toJson(d.fields) : d.value
  return out
}

/** How many placeholders (TODOs) the drafted arguments hold. */
export function countPlaceholders(fields: [string, Drafted][]): number {
  return fields.reduce((n, [, d]) => n + (d.kind === 'placeholder' ? 1 : d.kind === 'object' ? countPlaceholders(d.fields) : 0), 0)
}
