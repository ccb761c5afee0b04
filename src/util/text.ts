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
