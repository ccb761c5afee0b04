import type { GroupResult, ResultsDocument, RunResult } from '../results/types.js'
import { ellipsize } from '../util/text.js'
import { groupKey } from '../aggregate/gate.js'
import { codeSpan, escapeMarkdown } from './escape.js'
import { failureReasons } from './reasons.js'
import { skipWords } from './telemetry-budgets.js'
import { count, percent } from '../util/words.js'

const REASON_CHARS = 300
const SKIPPED_NAMED = 5

const runsOf = (doc: ResultsDocument, group: GroupResult) => group.run_indexes.map((i) => doc.runs.find((r) => r.index === i)).filter((r): r is RunResult => r !== undefined)

/** Below its floor only because runs never started (skipped: budget): none of its runs failed or errored. */
function onlySkipped(doc: ResultsDocument, group: GroupResult): boolean {
  const runs = runsOf(doc, group)
  return runs.some((r) => r.status === 'skipped') && runs.every((r) => r.status === 'passed' || r.status === 'skipped' || r.status === 'cancelled')
}

/**
 * The groups below their pass floor, regressions first (each named here once), with why their
 * first failing run failed; the groups that fell short only because the spend left their runs
 * unstarted, in one line; then how many runs failed inside a group that still reached its floor.
 */
export function renderFailures(doc: ResultsDocument, heading: string, seeAlso: string, limit = 50): string[] {
  const regressed = new Set(doc.gate?.regressed ?? [])
  // A group cancelled whole is no verdict; one whose runs the budget left unstarted failed (its `cancelled` counts them too).
  const failing = doc.groups.filter((g) => !g.success && (g.cancelled < g.runs || runsOf(doc, g).some((r) => r.status === 'skipped')))
  if (failing.length === 0) return flakyLine(doc, seeAlso)
  const skipped = failing.filter((g) => onlySkipped(doc, g))
  const listed = failing.filter((g) => !skipped.includes(g))
  const ordered = [...listed.filter((g) => regressed.has(groupKey(g))), ...listed.filter((g) => !regressed.has(groupKey(g)))]
  const out = [`${heading} Did not pass (${failing.length})`, '']
  for (const group of ordered.slice(0, limit)) out.push(failureLine(doc, group, regressed.has(groupKey(group))))
  if (ordered.length > limit) out.push(`- … and ${ordered.length - limit} more: see ${seeAlso}`)
  out.push(...skippedLine(doc, skipped))
  out.push('', ...flakyLine(doc, seeAlso))
  return out
}

/** "- ⏭ 3 groups skipped: budget — the spend reached max_cost_usd ($0.50 of $0.50) before their runs started: `a · m · p`, …". */
function skippedLine(doc: ResultsDocument, groups: GroupResult[]): string[] {
  if (groups.length === 0) return []
  const run = groups.flatMap((g) => runsOf(doc, g)).find((r) => r.status === 'skipped')
  const detail = skipWords(run?.skipped?.detail, groups.length > 1 || groups.some((g) => g.runs > 1))
  // Regressions first, each marked: they are named here once, as in the lines above.
  const regressed = new Set(doc.gate?.regressed ?? [])
  const ordered = [...groups.filter((g) => regressed.has(groupKey(g))), ...groups.filter((g) => !regressed.has(groupKey(g)))]
  const named = ordered.slice(0, SKIPPED_NAMED).map((g) => `${codeSpan(groupKey(g))}${regressed.has(groupKey(g)) ? ' **▼ regressed**' : ''}`)
  const more = groups.length > SKIPPED_NAMED ? `, and ${groups.length - SKIPPED_NAMED} more` : ''
  return [`- ⏭ ${count(groups.length, 'group')} skipped: budget — ${escapeMarkdown(ellipsize(detail, REASON_CHARS))}: ${named.join(', ')}${more}`]
}

function failureLine(doc: ResultsDocument, group: GroupResult, regressed: boolean): string {
  const runs = runsOf(doc, group)
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
