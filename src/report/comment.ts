import type { ResultsDocument } from '../results/types.js'
import { codeBlock, escapeMarkdown } from './escape.js'
import { renderWhatChanged, renderRegressions } from './changes.js'
import { conformanceDigest } from './conformance.js'
import { renderFailures } from './failures.js'
import { headerLine, unreachableReason } from './headline.js'
import { renderCancelled, renderGate, usageLine } from './markdown.js'
import { renderMatrix } from './matrix.js'
import { resilienceBrief, resilienceDigest } from './resilience.js'
import { budgetsBrief, budgetsDigest } from './telemetry-budgets.js'
import { modelsDigest } from './telemetry-models.js'
import { toolTestsDigest } from './tool-tests.js'
import { verdictOf } from '../aggregate/verdict.js'
import { count } from '../util/words.js'
import { modelViewNotice } from './model-view.js'

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
  /** The same section with less detail, tried before any section is left out. */
  brief?: string[]
}

const collapsed = (summary: string, lines: string[]) => [`<details><summary>${summary}</summary>`, '', ...lines, '</details>', '']

/**
 * The sticky PR comment says what a reviewer needs, in the order they need it: the verdict, what
 * changed since the baseline, what did not pass and why, the cases × models matrix, and the rest
 * collapsed. A passing comment is short. Over GitHub's limit, the sections that have a briefer
 * form take it first (the last ones first): less detail before anything is cut. Then sections are
 * left out whole, the last ones first, with a note saying where the full report is.
 */
export function renderComment(doc: ResultsDocument, context: CommentContext): string {
  const max = context.maxChars ?? COMMENT_MAX_CHARS
  const fatal = doc.fatal_error !== null ? (doc.behaviour.reason === 'the configuration is invalid' ? '✗ invalid configuration' : '✗ could not run') : null
  const unreachable = fatal === null && !doc.cancelled ? unreachableReason(doc) : null
  const verdict = fatal ?? (doc.cancelled ? '⊘ cancelled' : unreachable !== null ? '✗ server unreachable' : doc.passed ? '✓ passed' : '✗ failed')
  const head: string[] = [`### MCP Server Evals — ${verdict}`, '', headerLine(doc, { gate: true }), '']
  if (doc.fatal_error !== null) head.push(codeBlock(doc.fatal_error), '')
  head.push(...renderCancelled(doc))
  // What the models were not shown (cut results, images as text) qualifies every verdict below: said up front.
  head.push(...modelViewNotice(doc))
  const links = [context.links.summary ? `[job summary](${context.links.summary})` : '', context.links.artifact ? `[artifact](${context.links.artifact})` : ''].filter(Boolean)
  const footer = links.length ? [`Full report: ${links.join(' · ')}`, ''] : []

  const newIds = new Set(doc.changes?.conformance?.new.map((f) => f.id) ?? [])
  const sections: Section[] = []
  if (unreachable !== null) {
    // One statement: what the server answered, if anything; nothing else ran.
    sections.push({ name: 'server', lines: doc.conformance ? conformanceDigest(doc.conformance) : [] })
  }
  const tests = unreachable === null ? doc.tool_tests : null
  const layers = verdictOf(doc)
  const testsFailing = tests !== null && tests.status === 'ran' && layers.toolTests !== null && !layers.toolTests.passed
  if (doc.gate && doc.changes) {
    const g = doc.gate
    // A passing comment stays short: what changed is one click away, its counts in the summary line.
    const lines = doc.passed
      ? collapsed(`What changed since the baseline: ${g.regressed.length} regressed · ${g.fixed.length} fixed · ${g.added.length} new · ${g.removed.length} removed`, renderWhatChanged(g, doc.changes).slice(2))
      : renderWhatChanged(g, doc.changes)
    sections.push({ name: 'what changed', lines })
  }
  sections.push({ name: 'failures', lines: renderFailures(doc, '####', 'the job summary') })
  // A cell below its floor (an attack that succeeded, a fault not recovered from) is a failure: next to the failing runs.
  const resilience = doc.summary.resilience
  const resilienceFailed = layers.resilience !== null && !layers.resilience.passed
  if (resilienceFailed) sections.push({ name: 'resilience', lines: resilienceDigest(doc), brief: resilienceBrief(doc) })
  // An exceeded budget, or runs the spend left unstarted, fail the evaluation as surely: beside them too.
  if (!layers.budgets.passed) sections.push({ name: 'budgets', lines: budgetsDigest(doc), brief: budgetsBrief(doc) })
  // Failing tool tests are failures as much as failing runs: right after them, before anything else drops.
  if (tests && testsFailing) sections.push({ name: 'tool tests', lines: toolTestsDigest(tests, 'the job summary') })
  if (doc.conformance && !doc.conformance.passed && unreachable === null) sections.push({ name: 'conformance', lines: conformanceDigest(doc.conformance, newIds) })
  if (tests && tests.status === 'skipped') sections.push({ name: 'tool tests', lines: toolTestsDigest(tests, 'the job summary') })
  // With tool tests the headline already says why the behaviour runs were skipped.
  const skipSaid = tests !== null && tests.status === 'ran'
  if (doc.behaviour.status === 'skipped' && doc.fatal_error === null && unreachable === null && !skipSaid) sections.push({ name: 'behaviour', lines: [`**Behaviour evals skipped:** ${escapeMarkdown(doc.behaviour.reason ?? '')}`, ''] })
  if (doc.groups.length > 0) {
    const matrix = renderMatrix(doc.groups, doc.gate, doc.runs)
    const distinct = (key: (g: (typeof doc.groups)[number]) => string) => new Set(doc.groups.map(key)).size
    const prompts = distinct((g) => g.prompt_name)
    const shape = [count(distinct((g) => g.case_id), 'case'), count(distinct((g) => g.model), 'model'), ...(prompts > 1 ? [count(prompts, 'system prompt')] : [])].join(' × ')
    sections.push({ name: 'matrix', lines: doc.passed ? collapsed(`Results: ${shape}`, matrix) : ['#### Results', '', ...matrix] })
  }
  // The cross-model table: open when a failing evaluation compares models, collapsed when it passed, a line for a single model.
  // It has no briefer form: over the limit the sections that have one shorten first, and it is left out whole if that is not enough.
  sections.push({ name: 'models', lines: modelsDigest(doc) })
  if (resilience && !resilienceFailed) sections.push({ name: 'resilience', lines: resilienceDigest(doc), brief: resilienceBrief(doc) })
  if (tests && tests.status === 'ran' && !testsFailing) sections.push({ name: 'tool tests', lines: toolTestsDigest(tests, 'the job summary') })
  if (doc.conformance && doc.conformance.passed && unreachable === null) sections.push({ name: 'conformance', lines: conformanceDigest(doc.conformance, newIds) })
  if (doc.changes && doc.changes.regressions.length > 0) sections.push({ name: 'regressed runs', lines: renderRegressions(doc.changes) })
  if (doc.gate && !doc.passed) sections.push({ name: 'gate', lines: collapsed(`Gate: ${doc.gate.mode} — ${doc.gate.passed ? '✓ passed' : '✗ failed'}`, renderGate(doc.gate)) })
  if (doc.runs.length > 0 && !doc.passed) sections.push({ name: 'usage', lines: collapsed('Tokens, calls and cache', [usageLine(doc), '']) })

  const render = (kept: Section[], leftOut: string[], shortened: string[]) =>
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
