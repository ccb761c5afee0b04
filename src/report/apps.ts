import { APP_FINDING_IDS, type AppFinding, type AppRender, type AppsSection, type ResultsDocument } from '../results/types.js'
import { ellipsize, trimEvidence } from '../util/text.js'
import { count, milliseconds, percent } from '../util/words.js'
import { appRendersOf, byStanding, placeWords, renderAnchor, renderStanding, renderVerdictWords, safeImagePath, STANDING_MARK, type PlacedRender } from './app-findings.js'
import { blockquote, codeBlock, codeHtml, codeSpan, escapeHtml, escapeMarkdown, truncateText } from './escape.js'

/**
 * The report's "MCP Apps" section: whether the layer ran (in which browser) or was skipped (a
 * notice, never a pass), the findings counted, then every render next to the call that made it —
 * its screenshot (a link and an image, `apps/<id>.png` beside the report in the artifact), its
 * findings (failed first, each one's evidence folded), an app test's actions and assertions, the
 * view's own tool calls, reads and requests, blocked URLs and console errors. Every text from a
 * server or a view is escaped.
 */

const SUMMARY_CHARS = 160
const LINE_CHARS = 300
const BLOCK_CHARS = 4000
const IMAGE_WIDTH = 480

const FINDING_MARK: Record<AppFinding['status'], string> = { failed: '✗', review: '◐', warning: '⚠', passed: '✓', skipped: '⊘' }
const FINDING_ORDER: AppFinding['status'][] = ['failed', 'review', 'warning', 'skipped', 'passed']

/** "✗ 3 of 10 renders failed", "◐ 1 screenshot changed", "✓ 10 renders passed", "⚠ skipped (not checked)". */
export function appsVerdict(section: AppsSection, renders: readonly AppRender[]): string {
  if (section.status === 'skipped') return '⚠ skipped: nothing was rendered or checked'
  const failed = renders.filter((r) => renderStanding(r) === 'failed').length
  if (failed > 0) return `✗ ${failed} of ${count(renders.length, 'render')} failed`
  const changed = renders.filter((r) => r.visual_diff?.changed).length
  if (changed > 0) return `◐ ${count(changed, 'screenshot')} changed, for review`
  return renders.length === 0 ? '✓ nothing to render' : `✓ ${count(renders.length, 'render')} passed`
}

/** "ran in Chromium 156.0.8078.73 (`/usr/bin/chromium`, found by the search)". */
export function browserWords(section: AppsSection): string {
  const b = section.browser
  if (!b) return 'ran'
  const found = b.source === 'input' ? 'the chrome_path input' : b.source === 'env' ? 'CHROME_PATH' : 'found by the search'
  return `ran in ${escapeMarkdown(b.version)} (${codeSpan(b.path)}, ${found})`
}

/** The counts by finding id, one row per id that has any: passed, failed, review, warning, skipped. */
function findingsTable(section: AppsSection): string[] {
  const ids = APP_FINDING_IDS.filter((id) => section.findings[id] && Object.values(section.findings[id]!).some((n) => (n ?? 0) > 0))
  if (ids.length === 0) return []
  const statuses: AppFinding['status'][] = ['failed', 'review', 'warning', 'passed', 'skipped']
  const cell = (n: number | undefined) => (n ? String(n) : '—')
  return [
    '<table>',
    `<tr><th>Finding</th>${statuses.map((s) => `<th align="center">${FINDING_MARK[s]} ${s}</th>`).join('')}</tr>`,
    ...ids.map((id) => `<tr><td>${codeHtml(id)}</td>${statuses.map((s) => `<td align="center">${cell(section.findings[id]![s])}</td>`).join('')}</tr>`),
    '</table>',
    ''
  ]
}

/** A screenshot as a link and an image, when its path is one of ours; its path in code otherwise. */
function image(path: string | null, alt: string): string[] {
  const safe = safeImagePath(path)
  if (safe === null) return path === null ? [] : [`${codeSpan(path)} (in the artifact)`, '']
  return [`<a href="${safe}"><img src="${safe}" alt="${escapeHtml(alt)}" width="${IMAGE_WIDTH}"></a>`, '']
}

/** "[`apps/x.png`](apps/x.png)", or the path in code when it is not one of ours. */
function fileLink(path: string): string {
  const safe = safeImagePath(path)
  return safe === null ? codeSpan(path) : `[${codeSpan(safe)}](${safe})`
}

function findingLines(render: AppRender): string[] {
  const findings = [...render.findings].sort((a, b) => FINDING_ORDER.indexOf(a.status) - FINDING_ORDER.indexOf(b.status))
  if (findings.length === 0) return []
  const out = ['**Findings**', '', ...findings.map((f) => `- ${FINDING_MARK[f.status]} ${codeSpan(f.id)} — ${escapeMarkdown(ellipsize(f.message, LINE_CHARS))}`), '']
  for (const f of findings.filter((x) => x.evidence.length > 0 && x.status !== 'passed')) {
    out.push(`<details><summary>Evidence: ${codeHtml(f.id)} (${count(f.evidence.length, 'line')})</summary>`, '', codeBlock(truncateText(f.evidence.join('\n'), BLOCK_CHARS)), '', '</details>', '')
  }
  return out
}

function testLines(render: AppRender): string[] {
  const out: string[] = []
  if (render.actions.length > 0) {
    out.push('**Actions**', '')
    for (const a of render.actions) {
      const value = a.action === 'fill' && a.value !== undefined ? ` with ${codeSpan(ellipsize(a.value, LINE_CHARS))}` : ''
      out.push(`- ${a.passed ? '✓' : '✗'} ${a.action} ${codeSpan(a.selector)}${value}${a.error ? ` — ${escapeMarkdown(ellipsize(a.error, LINE_CHARS))}` : ''}`)
    }
    out.push('')
  }
  if (render.assertions.length > 0) {
    out.push('**Assertions**', '')
    for (const a of render.assertions) {
      const score = a.score !== undefined && a.score !== null ? ` · judge ${a.score}/10` : ''
      out.push(`- ${a.passed ? '✓' : '✗'} ${codeSpan(a.check)}${a.target ? ` ${codeSpan(a.target)}` : ''}${score} — ${escapeMarkdown(ellipsize(a.reason, LINE_CHARS))}`)
      if (!a.passed) out.push(`  - expected: ${codeSpan(trimEvidence(a.expected, LINE_CHARS))}`, `  - actual: ${codeSpan(trimEvidence(a.actual, LINE_CHARS))}`)
    }
    out.push('')
  }
  return out
}

/** What the view asked of the host: its tool calls, resource reads and other requests; the URLs its CSP blocked; its console errors. */
function viewLines(render: AppRender): string[] {
  const out: string[] = []
  if (render.tool_calls.length > 0) {
    out.push('**Tool calls from the view**', '')
    for (const c of render.tool_calls) {
      const outcome = c.refused !== null ? `refused: ${escapeMarkdown(ellipsize(c.refused, LINE_CHARS))}` : c.is_error ? `error: ${codeSpan(ellipsize(c.result, LINE_CHARS))}` : `answered in ${milliseconds(c.latency_ms)}`
      out.push(`- ${c.refused === null && !c.is_error ? '✓' : '✗'} ${codeSpan(c.name)} ${codeSpan(trimEvidence(c.args, LINE_CHARS))} — ${outcome}`)
    }
    out.push('')
  }
  if (render.resource_reads.length > 0) {
    out.push('**Resources read by the view**', '', ...render.resource_reads.map((r) => `- ${r.error === null ? '✓' : '✗'} ${codeSpan(r.uri)}${r.error ? ` — ${escapeMarkdown(ellipsize(r.error, LINE_CHARS))}` : ''}`), '')
  }
  if (render.host_requests.length > 0) {
    out.push('**Other requests to the host** (recorded, answered as a host does; links never opened)', '', ...render.host_requests.map((r) => `- ${codeSpan(r.method)} ${codeSpan(trimEvidence(r.params, LINE_CHARS))}`), '')
  }
  // Quoted whole in a finding's evidence (app-no-errors, app-csp-respected), the console's lines and blocked URLs are not repeated.
  const quoted = new Set(render.findings.filter((f) => f.status !== 'passed').flatMap((f) => f.evidence))
  if (render.blocked_requests.some((url) => !quoted.has(url))) out.push(`**Blocked by the CSP** (${render.blocked_requests.length})`, '', codeBlock(truncateText(render.blocked_requests.join('\n'), BLOCK_CHARS)), '')
  if (render.console_errors.some((line) => !quoted.has(line))) {
    out.push(`<details><summary>Console errors (${render.console_errors.length})</summary>`, '', codeBlock(truncateText(render.console_errors.join('\n'), BLOCK_CHARS)), '', '</details>', '')
  }
  return out
}

/** "Resource `ui://…` · viewport 800×320 · initialized in 182 ms · 640 ms in all · CSP: connect none; resources none". */
function factsLine(render: AppRender): string {
  const csp = render.csp
  const domains = (list: string[]) => (list.length === 0 ? 'none' : list.map(codeSpan).join(', '))
  const cspWords = csp === null ? 'none declared (the default: no network)' : `connect ${domains(csp.connect_domains)}; resources ${domains(csp.resource_domains)}`
  const init = render.initialized_ms === null ? 'never initialized' : `initialized in ${milliseconds(render.initialized_ms)}`
  return [`Resource ${codeSpan(render.resource_uri)}`, `viewport ${render.viewport.width}×${render.viewport.height}`, init, `${milliseconds(render.duration_ms)} in all`, `CSP: ${cspWords}`].join(' · ')
}

function visualLines(render: AppRender): string[] {
  const diff = render.visual_diff
  if (!diff) return []
  if (!diff.changed) return [`Screenshot unchanged since the baseline (${percent(diff.changed_ratio)} of the pixels differ).`, '']
  return [
    `**Screenshot changed** since the baseline: ${percent(diff.changed_ratio)} of the pixels differ — baseline ${fileLink(diff.baseline)}${diff.diff ? ` · difference ${fileLink(diff.diff)}` : ''}`,
    '',
    ...image(diff.baseline, `the baseline's screenshot of ${render.id}`),
    ...(diff.diff ? image(diff.diff, `the pixels that differ in ${render.id}`) : [])
  ]
}

/** One render, folded: its standing, tool and call in the summary; open when it did not pass. */
function renderBlock({ render, place }: PlacedRender): string[] {
  const standing = renderStanding(render)
  const verdict = standing === 'passed' ? '' : ` — ${escapeHtml(ellipsize(renderVerdictWords(render), SUMMARY_CHARS))}`
  const out = [
    `<details${standing === 'failed' || standing === 'review' ? ' open' : ''}><summary id="${renderAnchor(render)}">${STANDING_MARK[standing]} ${codeHtml(render.tool)} · ${escapeHtml(placeWords(place))}${verdict}</summary>`,
    '',
    `Render ${codeSpan(render.id)} · ${factsLine(render)}`,
    ''
  ]
  if (render.status !== 'rendered') out.push(blockquote(`${render.status === 'error' ? 'Not rendered' : render.status === 'cancelled' ? 'Cancelled' : 'Skipped'}: ${render.reason ?? 'no reason recorded'}`), '')
  if (render.screenshot !== null) out.push(`Screenshot: ${fileLink(render.screenshot)} (in the artifact, beside this report)`, '', ...image(render.screenshot, `screenshot of ${render.tool} (${render.id})`))
  out.push(...visualLines(render), ...findingLines(render), ...testLines(render), ...viewLines(render), '</details>', '')
  return out
}

/** The report's section; empty when the document has no `apps`. */
export function renderApps(doc: ResultsDocument, heading = '##'): string[] {
  const section = doc.apps
  if (!section) return []
  const placed = appRendersOf(doc)
  const renders = placed.map((p) => p.render)
  const out = [`${heading} MCP Apps — ${appsVerdict(section, renders)}`, '']
  if (section.status === 'skipped') {
    out.push(`> ⚠ **Not rendered:** ${escapeMarkdown(section.reason ?? 'the browser layer was skipped')}`, '>', `> ${count(renders.length, 'render')} asked for ${renders.length === 1 ? 'was' : 'were'} not done: no app finding was checked, and none counts as passed.`, '')
    return out
  }
  const changed = renders.filter((r) => r.visual_diff?.changed).length
  const facts = [
    browserWords(section),
    count(section.renders, 'render'),
    ...(section.failed > 0 ? [`${section.failed} failed`] : []),
    ...(changed > 0 ? [`${count(changed, 'screenshot')} changed`] : []),
    `visual diff: ${section.visual_diff === 'fail' ? 'fails' : 'for review'} over ${percent(section.visual_threshold)} of the pixels`
  ]
  out.push(`> ${facts.join(' · ')}`, '', ...findingsTable(section))
  const ordered = [...placed].sort((a, b) => byStanding(a.render, b.render))
  const looked = ordered.filter((p) => renderStanding(p.render) !== 'passed')
  const passing = ordered.filter((p) => renderStanding(p.render) === 'passed')
  for (const p of looked) out.push(...renderBlock(p))
  if (passing.length > 0) out.push(`<details><summary>${count(passing.length, 'render')} passed</summary>`, '', ...passing.flatMap(renderBlock), '</details>', '')
  return out
}

/** The report for the job summary, where files of the artifact cannot be shown: the screenshots' images left out (their links stay). */
export function withoutScreenshots(report: string): string {
  return report.replace(/^<a href="apps\/[A-Za-z0-9/._-]+\.png"><img src="apps\/[A-Za-z0-9/._-]+\.png" alt="[^"\n]*" width="\d+"><\/a>\n\n/gm, '')
}

/** The line beside a run's tool call that opened a view: its verdict and a link to the render in the MCP Apps section. */
export function appPointer(render: AppRender): string {
  const standing = renderStanding(render)
  const words = standing === 'passed' ? 'passed' : renderVerdictWords(render)
  const changed = render.visual_diff?.changed && standing !== 'review' ? ` · screenshot changed (${percent(render.visual_diff.changed_ratio)})` : ''
  return `App ${STANDING_MARK[standing]} <a href="#user-content-${renderAnchor(render)}">${codeHtml(render.id)}</a> — ${escapeMarkdown(ellipsize(words, SUMMARY_CHARS))}${changed}`
}
