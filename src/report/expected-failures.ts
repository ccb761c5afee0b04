import { blockingEntries, describeEntry } from '../conformance/expected-failures.js'
import type { ConformanceSection, ExpectedFailureEntry } from '../results/conformance.js'
import { ellipsize } from '../util/text.js'
import { count } from '../util/words.js'
import { codeHtml, codeSpan, escapeMarkdown } from './escape.js'

// The expected-failures file in the report, the comment and the console: each entry, where it is,
// and what became of it; a stale or unknown entry fails the gate, and says what to do.

const OUTCOME_ICON: Record<ExpectedFailureEntry['outcome'], string> = { expected: '⊖', stale: '✗', unknown: '✗', 'not-run': '–' }

/** "file:3", where an entry is. */
export const entryPlace = (file: string, entry: ExpectedFailureEntry) => `${file}:${entry.line}`

/** "2 entries: 1 expected, 1 stale" — the file's outcomes, in one clause. */
export function outcomesClause(section: Pick<ConformanceSection, 'expected_failures'>): string {
  const entries = section.expected_failures?.entries ?? []
  const n = (o: ExpectedFailureEntry['outcome']) => entries.filter((e) => e.outcome === o).length
  const parts = [n('expected') ? `${n('expected')} expected` : '', n('stale') ? `${n('stale')} stale` : '', n('unknown') ? `${n('unknown')} unknown` : '', n('not-run') ? `${n('not-run')} not run` : '']
  return `${count(entries.length, 'entry', 'entries')}${entries.length ? `: ${parts.filter(Boolean).join(', ')}` : ''}`
}

/** The report's section: the file, then one line per entry with its place and outcome. */
export function renderExpectedFailures(section: ConformanceSection): string[] {
  const file = section.expected_failures
  if (!file) return []
  const blocking = blockingEntries(section).length
  const out = [
    `### Expected failures — ${codeSpan(file.file)}`,
    '',
    `> ${outcomesClause(section)}.${blocking ? ` **A stale or unknown entry fails the conformance gate:** remove it from the file (or correct its id).` : ' A listed check that fails is reported as expected, not failed; one that passes again is a stale entry and fails the gate.'}`,
    ''
  ]
  for (const entry of file.entries) {
    const place = escapeMarkdown(entryPlace(file.file, entry))
    const outcome = entry.outcome === 'stale' || entry.outcome === 'unknown' ? `**${entry.outcome}**` : entry.outcome
    out.push(`- ${OUTCOME_ICON[entry.outcome]} ${codeHtml(entry.entry)} (${place}) — ${outcome}: ${escapeMarkdown(ellipsize(describeEntry(entry, section.checks), 300))}`)
  }
  const expected = section.checks.filter((c) => c.status === 'expected')
  if (expected.length) {
    out.push('', `<details><summary>The expected failures (${expected.length}): what they still say</summary>`, '')
    for (const check of expected) out.push(`- ${OUTCOME_ICON.expected} ${codeHtml(check.id)} (${check.severity}, listed as ${codeHtml(check.expected_entry ?? check.id)}) — ${escapeMarkdown(ellipsize(check.message, 300))}`)
    out.push('', '</details>')
  }
  out.push('')
  return out
}

/** The comment's lines: the outcomes, and each stale or unknown entry (they fail the gate). */
export function expectedFailuresDigest(section: ConformanceSection): string[] {
  const file = section.expected_failures
  if (!file) return []
  const lines = [`Expected failures (${codeSpan(file.file)}): ${outcomesClause(section)}.`]
  for (const entry of blockingEntries(section)) {
    lines.push(`- ✗ ${codeHtml(entry.entry)} (${escapeMarkdown(entryPlace(file.file, entry))}) — **${entry.outcome}**: ${escapeMarkdown(ellipsize(describeEntry(entry, section.checks), 200))}`)
  }
  lines.push('')
  return lines
}

/** The console's lines: the outcomes, each stale or unknown entry with its place. */
export function expectedFailuresConsole(section: Pick<ConformanceSection, 'checks' | 'expected_failures'>): string[] {
  const file = section.expected_failures
  if (!file) return []
  const lines = [`  Expected failures (${file.file}): ${outcomesClause(section)}`]
  for (const entry of blockingEntries(section)) lines.push(`  ✗ ${entryPlace(file.file, entry)}: ${entry.entry} is ${entry.outcome}: ${describeEntry(entry, section.checks)}`)
  return lines
}
