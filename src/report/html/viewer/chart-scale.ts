/**
 * The arithmetic of the page's horizontal bar charts, apart from the DOM so it can be tested
 * alone: a round top of the axis above the largest value, and each bar's length on it.
 */

/** The smallest "round" number (1, 2, 2.5 or 5 times a power of ten) at or above `value`; 1 when nothing is above zero. */
export function niceCeiling(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return 1
  const power = 10 ** Math.floor(Math.log10(value))
  for (const step of [1, 2, 2.5, 5, 10]) {
    const top = step * power
    // The tolerance keeps 0.3 from becoming 0.5 because 3 × 0.1 is 0.30000000000000004.
    if (top >= value * (1 - 1e-9)) return top
  }
  return 10 * power
}

export interface ScaledBar {
  /** The value as given; null when it was not measured (no bar is drawn). */
  value: number | null
  /** The bar's length in the chart's units, 0 for a null or negative value; at least `minLength` for a value above zero, so it stays visible. */
  length: number
}

/**
 * Each value's bar on an axis from 0 to a round top above the largest, `width` units long. Values
 * not measured (null, NaN) draw no bar; the axis top is 1 when there is nothing to draw.
 */
export function scaleBars(values: readonly (number | null)[], width: number, minLength = 1): { top: number; bars: ScaledBar[] } {
  const measured = values.filter((v): v is number => v !== null && Number.isFinite(v))
  const top = niceCeiling(Math.max(0, ...measured))
  const bars = values.map((value) => {
    if (value === null || !Number.isFinite(value) || value <= 0) return { value: value !== null && Number.isFinite(value) ? value : null, length: 0 }
    return { value, length: Math.max(minLength, (value / top) * width) }
  })
  return { top, bars }
}
