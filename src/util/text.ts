/** Shorten to `max` characters with an ellipsis (never inside a surrogate pair). */
export function ellipsize(text: string, max: number): string {
  return text.length > max ? `${sliceChars(text, 0, max)}…` : text
}

/**
 * `text.slice(start, end)` that never splits a surrogate pair: an emoji at either edge is left
 * out whole rather than cut into a lone half (which JSON writes as `\udXXX` and a reader shows as �).
 */
export function sliceChars(text: string, start: number, end = text.length): string {
  const isHigh = (i: number) => {
    const code = text.charCodeAt(i)
    return code >= 0xd800 && code <= 0xdbff
  }
  const from = start > 0 && isHigh(start - 1) ? start + 1 : start
  const to = end < text.length && end > 0 && isHigh(end - 1) ? end - 1 : end
  return text.slice(from, Math.max(from, to))
}

/** A string matched literally inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** A character by its code point, as Unicode names it: `U+200B`. */
export function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
}

export function firstLine(text: string): string {
  return text.split('\n')[0]
}

/** A share or rate to four decimals, as the results document holds them. */
export function round4(n: number): number {
  return Math.round(n * 10000) / 10000
}

/**
 * A short, single-line rendering of a value for evidence: JSON unless it is a string, newlines
 * folded, cut at `max` characters with an ellipsis (never inside a surrogate pair).
 */
export function trimEvidence(value: unknown, max = 600): string {
  let text: string
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))
  } catch {
    text = String(value)
  }
  text = text.replace(/[\r\n]+/g, ' ')
  return ellipsize(text, max)
}

/** Strings in code-unit order (what `<` says): the same order on every machine, unlike localeCompare. */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** A number as a sentence shows it: six significant digits, no trailing zeros or float noise (0.1 + 0.2 is "0.3"). */
export const significant = (n: number): string => String(Number(n.toPrecision(6)))
