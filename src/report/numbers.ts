/** Python's round(): halves go to the even neighbour (62.5 → 62), unlike Math.round. */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x)
  if (x - floor !== 0.5) return Math.round(x)
  return floor % 2 === 0 ? floor : floor + 1
}

/** eval-action's percentage of a 0–1 score: round(score * 100), half to even. */
export function formatPercent(score: number): number {
  return roundHalfEven(score * 100)
}
