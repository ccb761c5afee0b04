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

/** A cost in US dollars, with enough digits for a cent's fraction. */
export function usd(cost: number): string {
  return `$${cost.toFixed(4)}`
}
