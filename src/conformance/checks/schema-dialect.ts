import type { Catalog } from '../catalog-types.js'
import type { CheckResult } from '../types.js'
import type { Exchange } from '../wire.js'
import { someOf } from '../../util/words.js'
import { failed, isObject, passed, skipped, type CheckSpec } from './common.js'

/**
 * JSON Schema 2020-12 (the dialect of a tool schema without $schema, §8) read as 2020-12: a
 * keyword of an older dialect is not an error there, it is ignored or read otherwise, so the
 * constraint its author meant silently goes (`dependencies`, `additionalItems`,
 * `$recursiveRef`) or the schema is invalid (`items` as an array, a boolean `exclusiveMaximum`).
 * What the server wrote but did not list cannot be seen from the wire; what its listing shows
 * can: `then`/`else` left without their `if` (ignored), and which 2020-12 keywords came through.
 */
export const SCHEMA_2020_12_KEYWORDS: CheckSpec = {
  id: 'json-schema-2020-12-keywords',
  severity: 'warning',
  spec: '§8 a tool schema is JSON Schema 2020-12 unless $schema says otherwise (SEP-1613, SEP-2106): keywords of older dialects are ignored or read otherwise there'
}

const META_2020_12 = 'https://json-schema.org/draft/2020-12/schema'
const MAX_NODES = 5000
const MAX_DEPTH = 64

/** Keywords whose values are maps of schemas, a schema, or arrays of schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']
const SCHEMA_ONE = ['additionalProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems', 'contentSchema', 'items']
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']
/** The 2020-12 keywords a listing is scanned for, to say which came through. */
const MODERN_KEYWORDS = ['$defs', 'prefixItems', 'dependentRequired', 'dependentSchemas', 'unevaluatedProperties', 'unevaluatedItems', '$anchor', '$dynamicRef', '$dynamicAnchor', 'if', 'const', 'contains']

/** What this schema object's older-dialect keywords become under 2020-12 (none: fine). */
function olderKeyword(schema: Record<string, unknown>): string[] {
  const found: string[] = []
  if (Array.isArray(schema.items)) found.push('items as an array (a draft-07 tuple; 2020-12 takes tuples from prefixItems, and the array form is invalid)')
  if ('additionalItems' in schema) found.push('additionalItems (ignored by 2020-12: use items after prefixItems)')
  if ('dependencies' in schema) found.push('dependencies (not a 2020-12 keyword: use dependentRequired or dependentSchemas)')
  for (const k of ['$recursiveRef', '$recursiveAnchor']) if (k in schema) found.push(`${k} (2019-09 only: 2020-12 uses $dynamicRef and $dynamicAnchor)`)
  if (typeof schema.id === 'string' && !('$id' in schema)) found.push('id (draft-04: 2020-12 reads $id)')
  for (const k of ['exclusiveMaximum', 'exclusiveMinimum']) if (typeof schema[k] === 'boolean') found.push(`a boolean ${k} (draft-04: 2020-12 wants the bound itself, a number)`)
  if (!('if' in schema) && ('then' in schema || 'else' in schema)) found.push('then/else without if (ignored: was if dropped?)')
  return found
}

/** Every subschema with where it is, within MAX_NODES and MAX_DEPTH. */
function subschemas(root: unknown): { at: string; schema: Record<string, unknown> }[] {
  const out: { at: string; schema: Record<string, unknown> }[] = []
  const visit = (node: unknown, at: string, depth: number) => {
    if (!isObject(node) || out.length >= MAX_NODES || depth > MAX_DEPTH) return
    out.push({ at, schema: node })
    for (const k of SCHEMA_MAPS) if (isObject(node[k])) for (const [name, sub] of Object.entries(node[k])) visit(sub, `${at}/${k}/${name}`, depth + 1)
    for (const k of SCHEMA_ONE) if (isObject(node[k])) visit(node[k], `${at}/${k}`, depth + 1)
    for (const k of SCHEMA_LISTS) if (Array.isArray(node[k])) (node[k] as unknown[]).forEach((sub, i) => visit(sub, `${at}/${k}/${i}`, depth + 1))
    if (isObject(node.dependencies)) for (const [name, sub] of Object.entries(node.dependencies)) visit(sub, `${at}/dependencies/${name}`, depth + 1)
  }
  visit(root, '#', 0)
  return out
}

/** A listed tool as far as its schemas go (schemas.ts's Tool fits). */
export interface SchemaHolder {
  name: string
  inputSchema?: unknown
  outputSchema?: unknown
}

export function checkSchemaKeywords(tools: SchemaHolder[] | undefined, evidence?: Exchange): CheckResult {
  if (!tools) return skipped(SCHEMA_2020_12_KEYWORDS, 'no tool list')
  const findings: string[] = []
  const used = new Map<string, number>()
  const otherDialects = new Set<string>()
  let checked = 0
  for (const tool of tools) {
    for (const field of ['inputSchema', 'outputSchema'] as const) {
      const schema = tool[field]
      if (!isObject(schema)) continue
      const dialect = typeof schema.$schema === 'string' ? schema.$schema : ''
      if (dialect !== '' && !dialect.includes('2020-12')) {
        otherDialects.add(dialect)
        continue
      }
      checked++
      if (dialect !== '' && dialect.replace(/#$/, '') !== META_2020_12) findings.push(`${tool.name}.${field}: $schema ${JSON.stringify(dialect)} is not the 2020-12 meta-schema URI (${META_2020_12}); a validator may not take it for 2020-12`)
      const seen = new Set<string>()
      for (const { at, schema: sub } of subschemas(schema)) {
        for (const problem of olderKeyword(sub)) findings.push(`${tool.name}.${field} ${at}: ${problem}`)
        for (const k of MODERN_KEYWORDS) if (k in sub) seen.add(k)
      }
      for (const k of seen) used.set(k, (used.get(k) ?? 0) + 1)
    }
  }
  const others = otherDialects.size ? `; other dialects, not checked: ${[...otherDialects].join(', ')}` : ''
  if (checked === 0) return skipped(SCHEMA_2020_12_KEYWORDS, `no schema is 2020-12${others}`)
  if (findings.length) return failed(SCHEMA_2020_12_KEYWORDS, `${someOf(findings, undefined, '; ')}${others}`, evidence)
  const kept = used.size ? `2020-12 keywords listed: ${[...used].map(([k, n]) => `${k} (${n})`).join(', ')}` : `none of ${MODERN_KEYWORDS.slice(0, 6).join(', ')}… is used`
  return passed(SCHEMA_2020_12_KEYWORDS, `${checked} 2020-12 schema(s) use no keyword 2020-12 ignores or reads otherwise; ${kept} (what a server wrote but left out of its listing cannot be seen)${others}`)
}

/** This check's revision and official-suite mapping. */
export const SCHEMA_DIALECT_CATALOG: Catalog = {
  [SCHEMA_2020_12_KEYWORDS.id]: {
    revision: 'both',
    official: {
      scenarios: ['json-schema-2020-12'],
      scoring: 'unscored',
      note: 'pending in the 2026-07-28 requirements; it needs its fixture tool json_schema_2020_12_tool and checks that $schema, $defs, additionalProperties, allOf/anyOf, if/then/else and $anchor survive in its listing; here every listed schema is read as 2020-12 for older keywords that are ignored or read otherwise, and for then/else left without if'
    }
  }
}
