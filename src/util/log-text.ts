import { sliceChars } from './text.js'

/**
 * Text for the log, made inert for the GitHub Actions runner and bounded.
 *
 * The runner (actions/runner, src/Runner.Worker/Handlers/OutputManager.cs and
 * src/Runner.Common/ActionCommand.cs) reads a step's stdout and stderr a line at a time
 * (StreamReader.ReadLine: a line ends at `\n`, `\r\n` or a lone `\r`) and takes a line for a
 * command when, after TrimStart() (every Unicode white space), it starts with `::` and holds a
 * second `::` (`::error file=x::text`, `::add-mask::`, `::stop-commands::token`), or when it
 * holds the legacy `##[` anywhere (`… ##[error]text`). Both tests use .NET's culture-sensitive
 * StartsWith and IndexOf, which on Linux compare with ICU collation: the characters ICU ignores
 * (controls, format characters such as a zero-width joiner, soft hyphens, variation selectors)
 * do not separate `:` from `:` or `#` from `[`, so inserting one of them neutralises nothing.
 *
 * So a line is made inert by a visible look-alike that ICU weighs differently from the original
 * (a different primary weight, not only a width variant): the first colon of a `::` that starts
 * a line becomes `∶` (U+2236 RATIO), and the second `#` of every `##[` becomes `♯` (U+266F MUSIC
 * SHARP SIGN). The rest of the text is kept as it was, copyable.
 */

/** The most characters of one line printed to the log, the cut marker included. */
export const LOG_LINE_MAX = 4096

/** What ICU collation ignores (an approximation from above: every control and format character, and the default ignorables). */
const IGNORABLE = String.raw`\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}`
/** `::` at the start of a line, after white space and ignorables: its first colon. */
const COMMAND_START = new RegExp(String.raw`^([\s${IGNORABLE}]*):(?=[${IGNORABLE}]*:)`, 'u')
/** `##[` anywhere, ignorables between: its second `#`. */
const LEGACY_COMMAND = new RegExp(String.raw`#([${IGNORABLE}]*)#(?=[${IGNORABLE}]*\[)`, 'gu')
/** Where the runner ends a line. */
const LINE_BREAK = /(\r\n|\r|\n)/

export const INERT_COLON = '\u2236'
export const INERT_HASH = '\u266f'

/** One line (no line break in it) as the runner would not take it for a command; not cut. */
export function inertLine(line: string): string {
  return line.replace(COMMAND_START, `$1${INERT_COLON}`).replace(LEGACY_COMMAND, `#$1${INERT_HASH}`)
}

/** A line cut to `max` characters with a marker that says how long it was. */
export function capLine(line: string, max = LOG_LINE_MAX): string {
  if (line.length <= max) return line
  const marker = ` … [cut: ${line.length.toLocaleString('en-US')} characters in all]`
  return `${sliceChars(line, 0, Math.max(0, max - marker.length))}${marker}`
}

/**
 * Text printed as it is (core.info, the CLI's stdout and stderr): every line (split where the
 * runner splits, the line breaks kept as they were) made inert and cut to `max` characters.
 */
export function inertText(text: string, max = LOG_LINE_MAX): string {
  const parts = text.split(LINE_BREAK)
  // Odd indices are the line breaks themselves.
  for (let i = 0; i < parts.length; i += 2) parts[i] = capLine(inertLine(parts[i]!), max)
  return parts.join('')
}

/** The length of text as a workflow command's data (@actions/core escapes `%`, `\r`, `\n` as three characters). */
function encodedLength(text: string): number {
  let n = text.length
  for (const ch of text) if (ch === '%' || ch === '\r' || ch === '\n') n += 2
  return n
}

/**
 * An annotation's message (core.warning, core.error, core.notice, core.setFailed): @actions/core
 * writes it as one command line, its line breaks escaped, so it is cut as a whole to keep that
 * line under LOG_LINE_MAX with its title; its lines are made inert all the same (the annotation
 * shows them).
 */
export const ANNOTATION_MAX = 3400
export function inertMessage(message: string, max = ANNOTATION_MAX): string {
  const text = message.split(LINE_BREAK).map((part, i) => (i % 2 === 0 ? inertLine(part) : part)).join('')
  if (encodedLength(text) <= max) return text
  const marker = ` … [cut: ${text.length.toLocaleString('en-US')} characters in all]`
  let budget = max - marker.length
  let end = 0
  while (end < text.length) {
    const ch = text[end]!
    const cost = ch === '%' || ch === '\r' || ch === '\n' ? 3 : 1
    if (cost > budget) break
    budget -= cost
    end++
  }
  return `${sliceChars(text, 0, end)}${marker}`
}

/** An annotation's title, on one line and short (GitHub shows it as a heading). */
export const TITLE_MAX = 200
export function inertTitle(title: string): string {
  const line = inertLine(title.replace(/[\r\n]+/g, ' '))
  return line.length > TITLE_MAX ? `${sliceChars(line, 0, TITLE_MAX - 1)}…` : line
}
