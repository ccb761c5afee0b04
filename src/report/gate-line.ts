import type { GateResult } from '../results/types.js'
import { codeSpan, escapeMarkdown } from './escape.js'
import { formatTimestamp } from './timestamp.js'

/** The gate: which one, against what, and each reason it failed (what changed is its own section). */
export function renderGate(gate: GateResult): string[] {
  const against = gate.baseline ? ` against the baseline ${codeSpan(gate.baseline.source)} (${formatTimestamp(gate.baseline.started_at)})` : ''
  const out = [`**Gate: ${gate.mode}**${against} — ${gate.passed ? '✓ passed' : '✗ failed'}${gate.note ? ` (${escapeMarkdown(gate.note)})` : ''}`, '']
  for (const reason of gate.reasons) out.push(`- ${escapeMarkdown(reason)}`)
  if (gate.reasons.length) out.push('')
  return out
}
