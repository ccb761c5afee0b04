import type { ErrorObject } from 'ajv/dist/2020.js'
import { isAlias, isCollection, isMap, isPair, isScalar, LineCounter, parseDocument, type Document, type Node } from 'yaml'
import { nearest } from '../util/suggest.js'
import { firstLine } from '../util/text.js'
import { ConfigError, ConfigErrors } from './errors.js'

// The machinery every YAML file of the configuration shares (eval_cases.yaml, an evals/v1 suite):
// parsing with positions, the guards against alias bombs and deep nesting, and JSON Schema errors
// turned into ConfigErrors that name file, line, column and path, with "did you mean".

/** A path into the YAML document: keys and list indexes. */
export type YamlPath = (string | number)[]

/** Where an offset of the text is, for a ConfigError (file, line, column, the dotted path). */
export type At = (offset: number | undefined, path?: string) => ConfigError['where']

/** A parsed YAML file: the document (for positions) and its value. */
export interface ParsedYaml {
  doc: Document
  data: unknown
  at: At
  /** Where a path of the document is. */
  locate(path: YamlPath): ConfigError['where']
}

/** How many times one anchor may be expanded (the yaml package's maxAliasCount). */
export const MAX_ALIAS_COUNT = 100
/** How deep maps and lists may nest: a suite needs about ten levels; the checks after parsing recurse. */
export const MAX_YAML_DEPTH = 64

/**
 * Parse YAML text with positions. Throws ConfigErrors for a syntax error or duplicate key,
 * ConfigError for nesting deeper than MAX_YAML_DEPTH and for an alias bomb.
 */
export function parseYamlFile(text: string, file: string): ParsedYaml {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false })
  const at: At = (offset, path) => {
    const pos = offset === undefined ? undefined : lineCounter.linePos(offset)
    return { file, line: pos?.line, column: pos?.col, path }
  }
  if (doc.errors.length > 0) {
    throw new ConfigErrors(doc.errors.map((e) => new ConfigError(`invalid YAML: ${yamlProblem(e.message)}`, at(e.pos[0]))))
  }
  const deep = tooDeep(doc)
  if (deep) throw new ConfigError(`nested deeper than ${MAX_YAML_DEPTH} levels (no suite needs more)`, at(deep.range?.[0]))
  let data: unknown
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT })
  } catch (error) {
    // The yaml package stops an alias bomb (aliases of aliases that expand exponentially) with a ReferenceError.
    if (!(error instanceof ReferenceError)) throw error
    throw new ConfigError(
      `too many aliases: they expand to more than ${MAX_ALIAS_COUNT} copies of an anchor (an alias bomb); write the values out or use fewer aliases`,
      at(amplifyingAlias(doc)?.range?.[0])
    )
  }
  return { doc, data, at, locate: (path) => at(nodeOffset(doc, path), dotted(path)) }
}

/** The parser's own message, first line; its stack running out on deep nesting says so in words. */
function yamlProblem(message: string): string {
  return /Maximum call stack size exceeded/.test(message) ? `nested too deeply to parse (more than ${MAX_YAML_DEPTH} levels is never a suite)` : firstLine(message)
}

/** The first node nested deeper than MAX_YAML_DEPTH, found without recursion. */
function tooDeep(doc: Document): Node | undefined {
  const stack: [unknown, number][] = [[doc.contents, 1]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (!isCollection(node)) continue
    if (depth > MAX_YAML_DEPTH) return node
    for (const item of node.items as unknown[]) {
      if (isPair(item)) stack.push([item.key, depth + 1], [item.value, depth + 1])
      else stack.push([item, depth + 1])
    }
  }
  return undefined
}

/** Where an alias bomb amplifies: the first alias of an anchor that itself holds aliases (else the first alias). */
function amplifyingAlias(doc: Document): Node | undefined {
  const aliases: { alias: Node; source: string }[] = []
  const anchored = new Map<string, Node>()
  const stack: unknown[] = [doc.contents]
  while (stack.length > 0) {
    const node = stack.pop()
    if (isAlias(node)) aliases.push({ alias: node, source: node.source })
    else if (isScalar(node) || isCollection(node)) {
      if (node.anchor) anchored.set(node.anchor, node)
      if (isCollection(node)) for (const item of node.items as unknown[]) stack.push(...(isPair(item) ? [item.key, item.value] : [item]))
    }
  }
  const holdsAlias = (node: Node | undefined) => isCollection(node) && (node.items as unknown[]).some((i) => isAlias(i) || (isPair(i) && isAlias(i.value)))
  aliases.sort((a, b) => (a.alias.range?.[0] ?? 0) - (b.alias.range?.[0] ?? 0))
  return (aliases.find((a) => holdsAlias(anchored.get(a.source))) ?? aliases[0])?.alias
}

/** What one file format adds to the generic reading of its schema's errors. */
export interface SchemaDialect {
  /** The properties allowed at a path, for "did you mean". */
  knownKeysAt(path: YamlPath): Record<string, unknown>
  /** The format's own message for an error, or undefined for the generic one. */
  explain?(error: ErrorObject, path: YamlPath, doc: Document, at: At): ConfigError | undefined
  /** The keys of which a map at `path` gives exactly one (a `not` of their pairs), or undefined. */
  exclusiveKeys?(path: YamlPath): string[] | undefined
  /** Said after "missing required key 'x'" when the schema offers alternatives (an anyOf of required keys). */
  alternativesHint?(path: YamlPath, alternatives: string[]): string
  /** The format's wording of an error's message (an enum, a type), or undefined for Ajv's. */
  describe?(error: ErrorObject): string | undefined
}

/** The schema's errors as ConfigErrors, each located, the noise of oneOf and anyOf dropped, duplicates once. */
export function schemaErrors(errors: ErrorObject[], parsed: Pick<ParsedYaml, 'doc' | 'at'>, dialect: SchemaDialect): ConfigError[] {
  return dedupe(relevantErrors(errors).map((e) => schemaError(e, parsed.doc, parsed.at, dialect)))
}

/** oneOf failures repeat every branch's errors; keep the ones that point deepest and drop the summary. */
function relevantErrors(errors: ErrorObject[]): ErrorObject[] {
  const withoutSummaries = oneMissingKeyOfEach(errors).filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'if')
  const byPath = new Map<string, ErrorObject[]>()
  for (const e of withoutSummaries) {
    const list = byPath.get(e.instancePath) ?? []
    list.push(e)
    byPath.set(e.instancePath, list)
  }
  const out: ErrorObject[] = []
  for (const [path, list] of byPath) {
    // At a oneOf (string | map) the "type" complaints of the other branch are noise when a
    // more specific complaint exists at the same place, or inside the value (the map branch
    // matched its type and went wrong deeper: `{ id: x, vision: maybe }` is no "must be string").
    const specific = list.filter((e) => e.keyword !== 'type')
    const deeper = [...byPath.keys()].some((other) => other.startsWith(`${path}/`))
    if (specific.length === 0 && deeper) continue
    out.push(...(specific.length > 0 ? specific : list.slice(0, 1)))
  }
  return out
}

/**
 * An anyOf of `required` branches (a suite needs cases, tool_tests or attacks; a case needs prompt,
 * turns or simulated_user; a check's call needs tool, resource or mcp) reads as one missing key,
 * not a complaint per branch: the first branch's key, with the others as `alternatives`.
 */
function oneMissingKeyOfEach(errors: ErrorObject[]): ErrorObject[] {
  let out = errors
  for (const group of errors.filter((e) => e.keyword === 'anyOf')) {
    const branches = errors.filter((e) => e.instancePath === group.instancePath && e.schemaPath.startsWith(`${group.schemaPath}/`))
    if (branches.length === 0 || !branches.every((e) => e.keyword === 'required')) continue
    const [first, ...alternatives] = branches.map((e) => String((e.params as { missingProperty: string }).missingProperty))
    out = out.filter((e) => e !== group && !branches.includes(e))
    out.push({ ...group, keyword: 'required', params: { missingProperty: first, alternatives }, message: `must have one of ${[first, ...alternatives].join(', ')}` })
  }
  return out
}

/** An Ajv instance path (`/flows/0/checks/1`) as a YAML path. */
export function instancePath(error: ErrorObject): YamlPath {
  return error.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p))
}

function schemaError(error: ErrorObject, doc: Document, at: At, dialect: SchemaDialect): ConfigError {
  const path = instancePath(error)
  const own = dialect.explain?.(error, path, doc, at)
  if (own) return own
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String((error.params as { additionalProperty: string }).additionalProperty)
      const known = Object.keys(dialect.knownKeysAt(path))
      const hint = nearest(key, known)
      const message = `unknown key '${key}'` + (hint ? ` (did you mean '${hint}'?)` : `; known keys: ${known.join(', ')}`)
      return new ConfigError(message, at(keyOffset(doc, path, key), dotted([...path, key])))
    }
    case 'required': {
      const { missingProperty: missing, alternatives } = error.params as { missingProperty: string; alternatives?: string[] }
      const either = alternatives === undefined ? '' : (dialect.alternativesHint?.(path, alternatives) ?? ` (or ${alternatives.map((k) => `'${k}'`).join(', or ')})`)
      return new ConfigError(`missing required key '${missing}'${either}`, at(nodeOffset(doc, path), dotted(path)))
    }
    case 'not': {
      const forms = dialect.exclusiveKeys?.(path)
      if (!forms) break
      // As written: the second one is where the map went wrong.
      const node = doc.getIn(path, true)
      const given = isMap(node) ? node.items.map((p) => (isScalar(p.key) ? String(p.key.value) : '')).filter((key) => forms.includes(key)) : []
      const which = given.length > 2 ? `all ${given.length === 3 ? 'three' : given.length}` : `both ${given.map((k) => `'${k}'`).join(' and ')}`
      const key = given[1] ?? forms[0]
      return new ConfigError(`give one of ${forms.map((k) => `'${k}'`).join(', ')}, not ${which}`, at(keyOffset(doc, path, key), dotted([...path, key])))
    }
    case 'dependentRequired': {
      const { property, missingProperty } = error.params as { property: string; missingProperty: string }
      return new ConfigError(`missing required key '${missingProperty}' (needed by ${property})`, at(nodeOffset(doc, path), dotted(path)))
    }
  }
  return new ConfigError((dialect.describe?.(error) ?? describe(error)) + enumHint(error, doc, path), at(nodeOffset(doc, path), dotted(path)))
}

/** For a value outside an enum, the allowed value it was probably meant to be: ` (did you mean 'contains'?)`, else ''. */
function enumHint(error: ErrorObject, doc: Document, path: YamlPath): string {
  if (error.keyword !== 'enum') return ''
  const value = doc.getIn(path)
  const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.filter((v): v is string => typeof v === 'string')
  const hint = typeof value === 'string' ? nearest(value, allowed) : undefined
  return hint ? ` (did you mean '${hint}'?)` : ''
}

function describe(error: ErrorObject): string {
  if (error.keyword === 'type') return `must be ${(error.params as { type: string | string[] }).type.toString().replaceAll(',', ' or ')}`
  if (error.keyword === 'enum') return `${error.message ?? 'invalid value'} (${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')})`
  return error.message ?? 'invalid value'
}

export function nodeOffset(doc: Document, path: YamlPath): number | undefined {
  const node = (path.length === 0 ? doc.contents : doc.getIn(path, true)) as Node | undefined
  return node?.range?.[0]
}

export function keyOffset(doc: Document, path: YamlPath, key: string): number | undefined {
  const parent = path.length === 0 ? doc.contents : doc.getIn(path, true)
  if (isMap(parent)) {
    const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === key)
    if (pair && isScalar(pair.key)) return pair.key.range?.[0]
  }
  return nodeOffset(doc, path)
}

export function dotted(path: YamlPath): string {
  return path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '') || '(top level)'
}

export function dedupe(errors: ConfigError[]): ConfigError[] {
  const seen = new Set<string>()
  return errors.filter((e) => (seen.has(e.message) ? false : (seen.add(e.message), true)))
}
