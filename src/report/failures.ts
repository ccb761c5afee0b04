import type { GroupResult, ResultsDocument } from '../results/types.js'
import { ellipsize } from '../util/text.js'
import { groupKey } from '../aggregate/gate.js'
import { codeSpan, escapeMarkdown } from './escape.js'
import { failureReasons } from './reasons.js'
import { count, percent } from '../util/words.js'

const REASON_CHARS = 300

/**
 * The groups below their pass floor, regressions first (each named here once), with why their
 * first failing run failed; then how many runs failed inside a group that still reached its floor.
 */
export function renderFailures(doc: ResultsDocument, heading: string, seeAlso: string, limit = 50): string[] {
  const regressed = new Set(doc.gate?.regressed ?? [])
  const failing = doc.groups.filter((g) => !g.success && g.cancelled < g.runs)
  if (failing.length === 0) return flakyLine(doc, seeAlso)
  const ordered = [...failing.filter((g) => regressed.has(groupKey(g))), ...failing.filter((g) => !regressed.has(groupKey(g)))]
  const out = [`${heading} Did not pass (${failing.length})`, '']
  for (const group of ordered.slice(0, limit)) out.push(failureLine(doc, group, regressed.has(groupKey(group))))
  if (ordered.length > limit) out.push(`- … and ${ordered.length - limit} more: see ${seeAlso}`)
  out.push('', ...flakyLine(doc, seeAlso))
  return out
}

function failureLine(doc: ResultsDocument, group: GroupResult, regressed: boolean): string {
  const runs = group.run_indexes.map((i) => doc.runs.find((r) => r.index === i)).filter((r) => r !== undefined)
  const first = runs.find((r) => r.status === 'failed' || r.status === 'error')
  const allErrored = group.errored === group.runs
  const where = `${codeSpan(group.case_id)} · ${codeSpan(group.model)} · ${escapeMarkdown(group.prompt_name)}`
  const tally = group.runs > 1 ? ` — ${group.passed}/${group.runs} passed, floor ${percent(group.floor)}` : ''
  const why = first ? ` — ${escapeMarkdown(ellipsize(failureReasons(first).join('; '), REASON_CHARS))}` : ''
  const repeat = first && group.runs > 1 ? ` (run ${first.attempt})` : ''
  return `- ${allErrored ? '⚠' : '✗'} ${where}${regressed ? ' **▼ regressed**' : ''}${tally}${repeat}${why}`
}

/** Runs that failed although their group reached its floor: worth a look, not a failure. */
function flakyLine(doc: ResultsDocument, seeAlso: string): string[] {
  const passingGroups = new Set(doc.groups.filter((g) => g.success).flatMap((g) => g.run_indexes))
  const flaky = doc.runs.filter((r) => passingGroups.has(r.index) && (r.status === 'failed' || r.status === 'error'))
  if (flaky.length === 0) return []
  return [`_${count(flaky.length, 'run')} failed inside ${flaky.length === 1 ? 'a group that' : 'groups that'} still reached the pass floor; see ${seeAlso}._`, '']
}
