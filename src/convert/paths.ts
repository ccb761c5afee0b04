/**
 * JSONPaths between the formats. evals/v1 paths are a small subset (`$`, `$.a.b`, `$.a[0].b`)
 * on the raw result; eval_cases `json` paths are RFC 9535 on structuredContent (`$.city` there is
 * `$.structuredContent.city` here). A path outside what both can say converts to null.
 */

export type Token = string | number

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** An evals/v1 path's steps (their tokenizer: `.name` and `[n]`); null when it is not one. */
export function v1Tokens(path: string): Token[] | null {
  if (path === '$') return []
  if (!/^\$[.[]/.test(path)) return null
  const rest = path.slice(1)
  const tokens: Token[] = []
  const re = /\.([^[\].]+)|\[(\d+)\]/y
  let at = 0
  while (at < rest.length) {
    re.lastIndex = at
    const m = re.exec(rest)
    if (!m) return null
    tokens.push(m[1] !== undefined ? m[1] : Number(m[2]))
    at = re.lastIndex
  }
  return tokens
}

/** Steps as an RFC 9535 path (`$.a[0]['b c']`). */
export function rfcPath(tokens: Token[]): string {
  return `$${tokens.map((t) => (typeof t === 'number' ? `[${t}]` : NAME.test(t) ? `.${t}` : `['${t.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`)).join('')}`
}

/** Steps as an evals/v1 path; null when a name holds `.`, `[` or `]` (their tokenizer would split it). */
export function v1Path(tokens: Token[]): string | null {
  if (tokens.some((t) => typeof t === 'string' && (/[.[\]]/.test(t) || t === ''))) return null
  return tokens.length === 0 ? '$' : `$${tokens.map((t) => (typeof t === 'number' ? `[${t}]` : `.${t}`)).join('')}`
}

/**
 * An RFC 9535 path of plain steps only (names, `['quoted']`, indexes); null for anything else
 * (wildcards, slices, filters, descendants, negative indexes).
 */
export function rfcTokens(path: string): Token[] | null {
  if (!path.startsWith('$')) return null
  const tokens: Token[] = []
  const re = /\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y
  let at = 1
  while (at < path.length) {
    re.lastIndex = at
    const m = re.exec(path)
    if (!m) return null
    if (m[1] !== undefined) tokens.push(m[1])
    else if (m[2] !== undefined) tokens.push(Number(m[2]))
    else tokens.push((m[3] ?? m[4]).replace(/\\(.)/g, '$1'))
    at = re.lastIndex
  }
  return tokens
}

/** The steps after `structuredContent`, when an evals/v1 path reads it (or below it); else null. */
export function underStructuredContent(path: string): Token[] | null {
  const tokens = v1Tokens(path)
  return tokens !== null && tokens[0] === 'structuredContent' ? tokens.slice(1) : null
}
