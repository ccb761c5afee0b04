import type { ResultsDocument } from '../../results/types.js'
import { resiliencePassed, telemetryPassed, toolTestsPassed } from '../../aggregate/verdict.js'
import { count, percent, pointsChange, relativeChange, seconds, usd } from '../../util/words.js'
import { METRIC_LABELS, metricLabel } from '../metric-labels.js'
import { formatTimestamp } from '../timestamp.js'
import { appRendersOf } from '../app-findings.js'
import { checkTally } from '../conformance.js'
import { headerLine, verdictWords } from '../headline.js'
import { failureReasons } from '../reasons.js'
import { TOOL_NAME, TOOL_VERSION } from '../../version.js'
import { markdownPhraseToText } from './plain.js'
import type { ChangesView, HtmlView, LayerStatus } from './view-types.js'

/** Reads a picture the document names (relative to the output directory); null when it is not there. */
export type ImageReader = (path: string) => Buffer | null

/** Each layer's status in the order they run: conformance, tool tests, behaviour, resilience, telemetry, MCP Apps. */
function layerStatuses(doc: ResultsDocument): LayerStatus[] {
  const out: LayerStatus[] = []
  const c = doc.conformance
  if (c) {
    const status = c.era === 'unreachable' ? 'failed' : !c.passed ? 'failed' : c.checks.some((k) => k.status === 'warn') ? 'warning' : 'passed'
    out.push({ id: 'conformance', name: 'Protocol conformance', status, detail: c.era === 'unreachable' ? 'the server could not be reached' : checkTally(c), anchor: 'conformance' })
  }
  const t = doc.tool_tests
  if (t) {
    out.push({
      id: 'tool-tests',
      name: 'Tool tests',
      status: t.status === 'skipped' ? 'skipped' : toolTestsPassed(t) ? 'passed' : 'failed',
      detail: t.status === 'skipped' ? (t.reason ?? 'skipped') : `${t.passed}/${count(t.total, 'tool test')} passed`,
      anchor: 'tool-tests'
    })
  }
  const s = doc.summary
  if (doc.behaviour.status === 'skipped') {
    out.push({ id: 'behaviour', name: 'Behaviour runs', status: 'skipped', detail: doc.behaviour.reason ?? 'skipped', anchor: 'runs' })
  } else if (s.total > 0) {
    const behaviourPassed = doc.gate ? doc.gate.passed : s.passed === s.total
    out.push({ id: 'behaviour', name: 'Behaviour runs', status: behaviourPassed ? 'passed' : 'failed', detail: `${s.passed}/${count(s.total, 'run')} passed`, anchor: 'runs' })
  }
  if (s.resilience) {
    const r = s.resilience
    const parts = [r.recovery_rate === null ? '' : `recovery ${Math.round(r.recovery_rate * 100)}%`, r.attack_resistance === null ? '' : `attack resistance ${Math.round(r.attack_resistance * 100)}%`].filter(Boolean)
    out.push({ id: 'resilience', name: 'Resilience and security', status: resiliencePassed(r) ? 'passed' : 'failed', detail: parts.join(', ') || 'no fault fired, no attack delivered', anchor: 'resilience' })
  }
  if (doc.telemetry) {
    const spent = doc.telemetry.overall.spent_usd
    out.push({ id: 'telemetry', name: 'Telemetry and budgets', status: telemetryPassed(doc) ? 'passed' : 'failed', detail: `${doc.telemetry.overall.wall_s.toFixed(1)} s${spent === null ? '' : ` · $${spent.toFixed(4)} spent`}`, anchor: 'telemetry' })
  }
  if (doc.apps) {
    const a = doc.apps
    out.push({
      id: 'apps',
      name: 'MCP Apps',
      status: a.status === 'skipped' ? 'skipped' : a.failed > 0 ? 'failed' : 'passed',
      detail: a.status === 'skipped' ? (a.reason ?? 'skipped') : `${count(a.renders, 'render')}, ${a.failed} failed`,
      anchor: 'apps'
    })
  }
  return out
}

/** The paths of the pictures the document names: MCP Apps screenshots, their baselines and diffs. */
function imagePaths(doc: ResultsDocument): string[] {
  const paths = appRendersOf(doc).flatMap(({ render: r }) => [r.screenshot, r.visual_diff?.baseline ?? null, r.visual_diff?.diff ?? null])
  return [...new Set(paths.filter((p): p is string => typeof p === 'string' && p !== ''))]
}

/** The metric's words as text (metricLabel escapes an unknown name for Markdown; here it stays as it is). */
function metricText(name: string): string {
  const known = ['pass_rate', 'group_pass_rate', 'recovery_rate', 'attack_resistance'].includes(name) || METRIC_LABELS.some(([key]) => key === name)
  return known ? metricLabel(name) : name
}

/** What changed since the baseline, as renderWhatChanged words it: the metrics that moved, the worse first; cost and median run. */
function changesView(doc: ResultsDocument): ChangesView | undefined {
  const { gate, changes } = doc
  if (!gate || !changes) return undefined
  const moved = gate.metrics.map((m) => ({ m, delta: pointsChange(m.baseline, m.current, m.lower_is_better ? 'lower' : 'higher') }))
  const shown = moved.filter((x) => x.delta.moved || x.m.failed)
  const ordered = [...shown.filter((x) => x.delta.worse !== false), ...shown.filter((x) => x.delta.worse === false)]
  const figure = (name: string, before: number | null, after: number | null, shownAs: (n: number) => string): string[] => {
    if (before === null || after === null) return []
    const delta = relativeChange(before, after, 'lower', shownAs)
    return [`${name}: ${delta.moved ? `${shownAs(before)} → ${shownAs(after)} (${delta.text})` : `${shownAs(after)}, unchanged`}`]
  }
  return {
    baseline: gate.baseline ? `${gate.baseline.source} (${formatTimestamp(gate.baseline.started_at)})` : 'unknown',
    metrics: ordered.map(({ m, delta }) => ({
      label: `${metricText(m.name)}${m.lower_is_better ? ' (lower is better)' : ''}`,
      baseline: percent(m.baseline),
      current: percent(m.current),
      delta: delta.text,
      worse: delta.worse,
      failed: gate.mode !== 'absolute' && m.failed
    })),
    unchanged: moved.filter((x) => !shown.includes(x)).map(({ m }) => `${metricText(m.name)} ${percent(m.current)}`),
    figures: [...figure('Cost', changes.cost_usd.baseline, changes.cost_usd.current, usd), ...figure('Median run', changes.median_run_s.baseline, changes.median_run_s.current, seconds)]
  }
}

/** Everything the page derives from the document, in the report's own words. */
export function deriveView(doc: ResultsDocument, readImage: ImageReader = () => null): HtmlView {
  const verdict = verdictWords(doc)
  const run_reasons: Record<string, string[]> = {}
  for (const run of doc.runs) if (run.status !== 'passed') run_reasons[String(run.index)] = failureReasons(run)
  const images: Record<string, string> = {}
  for (const path of imagePaths(doc)) {
    const bytes = readImage(path)
    if (bytes && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) images[path] = `data:image/png;base64,${bytes.toString('base64')}`
  }
  return {
    title: `Eval Report — ${verdict}`,
    verdict,
    verdict_kind: verdict.startsWith('✓') ? 'passed' : verdict.startsWith('✗') ? 'failed' : 'neutral',
    headline: markdownPhraseToText(headerLine(doc, { gate: true })),
    layers: layerStatuses(doc),
    run_reasons,
    images,
    generator: `${TOOL_NAME} ${TOOL_VERSION}`,
    changes: changesView(doc)
  }
}
