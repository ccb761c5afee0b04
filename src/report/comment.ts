import type { ConformanceSection, ResultsDocument } from '../results/types.js'
import { escapeMarkdown } from './escape.js'
import { ellipsize } from '../util/text.js'
import { failureReasons } from './reasons.js'
import { headerLine, renderCancelled, renderGate, summaryTable } from './markdown.js'

/** GitHub rejects issue and PR comments over this many characters. */
export const COMMENT_MAX_CHARS = 65_536

export interface CommentContext {
  /** Hidden marker that finds this comment again; always kept, always last. */
  marker: string
  links: { summary?: string; artifact?: string }
  maxChars?: number
}

interface Section {
  name: string
  lines: string[]
}

/**
 * The sticky PR comment: a compact view of the report. Verdict first, then conformance
 * findings, the runs that did not pass, and the summary table; sections that do not fit the
 * budget are left out whole (the last ones first) with a note saying where the full report is.
 */
export function renderComment(doc: ResultsDocument, context: CommentContext): string {
  const max = context.maxChars ?? COMMENT_MAX_CHARS
  const verdict = doc.cancelled ? '⊘ cancelled' : doc.passed ? '✓ passed' : '✗ failed'
  const head: string[] = [`### MCP Server Evals — ${verdict}`, '', headerLine(doc), '']
  if (doc.fatal_error !== null) head.push(`**Evals failed to produce results:** ${escapeMarkdown(doc.fatal_error)}`, '')
  head.push(...renderCancelled(doc))
  const links = [context.links.summary ? `[job summary](${context.links.summary})` : '', context.links.artifact ? `[artifact](${context.links.artifact})` : ''].filter(Boolean)
  const footer = links.length ? [`Full report: ${links.join(' · ')}`, ''] : []

  const sections: Section[] = []
  if (doc.gate && (doc.gate.baseline || !doc.gate.passed)) sections.push({ name: 'gate', lines: renderGate(doc.gate) })
  if (doc.conformance) sections.push({ name: 'conformance', lines: conformanceDigest(doc.conformance) })
  if (doc.behaviour.status === 'skipped') sections.push({ name: 'behaviour', lines: [`**Behaviour evals skipped:** ${escapeMarkdown(doc.behaviour.reason ?? '')}`, ''] })
  const notPassing = doc.runs.filter((r) => r.status === 'failed' || r.status === 'error')
  if (notPassing.length > 0) {
    sections.push({
      name: 'runs that did not pass',
      lines: [
        `**Did not pass (${notPassing.length}):**`,
        '',
        ...notPassing.map((r) => {
          return `- ${r.status === 'error' ? '⚠' : '✗'} ${escapeMarkdown(`${r.case_id} · ${r.model} · ${r.prompt_name}`)} — ${escapeMarkdown(ellipsize(failureReasons(r).join('; '), 300))}`
        }),
        ''
      ]
    })
  }
  if (doc.runs.length > 0) sections.push({ name: 'summary table', lines: [...summaryTable(doc.runs).map(stripAnchorLinks), ''] })

  const render = (kept: Section[], leftOut: string[]) =>
    [
      ...head,
      ...kept.flatMap((s) => s.lines),
      ...(leftOut.length ? [`_Left out to fit GitHub's comment limit: ${leftOut.join(', ')}. The full report is in the job summary and the artifact._`, ''] : []),
      ...footer,
      context.marker
    ].join('\n')
  const kept = [...sections]
  const leftOut: string[] = []
  let body = render(kept, leftOut)
  while (body.length > max && kept.length > 0) {
    leftOut.unshift(kept.pop()!.name)
    body = render(kept, leftOut)
  }
  if (body.length > max) {
    // Even the verdict is too long (a huge fatal error): cut it, keep the marker.
    const room = max - context.marker.length - 40
    body = `${body.slice(0, room)}\n\n_(cut to fit)_\n${context.marker}`
  }
  return body
}

function conformanceDigest(section: ConformanceSection): string[] {
  const count = (status: string) => section.checks.filter((c) => c.status === status).length
  const era = section.era === 'modern' ? `modern (MCP ${section.negotiated_version})` : `**legacy** (${section.negotiated_version ?? 'no handshake'})`
  const lines = [
    `**Protocol conformance ${section.passed ? '✓ passed' : '✗ failed'}** — ${era} over ${section.transport}: ${count('pass')} passed, ${count('fail')} failed, ${count('warn')} warned, ${count('skip')} skipped`,
    ''
  ]
  if (section.error) lines.push(`- ✗ ${escapeMarkdown(section.error)}`)
  for (const check of section.checks.filter((c) => c.status === 'fail' || c.status === 'warn')) {
    lines.push(`- ${check.status === 'fail' ? '✗' : '⚠'} \`${check.id}\` — ${escapeMarkdown(ellipsize(check.message, 300))}`)
  }
  if (section.migration.length) lines.push(`- ${section.migration.length} steps to migrate to 2026-07-28 are in the full report.`)
  lines.push('')
  return lines
}

/** The report's "View" links point at anchors of the full report, which a comment does not have. */
function stripAnchorLinks(line: string): string {
  return line.replace(/<a href="#[^"]*">View<\/a>/g, '—')
}
