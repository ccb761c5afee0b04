import type { Json } from './types.js'

// The `${name}` placeholders of a tool test step's args, filled by a capture of an earlier step:
// the loader checks them (here), the runner substitutes them (tooltests/capture.ts).

/** What a capture may be called: a letter or `_`, then letters, digits, `_` and `-`. */
export const CAPTURE_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/

// `$${` first, so an escaped placeholder is never read as one.
export const PLACEHOLDER = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_-]*)\}/g

/** The capture names `args` uses, in order of first use (for the loader: each must be captured by an earlier step). */
export function referencedCaptures(args: Record<string, Json>): string[] {
  const names = new Set<string>()
  for (const text of strings(args)) for (const m of text.matchAll(PLACEHOLDER)) if (m[1] !== undefined) names.add(m[1])
  return [...names]
}

/**
 * `${` that does not start a valid placeholder (`${order id}`, an unclosed `${order`), for the
 * loader to reject: sent as they are, they would be a silent typo. `$${` writes a literal `${`.
 */
export function malformedPlaceholders(args: Record<string, Json>): string[] {
  const bad: string[] = []
  for (const text of strings(args)) {
    if (text.replace(PLACEHOLDER, '').includes('${')) bad.push(text)
  }
  return bad
}

function strings(value: Json): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(strings)
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings)
  return []
}

/** A value sent as written in a tool test's arguments: every `${` escaped as `$${` (a function, so the replacement's `$$` is not read as one `$`). */
export function escapeCaptures(value: Json): Json {
  return mapStrings(value, (text) => text.replaceAll('${', () => '$${'))
}

/** The value a tool test sends for its arguments as written, when they hold no placeholder: `$${` back to `${`. */
export function unescapeCaptures(value: Json): Json {
  return mapStrings(value, (text) => text.replaceAll('$${', () => '${'))
}

function mapStrings(value: Json, change: (text: string) => string): Json {
  if (typeof value === 'string') return change(value)
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, change))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, change)]))
  return value
}
