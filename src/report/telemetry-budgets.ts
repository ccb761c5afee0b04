import type { BudgetCheck, ResultsDocument, TelemetrySection } from '../results/types.js'
import { budgetChecks, failedBudgets, skippedRuns, telemetryPassed } from '../aggregate/verdict.js'
import { ellipsize } from '../util/text.js'
import { count } from '../util/words.js'
import { codeBlock, codeSpan, escapeMarkdown } from './escape.js'
import { sectionOf } from './telemetry-figures.js'

/** How many budget lines and skipped runs the comment names before "and N more". */
const BUDGETS_SHOWN = 10
const SKIPPED_NAMED = 5
const REASON_CHARS = 300

/** "✓ every budget held (5)", "✗ 2 of 5 budgets exceeded · 3 runs skipped", or null when no budget is set and nothing was skipped. */
export function verdictWords(doc: ResultsDocument): string | null {
  const { absolute, trends } = budgetChecks(doc)
  const all = [...absolute, ...trends]
  const failed = all.filter((c) => !c.passed).length
  const skipped = skippedRuns(doc).length
  const parts = [failed > 0 ? `${failed} of ${count(all.length, 'budget')} exceeded` : '', skipped > 0 ? `${count(skipped, 'run')} skipped` : ''].filter(Boolean)
  if (parts.length > 0) return `✗ ${parts.join(' · ')}`
  return all.length > 0 ? `✓ every budget held (${all.length})` : null
}

/** Unknown costs said plainly: which models, and the YAML that fixes it. */
export function unknownCostHint(section: TelemetrySection): string[] {
  const models = section.cost_sources.unknown_models
  if (section.cost_sources.unknown === 0 && models.length === 0) return []
  const named = models.length ? models.map(codeSpan).join(', ') : 'some models'
  const yaml = ['pricing:', ...(models.length ? models : ['provider/model']).map((m) => `  ${JSON.stringify(m)}: { input_per_mtok: <USD>, output_per_mtok: <USD> }`)].join('\n')
  return [
    `> **Cost unknown** for ${named}: the provider reported no cost and \`pricing:\` has no entry, so every total that includes ${models.length === 1 ? 'it' : 'them'} is unknown (not $0). Add the prices (USD per million tokens) to the YAML:`,
    '',
    codeBlock(yaml, 'yaml'),
    ''
  ]
}

// ——— Budgets and skipped runs ———

const mark = (check: BudgetCheck) => (check.passed ? '✅' : '❌')

/** "- ❌ `tools.max_p95_ms` · `search` — tool 'search': p95 latency 1,240 ms is over …". */
function budgetLine(check: BudgetCheck): string {
  const subject = check.subject === null ? '' : ` · ${codeSpan(check.subject)}`
  return `- ${mark(check)} ${codeSpan(check.budget)}${subject} — ${escapeMarkdown(ellipsize(check.reason, REASON_CHARS))}`
}

/**
 * Why runs never started, from one run's record ("the spend reached max_cost_usd ($0.50 of $0.50)
 * before this run started"), said of several when `several`; no final period.
 */
export function skipWords(detail: string | null | undefined, several: boolean): string {
  const words = (detail ?? 'the spend reached max_cost_usd before this run started').replace(/\.$/, '')
  return several ? words.replace(/ before this run started$/, ' before they started') : words
}

/** "3 runs were skipped (budget): the spend reached max_cost_usd ($0.50 of $0.50) before they started — `case · model · prompt`, …". */
export function skippedLine(doc: ResultsDocument): string[] {
  const skipped = skippedRuns(doc)
  if (skipped.length === 0) return []
  const detail = skipWords(skipped[0].skipped?.detail, skipped.length > 1)
  const named = skipped.slice(0, SKIPPED_NAMED).map((r) => codeSpan(`${r.case_id} · ${r.model} · ${r.prompt_name}${r.attempts > 1 ? ` · run ${r.attempt}` : ''}`))
  const more = skipped.length > SKIPPED_NAMED ? `, and ${skipped.length - SKIPPED_NAMED} more` : ''
  const verb = skipped.length === 1 ? 'run was' : 'runs were'
  return [`> **${skipped.length} ${verb} skipped (budget)** and never started: ${escapeMarkdown(ellipsize(detail, REASON_CHARS))}. Not run: ${named.join(', ')}${more}.`, '']
}

/** Every budget checked with its verdict and its reason, the trends apart; or how to set one. */
export function budgetsSection(doc: ResultsDocument, heading: string): string[] {
  const { absolute, trends } = budgetChecks(doc)
  if (absolute.length === 0 && trends.length === 0) {
    return [`${heading} Budgets`, '', '_No budget is set. `budgets:` in the YAML (or the `max_*` inputs) turns latency, tokens and cost into gates._', '', ...skippedLine(doc)]
  }
  const failed = [...absolute, ...trends].filter((c) => !c.passed).length
  const out = [`${heading} Budgets — ${failed === 0 ? '✓ every one held' : `✗ ${failed} exceeded`}`, '', ...skippedLine(doc)]
  if (absolute.length) out.push(...absolute.map(budgetLine), '')
  if (trends.length) out.push('Against the baseline:', '', ...trends.map(budgetLine), '')
  return out
}

// ——— The comment ———

/** The budgets that failed and the runs the spend left unstarted; nothing when every budget held. */
export function budgetsDigest(doc: ResultsDocument, limit = BUDGETS_SHOWN): string[] {
  if (telemetryPassed(doc)) return []
  const failed = failedBudgets(doc)
  const out = [`#### Budgets — ${verdictWords(doc) ?? '✗'}`, '', ...skippedLine(doc)]
  if (failed.length) {
    out.push(...failed.slice(0, limit).map(budgetLine))
    if (failed.length > limit) out.push(`- … and ${failed.length - limit} more: see the job summary`)
    out.push('')
  }
  const section = sectionOf(doc)
  if (section && failed.some((c) => c.actual === null && c.budget.includes('cost'))) out.push(...unknownCostHint(section))
  return out
}

/** The budgets digest with less detail: the verdict, and each failed budget in a line without its reason. */
export function budgetsBrief(doc: ResultsDocument, limit = BUDGETS_SHOWN): string[] {
  if (telemetryPassed(doc)) return []
  const failed = failedBudgets(doc)
  const skipped = skippedRuns(doc).length
  const lines = failed.slice(0, limit).map((c) => `- ❌ ${codeSpan(c.budget)}${c.subject === null ? '' : ` · ${codeSpan(c.subject)}`}`)
  if (failed.length > limit) lines.push(`- … and ${failed.length - limit} more`)
  return [`**Budgets** ${verdictWords(doc) ?? '✗'}${skipped ? ` (the spend reached max_cost_usd; ${count(skipped, 'run')} never started)` : ''}`, '', ...lines, ...(lines.length ? [''] : [])]
}
