import { describe, expect, test } from '@jest/globals'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fixturePath } from '../__fixtures__/harness.js'
import { golden as loadGolden } from '../__fixtures__/report-shapes.js'
import { fatalDocument } from '../src/output/documents.js'
import { blockquote, codeBlock, codeSpan, escapeHtml, escapeMarkdown } from '../src/report/escape.js'
import { renderMarkdownReport } from '../src/report/markdown.js'
import { anchor } from '../src/report/runs.js'
import { formatPercent, roundHalfEven } from '../src/report/numbers.js'
import { trimToBytes } from '../src/report/trim.js'


describe('renderMarkdownReport', () => {
  // Golden file: a reviewer sees every change to the report in the diff.
  // Regenerate with UPDATE_GOLDEN=1 npm test -- report.
  test('matches the committed golden report', () => {
    const rendered = renderMarkdownReport(loadGolden())
    const path = fixturePath('golden/report.md')
    // A missing golden file is written locally, and a failure in CI (where nobody would review it).
    if (process.env.UPDATE_GOLDEN === '1' || (!existsSync(path) && !process.env.CI)) writeFileSync(path, rendered)
    expect(rendered).toBe(readFileSync(path, 'utf8'))
  })

  test('keeps eval-action’s structure and fixes its defects', () => {
    const report = renderMarkdownReport(loadGolden())
    expect(report.startsWith('# Eval Report — ✗ failed\n\n> **2/4 passed** — 1 failed, 1 errored · conformance **failed** · 3s · 2026-11-30 12:00\n')).toBe(true)
    // The verdict first, the check that failed it beside it; the required tools as a plain count.
    expect(report).toContain('<tr><th>Verdict</th><th>Failed check</th><th>Case</th>')
    expect(report).toContain('<th>Required<br>tools</th>')
    expect(report).toContain('### Details')
    // convert scored 0.57 against its own 0.9 threshold: a plain number beside it, never "passing", no badge.
    expect(report).toMatch(/<tr><td>✗ failed<\/td><td>judge 57% &lt; threshold 90%: scored 6 for the answer <i>\(and 2 more\)<\/i><\/td><td><a href="#user-content-convert-openai-gpt-4o-mini-default"><code>convert<\/code><\/a><\/td><td><code>openai\/gpt-4o-mini<\/code><br>default<\/td><td>57% \(≥ 90%\)<\/td>/)
    expect(report).not.toMatch(/<img|% passing/)
    // The final answer is shown, and the errored run explains itself with the server's stderr.
    expect(report).toContain('##### Final answer')
    expect(report).toContain('##### Error (server)')
    expect(report).toContain('panic: out of memory')
  })

  test('an empty run list never says all 0 passed; a fatal error says why', () => {
    const empty = { ...loadGolden(), runs: [], summary: { ...loadGolden().summary, total: 0, passed: 0, failed: 0, errored: 0, pass_rate: null } }
    expect(renderMarkdownReport(empty)).toContain('> **✗ No runs** — no behaviour run was planned')
    expect(renderMarkdownReport(empty)).not.toContain('All 0')
    const fatal = renderMarkdownReport(fatalDocument("input 'eval_cases': is required", new Date('2026-01-02T03:04:05Z')))
    expect(fatal).toContain('> **Evals failed to produce results.**')
    expect(fatal).toContain("> input 'eval\\_cases'")
  })

  test('anchors follow eval-action and stay attribute-safe', () => {
    expect(anchor({ case_id: 'My Case', model: 'openai/gpt-4o', prompt_name: 'default' })).toBe('my-case-openai-gpt-4o-default')
    expect(anchor({ case_id: 'x"><img', model: 'm', prompt_name: 'p' })).toBe('x---img-m-p')
  })
})

describe('escaping untrusted text', () => {
  const hostile = '<img src=x onerror=alert(1)> </details> @octocat #123 https://evil.example ![i](http://x/y.png) [l](http://x) **b** `c`'

  test('HTML context: no tags, no mentions, no references, no autolinks', () => {
    const out = escapeHtml(hostile)
    expect(out).not.toMatch(/<img|<\/details>/)
    expect(out).not.toMatch(/@octocat|#123|https:\/\//)
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;')
  })

  test('Markdown context: syntax characters are escaped', () => {
    const out = escapeMarkdown(hostile)
    expect(out).not.toMatch(/<img|<\/details>/)
    expect(out).not.toMatch(/!\[|\]\(|\*\*b\*\*|`c`/)
    expect(out).not.toMatch(/@octocat|#123/)
  })

  test('blockquotes quote every line', () => {
    expect(blockquote('a\n# not a heading\n\nb')).toBe('> a\n> \\# not a heading\n>\n> b')
  })

  test('code spans and blocks cannot be broken out of', () => {
    expect(codeSpan('a`b')).toBe('``a`b``')
    expect(codeSpan('`x`')).toBe('`` `x` ``')
    const block = codeBlock('```\nescaped?\n````')
    expect(block.startsWith('`````\n')).toBe(true)
    expect(block.endsWith('\n`````')).toBe(true)
  })

  test('bidi overrides and control characters are removed', () => {
    expect(escapeMarkdown('a\u202Eb\u0007c')).toBe('abc')
  })
})

describe('numbers', () => {
  test.each([
    [62.5, 62],
    [63.5, 64],
    [0.5, 0],
    [57.49999999999999, 57],
    [70.2, 70]
  ])('roundHalfEven(%d) = %d (Python round)', (x, y) => expect(roundHalfEven(x)).toBe(y))

  test('percent of a score', () => {
    expect(formatPercent(0.625)).toBe(62)
    expect(formatPercent(0.875)).toBe(88)
  })
})

describe('trimToBytes', () => {
  test('leaves small text alone', () => {
    expect(trimToBytes('abc', 100, 'cut')).toBe('abc')
  })

  test('cuts at a line boundary under the budget, closes fences and details, and says so', () => {
    const text = ['<details>', '', '```', ...Array.from({ length: 5000 }, (_, i) => `line ${i} ✓`)].join('\n')
    const out = trimToBytes(text, 10_000, 'cut here')
    expect(Buffer.byteLength(out, 'utf8')).toBeLessThanOrEqual(10_000)
    expect(out.endsWith('> cut here\n')).toBe(true)
    expect(out).toContain('```\n\n</details>')
  })

  test('server text in code is neither a fence nor a </details>: only what the renderers write is closed', () => {
    const text = ['<details><summary>s</summary>', '', '- actual: `</details>`', '', '````', '```', '</details>', ...Array.from({ length: 3000 }, (_, i) => `line ${i}`)].join('\n')
    const out = trimToBytes(text, 8_000, 'cut here')
    expect(out).toMatch(/line \d+\n````\n\n<\/details>\n\n> cut here\n$/)
    // The fence opened once and closed once; the one </details> line of ours is the last, after the server's.
    expect(out.split('\n````\n').length - 1).toBe(2)
    expect(out.match(/^<\/details>$/gm)).toHaveLength(2)
  })
})
