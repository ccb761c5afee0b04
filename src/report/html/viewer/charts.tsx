import { scaleBars } from './chart-scale.js'

/** One labelled row of a chart: its value and, for a chart of two series, the second value. */
export interface ChartRow {
  label: string
  value: number | null
  second?: number | null
}

export interface BarChartProps {
  /** What the chart shows, for its aria-label and caption: "p50 and p95 latency per tool". */
  title: string
  rows: ChartRow[]
  /** How a value reads as text: "1.2 s", "$0.0042". */
  format: (value: number) => string
  /** The series' names, for the legend and the bars' titles: ["p50", "p95"]; one name for one series. */
  series: [string] | [string, string]
  /** What a missing value reads as: "not measured", or "unknown" for a cost nobody reported. */
  missing?: string
}

const LABEL_WIDTH = 190
const BAR_WIDTH = 300
const VALUE_WIDTH = 120
const BAR_HEIGHT = 14
const GAP = 4
const ROW_GAP = 10
/** How many characters of a label fit its column before it is cut (its full text stays in the bar's title). */
const LABEL_CHARS = 28

const cut = (text: string) => (text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text)

/**
 * A horizontal bar chart in plain SVG: a row per label, one bar per series, each value written
 * beside its bar and in the bar's `<title>`. `role="img"` with an aria-label that says what it
 * shows and its largest value; the table beside it carries every number, so the chart is never
 * the only place a figure is.
 */
export function BarChart({ title, rows, format, series, missing = 'not measured' }: BarChartProps) {
  const two = series.length === 2
  const values = rows.flatMap((r) => (two ? [r.value, r.second ?? null] : [r.value]))
  const { bars } = scaleBars(values, BAR_WIDTH)
  const perRow = two ? 2 : 1
  const rowHeight = perRow * BAR_HEIGHT + (perRow - 1) * GAP
  const height = rows.length * (rowHeight + ROW_GAP) + ROW_GAP
  const width = LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH
  const measured = rows.map((r, i) => ({ r, v: two ? (r.second ?? r.value) : r.value, i })).filter((x) => x.v !== null)
  const largest = measured.sort((a, b) => (b.v ?? 0) - (a.v ?? 0))[0]
  const summary = `${title}: ${rows.length} ${rows.length === 1 ? 'bar' : 'bars'}${largest ? `, the largest ${largest.r.label} at ${format(largest.v as number)}${two ? ` (${series[1]})` : ''}` : ''}. The table beside it has every figure.`
  return (
    <figure class="chart">
      <svg class="bar-chart" role="img" aria-label={summary} viewBox={`0 0 ${width} ${height}`} width={width} height={height}>
        {rows.map((row, i) => {
          const top = ROW_GAP + i * (rowHeight + ROW_GAP)
          return (
            <g key={`${row.label}-${i}`} class="chart-row">
              <text class="chart-label" x={LABEL_WIDTH - 8} y={top + rowHeight / 2} text-anchor="end" dominant-baseline="middle">
                {cut(row.label)}
              </text>
              {series.map((name, s) => {
                const bar = bars[i * perRow + s]
                const y = top + s * (BAR_HEIGHT + GAP)
                const text = bar.value === null ? missing : format(bar.value)
                return (
                  <g key={name} class={`chart-bar series-${s}`}>
                    <title>{`${row.label} — ${name}: ${text}`}</title>
                    <rect x={LABEL_WIDTH} y={y} width={bar.length} height={BAR_HEIGHT} rx={2} />
                    <text class="chart-value" x={LABEL_WIDTH + bar.length + 6} y={y + BAR_HEIGHT / 2} dominant-baseline="middle">
                      {two ? `${name} ${text}` : text}
                    </text>
                  </g>
                )
              })}
            </g>
          )
        })}
      </svg>
      <figcaption class="muted">
        {title}
        {two && (
          <span class="chart-legend" aria-hidden="true">
            {' '}
            <span class="legend-swatch series-0" /> {series[0]} <span class="legend-swatch series-1" /> {series[1]}
          </span>
        )}
      </figcaption>
    </figure>
  )
}
