import type { AppRender } from '../results/types.js'
import { trimEvidence } from '../util/text.js'
import { renderVerdictWords } from './app-findings.js'

/** How many evidence lines, console errors or blocked URLs a plain-text record quotes of a render. */
const LINES_SHOWN = 10

/**
 * A render in plain text, for JUnit's failure bodies: its verdict, the findings that did not pass
 * with their evidence, the failed actions and assertions, the screenshot's path. The caller escapes
 * it for XML.
 */
export function appDetails(render: AppRender): string[] {
  const lines = [`  app ${render.status === 'rendered' ? 'render' : render.status} ${render.id}: ${renderVerdictWords(render)}`]
  for (const f of render.findings.filter((x) => x.status === 'failed' || x.status === 'warning' || x.status === 'review')) {
    lines.push(`    ${f.status} ${f.id}: ${f.message}`, ...f.evidence.slice(0, LINES_SHOWN).map((e) => `      ${e}`))
  }
  for (const a of render.actions.filter((x) => !x.passed)) lines.push(`    ✗ ${a.action} ${a.selector}: ${a.error ?? 'failed'}`)
  for (const a of render.assertions.filter((x) => !x.passed)) lines.push(`    ✗ ${a.check}${a.target ? ` ${a.target}` : ''}: ${a.reason}`, `      expected: ${trimEvidence(a.expected, 300)}`, `      actual: ${trimEvidence(a.actual, 300)}`)
  if (render.screenshot) lines.push(`    screenshot: ${render.screenshot}`)
  return lines
}
