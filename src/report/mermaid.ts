/**
 * Mermaid bar charts, which GitHub draws from a ```mermaid block in comments and job summaries.
 * A chart only repeats a table that sits beside it (for readers without Mermaid). Its labels come
 * from a server (tool names) or a configuration (model ids): each is cut down to characters that
 * can neither end its quoted string, nor its line, nor the code block.
 */

/** The most bars a chart draws: the highest values; the caller says that the table has them all. */
export const MAX_BARS = 15
/** A label longer than this is cut with an ellipsis. */
const LABEL_CHARS = 40

/** One bar: its label (untrusted text) and its value. */
export interface Bar {
  label: string
  value: number
}

export interface BarChart {
  /** The chart's title, our own words. */
  title: string
  /** The y axis' title: the unit of the values. */
  unit: string
  bars: Bar[]
}

/** What a chart drew: its lines (empty when it was not worth drawing) and how many bars it left out. */
export interface RenderedChart {
  lines: string[]
  shown: number
  omitted: number
}

/** Anything else becomes `_`: quotes, backticks, brackets, `%`, `#`, `;`, `<`, `>`, newlines and every control or invisible character. */
const UNSAFE = /[^\p{L}\p{M}\p{N} _\-./:+(),@=]/gu

/**
 * Text safe inside a Mermaid quoted string on one line of a fenced block: letters, digits, spaces
 * and `_-./:+(),@=` are kept, everything else is `_`; spaces are collapsed; at most 40 characters.
 */
export function mermaidLabel(text: string): string {
  const safe = text.replace(UNSAFE, '_').replace(/ {2,}/g, ' ').trim()
  const chars = [...safe]
  const cut = chars.length > LABEL_CHARS ? `${chars.slice(0, LABEL_CHARS - 1).join('')}…` : safe
  return cut === '' ? '_' : cut
}

/** A number as Mermaid reads it: plain decimal, never `1e-7`, about four significant digits. */
export function mermaidNumber(value: number): string {
  if (!Number.isFinite(value) || value === 0) return '0'
  const digits = Math.min(12, Math.max(0, 3 - Math.floor(Math.log10(Math.abs(value)))))
  const text = value.toFixed(digits)
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text
}

/** Labels made safe and told apart: two that read the same after cleaning get " (2)", " (3)". */
function distinctLabels(bars: Bar[]): string[] {
  const seen = new Map<string, number>()
  return bars.map((bar) => {
    const label = mermaidLabel(bar.label)
    const n = (seen.get(label) ?? 0) + 1
    seen.set(label, n)
    return n === 1 ? label : `${label} (${n})`
  })
}

/** Bars within this share of the highest read as equal: a chart of them shows no difference. */
export const SAME_WITHIN = 0.05

/**
 * An `xychart-beta` bar chart of the highest `MAX_BARS` values, highest first, the y axis from
 * zero. Nothing when fewer than two bars have a finite value (one bar is not a comparison), or
 * when every bar lies within 5% of the highest (two equal bars say nothing the table does not).
 */
export function renderBarChart(chart: BarChart, maxBars = MAX_BARS): RenderedChart {
  const usable = chart.bars.filter((b) => Number.isFinite(b.value) && b.value >= 0)
  if (usable.length < 2) return { lines: [], shown: 0, omitted: 0 }
  const bars = [...usable].sort((a, b) => b.value - a.value).slice(0, maxBars)
  const top = Math.max(...bars.map((b) => b.value))
  if (top - Math.min(...bars.map((b) => b.value)) <= top * SAME_WITHIN) return { lines: [], shown: 0, omitted: 0 }
  const labels = distinctLabels(bars)
  const lines = [
    '```mermaid',
    'xychart-beta',
    `  title "${mermaidLabel(chart.title)}"`,
    `  x-axis [${labels.map((l) => `"${l}"`).join(', ')}]`,
    `  y-axis "${mermaidLabel(chart.unit)}" 0 --> ${mermaidNumber(top > 0 ? top * 1.1 : 1)}`,
    `  bar [${bars.map((b) => mermaidNumber(b.value)).join(', ')}]`,
    '```'
  ]
  return { lines, shown: bars.length, omitted: usable.length - bars.length }
}
