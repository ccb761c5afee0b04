import type { GroupResult, ResultsDocument, RunResult } from '../results/types.js'
import { ellipsize } from '../util/text.js'
import { groupKey } from '../aggregate/gate.js'
import { verdictOf } from '../aggregate/verdict.js'
import { codeSpan, escapeMarkdown } from './escape.js'
import { failureReasons } from './reasons.js'
import { runLinks, type HtmlLinks } from './html-links.js'
import { skipWords } from './telemetry-budgets.js'
import { count, percent, someOf } from '../util/words.js'

const REASON_CHARS = 300
const SKIPPED_NAMED = 5
/** The distinct reasons listed under one case before the rest are counted. */
const REASONS_LISTED = 5
/** The runs named beside one of those reasons before the rest are counted. */
const RUNS_NAMED = 3

const runsOf = (doc: ResultsDocument, group: GroupResult) => group.run_indexes.map((i) => doc.runs.find((r) => r.index === i)).filter((r): r is RunResult => r !== undefined)
const notPassing = (r: RunResult) => r.status === 'failed' || r.status === 'error'

/** Below its floor only because runs never started (skipped: budget): none of its runs failed or errored. */
function onlySkipped(doc: ResultsDocument, group: GroupResult): boolean {
  const runs = runsOf(doc, group)
  return runs.some((r) => r.status === 'skipped') && runs.every((r) => r.status === 'passed' || r.status === 'skipped' || r.status === 'cancelled')
}

/** One case's groups below their floor, and every group of that case (the scope "every model" is read against). */
interface CaseFailure {
  id: string
  failing: GroupResult[]
  all: GroupResult[]
}

/**
 * What did not pass, every layer counted in the heading so it agrees with the headline: the
 * behaviour runs grouped by case — regressions first, a reason shared by several runs said once
 * with how many — the groups that fell short only because the spend left their runs unstarted,
 * in one line; then how many runs failed inside a group that still reached its floor. The other
 * layers' failures (tool tests, conformance, cells, budgets) are the sections that follow it.
 */
export function renderFailures(doc: ResultsDocument, heading: string, seeAlso: string, limit = 50, html: HtmlLinks | null = null): string[] {
  const regressed = new Set(doc.gate?.regressed ?? [])
  // A group cancelled whole is no verdict; one whose runs the budget left unstarted failed (its `cancelled` counts them too).
  const failing = doc.groups.filter((g) => !g.success && (g.cancelled < g.runs || runsOf(doc, g).some((r) => r.status === 'skipped')))
  const skipped = failing.filter((g) => onlySkipped(doc, g))
  const listed = failing.filter((g) => !skipped.includes(g))
  const others = otherLayers(doc)
  if (failing.length === 0) {
    // Nothing of the runs to list: with several failing layers, one line that counts them before their sections.
    return [...(others.length > 1 ? [`**Did not pass:** ${others.join(' · ')}`, ''] : []), ...flakyLine(doc, seeAlso)]
  }
  const ordered = [...listed.filter((g) => regressed.has(groupKey(g))), ...listed.filter((g) => !regressed.has(groupKey(g)))]
  const cases: CaseFailure[] = []
  for (const group of ordered) {
    const known = cases.find((c) => c.id === group.case_id)
    if (known) known.failing.push(group)
    else cases.push({ id: group.case_id, failing: [group], all: doc.groups.filter((g) => g.case_id === group.case_id) })
  }
  // A group's own counts when its runs are not in the document (a document cut down by hand).
  const runs = listed.reduce((n, g) => n + (runsOf(doc, g).length > 0 ? runsOf(doc, g).filter(notPassing).length : g.runs - g.passed - g.cancelled), 0)
  const tally = [
    ...(listed.length ? [`${count(runs, 'run')} in ${count(cases.length, 'case')}`] : []),
    // Counted as the headline counts them: runs, not groups.
    ...(skipped.length ? [`${count(skipped.flatMap((g) => runsOf(doc, g)).filter((r) => r.status === 'skipped').length, 'run')} skipped (budget)`] : []),
    ...others
  ]
  const out = [`${heading} Did not pass — ${tally.join(' · ')}`, '']
  for (const c of cases.slice(0, limit)) out.push(...caseLines(doc, c, regressed, html))
  if (cases.length > limit) out.push(`- … and ${count(cases.length - limit, 'more case')}: see ${seeAlso}`)
  out.push(...skippedLine(doc, skipped))
  out.push('', ...flakyLine(doc, seeAlso))
  return out
}

/** The other layers that failed, counted as their sections count them: "2 tool tests", "3 resilience cells", "1 budget", "conformance". */
function otherLayers(doc: ResultsDocument): string[] {
  const v = verdictOf(doc)
  const tests = v.toolTests && v.toolTests.ran && !v.toolTests.passed ? [count(v.toolTests.notPassing.length, 'tool test')] : []
  const cells = v.resilience && !v.resilience.passed ? [count(v.resilience.reasons.length, 'resilience cell')] : []
  const budgets = v.budgets.failed.length ? [count(v.budgets.failed.length, 'budget')] : []
  const conformance = v.conformance && !v.conformance.passed && !v.conformance.unreachable ? ['protocol conformance'] : []
  return [...tests, ...cells, ...budgets, ...conformance]
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

/**
 * One case: a line naming it, where it failed and why; a reason every failing run shares is said
 * once, different reasons each under it with the runs that gave it.
 */
function caseLines(doc: ResultsDocument, c: CaseFailure, regressed: ReadonlySet<string>, html: HtmlLinks | null): string[] {
  const runs = c.failing.flatMap((g) => runsOf(doc, g)).filter(notPassing)
  const allErrored = c.failing.every((g) => g.errored === g.runs)
  const models = new Set(c.all.map((g) => g.model)).size
  const prompts = new Set(c.all.map((g) => g.prompt_name)).size
  const marks = c.failing.filter((g) => regressed.has(groupKey(g)))
  const only = c.failing.length === 1 ? c.failing[0] : null
  let head: string
  if (only) {
    const where = `${codeSpan(c.id)} · ${codeSpan(only.model)} · ${escapeMarkdown(only.prompt_name)}`
    const tally = only.runs > 1 ? ` — ${only.passed}/${only.runs} passed, floor ${percent(only.floor)}` : ''
    head = `${where}${marks.length ? ' **▼ regressed**' : ''}${tally}`
  } else {
    const total = c.all.flatMap((g) => runsOf(doc, g)).filter((r) => r.status === 'passed' || notPassing(r)).length
    const failed = runs.filter((r) => r.status === 'failed').length
    const errored = runs.length - failed
    const outcome = failed && errored ? `${failed} failed and ${errored} errored of ${count(total, 'run')}` : `${runs.length} of ${count(total, 'run')} ${failed ? 'failed' : 'errored'}`
    const mark = marks.length === 0 ? '' : marks.length === c.failing.length ? ' **▼ regressed**' : ` **▼ regressed** on ${marks.map((g) => codeSpan(`${g.model} · ${g.prompt_name}`)).join(', ')}`
    head = `${codeSpan(c.id)}${mark} — ${outcome}, ${scope(c, models, prompts)}`
  }
  const symbol = allErrored ? '⚠' : '✗'
  const said = runs.map((r) => failureReasons(r))
  const whole = (reasons: string[]) => escapeMarkdown(ellipsize(reasons.join('; '), REASON_CHARS))
  if (runs.length === 0) return [`- ${symbol} ${head}`]
  const same = said.every((r) => r.join('; ') === said[0].join('; '))
  if (same) {
    // One failing run of repeats: which one, to find it in the table.
    const which = only && only.runs > 1 && runs.length === 1 ? ` (run ${runs[0].attempt})` : ''
    return [`- ${symbol} ${head}${which}${said[0].length ? ` — ${whole(said[0])}` : ''}${runLinks(runs, html)}`]
  }
  // Several reasons: each once, with the runs that gave it, the most common first.
  const byReason = new Map<string, RunResult[]>()
  runs.forEach((run, i) => {
    for (const reason of said[i].length ? said[i] : ['did not pass']) byReason.set(reason, [...(byReason.get(reason) ?? []), run])
  })
  const reasons = [...byReason].sort((a, b) => b[1].length - a[1].length)
  const name = (r: RunResult) => {
    const parts = [models > 1 ? codeSpan(r.model) : '', prompts > 1 ? escapeMarkdown(r.prompt_name) : '', (c.all.find((g) => g.model === r.model && g.prompt_name === r.prompt_name)?.runs ?? 1) > 1 ? `run ${r.attempt}` : '']
    return parts.filter(Boolean).join(' · ') || `run ${r.attempt}`
  }
  const out = [`- ${symbol} ${head}:`]
  for (const [reason, by] of reasons.slice(0, REASONS_LISTED)) {
    const who = by.length === runs.length ? `all ${runs.length} runs` : `${count(by.length, 'run')}: ${someOf(by.map(name), RUNS_NAMED)}`
    out.push(`  - ${escapeMarkdown(ellipsize(reason, REASON_CHARS))} (${who})${runLinks(by, html)}`)
  }
  if (reasons.length > REASONS_LISTED) out.push(`  - … and ${count(reasons.length - REASONS_LISTED, 'more reason')}`)
  return out
}

/**
 * Where a case failed: "every model and prompt", "every model", "every prompt"; the models it
 * failed on with every prompt ("on `m`, every prompt"), the prompts it failed with on every model
 * ("with terse, every model"); else the model · prompt pairs.
 */
function scope(c: CaseFailure, models: number, prompts: number): string {
  if (c.failing.length === c.all.length) return models > 1 && prompts > 1 ? 'every model and prompt' : models > 1 ? 'every model' : 'every prompt'
  const distinct = (pick: (g: GroupResult) => string) => [...new Set(c.failing.map(pick))]
  const whole = (pick: (g: GroupResult) => string, value: string) => c.all.filter((g) => pick(g) === value).every((g) => c.failing.includes(g))
  const failedModels = distinct((g) => g.model)
  const failedPrompts = distinct((g) => g.prompt_name)
  if (prompts > 1 && failedModels.every((m) => whole((g) => g.model, m))) return `on ${failedModels.map((m) => codeSpan(m)).join(', ')}, every prompt`
  if (models > 1 && failedPrompts.every((p) => whole((g) => g.prompt_name, p))) return `with ${failedPrompts.map((p) => escapeMarkdown(p)).join(', ')}, every model`
  const pair = (g: GroupResult) => [models > 1 ? codeSpan(g.model) : '', prompts > 1 ? escapeMarkdown(g.prompt_name) : ''].filter(Boolean).join(' · ')
  return `on ${c.failing.map(pair).join(', ')}`
}

/** Runs that failed although their group reached its floor: worth a look, not a failure. */
function flakyLine(doc: ResultsDocument, seeAlso: string): string[] {
  const passingGroups = new Set(doc.groups.filter((g) => g.success).flatMap((g) => g.run_indexes))
  const flaky = doc.runs.filter((r) => passingGroups.has(r.index) && notPassing(r))
  if (flaky.length === 0) return []
  return [`_${count(flaky.length, 'run')} failed inside ${flaky.length === 1 ? 'a group that' : 'groups that'} still reached the pass floor; see ${seeAlso}._`, '']
}
