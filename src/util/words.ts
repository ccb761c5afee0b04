/** "1 check", "2 checks"; `plural` defaults to the noun with an "s". */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? noun : plural}`
}

/** A share as a percentage with at most one decimal: 0.875 → "87.5%", 1 → "100%". */
export function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`
}

/** An allowance in percentage points: 0.02 → "2 pt". */
export function points(share: number): string {
  return `${Math.round(share * 1000) / 10} pt`
}

/** A change of a share in percentage points, signed, with an arrow: ▲ +2.5 pt, ▼ −10 pt, ±0 pt. */
export function pointsDelta(delta: number): string {
  const pt = Math.round(delta * 1000) / 10
  if (pt === 0) return '±0 pt'
  return pt > 0 ? `▲ +${pt} pt` : `▼ −${-pt} pt`
}

/** A relative change of a measured figure: ▲ +25%, ▼ −10%, ±0%. */
export function relativeDelta(before: number, after: number): string {
  if (before === 0) return after === 0 ? '±0%' : '▲ new'
  const pct = Math.round(((after - before) / before) * 1000) / 10
  if (pct === 0) return '±0%'
  return pct > 0 ? `▲ +${pct}%` : `▼ −${-pct}%`
}

/** Seconds for a table cell: tenths below 10 s, whole seconds above, "<0.1s" for less; "—" when not measured. */
export function seconds(s: number | null | undefined): string {
  if (s === null || s === undefined || !Number.isFinite(s) || s < 0) return '—'
  if (s < 0.05) return '<0.1s'
  return s < 10 ? `${Math.round(s * 10) / 10}s` : `${Math.round(s)}s`
}

/**
 * A cost in US dollars: "$0.0123", four decimals for a cent's fraction, and two significant
 * digits below a tenth of a cent ("$0.00046", where four decimals would say $0.0005 for every
 * cheap model, or $0.0000 for a cheaper one).
 */
export function usd(cost: number): string {
  if (cost <= 0 || cost >= 0.001) return `$${cost.toFixed(4)}`
  return `$${cost.toFixed(1 - Math.floor(Math.log10(cost)))}`
}

/** A whole number with thousands separators: 1240.4 → "1,240". */
export function wholeNumber(n: number): string {
  return Math.round(n).toLocaleString('en-US')
}

/** Milliseconds: "1,240 ms"; "—" when not measured. */
export function milliseconds(ms: number | null | undefined): string {
  return ms === null || ms === undefined || !Number.isFinite(ms) ? '—' : `${wholeNumber(ms)} ms`
}

/** The most names a message lists before it counts the rest. */
export const NAMES_SHOWN = 20

/** "a, b, c": a list of names, the first `shown` only and then "and 9,980 more" (a message that stays short with 10,000 tools). */
export function someOf(names: readonly string[], shown = NAMES_SHOWN, separator = ', '): string {
  if (names.length <= shown) return names.join(separator)
  return `${names.slice(0, shown).join(separator)}${separator}and ${(names.length - shown).toLocaleString('en-US')} more`
}
