import { jsonpath } from 'json-p3'

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

function describeError(error: unknown): string {
  if (error instanceof jsonpath.JSONPathError) {
    // json-p3 ends its messages with `('<the path>':<offset>)`; the path is already named.
    const message = error.message.replace(/ \('[\s\S]*':\d+\)$/, '')
    return `${message} (at offset ${error.token.index})`
  }
  return error instanceof Error ? error.message : String(error)
}
