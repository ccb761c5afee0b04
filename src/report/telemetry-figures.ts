import type { FigureChange, ResultsDocument, TelemetrySection } from '../results/types.js'
import { percent, pointsChange, relativeChange, usd, wholeNumber, type Better } from '../util/words.js'

// ——— Figures as a table cell shows them ———

/** "512 B", "3.4 KiB", "1.2 MiB"; "—" when not measured. */
export function byteSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '—'
  if (bytes < 1024) return `${Math.round(bytes)} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
}

/** "1,234" tokens, rounded; "—" when not measured. */
export function tokenCount(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? '—' : wholeNumber(n)
}

/** A cost (words.ts's `usd`); "unknown" (never $0) when the provider did not report it and `pricing:` has no entry. */
export function cost(usdValue: number | null | undefined): string {
  return usdValue === null || usdValue === undefined || !Number.isFinite(usdValue) ? 'unknown' : usd(usdValue)
}

/** " (▲ +4 pt, better)" for a share that moved against the baseline; nothing when unchanged or not measured on one side. */
export function shareChange(change: FigureChange | undefined, better: Better = 'higher'): string {
  if (!change || change.baseline === null || change.current === null) return ''
  const delta = pointsChange(change.baseline, change.current, better)
  return delta.moved ? ` (${delta.text})` : ''
}

/**
 * " (▲ +12%, worse)" for a measured figure that moved against the baseline; nothing when
 * unchanged at the precision `shown` displays it, or not measured on one side.
 */
export function figureChange(change: FigureChange | undefined, better: Better = 'lower', shown?: (n: number) => string): string {
  if (!change || change.baseline === null || change.current === null) return ''
  const delta = relativeChange(change.baseline, change.current, better, shown)
  return delta.moved ? ` (${delta.text})` : ''
}

export const shareCell = (value: number | null | undefined) => (value === null || value === undefined ? '—' : percent(value))

/** The document's telemetry, or null (a fatal document; one older than Layer 3 that was not upgraded). */
export function sectionOf(doc: ResultsDocument): TelemetrySection | null {
  return doc.telemetry ?? null
}

/** "1.5s" or "1.5s–3.9s": the lowest and highest of some figures, once when they read the same. */
export function spread(values: number[], format: (n: number) => string): string {
  const [low, high] = [format(Math.min(...values)), format(Math.max(...values))]
  return low === high ? low : `${low}–${high}`
}
