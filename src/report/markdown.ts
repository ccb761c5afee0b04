import type { ResultsDocument } from '../results/types.js'
import { count } from '../util/words.js'
import { renderCancelled } from './cancelled.js'
import { blockquote, codeSpan } from './escape.js'
import { headerLine, shardNotice, unreachableReason, verdictWords } from './headline.js'
import { appsNotice, modelViewNotice } from './model-view.js'
import { placeSections, REPORT_ORDER, sectionContext, SECTIONS } from './sections.js'

/**
 * The Markdown report (also the job summary), in eval-action's structure — header line, summary
 * table, per-run details — with its defects fixed and what a reviewer needs first: the verdict,
 * what changed since the baseline, what did not pass, the matrix; failing runs before passing
 * ones (collapsed). Score badges follow each case's own threshold, the final answer is shown,
 * errors are explained, and every string from a server or a model is escaped. The sections and
 * their order are the registry's (sections.ts).
 */
export function renderMarkdownReport(doc: ResultsDocument): string {
  // The first heading carries the verdict: the page's title says it before anything is read.
  const out: string[] = [`# Eval Report — ${verdictWords(doc)}`, '', headerLine(doc), '']
  if (doc.fatal_error !== null) {
    out.push('> **Evals failed to produce results.**', '>', blockquote(doc.fatal_error).replace(/^/gm, ''), '')
    return out.join('\n')
  }
  if (doc.cancelled) out.push(...renderCancelled(doc))
  else if (doc.journal && doc.journal.missing > 0) out.push(`> **Incomplete:** ${count(doc.journal.missing, 'planned run')} ${doc.journal.missing === 1 ? 'is' : 'are'} missing from the journal ${codeSpan(doc.journal.path)} (the evaluation was interrupted); it cannot pass.`, '')
  if (doc.journal && doc.journal.reused > 0) out.push(`_Resumed: ${count(doc.journal.reused, 'run')} ${doc.journal.reused === 1 ? 'was' : 'were'} taken from an earlier attempt's journal ${codeSpan(doc.journal.path)}; the rest ran now._`, '')
  out.push(...shardNotice(doc), ...modelViewNotice(doc), ...appsNotice(doc))
  const ctx = sectionContext(doc, unreachableReason(doc))
  // One statement: the server never answered, so nothing below it could run.
  if (ctx.unreachable !== null) out.push(...SECTIONS.server.full(ctx))
  else out.push(...placeSections(REPORT_ORDER, ctx, 'full').flatMap((s) => s.lines))
  // A behaviour evaluation that planned no run ends after the free layers, its blank lines left as they are.
  if (ctx.unreachable === null && doc.behaviour.status === 'ran' && doc.runs.length === 0) return out.join('\n')
  return out.join('\n').replace(/\n{3,}/g, '\n\n')
}
