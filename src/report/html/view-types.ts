import type { ResultsDocument } from '../../results/types.js'

/**
 * What the HTML report's page reads: the results document as written, and what the report's own
 * renderers derive from it (the same words as eval-report.md), worked out once in Node so the page
 * and the Markdown never disagree. Every string here is text: the page inserts it as text.
 */
export interface HtmlView {
  /** "Eval Report — ✗ failed". */
  title: string
  /** verdictWords: "✗ failed", "✓ passed", "⊘ cancelled", … */
  verdict: string
  /** The verdict's kind, for its colour (the words carry it too). */
  verdict_kind: 'passed' | 'failed' | 'neutral'
  /** The headline as the report's first line says it, as text. */
  headline: string
  /** Each layer's status, in the order they run. */
  layers: LayerStatus[]
  /** Why each run that did not pass did not (failureReasons), by run index. */
  run_reasons: Record<string, string[]>
  /** Pictures the document names by path (MCP Apps screenshots), as data: URLs; a path absent here was not found. */
  images: Record<string, string>
  /** "mcp-server-evals 0.1.0". */
  generator: string
  /** What moved against the baseline, in the words of the Markdown's "What changed"; absent without a baseline. */
  changes?: ChangesView
}

/** The Overview's Δ against the baseline: the metrics that moved (or failed the gate), those that did not, cost and run time. */
export interface ChangesView {
  /** "baseline/eval-results.json (2026-11-29 09:30)". */
  baseline: string
  /** The worse first, as the Markdown's table orders them. */
  metrics: MetricChangeView[]
  /** "Tool selection accuracy 100%", one per metric that did not move. */
  unchanged: string[]
  /** "Cost: $0.0101 → $0.0123 (▲ +21.8%, worse)", "Median run: 1.5s, unchanged". */
  figures: string[]
}

export interface MetricChangeView {
  /** "Argument correctness", "Tool error rate (lower is better)". */
  label: string
  baseline: string
  current: string
  /** "▼ −25 pt, worse". */
  delta: string
  /** Moved the bad way; null when it did not move or neither way is better. */
  worse: boolean | null
  /** The gate failed on it (only under delta and both). */
  failed: boolean
}

export interface LayerStatus {
  /** Stable: `conformance`, `tool-tests`, `behaviour`, `resilience`, `telemetry`, `apps`. */
  id: string
  name: string
  status: 'passed' | 'failed' | 'skipped' | 'warning' | 'not-run'
  /** One line: "92 passed, 2 failed, 3 skipped", "36/40 runs passed", the reason it was skipped. */
  detail: string
  /** The section's anchor in the page. */
  anchor: string
}

/** The JSON embedded in the page. */
export interface HtmlReportData {
  view: HtmlView
  doc: ResultsDocument
}
