/** "1 check", "2 checks"; `plural` defaults to the noun with an "s". */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${grouped(n)} ${n === 1 ? noun : plural}`
}

/**
 * 12345 → "12,345", as toLocaleString('en-US') writes it. A whole number is grouped by hand:
 * the first toLocaleString sets up ICU's number formatting, ~15 ms on the way to the first
 * server spawn (the plan line counts its runs).
 */
function grouped(n: number): string {
  return Number.isSafeInteger(n) && !Object.is(n, -0) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : n.toLocaleString('en-US')
}

/** A share as a percentage with at most one decimal: 0.875 → "87.5%", 1 → "100%". */
export function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`
}

/** An allowance in percentage points: 0.02 → "2 pt". */
export function points(share: number): string {
  return `${Math.round(share * 1000) / 10} pt`
}

/** Which way a figure is better: up (a pass rate), down (a cost, a latency), or neither (a count that only informs). */
export type Better = 'higher' | 'lower' | null

/**
 * A change against the baseline, worded by one rule everywhere: ▲/▼ is the direction of the
 * number, the word says whether that is better or worse (nothing when neither is); a change that
 * does not show at the display precision is "unchanged".
 */
export interface Delta {
  /** "▼ −25%, better", "▲ +2.5 pt, worse", "▲ +12%", "unchanged", "new". */
  text: string
  /** The change shows at the display precision. */
  moved: boolean
  /** True when it moved the bad way, false when the good way, null when unchanged or neither way is better. */
  worse: boolean | null
}

const UNCHANGED: Delta = { text: 'unchanged', moved: false, worse: null }

function directed(up: boolean, magnitude: string, better: Better): Delta {
  const worse = better === null ? null : up === (better === 'lower')
  const word = worse === null ? '' : worse ? ', worse' : ', better'
  return { text: `${up ? '▲ +' : '▼ −'}${magnitude}${word}`, moved: true, worse }
}

/** A share's change in percentage points, at the precision `percent` shows (one decimal of a percent). */
export function pointsChange(baseline: number, current: number, better: Better = 'higher'): Delta {
  const pt = Math.round((current - baseline) * 1000) / 10
  if (pt === 0 || percent(baseline) === percent(current)) return UNCHANGED
  return directed(pt > 0, `${Math.abs(pt)} pt`, better)
}

/**
 * A measured figure's relative change. `shown` is how the figure is displayed ("0.2s"): when the
 * two read the same, the change is under the display precision and shows as unchanged, whatever
 * the ratio ("0.2s → 0.2s" is never "▼ −25%").
 */
export function relativeChange(baseline: number, current: number, better: Better, shown?: (n: number) => string): Delta {
  if (shown && shown(baseline) === shown(current)) return UNCHANGED
  if (baseline === 0) return current === 0 ? UNCHANGED : { text: 'new', moved: true, worse: better === null ? null : better === 'lower' }
  const pct = Math.round(((current - baseline) / baseline) * 1000) / 10
  if (pct === 0) return UNCHANGED
  return directed(pct > 0, `${Math.abs(pct)}%`, better)
}

/** A change of a share in points, as text: "▲ +2.5 pt, better", "▼ −10 pt, worse", "unchanged". */
export function pointsDelta(delta: number, better: Better = 'higher'): string {
  return pointsChange(0, delta, better).text
}

/** A relative change of a measured figure, as text: "▲ +25%, worse" (with better: 'lower'), "unchanged", "new". */
export function relativeDelta(before: number, after: number, better: Better = null, shown?: (n: number) => string): string {
  return relativeChange(before, after, better, shown).text
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
