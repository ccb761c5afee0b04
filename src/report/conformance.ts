import type { CheckResult, ConformanceReport } from '../results/types.js'
import type { ConformanceSection } from '../results/types.js'
import { ellipsize } from '../util/text.js'
import { codeBlock, codeSpan, escapeHtml, escapeMarkdown, truncateText } from './escape.js'
import { count } from '../util/words.js'

const ICON: Record<CheckResult['status'], string> = { pass: '✓', fail: '✗', warn: '⚠', skip: '–' }

/** "21 passed, 1 failed, 1 warning, 6 skipped": only the counts that are not zero. */
export function checkTally(section: Pick<ConformanceReport, 'checks'>): string {
  const n = (status: CheckResult['status']) => section.checks.filter((c) => c.status === status).length
  const parts = [n('pass') ? `${n('pass')} passed` : '', n('fail') ? `${n('fail')} failed` : '', n('warn') ? count(n('warn'), 'warning') : '', n('skip') ? `${n('skip')} skipped` : '']
  return parts.filter(Boolean).join(', ') || 'no checks'
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
  return `<code>${escapeHtml(id)}</code>`
}

/** One line per failure and warning, new ones (against the baseline) marked *new*. */
export function findingLines(section: ConformanceSection, newIds: ReadonlySet<string>, messageChars = 300): string[] {
  const lines: string[] = []
  if (section.error) lines.push(`- ✗ **The server could not be probed:** ${escapeMarkdown(section.error)}`)
  for (const check of section.checks.filter((c) => c.status === 'fail' || c.status === 'warn')) {
    lines.push(`- ${ICON[check.status]} ${checkId(check.id)} (${check.severity})${newIds.has(check.id) ? ' *new*' : ''} — ${escapeMarkdown(ellipsize(check.message, messageChars))}`)
  }
  return lines
}

/**
 * The conformance section: a verdict line, every failure and warning shown (with its evidence
 * one click away), the passing checks collapsed into one line, the skipped ones on one line, and
 * for a legacy server the steps to 2026-07-28.
 */
export function renderConformance(section: ConformanceSection, newIds: ReadonlySet<string> = new Set()): string[] {
  if (section.era === 'unreachable') return renderUnreachable(section)
  const verdict = section.passed ? '✓ passed' : '✗ failed'
  const who = section.server_info ? ` · ${escapeMarkdown(`${section.server_info.name} ${section.server_info.version}`.trim())}` : ''
  const era = eraLine(section)
  const out = [
    `## Protocol conformance — ${verdict}`,
    '',
    `> ${era[0] === '*' ? era : era[0].toUpperCase() + era.slice(1)} over ${section.transport}${who} · ${count(section.checks.length, 'check')}: ${checkTally(section)} · ${(section.duration_ms / 1000).toFixed(1)}s · gate: fail on ${section.fail_on}`,
    ''
  ]
  const findings = findingLines(section, newIds)
  if (findings.length) out.push(...findings, '')
  for (const check of section.checks.filter((c) => c.status === 'fail' || c.status === 'warn')) {
    out.push(`<details><summary>${ICON[check.status]} ${checkId(check.id)}: the rule and the evidence</summary>`, '', `**Rule:** ${escapeMarkdown(check.spec)}`, '', escapeMarkdown(check.message), '')
    if (check.evidence) out.push('Request:', '', codeBlock(check.evidence.request, 'json'), '', 'Response:', '', codeBlock(check.evidence.response), '')
    out.push('</details>', '')
  }
  const passing = section.checks.filter((c) => c.status === 'pass')
  if (passing.length) out.push(`<details><summary>✓ ${passing.length} passed</summary>`, '', passing.map((c) => checkId(c.id)).join(' · '), '', '</details>', '')
  const skipped = section.checks.filter((c) => c.status === 'skip')
  if (skipped.length > 0) out.push(`Skipped: ${skipped.map((c) => checkId(c.id)).join(', ')} (${escapeMarkdown(skipped[0].message)}${skipped.some((c) => c.message !== skipped[0].message) ? ', …' : ''}).`, '')
  if (section.migration.length > 0) {
    out.push('### Migrating to MCP 2026-07-28', '', ...section.migration.map((step, i) => `${i + 1}. ${escapeMarkdown(step)}`), '')
  }
  return out
}

/** The comment's view: one verdict line with the counts, then the failures and warnings. */
export function conformanceDigest(section: ConformanceSection, newIds: ReadonlySet<string> = new Set()): string[] {
  if (section.era === 'unreachable') return unreachableDigest(section)
  const lines = [`**Protocol conformance ${section.passed ? '✓ passed' : '✗ failed'}** — ${eraLine(section)} over ${section.transport}: ${checkTally(section)}`, '']
  const findings = findingLines(section, newIds)
  if (findings.length) lines.push(...findings, '')
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
