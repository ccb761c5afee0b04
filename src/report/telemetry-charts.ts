import type { ResultsDocument, ToolTelemetry } from '../results/types.js'
import { renderBarChart, type Bar } from './mermaid.js'
import { modelRows } from './telemetry-models.js'

/** The cost per run of each model whose cost is known, as a chart beside the Models table. */
export function costChart(doc: ResultsDocument): string[] {
  const bars: Bar[] = modelRows(doc)
    .filter((r) => r.runs > 0 && r.costPerRun !== null)
    .map((r) => ({ label: r.model, value: r.costPerRun as number }))
  return chartLines(renderBarChart({ title: 'Cost per run (USD)', unit: 'USD per run', bars }), 'models')
}

/** The p95 latency of each tool, as a chart beside its table. */
export function latencyChart(tools: ToolTelemetry[]): string[] {
  const bars = tools.filter((t) => t.latency_ms.p95 !== null).map((t) => ({ label: t.name, value: t.latency_ms.p95 as number }))
  return chartLines(renderBarChart({ title: 'p95 latency per tool (ms)', unit: 'ms', bars }), 'tools')
}

/** A chart and, when it left bars out, a line saying so. */
function chartLines(chart: ReturnType<typeof renderBarChart>, what: string): string[] {
  if (chart.lines.length === 0) return []
  const note = chart.omitted > 0 ? [`_The chart shows the ${chart.shown} highest of ${chart.shown + chart.omitted} ${what}; the table has them all._`, ''] : []
  return [...chart.lines, '', ...note]
}
