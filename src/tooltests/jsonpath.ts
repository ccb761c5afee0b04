import { jsonpath } from 'json-p3'
import type { Json } from '../config/types.js'

/**
 * RFC 9535 JSONPath for tool tests, through json-p3: a standard parser and evaluator that never
 * calls `eval`, so a path in a suite cannot run code, and whose results (nodelists, filters,
 * `length()`/`count()`/`match()`/`search()`/`value()`) follow the RFC rather than one library's
 * dialect of Goessner's JSONPath.
 */
export type CompiledPath = jsonpath.JSONPathQuery

// Paths come from the suite, so the cache is bounded by its size; each is parsed once although
// every attempt of every test applies it again.
const compiled = new Map<string, CompiledPath>()

/**
 * Parse a JSONPath once. Throws an Error naming the path and where the parser gave up, so the
 * config loader can reject the suite before anything runs.
 */
export function compilePath(path: string): CompiledPath {
  const cached = compiled.get(path)
  if (cached) return cached
  let query: CompiledPath
  try {
    query = jsonpath.compile(path)
  } catch (error) {
    throw new Error(`invalid JSONPath ${JSON.stringify(path)}: ${describeError(error)}`)
  }
  compiled.set(path, query)
  return query
}

/** The reason a path does not parse, or undefined when it does (for load-time validation). */
export function pathProblem(path: string): string | undefined {
  try {
    compilePath(path)
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

/**
 * The values of the nodelist `path` selects in `value`, in document order. Throws on a path that
 * does not parse, and when the document nests deeper than json-p3's recursion limit for `..`.
 */
export function queryValues(path: string, value: Json): Json[] {
  return compilePath(path).query(value).values() as Json[]
}

/**
 * A deep copy of `value` without every node any of `paths` selects (for snapshot `ignore`).
 * All locations are found on the original before anything is dropped, so one path's removal
 * cannot shift the array indices another path selected. Selecting the root (`$`) leaves null.
 */
export function removePaths(value: Json, paths: string[]): Json {
  const drop = new Set<string>()
  for (const path of paths) for (const location of compilePath(path).query(value).locations()) drop.add(locationKey(location))
  if (drop.size === 0) return structuredClone(value)
  if (drop.has(locationKey([]))) return null
  return without(value, [], drop)
}

function without(value: Json, location: (string | number)[], drop: Set<string>): Json {
  if (Array.isArray(value)) {
    const out: Json[] = []
    value.forEach((item, index) => {
      const at = [...location, index]
      if (!drop.has(locationKey(at))) out.push(without(item, at, drop))
    })
    return out
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, Json> = {}
    for (const [key, item] of Object.entries(value)) {
      const at = [...location, key]
      if (!drop.has(locationKey(at))) out[key] = without(item, at, drop)
    }
    return out
  }
  return value
}

// JSON keeps the member name "0" apart from the index 0.
const locationKey = (location: (string | number)[]) => JSON.stringify(location)

function describeError(error: unknown): string {
  if (error instanceof jsonpath.JSONPathError) {
    // json-p3 ends its messages with `('<the path>':<offset>)`; the path is already named.
    const message = error.message.replace(/ \('[\s\S]*':\d+\)$/, '')
    return `${message} (at offset ${error.token.index})`
  }
  return error instanceof Error ? error.message : String(error)
}
