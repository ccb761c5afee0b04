/**
 * `${JSON.stringify(value, null, 2)}\n` in pieces: each entry of each top-level list (the runs,
 * the groups) one piece, every other top-level value one piece. At 10,000 runs the document's
 * text is a few hundred megabytes, and a file written from its pieces never needs it as one
 * string (nor the string's copy a write would make). Byte for byte the same text: a nested value
 * is its own JSON.stringify with every line break followed by its depth's indent (a JSON string
 * never holds a raw line break, so every one is between tokens).
 */
export function* documentJsonPieces(value: object): Generator<string> {
  if (Array.isArray(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    yield `${JSON.stringify(value, null, 2)}\n`
    return
  }
  const entries = Object.entries(value).filter(([, v]) => written(v))
  if (entries.length === 0) {
    yield '{}\n'
    return
  }
  let first = true
  for (const [key, v] of entries) {
    const head = `${first ? '{' : ','}\n  ${JSON.stringify(key)}: `
    first = false
    if (Array.isArray(v) && v.length > 0) {
      yield `${head}[`
      for (let i = 0; i < v.length; i++) yield `${i === 0 ? '' : ','}\n    ${nested(v[i], '    ')}`
      yield '\n  ]'
    } else yield `${head}${nested(v, '  ')}`
  }
  yield '\n}\n'
}

/** Whether JSON.stringify writes an object's key with this value (it leaves out undefined, functions and symbols). */
function written(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol'
}

/** A value's JSON at a depth: its own lines after the first indented by `indent` (an array's hole or undefined is null, as in JSON.stringify). */
function nested(v: unknown, indent: string): string {
  const text = (JSON.stringify(v, null, 2) as string | undefined) ?? 'null'
  return text.includes('\n') ? text.replaceAll('\n', `\n${indent}`) : text
}
