import type { CheckResult } from '../conformance/types.js'
import type { ConformanceSection } from '../results/types.js'
import { ellipsize } from '../util/text.js'
import { codeBlock, escapeHtml, escapeMarkdown } from './escape.js'

const ICON: Record<CheckResult['status'], string> = { pass: '✓', fail: '✗', warn: '⚠', skip: '–' }

/**
 * The conformance section: a verdict line, a compact table of the checks that ran, the skipped
 * ones on one line, every failure and warning expanded with its evidence, and for a legacy
 * server the steps to 2026-07-28.
 */
export function renderConformance(section: ConformanceSection): string[] {
  const ran = section.checks.filter((c) => c.status !== 'skip')
  const count = (status: CheckResult['status']) => section.checks.filter((c) => c.status === status).length
  const verdict = section.passed ? '✓ passed' : '✗ failed'
  const out = [`## Protocol conformance — ${verdict}`, '']
  const era = section.era === 'modern' ? `Modern server (MCP ${section.negotiated_version})` : `**Legacy server** (${section.negotiated_version ?? 'no handshake'})`
  const who = section.server_info ? ` · ${escapeMarkdown(`${section.server_info.name} ${section.server_info.version}`.trim())}` : ''
  out.push(
    `> ${era} over ${section.transport}${who} · ${section.checks.length} checks: ${count('pass')} passed, ${count('fail')} failed, ${count('warn')} warned, ${count('skip')} skipped · ${(section.duration_ms / 1000).toFixed(1)}s · gate: fail on ${section.fail_on}`,
    ''
  )
  if (section.error) out.push(`**The server could not be probed:** ${escapeMarkdown(section.error)}`, '')
  if (ran.length > 0) {
    out.push('<table>', '<tr><th></th><th>Check</th><th>Severity</th><th>Result</th></tr>')
    for (const check of ran) {
      out.push(`<tr><td>${ICON[check.status]}</td><td><code>${check.id}</code></td><td>${check.severity}</td><td>${escapeHtml(ellipsize(check.message, 300))}</td></tr>`)
    }
    out.push('</table>', '')
  }
  const skipped = section.checks.filter((c) => c.status === 'skip')
  if (skipped.length > 0) out.push(`Skipped: ${skipped.map((c) => `\`${c.id}\``).join(', ')} (${escapeMarkdown(skipped[0].message)}${skipped.some((c) => c.message !== skipped[0].message) ? ', …' : ''}).`, '')
  for (const check of section.checks.filter((c) => c.status === 'fail' || c.status === 'warn')) {
    out.push(`<details><summary>${ICON[check.status]} <code>${check.id}</code> (${check.severity})</summary>`, '', `**Rule:** ${escapeMarkdown(check.spec)}`, '', escapeMarkdown(check.message), '')
    if (check.evidence) out.push('Request:', '', codeBlock(check.evidence.request, 'json'), '', 'Response:', '', codeBlock(check.evidence.response), '')
    out.push('</details>', '')
  }
  if (section.migration.length > 0) {
    out.push('### Migrating to MCP 2026-07-28', '', ...section.migration.map((step, i) => `${i + 1}. ${escapeMarkdown(step)}`), '')
  }
  return out
}
