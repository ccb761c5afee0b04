import type { AppRender, ResultsDocument } from '../results/types.js'
import { ellipsize } from '../util/text.js'
import { count, percent } from '../util/words.js'
import { appRendersOf, byStanding, placeWords, renderStanding, renderVerdictWords, STANDING_MARK, type RenderStanding } from './app-findings.js'
import { appsVerdict } from './apps.js'
import { codeSpan, escapeHtml, escapeMarkdown } from './escape.js'

/**
 * The comment's MCP Apps part: per tool, its worst render (failed > review > warning) in a line
 * with the call that made it, and "screenshot changed" where the visual diff says so. All
 * passing, one collapsed line; skipped, a notice (never a pass).
 */

const WORDS_CHARS = 200
/** The tools listed before the rest are counted. */
const TOOLS_LISTED = 20

const STANDING_WORDS: Record<RenderStanding, string> = { failed: 'failed', review: 'for review', warning: 'with a warning', passed: 'passed', 'not-done': 'not done' }

interface ToolLine {
  tool: string
  worst: { render: AppRender; where: string }
  renders: AppRender[]
}

function byTool(doc: ResultsDocument): ToolLine[] {
  const tools = new Map<string, ToolLine>()
  for (const { render, place } of appRendersOf(doc)) {
    const line = tools.get(render.tool)
    if (!line) tools.set(render.tool, { tool: render.tool, worst: { render, where: placeWords(place) }, renders: [render] })
    else {
      line.renders.push(render)
      if (byStanding(render, line.worst.render) < 0) line.worst = { render, where: placeWords(place) }
    }
  }
  return [...tools.values()].sort((a, b) => byStanding(a.worst.render, b.worst.render))
}

function toolLine(line: ToolLine): string {
  const { render, where } = line.worst
  const standing = renderStanding(render)
  const alike = line.renders.filter((r) => renderStanding(r) === standing).length
  const others = line.renders.length > 1 ? ` (${alike} of ${count(line.renders.length, 'render')} ${STANDING_WORDS[standing]})` : ''
  const changed = line.renders.filter((r) => r.visual_diff?.changed)
  const visual = changed.length > 0 && !(standing === 'review' && render.visual_diff?.changed && changed.length === 1) ? ` · screenshot changed (${changed.map((r) => percent(r.visual_diff!.changed_ratio)).join(', ')})` : ''
  const words = standing === 'passed' ? 'passed' : renderVerdictWords(render)
  return `- ${STANDING_MARK[standing]} ${codeSpan(line.tool)}${others} — ${escapeMarkdown(ellipsize(words, WORDS_CHARS))} · ${escapeMarkdown(where)}${visual}`
}

export function appsDigest(doc: ResultsDocument, seeAlso = 'the job summary'): string[] {
  const section = doc.apps
  if (!section) return []
  if (section.status === 'skipped') return [`**⚠ MCP Apps not rendered (skipped, not a pass):** ${escapeMarkdown(section.reason ?? 'the browser layer was skipped')}`, '']
  const lines = byTool(doc)
  const renders = lines.flatMap((l) => l.renders)
  const verdict = appsVerdict(section, renders)
  const body = [...lines.slice(0, TOOLS_LISTED).map(toolLine), ...(lines.length > TOOLS_LISTED ? [`- … and ${count(lines.length - TOOLS_LISTED, 'more tool')}: see ${seeAlso}`] : []), '']
  const quiet = lines.every((l) => renderStanding(l.worst.render) === 'passed' || renderStanding(l.worst.render) === 'not-done')
  if (quiet) return [`<details><summary>MCP Apps ${escapeHtml(verdict)}</summary>`, '', ...body, '</details>', '']
  return [`#### MCP Apps — ${verdict}`, '', ...body]
}

/** Over the comment's limit: the verdict and the worst tool in one line. */
export function appsBrief(doc: ResultsDocument): string[] {
  const section = doc.apps
  if (!section) return []
  if (section.status === 'skipped') return appsDigest(doc)
  const lines = byTool(doc)
  const worst = lines[0]
  const first = worst && renderStanding(worst.worst.render) !== 'passed' ? ` — worst: ${codeSpan(worst.tool)}: ${escapeMarkdown(ellipsize(renderVerdictWords(worst.worst.render), WORDS_CHARS))}` : ''
  return [`**MCP Apps ${appsVerdict(section, lines.flatMap((l) => l.renders))}**${first}`, '']
}
