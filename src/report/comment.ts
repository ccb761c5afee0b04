import type { ResultsDocument } from '../results/types.js'
import { renderCancelled } from './cancelled.js'
import { codeBlock } from './escape.js'
import { headerLine, unreachableReason, verdictWords } from './headline.js'
import { modelViewNotice } from './model-view.js'
import { htmlLinks } from './html-links.js'
import { COMMENT_ORDER, placeSections, sectionContext, type PlacedSection } from './sections.js'

/** GitHub rejects issue and PR comments over this many characters. */
export const COMMENT_MAX_CHARS = 65_536

export interface CommentContext {
  /** Hidden marker that finds this comment again; always kept, always last. */
  marker: string
  /** The job summary, the results artifact, and the HTML report's non-zipped artifact (which the failed runs and findings link into). */
  links: { summary?: string; artifact?: string; html?: string }
  maxChars?: number
}

/**
 * The sticky PR comment says what a reviewer needs, in the order they need it: the verdict, what
 * changed since the baseline, what did not pass and why, the cases × models matrix, and the rest
 * collapsed. A passing comment is short. Over GitHub's limit, the sections that have a briefer
 * form take it first (the last ones first): less detail before anything is cut. Then sections are
 * left out whole, the last ones first, with a note saying where the full report is.
 */
export function renderComment(doc: ResultsDocument, context: CommentContext): string {
  const max = context.maxChars ?? COMMENT_MAX_CHARS
  const unreachable = doc.fatal_error === null && !doc.cancelled ? unreachableReason(doc) : null
  const head: string[] = [`### MCP Server Evals — ${verdictWords(doc)}`, '', headerLine(doc, { gate: true }), '']
  if (doc.fatal_error !== null) head.push(codeBlock(doc.fatal_error), '')
  head.push(...renderCancelled(doc))
  // What the models were not shown (cut results, images as text) qualifies every verdict below: said up front.
  head.push(...modelViewNotice(doc))
  const html = htmlLinks(context.links.html)
  const links = [
    context.links.summary ? `[job summary](${context.links.summary})` : '',
    context.links.artifact ? `[artifact](${context.links.artifact})` : '',
    html ? `[HTML report](${context.links.html})` : ''
  ].filter(Boolean)
  const footer = links.length ? [`Full report: ${links.join(' · ')}`, ''] : []

  // The sections and their order are the registry's (sections.ts); so is the order they degrade in.
  const sections = placeSections(COMMENT_ORDER, sectionContext(doc, unreachable, html), 'digest')

  const render = (kept: PlacedSection[], leftOut: string[], shortened: string[]) =>
    [
      ...head,
      ...kept.flatMap((s) => s.lines),
      ...(leftOut.length || shortened.length ? [`${fitNote(leftOut, shortened)} The full report is in the job summary and the artifact._`, ''] : []),
      ...footer,
      context.marker
    ].join('\n')
  const kept = sections.filter((s) => s.lines.length > 0)
  const leftOut: string[] = []
  const shortened: string[] = []
  let body = render(kept, leftOut, shortened)
  for (let i = kept.length - 1; i >= 0 && body.length > max; i--) {
    const brief = kept[i].brief
    if (!brief || brief.length === 0) continue
    kept[i] = { name: kept[i].name, lines: brief }
    shortened.unshift(kept[i].name)
    body = render(kept, leftOut, shortened)
  }
  while (body.length > max && kept.length > 0) {
    const dropped = kept.pop()!.name
    leftOut.unshift(dropped)
    // A section left out is not also "shortened".
    if (shortened.includes(dropped)) shortened.splice(shortened.indexOf(dropped), 1)
    body = render(kept, leftOut, shortened)
  }
  if (body.length > max) {
    // Even the verdict is too long (a huge fatal error): cut it, keep the marker.
    const room = max - context.marker.length - 40
    body = `${body.slice(0, room)}\n\n_(cut to fit)_\n${context.marker}`
  }
  return body
}

/** "_Left out to fit GitHub's comment limit: matrix. Shortened: resilience." (the caller closes it). */
function fitNote(leftOut: string[], shortened: string[]): string {
  const parts = [leftOut.length ? `Left out to fit GitHub's comment limit: ${leftOut.join(', ')}.` : '', shortened.length ? `${leftOut.length ? 'Shortened' : "Shortened to fit GitHub's comment limit"}: ${shortened.join(', ')}.` : '']
  return `_${parts.filter(Boolean).join(' ')}`
}
