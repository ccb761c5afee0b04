import { pathProblem } from './jsonpath.js'

/**
 * evals/v1's JSONPaths on our RFC 9535 implementation. @mcp-use/evals reads a subset (`$`,
 * `$.a.b`, `$.a[0].b`) with its own tokenizer, which also takes a dotted name RFC 9535's
 * shorthand does not (`$.a:b`, `$.1st`, `$.x y`): such a segment is spelled as a bracketed name
 * (`$["a:b"]`), which selects the same member. Anything RFC 9535 parses is used as it is.
 * Shared by the suite loader (which reports a path that does not parse) and the assertion engine.
 */
export function evalsV1Path(path: string): string {
  const problem = pathProblem(path)
  if (!problem) return path
  const rewritten = upstreamSpelling(path)
  if (rewritten !== undefined && !pathProblem(rewritten)) return rewritten
  if (/^\$(?:\.|$)/.test(path)) {
    const digits = /\.(\d+)(?=\.|\[|$)/.exec(path)
    if (digits) throw new Error(`invalid JSONPath ${JSON.stringify(path)}: .${digits[1]} is not a member name; write [${digits[1]}] for an array index or ['${digits[1]}'] for a key`)
  }
  if (!path.startsWith('$')) throw new Error(`invalid JSONPath ${JSON.stringify(path)}: a path starts with $ (the root, the raw result)`)
  throw new Error(problem)
}

/** Why `path` is not a usable evals/v1 JSONPath, or undefined when it is. */
export function evalsV1PathProblem(path: string): string | undefined {
  try {
    evalsV1Path(path)
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

const FROM_RESULT = /^\$\{fromResult:([\s\S]*)\}$/

/**
 * The path of a `resource` rule's `${fromResult:<path>}` URI, as evals/v1 reads it (`$` is
 * prefixed with `$.` when the path does not start with `$`); undefined for a literal URI.
 */
export function fromResultPath(uri: string): string | undefined {
  const inner = FROM_RESULT.exec(uri)?.[1]
  if (inner === undefined) return undefined
  return inner.startsWith('$') ? inner : `$.${inner}`
}

// RFC 9535's member-name-shorthand: a name-first character, then name characters.
const SHORTHAND = /^[A-Za-z_\u0080-\u{10FFFF}][A-Za-z0-9_\u0080-\u{10FFFF}]*$/u

/** Upstream's grammar (`$`, then `.name` or `[digits]` segments) with each odd name bracketed. */
function upstreamSpelling(path: string): string | undefined {
  if (!path.startsWith('$.')) return undefined
  const rest = path.slice(1)
  const segment = /\.([^[\].]+)|\[(\d+)\]/gy
  let out = '$'
  let match: RegExpExecArray | null
  let read = 0
  while ((match = segment.exec(rest))) {
    read = segment.lastIndex
    if (match[2] !== undefined) out += `[${match[2]}]`
    else if (/^\d+$/.test(match[1])) return undefined
    else out += SHORTHAND.test(match[1]) ? `.${match[1]}` : `[${JSON.stringify(match[1])}]`
  }
  return read === rest.length ? out : undefined
}
