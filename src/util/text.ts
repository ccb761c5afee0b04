/** Shorten to `max` characters with an ellipsis. */
export function ellipsize(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
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
  if (text.length <= max) return text
  let end = max
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end--
  return `${text.slice(0, end)}…`
}
