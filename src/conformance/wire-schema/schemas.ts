import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import modern from '../../../schema/mcp/2026-07-28.schema.json' with { type: 'json' }
import legacy from '../../../schema/mcp/2025-11-25.schema.json' with { type: 'json' }
import { isObject } from '../../util/objects.js'

/**
 * The published JSON Schemas of MCP (schema/mcp/, vendored from the specification repository:
 * schema/mcp/README.md) as validators, one revision at a time, and what the schema says about
 * which definition a message is checked against. Nothing is compiled at import: the Ajv instance
 * of a revision is built on its first use, and each definition compiled when a message first
 * needs it, once per process.
 */

export type SchemaRevision = '2026-07-28' | '2025-11-25'
export const SCHEMA_REVISIONS: readonly SchemaRevision[] = ['2026-07-28', '2025-11-25']

type Schema = Record<string, unknown>
const SOURCES: Record<SchemaRevision, Schema> = { '2026-07-28': modern as Schema, '2025-11-25': legacy as Schema }

/** The unions of the schema, which say nothing a message could be checked against by itself (the official suite leaves them out too). */
const UNIONS = new Set(['ClientRequest', 'ClientNotification', 'ClientResult', 'ClientMessage', 'ServerRequest', 'ServerNotification', 'ServerResult', 'ServerMessage'])

/** One revision's schema: its definitions, the tables from a message to the definition it is checked against, and the compiled validators. */
export interface RevisionSchema {
  revision: SchemaRevision
  /** `tools/call` → `CallToolRequest`, `notifications/message` → `LoggingMessageNotification`: by the `method` constant of each definition. */
  methodDefs: ReadonlyMap<string, string>
  /** `tools/call` → `CallToolResult`: the `…Result` of each `…Request`. */
  resultDefs: ReadonlyMap<string, string>
  /** `-32022` → `UnsupportedProtocolVersionError`: by the `error.code` constant of each error response definition. */
  errorDefs: ReadonlyMap<number, string>
  has(def: string): boolean
  /** The compiled validator of one definition (compiled on first use). */
  validator(def: string): ValidateFunction
}

const loaded = new Map<SchemaRevision, RevisionSchema>()

export function revisionSchema(revision: SchemaRevision): RevisionSchema {
  let schema = loaded.get(revision)
  if (!schema) {
    schema = load(revision)
    loaded.set(revision, schema)
  }
  return schema
}

/** A `uri` (RFC 3986 §3): a scheme, then anything. Full RFC parsing is not this check's job; a missing scheme is. */
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:/

function load(revision: SchemaRevision): RevisionSchema {
  const source = patched(revision, SOURCES[revision])
  const defs = source.$defs as Record<string, Schema>
  const id = `mcp://schema/${revision}/schema.json`
  // strict off: the spec's schema carries annotations Ajv does not know. No loader: no $ref
  // leaves the file. The published schema is trusted (not checked against the meta-schema: that
  // costs more than all the messages of a run), the code generator's optimiser is off (it
  // doubles compile time for little gain on messages this size), and formats are checked by
  // what they must at least be (a `uri` has a scheme; `byte`, base64, is observed-content-blocks').
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateSchema: false,
    inlineRefs: false,
    code: { optimize: false, source: false, lines: false },
    formats: { uri: (value: string) => URI.test(value), 'uri-template': true, byte: true }
  })
  ajv.addSchema({ ...source, $id: id })
  const methodDefs = new Map<string, string>()
  const resultDefs = new Map<string, string>()
  const errorDefs = new Map<number, string>()
  for (const [name, def] of Object.entries(defs)) {
    if (UNIONS.has(name) || !isObject(def)) continue
    const properties = isObject(def.properties) ? def.properties : {}
    const method = isObject(properties.method) ? properties.method.const : undefined
    if (typeof method === 'string') {
      methodDefs.set(method, name)
      const result = name.endsWith('Request') ? `${name.slice(0, -'Request'.length)}Result` : undefined
      if (result && result in defs) resultDefs.set(method, result)
    }
    const error = isObject(properties.error) ? properties.error : undefined
    for (const part of Array.isArray(error?.allOf) ? error.allOf : []) {
      const code = isObject(part) && isObject(part.properties) && isObject(part.properties.code) ? part.properties.code.const : undefined
      if (typeof code === 'number') errorDefs.set(code, name)
    }
  }
  const compiled = new Map<string, ValidateFunction>()
  return {
    revision,
    methodDefs,
    resultDefs,
    errorDefs,
    has: (def) => def in defs,
    validator(def) {
      let validate = compiled.get(def)
      if (!validate) {
        validate = ajv.getSchema(`${id}#/$defs/${def}`)
        if (!validate) throw new Error(`no definition ${def} in the ${revision} schema`)
        compiled.set(def, validate)
      }
      return validate
    }
  }
}

/**
 * The schema as it is checked (changed in place: nothing else reads it). Two changes, both to read the schema as its text means it:
 * - 2025-11-25's NumberSchema types `minimum`, `maximum` and `default` as integers, which its
 *   own TypeScript source (`number`) does not: a form asking for 0.5 would fail. They are numbers
 *   (the official suite makes the same change).
 * - A union of definitions told apart by a constant `type` (ContentBlock: text, image, audio,
 *   resource_link, resource) is checked as that: the `type` one of the allowed values, then the
 *   definition of that type. Ajv would otherwise report every branch's errors for one bad block.
 */
function patched(revision: SchemaRevision, source: Schema): Schema {
  // In place, once per process (load runs once per revision): a copy of 180 KB costs more than the change.
  const copy = source
  const defs = copy.$defs as Record<string, Schema>
  if (revision === '2025-11-25') {
    const properties = isObject(defs.NumberSchema?.properties) ? defs.NumberSchema.properties : {}
    for (const key of ['minimum', 'maximum', 'default']) {
      const property = properties[key]
      if (isObject(property) && property.type === 'integer') property.type = 'number'
    }
  }
  for (const def of Object.values(defs)) discriminate(def, defs)
  return copy
}

/** Rewrites `def` in place when it is an anyOf of $refs to definitions that each require a distinct constant `type`. */
function discriminate(def: Schema, defs: Record<string, Schema>): void {
  const branches = def.anyOf
  if (!Array.isArray(branches) || branches.length < 2) return
  const cases: { value: string; ref: string }[] = []
  for (const branch of branches) {
    const ref = isObject(branch) && typeof branch.$ref === 'string' ? branch.$ref : undefined
    const target = ref?.startsWith('#/$defs/') ? defs[ref.slice('#/$defs/'.length)] : undefined
    const type = isObject(target?.properties) && isObject(target.properties.type) ? target.properties.type.const : undefined
    if (!ref || typeof type !== 'string' || !Array.isArray(target?.required) || !target.required.includes('type')) return
    cases.push({ value: type, ref })
  }
  if (new Set(cases.map((c) => c.value)).size !== cases.length) return
  delete def.anyOf
  def.type = 'object'
  def.required = ['type']
  def.properties = { type: { type: 'string', enum: cases.map((c) => c.value) } }
  def.allOf = cases.map((c) => ({ if: { properties: { type: { const: c.value } }, required: ['type'] }, then: { $ref: c.ref } }))
}

/** The definitions nearly every server's messages need, compiled first. */
const COMMON_DEFS = [
  'JSONRPCErrorResponse',
  'JSONRPCResultResponse',
  'DiscoverResult',
  'ListToolsResult',
  'CallToolResult',
  'ListPromptsResult',
  'ListResourcesResult',
  'ListResourceTemplatesResult',
  'ReadResourceResult',
  'UnsupportedProtocolVersionError',
  'HeaderMismatchError',
  'MissingRequiredClientCapabilityError',
  'InitializeResult'
]

/**
 * Compile the common definitions of a revision ahead of the first message, one per turn of the
 * event loop: the probe calls it while it waits for its fresh server processes, so the compile
 * (a few hundred ms of CPU in all) overlaps the wait instead of following it. Stops when `signal`
 * aborts; never throws. Checking a message compiles what it needs anyway: this only moves work earlier.
 */
export async function warmRevision(revision: SchemaRevision, signal?: AbortSignal): Promise<void> {
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve))
  try {
    await turn()
    const schema = revisionSchema(revision)
    for (const def of COMMON_DEFS) {
      if (signal?.aborted) return
      await turn()
      if (schema.has(def)) schema.validator(def)
    }
  } catch {
    // A warm-up that fails leaves the work to the first message, which reports nothing of it either.
  }
}
