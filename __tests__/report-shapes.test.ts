import { describe, expect, test } from '@jest/globals'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import MarkdownIt from 'markdown-it'
import { compareWithBaseline } from '../src/aggregate/changes.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { SHAPES, cancelledShape, gated, conformanceOnlyShape, failedWithBaselineShape, invalidConfigurationShape, passedShape } from '../__fixtures__/report-shapes.js'
import { renderComment } from '../src/report/comment.js'
import { renderMarkdownReport } from '../src/report/markdown.js'
import type { ResultsDocument } from '../src/results/types.js'

const CONTEXT = { marker: '<!-- mcp-server-evals:sticky:MCP evals/evals -->', links: { summary: 'https://github.com/octo/server/actions/runs/1' } }
const comment = (doc: ResultsDocument) => renderComment(doc, CONTEXT)

// CommonMark with GitHub's extensions that matter here: raw HTML, tables, strikethrough, autolinks.
const gfm = new MarkdownIt({ html: true, linkify: true })

/** The tags of an HTML string, in order; enough to check nesting of the few block tags we emit. */
function tags(html: string): { name: string; closing: boolean }[] {
  return [...html.matchAll(/<(\/?)(details|summary|table|tr|td|th)\b[^>]*>/g)].map((m) => ({ name: m[2], closing: m[1] === '/' }))
}

/** Every <details> closes, in order, and starts with its <summary>; every table closes. */
function structureProblems(markdown: string): string[] {
  const html = gfm.render(markdown)
  const problems: string[] = []
  const stack: string[] = []
  const list = tags(html)
  list.forEach((tag, i) => {
    if (!tag.closing) {
      if (tag.name === 'details' && list[i + 1]?.name !== 'summary') problems.push(`a <details> without a <summary> first (tag ${i})`)
      stack.push(tag.name)
    } else if (stack.pop() !== tag.name) problems.push(`</${tag.name}> closes something else (tag ${i})`)
  })
  if (stack.length) problems.push(`left open: ${stack.join(', ')}`)
  // An HTML block the Markdown parser turned into text (indented, or inside a paragraph) shows as escaped tags.
  for (const escaped of ['&lt;details', '&lt;/details', '&lt;summary', '&lt;table', '&lt;tr']) if (html.includes(escaped)) problems.push(`rendered as text: ${escaped}`)
  return problems
}

/** The first blockquote's text, as GitHub shows it. */
function headline(markdown: string): string {
  const html = gfm.render(markdown)
  const quote = /<blockquote>\s*<p>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? ''
  return quote.replace(/<[^>]+>/g, '').trim()
}

describe('every report shape (golden files; UPDATE_GOLDEN=1 regenerates)', () => {
  const check = (name: string, rendered: string) => {
    const path = fixturePath(`golden/shapes/${name}`)
    // A missing golden file is written locally, and a failure in CI (where nobody would review it).
    if (process.env.UPDATE_GOLDEN === '1' || (!existsSync(path) && !process.env.CI)) {
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, rendered)
    }
    expect(rendered).toBe(readFileSync(path, 'utf8'))
  }

  test.each(SHAPES)('%s: the report and the comment match their golden files and are well-formed', (name, build) => {
    const doc = build()
    const report = renderMarkdownReport(doc)
    const body = comment(doc)
    check(`${name}.report.md`, report)
    check(`${name}.comment.md`, body)
    expect(structureProblems(report)).toEqual([])
    expect(structureProblems(body)).toEqual([])
    expect(body.endsWith(CONTEXT.marker)).toBe(true)
  })
})

describe('the headline follows the verdict', () => {
  test.each([
    ['invalid configuration', invalidConfigurationShape, /^✗ Invalid configuration — nothing was evaluated/, '✗ invalid configuration'],
    ['cancelled', cancelledShape, /^⊘ Cancelled — 2 passed, 2 cancelled of 4 runs; no verdict/, '⊘ cancelled'],
    ['conformance only', conformanceOnlyShape, /^✗ Conformance failed — behaviour evals skipped/, '✗ failed'],
    ['failed', failedWithBaselineShape, /^5\/8 passed — 2 failed, 1 errored/, '✗ failed'],
    ['passed', passedShape, /^All 4 evals passed · conformance passed/, '✓ passed']
  ] as const)('%s', (_, build, expected, title) => {
    const doc = build()
    expect(headline(renderMarkdownReport(doc))).toMatch(expected)
    expect(headline(comment(doc))).toMatch(expected)
    expect(comment(doc).split('\n')[0]).toBe(`### MCP Server Evals — ${title}`)
    // Nothing that evaluated nothing, or failed, says all passed.
    if (!doc.passed) expect(renderMarkdownReport(doc)).not.toMatch(/All \d+ evals passed/)
  })

  test('without a baseline the gate line says the pass floors decide (the comment says it in its headline)', () => {
    expect(renderMarkdownReport(passedShape())).toContain('**Gate: absolute** — ✓ passed (no baseline: the pass floors decide)')
    expect(comment(passedShape())).toContain('> **All 4 evals passed** · conformance passed · no baseline: the pass floors decide')
  })

  test('an invalid configuration never says "All 0 evals passed"', () => {
    const report = renderMarkdownReport(invalidConfigurationShape())
    expect(report).not.toContain('All 0')
    expect(report).toContain('> **Evals failed to produce results.**')
    expect(report).toContain("matches no case id")
  })
})

describe('a failing comment against a baseline', () => {
  const doc = failedWithBaselineShape()
  const body = comment(doc)

  test('reads verdict → what changed → failures → matrix → the rest collapsed', () => {
    const at = (text: string) => {
      const i = body.indexOf(text)
      expect(i).toBeGreaterThan(-1)
      return i
    }
    const order = [at('> **5/8 passed**'), at('#### What changed since the baseline'), at('#### Did not pass'), at('#### Results'), at('<details><summary>▼ ')]
    expect([...order].sort((a, b) => a - b)).toEqual(order)
  })

  test('what changed: every metric with baseline, now and Δ in points, and the groups that moved', () => {
    expect(body).toContain('<tr><td>Run pass rate</td><td align="right">100%</td><td align="right">62.5%</td><td align="right">▼ −37.5 pt</td><td>✗ worse by more than 2 pt</td></tr>')
    expect(body).toContain('<tr><td>Argument correctness</td><td align="right">100%</td><td align="right">0%</td><td align="right">▼ −100 pt</td>')
    expect(body).toContain('**Groups:** **2 regressed** (marked ▼ below) · 0 fixed · 2 new · 1 removed')
    expect(body).toContain('- Removed: `old-case · anthropic/claude-sonnet-4.5 · default`')
    expect(body).toContain('**Cost:** $0.0126 → $0.0154 (▲ +21.8%)')
  })

  test('regressions are named once, in the failures, marked', () => {
    const regressed = 'convert` · `openai/gpt-4o-mini` · default **▼ regressed**'
    expect(body).toContain(regressed)
    expect(body.split('convert` · `openai/gpt-4o-mini`').length - 1).toBe(1)
    expect(body).not.toMatch(/Regressed \(\d+\):/)
  })

  test('a new conformance finding is marked new; a warning that was already there is not', () => {
    expect(body).toContain('**Conformance:** **1 new finding** (marked *new*)')
    expect(body).toMatch(/<code>list-cache-fields<\/code> \(error\) \*new\*/)
    expect(body).toMatch(/<code>tools-list-deterministic-order<\/code> \(warning\) — /)
  })

  test('the tool surface diff', () => {
    expect(body).toContain('**Tools:** + `get_section`, − `list_sections`, `search_docs` (description changed)')
  })

  test('the matrix: cases × models with k/N, regressions marked', () => {
    expect(body).toContain('<tr><th>Case</th><th align="center"><code>openai/gpt-4o-mini</code></th><th align="center"><code>anthropic/claude-sonnet-4.5</code></th></tr>')
    expect(body).toContain('<tr><td><code>convert</code></td><td align="center">✗ 0/1 ▼</td><td align="center">✓ 1/1</td></tr>')
  })

  test('the baseline run beside the failing one', () => {
    expect(body).toContain("<details><summary>▼ convert · openai/gpt-4o-mini · default: the baseline's run and this one</summary>")
    expect(body).toMatch(/\*\*Baseline\*\* — passed, judge 90%; tool calls: `convert_currency`/)
    expect(body).toMatch(/\*\*Now\*\* — failed, judge 57%/)
  })
})

describe('a passing comment is short', () => {
  test('against a baseline, what changed is one click away, its counts in the summary', () => {
    const body = comment(gated(passedShape(), passedShape()))
    expect(body).toContain('<details><summary>What changed since the baseline: 0 regressed · 0 fixed · 0 new · 0 removed</summary>')
    expect(body).not.toContain('#### What changed')
    expect(structureProblems(body)).toEqual([])
  })

  test('verdict, conformance line, the matrix collapsed', () => {
    const body = comment(passedShape())
    expect(body.split('\n').length).toBeLessThan(30)
    expect(body).toContain('<details><summary>Results: 4 cases × 1 model</summary>')
    expect(body).not.toContain('Did not pass')
  })
})

describe('the job summary (the report) puts failing runs first and collapses the passing ones', () => {
  test('failing rows, then the passing ones inside <details>', () => {
    const report = renderMarkdownReport(failedWithBaselineShape())
    const failing = report.indexOf('<code>convert</code></td><td align="center">openai')
    const collapsed = report.indexOf('<details><summary>5 passing runs</summary>')
    const passing = report.indexOf('<code>weather-paris</code></td><td align="center">openai')
    expect(failing).toBeGreaterThan(-1)
    expect(collapsed).toBeGreaterThan(failing)
    expect(passing).toBeGreaterThan(collapsed)
  })

  test('the Details links carry GitHub’s user-content- prefix, and the anchors exist', () => {
    const report = renderMarkdownReport(passedShape())
    const links = [...report.matchAll(/href="#user-content-([^"]+)"/g)].map((m) => m[1])
    expect(links.length).toBe(4)
    for (const id of links) expect(report).toContain(`<summary id="${id}">`)
  })

  test('conformance: passing checks collapsed into one line; failures and warnings shown', () => {
    const report = renderMarkdownReport(failedWithBaselineShape())
    expect(report).toContain('<details><summary>✓ 20 passed</summary>')
    expect(report).toMatch(/^- ✗ <code>list-cache-fields<\/code> \(error\) \*new\* — /m)
  })
})

describe('review: untrusted text, honest comparisons', () => {
  test('a legacy server’s version and a baseline’s timestamp are text, never markup', () => {
    const doc = failedWithBaselineShape()
    const hostile: ResultsDocument = {
      ...doc,
      conformance: doc.conformance && { ...doc.conformance, era: 'legacy', negotiated_version: '<img src=x> @octo/team' },
      gate: doc.gate && { ...doc.gate, baseline: doc.gate.baseline && { ...doc.gate.baseline, started_at: '</details><h1>pw' } }
    }
    for (const text of [renderMarkdownReport(hostile), comment(hostile)]) {
      expect(text).not.toContain('<img src=x')
      expect(text).not.toContain('@octo/team')
      expect(text).not.toContain('<h1>')
      expect(text).toContain('(unknown time)')
      expect(structureProblems(text)).toEqual([])
    }
  })

  test('a failure that eased to a warning is not new; a check now skipped is not resolved; an unprobed side compares nothing', () => {
    const now = failedWithBaselineShape()
    const conformance = now.conformance!
    const baseline = {
      ...now,
      conformance: {
        ...conformance,
        checks: conformance.checks.map((c) =>
          c.id === 'tools-list-deterministic-order' ? { ...c, status: 'fail' as const } : c.id === 'http-no-session-id' ? { ...c, status: 'warn' as const } : c
        )
      }
    }
    const changes = compareWithBaseline(now, now.gate!, { document: baseline, source: 'b.json' })
    expect(changes.conformance?.new.map((f) => f.id)).toEqual([])
    expect(changes.conformance?.resolved).toEqual([])
    const unprobed = { ...baseline, conformance: { ...conformance, error: 'the server did not start' } }
    expect(compareWithBaseline(now, now.gate!, { document: unprobed, source: 'b.json' }).conformance).toBeNull()
  })

  test('under gate: absolute the deltas are information: no ✗ verdict column', () => {
    const doc = failedWithBaselineShape()
    const absolute = { ...doc, gate: doc.gate && { ...doc.gate, mode: 'absolute' as const } }
    const body = comment(absolute)
    expect(body).toContain('<tr><th>Metric</th><th align="right">Baseline</th><th align="right">Now</th><th align="right">Δ</th></tr>')
    expect(body).not.toContain('worse by more than')
    expect(comment(doc)).toContain('✗ worse by more than 2 pt')
    expect(body).toContain('Calls outside the input schema (lower is better)')
  })
})
