import { checkLink, type HtmlLinks } from './html-links.js'
import type { CheckResult, ConformanceReport } from '../results/types.js'
import type { ConformanceSection } from '../results/types.js'
import { ellipsize } from '../util/text.js'
import { codeBlock, codeHtml, codeSpan, escapeHtml, escapeMarkdown, truncateText } from './escape.js'
import { count } from '../util/words.js'
import { expectedFailuresDigest, renderExpectedFailures } from './expected-failures.js'

const ICON: Record<CheckResult['status'], string> = { pass: '✓', fail: '✗', warn: '⚠', skip: '–', expected: '⊖' }

/**
 * "47 checks: 30 passed, 1 warning, 1 expected failure, 16 skipped" (only the counts that are not zero): the one
 * tally of a conformance section, said the same in the console, the report and the comment.
 * It counts the section the results document holds, the checks observed on the runs' tool
 * calls included; the probes' own report has only part of them.
 */
export function checkTally(section: Pick<ConformanceReport, 'checks'>): string {
  const n = (status: CheckResult['status']) => section.checks.filter((c) => c.status === status).length
  const parts = [n('pass') ? `${n('pass')} passed` : '', n('fail') ? `${n('fail')} failed` : '', n('warn') ? count(n('warn'), 'warning') : '', n('expected') ? count(n('expected'), 'expected failure') : '', n('skip') ? `${n('skip')} skipped` : '']
  return section.checks.length === 0 ? 'no checks' : `${count(section.checks.length, 'check')}: ${parts.filter(Boolean).join(', ')}`
}

export interface SkipGroup {
  /** Why, as the checks said it: untrusted in part (it can quote what the server listed). */
  reason: string
  ids: string[]
}

/** The skipped checks grouped by their reason, the largest group first (then in the checks' order). */
export function skipGroups(section: Pick<ConformanceReport, 'checks'>): SkipGroup[] {
  const groups = new Map<string, string[]>()
  for (const check of section.checks) if (check.status === 'skip') groups.set(check.message, [...(groups.get(check.message) ?? []), check.id])
  return [...groups].map(([reason, ids]) => ({ reason, ids })).sort((a, b) => b.ids.length - a.ids.length)
}

/**
 * "29 skipped: 21 × legacy server: applies from 2026-07-28 · 7 × no tool result was observed · …"
 * (one reason alone goes without its count), each reason through `show`.
 */
export function skippedLine(groups: SkipGroup[], show: (reason: string) => string = (reason) => reason): string {
  const total = groups.reduce((n, g) => n + g.ids.length, 0)
  const reasons = groups.length === 1 ? show(groups[0].reason) : groups.map((g) => `${g.ids.length} × ${show(g.reason)}`).join(' · ')
  return `${total} skipped: ${reasons}`
}

export function eraLine(section: ConformanceSection): string {
  // A legacy server's version is whatever its initialize answered: untrusted text.
  const version = section.negotiated_version === null ? 'no handshake' : escapeMarkdown(section.negotiated_version)
  if (section.era === 'unreachable') return '**server unreachable**'
  return section.era === 'modern' ? `modern server (MCP ${version})` : `**legacy server** (${version})`
}

/**
 * A check id as code. Ids sit in lists, never in a narrow table column where a browser would
 * break them at their hyphens (and a copied id must stay searchable, so no non-breaking hyphens).
 */
export function checkId(id: string): string {
  return codeHtml(id)
}

/** How much of a finding's message one line shows (the report's fold holds the rest). */
const SUMMARY_CHARS = 300

/** One line per failure and warning, new ones (against the baseline) marked *new*. */
export function findingLines(section: ConformanceSection, newIds: ReadonlySet<string>, html: HtmlLinks | null = null): string[] {
  const lines: string[] = []
  if (section.error) lines.push(`- ✗ **The server could not be probed:** ${escapeMarkdown(section.error)}`)
  for (const check of section.checks.filter((c) => c.status === 'fail' || c.status === 'warn')) {
    lines.push(`- ${ICON[check.status]} ${checkId(check.id)} (${check.severity})${newIds.has(check.id) ? ' *new*' : ''} — ${escapeMarkdown(ellipsize(check.message, SUMMARY_CHARS))}${checkLink(check.id, html)}`)
  }
  return lines
}

/**
 * Each failure and warning once: its line is the summary of a fold that holds the rule, the
 * whole message when the line had to cut it, and the evidence.
 */
function findingEntries(section: ConformanceSection, newIds: ReadonlySet<string>): string[] {
  const out: string[] = []
  if (section.error) out.push(`- ✗ **The server could not be probed:** ${escapeMarkdown(section.error)}`, '')
  for (const check of section.checks.filter((c) => c.status === 'fail' || c.status === 'warn')) {
    const line = ellipsize(check.message, SUMMARY_CHARS)
    out.push(`<details><summary>${ICON[check.status]} ${checkId(check.id)} (${check.severity})${newIds.has(check.id) ? ' <em>new</em>' : ''} — ${escapeHtml(line)}</summary>`, '', `**Rule:** ${escapeMarkdown(check.spec)}`, '')
    const place = catalogLine(check)
    if (place) out.push(place, '')
    if (line !== check.message) out.push(escapeMarkdown(check.message), '')
    if (check.evidence) out.push('Request:', '', codeBlock(check.evidence.request, 'json'), '', 'Response:', '', codeBlock(check.evidence.response), '')
    out.push('</details>', '')
  }
  return out
}

/** The official suite's scoring in words, as the docs page's table says it (src/conformance/catalog-table.ts). */
const SCORING: Record<NonNullable<CheckResult['official']>['scoring'], string> = { scored: 'scored', differs: 'scored differently', unscored: 'run, not scored', none: 'no check' }

/** "2026-07-28" and "2025-11-25 and 2026-07-28" for a rule of both. */
function revisionText(revision: NonNullable<CheckResult['revision']>): string {
  return revision === 'both' ? '2025-11-25 and 2026-07-28' : revision
}

/**
 * The check's place in the catalog, for its fold: "**Revision:** 2026-07-28 · **official suite:**
 * scored (server-stateless)", with how it differs when it does. Empty for a check without one.
 */
export function catalogLine(check: Pick<CheckResult, 'revision' | 'official'>): string {
  const parts: string[] = []
  if (check.revision) parts.push(`**Revision:** ${revisionText(check.revision)}`)
  const official = check.official
  if (official) {
    const scenarios = [...new Set(official.scenarios.map((s) => s.split(':')[0]))]
    // How it differs, or why it is not scored (pending, extension), is worth the words; the other notes are the docs page's.
    const note = (official.scoring === 'differs' || official.scoring === 'unscored') && official.note ? `: ${escapeMarkdown(official.note)}` : ''
    const word = SCORING[official.scoring]
    parts.push(`**official suite:** ${word}${scenarios.length ? ` (${scenarios.map(codeSpan).join(', ')})` : ''}${note}`)
  }
  return parts.join(' · ')
}

/** The skipped checks by reason on one line, then which checks passed and which were skipped, folded. */
function passedAndSkipped(section: ConformanceSection): string[] {
  const passing = section.checks.filter((c) => c.status === 'pass')
  const groups = skipGroups(section)
  const skipped = groups.reduce((n, g) => n + g.ids.length, 0)
  const out: string[] = []
  if (groups.length > 0) out.push(`– ${skippedLine(groups, escapeMarkdown)}`, '')
  if (passing.length === 0 && skipped === 0) return out
  const ids = (list: string[]) => list.map(checkId).join(' · ')
  const title = [passing.length ? `passed (${passing.length})` : '', skipped ? `were skipped (${skipped})` : ''].filter(Boolean).join(' and which ')
  out.push(`<details><summary>Which checks ${title}</summary>`, '')
  if (passing.length) out.push(`**Passed:** ${ids(passing.map((c) => c.id))}`, '')
  for (const group of groups) out.push(`**Skipped, ${escapeMarkdown(group.reason)} (${group.ids.length}):** ${ids(group.ids)}`, '')
  out.push('</details>', '')
  return out
}

/**
 * The conformance section: a verdict line with the tally, each failure and warning once (its
 * evidence one click away), the skips by reason, the passing and skipped checks folded, and for a
 * legacy server the steps to 2026-07-28.
 */
export function renderConformance(section: ConformanceSection, newIds: ReadonlySet<string> = new Set()): string[] {
  if (section.era === 'unreachable') return renderUnreachable(section)
  const verdict = section.passed ? '✓ passed' : '✗ failed'
  const who = section.server_info ? ` · ${escapeMarkdown(`${section.server_info.name} ${section.server_info.version}`.trim())}` : ''
  const era = eraLine(section)
  const out = [
    `## Protocol conformance — ${verdict}`,
    '',
    `> ${era[0] === '*' ? era : era[0].toUpperCase() + era.slice(1)} over ${section.transport}${who} · ${checkTally(section)} · ${(section.duration_ms / 1000).toFixed(1)}s · gate: fail on ${section.fail_on}`,
    '',
    ...findingEntries(section, newIds),
    ...passedAndSkipped(section),
    ...renderExpectedFailures(section)
  ]
  if (section.migration.length > 0) {
    out.push('### Migrating to MCP 2026-07-28', '', ...section.migration.map((step, i) => `${i + 1}. ${escapeMarkdown(step)}`), '')
  }
  return out
}

/** The comment's view: one verdict line with the counts, then the failures and warnings. */
export function conformanceDigest(section: ConformanceSection, newIds: ReadonlySet<string> = new Set(), html: HtmlLinks | null = null): string[] {
  if (section.era === 'unreachable') return unreachableDigest(section)
  const lines = [`**Protocol conformance ${section.passed ? '✓ passed' : '✗ failed'}** — ${eraLine(section)} over ${section.transport} · ${checkTally(section)}`, '']
  const findings = findingLines(section, newIds, html)
  if (findings.length) lines.push(...findings, '')
  lines.push(...expectedFailuresDigest(section))
  if (section.migration.length) lines.push(`${count(section.migration.length, 'step')} to migrate to 2026-07-28 ${section.migration.length === 1 ? 'is' : 'are'} in the full report.`, '')
  return lines
}

/** What the attempt to reach the server got, as list items: the error, the HTTP status, the cause. */
function unreachableFacts(section: ConformanceReport, withError = true): string[] {
  const u = section.unreachable
  return [
    section.error && withError ? `- **Error:** ${escapeMarkdown(section.error)}` : '',
    u?.http_status !== null && u?.http_status !== undefined ? `- **HTTP status:** ${codeSpan(String(u.http_status))}` : '',
    u?.cause ? `- **Cause:** ${codeSpan(u.cause)}` : ''
  ].filter(Boolean)
}

/** Server output, quoted as code: whatever it holds, it is text. */
function quoted(label: string, text: string | null | undefined, limit: number): string[] {
  return text ? [`${label}:`, '', codeBlock(truncateText(text, limit)), ''] : []
}

/**
 * A server that could not be started or reached: one statement of what happened and what the
 * server said, instead of a table of checks that never ran.
 */
export function renderUnreachable(section: ConformanceReport): string[] {
  const u = section.unreachable
  const out = ['## Server unreachable', '', `> **The server could not be started or reached** over ${section.transport}: no conformance check could run.`, '']
  const facts = unreachableFacts(section)
  if (facts.length) out.push(...facts, '')
  out.push(
    ...quoted('Response body', u?.body, 2000),
    ...quoted('Server stderr (last lines)', u?.stderr, 4000),
    ...quoted('Server stdout, not JSON-RPC (a server started in HTTP mode, or logging to stdout?)', u?.stdout, 2000)
  )
  return out
}

/** The comment's view of an unreachable server: the facts and the last lines of stderr. */
function unreachableDigest(section: ConformanceReport): string[] {
  const u = section.unreachable
  const lines = [`**Protocol conformance:** the server could not be started or reached over ${section.transport}; no check could run.`, '']
  // The headline holds the error's first line; the whole error only when there is more to it.
  const error = section.error ?? ''
  const facts = unreachableFacts(section, error.includes('\n') || error.length > 200)
  if (facts.length) lines.push(...facts, '')
  const tail = (text: string) => text.split('\n').slice(-12).join('\n')
  lines.push(...quoted('Response body', u?.body && u.body.slice(0, 600), 700), ...quoted('Server stderr (last lines)', u?.stderr && tail(u.stderr), 1500), ...quoted('Server stdout, not JSON-RPC', u?.stdout && tail(u.stdout), 700))
  return lines
}
