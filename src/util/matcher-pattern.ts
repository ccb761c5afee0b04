const patternCache = new Map<string, RegExp>()

/**
 * Compile a Python `re` pattern for a case-insensitive search. Python-only spellings that
 * suites commonly use are translated (named groups, \A, \Z, leading inline flags); anything
 * JavaScript cannot compile throws, which the suite loader reports before any run starts.
 */
export function compileMatcherPattern(pattern: string): RegExp {
  const cached = patternCache.get(pattern)
  if (cached) return cached
  let source = pattern
  const flags = new Set(['i'])
  const inline = /^\(\?([aiLmsux]+)\)/.exec(source)
  if (inline) {
    source = source.slice(inline[0].length)
    for (const f of inline[1]) if (f === 'm' || f === 's') flags.add(f)
  }
  source = source
    .replace(/\(\?P<([A-Za-z_]\w*)>/g, '(?<$1>')
    .replace(/\(\?P=([A-Za-z_]\w*)\)/g, '\\k<$1>')
    .replace(/\\A/g, '^')
    .replace(/\\Z/g, '$(?![\\s\\S])')
  const regex = new RegExp(source, [...flags].join(''))
  patternCache.set(pattern, regex)
  return regex
}
