import { RE2JS } from 're2js'

/**
 * A compiled user regular expression. It runs on RE2 (re2js, pure JavaScript): matching takes time
 * linear in the text, so no pattern, however written, can hold the job on a hostile text.
 */
export interface MatcherPattern {
  /** The pattern as the user wrote it. */
  readonly source: string
  /** Whether the pattern matches somewhere in `text` (a search, not a full match). */
  test(text: string): boolean
}

/** A pattern RE2 cannot take: a syntax error, or a construct (backreference, lookaround…) it does not support. */
export class PatternError extends Error {}

const patternCache = new Map<string, MatcherPattern>()

/**
 * Compile a Python `re` pattern for a case-insensitive search on RE2. Python spellings RE2 does
 * not share are translated (\Z, \uXXXX, `(?#…)`, `{,n}`, leading inline flags, `(?x)` verbose);
 * RE2 takes `(?P<name>…)`, `\A` and scoped flags `(?i:…)` as they are. A pattern RE2 refuses
 * throws a PatternError, which the suite loader reports, with where, before any run starts.
 */
export function compileMatcherPattern(pattern: string): MatcherPattern {
  const cached = patternCache.get(pattern)
  if (cached) return cached
  let flags = RE2JS.CASE_INSENSITIVE
  let source = pattern
  let verbose = false
  // Python takes global flags at the start only: `(?i)`, `(?ms)`, or several such groups.
  let inline: RegExpExecArray | null
  while ((inline = /^\(\?([aiLmsux]+)\)/.exec(source))) {
    source = source.slice(inline[0].length)
    for (const f of inline[1]) {
      if (f === 'm') flags |= RE2JS.MULTILINE
      else if (f === 's') flags |= RE2JS.DOTALL
      else if (f === 'x') verbose = true
      // i is always on; a (ASCII), L (locale) and u (Unicode) change nothing RE2 does differently here.
    }
  }
  const compiled = compileRe2(pattern, translatePython(source, verbose), flags)
  patternCache.set(pattern, compiled)
  return compiled
}

/**
 * RE2 as Ajv's `code.regExp`: a JSON Schema `pattern` (ECMA-262 syntax, case-sensitive) on a
 * linear-time engine, so a server's schema cannot hang the validation of its own results.
 */
export const schemaRegExp = Object.assign((pattern: string): MatcherPattern & { toString(): string } => {
  let compiled: MatcherPattern
  try {
    compiled = compileRe2(pattern, RE2JS.translateRegExp(pattern), 0)
  } catch (error) {
    // Not a pattern at all is the schema's fault (a SyntaxError, as Ajv always said); a valid one
    // RE2 cannot run is ours to say (compiling, unlike matching, cannot hang).
    new RegExp(pattern, 'u')
    throw error
  }
  // Ajv keys its compiled patterns by toString(): one per pattern.
  return { source: compiled.source, test: (text) => compiled.test(text), toString: () => `/${pattern}/` }
}, { code: 're2js' })

function compileRe2(pattern: string, translated: string, flags: number): MatcherPattern {
  let re: RE2JS
  try {
    re = RE2JS.compile(translated, flags)
  } catch (error) {
    throw new PatternError(explain((error as Error).message, pattern))
  }
  return { source: pattern, test: (text) => re.test(text) }
}

const LINEAR = 'patterns run on RE2, whose matching takes linear time (a backtracking engine would risk unbounded backtracking on a hostile text)'

/** RE2's parse error, said in terms of the construct when RE2 refuses it by design. */
function explain(message: string, pattern: string): string {
  const said = message.replace(/^error parsing regexp: /, '')
  const construct = /`([^`]*)`/.exec(said)?.[1] ?? ''
  const unsupported = (what: string, spelled: string) => `RE2 does not support ${what} (${spelled}): ${LINEAR}`
  if (construct.startsWith('(?P')) return unsupported('a backreference', /\(\?P[=>][^)]{0,40}\)?/.exec(pattern)?.[0] ?? construct)
  if (/^\\(?:[1-9]|k)/.test(construct)) return unsupported('a backreference', construct)
  if (construct.startsWith('(?=') || construct.startsWith('(?!')) return unsupported('a lookahead', `${construct}…)`)
  if (construct.startsWith('(?<=') || construct.startsWith('(?<!')) return unsupported('a lookbehind', `${construct.slice(0, 4)}…)`)
  if (said.startsWith('invalid nested repetition operator') && construct.endsWith('+')) return unsupported('a possessive quantifier', construct)
  if (construct.startsWith('(?>')) return unsupported('an atomic group', `${construct}…)`)
  if (construct.startsWith('(?(')) return unsupported('a conditional group', `${construct}…)`)
  if (said.startsWith('invalid repeat count')) return `${said}: RE2 allows a repeat count up to 1000, nested ones multiplying to 1000 at most; ${LINEAR}`
  return said
}

/**
 * Python's spellings in RE2's: \Z (end of text) is \z, \uXXXX and \UXXXXXXXX are \x{…}, a
 * `(?#…)` comment goes, `{,n}` is `{0,n}`; in verbose mode whitespace and `#` comments outside a
 * class go. Escapes and classes are read as such, so `\\Z` or `[#]` stay what they are.
 */
function translatePython(source: string, verbose: boolean): string {
  let out = ''
  let inClass = false
  let classBody = 0
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') {
      const next = source[i + 1] ?? ''
      const hex = next === 'u' ? /^[0-9a-fA-F]{4}/.exec(source.slice(i + 2)) : next === 'U' ? /^[0-9a-fA-F]{8}/.exec(source.slice(i + 2)) : null
      if (hex) {
        out += `\\x{${hex[0]}}`
        i += 1 + hex[0].length
      } else {
        out += next === 'Z' && !inClass ? '\\z' : c + next
        i++
      }
      continue
    }
    if (inClass) {
      // A `]` first in the class (after any `^`) is a member, as in Python.
      if (c === '^' && out.length === classBody) classBody++
      else if (c === ']' && out.length > classBody) inClass = false
      out += c
      continue
    }
    if (c === '[') {
      inClass = true
      out += c
      classBody = out.length
      continue
    }
    if (c === '(' && source.startsWith('(?#', i)) {
      const end = source.indexOf(')', i)
      i = end === -1 ? source.length : end
      continue
    }
    const upTo = c === '{' ? /^\{,(\d+)\}/.exec(source.slice(i)) : null
    if (upTo) {
      out += `{0,${upTo[1]}}`
      i += upTo[0].length - 1
      continue
    }
    if (verbose && /\s/.test(c)) continue
    if (verbose && c === '#') {
      const end = source.indexOf('\n', i)
      i = end === -1 ? source.length : end
      continue
    }
    out += c
  }
  return out
}
