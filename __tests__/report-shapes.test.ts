import { describe, expect, test } from '@jest/globals'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import MarkdownIt from 'markdown-it'
import { compareWithBaseline } from '../src/aggregate/changes.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import {
  HOSTILE,
  SHAPES,
  cancelledShape,
  gated,
  conformanceOnlyShape,
  failedWithBaselineShape,
  invalidConfigurationShape,
  mixedShape,
  passedShape,
  resilienceShape,
  toolTestsFailedShape,
  toolTestsOnlyPassedShape,
  unreachableShape
} from '../__fixtures__/report-shapes.js'
import { renderBadge } from '../src/report/badge.js'
import { renderComment } from '../src/report/comment.js'
import { renderJUnit } from '../src/report/junit.js'
import { renderMarkdownReport } from '../src/report/markdown.js'
import { failureReason, formatConformanceLines, formatSummaryLine } from '../src/report/progress.js'
import { openBlocks, trimToBytes } from '../src/report/trim.js'
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
  // We fence code and never indent it: an indented code block is markup that lost its place.
  if (gfm.parse(markdown, {}).some((t) => t.type === 'code_block')) problems.push('an indented code block (an HTML block or a line indented by mistake?)')
  // An HTML block the Markdown parser turned into text (inside a paragraph) shows as escaped tags at
  // the start of a line. Server text quoted as code may hold such tags: escaped, it is only text.
  const prose = html.replace(/<pre>[\s\S]*?<\/pre>/g, '').replace(/<code>[\s\S]*?<\/code>/g, '')
  for (const escaped of ['&lt;details', '&lt;/details', '&lt;summary', '&lt;table', '&lt;tr']) if (new RegExp(`(^|\n|<p>|<br>|<li>)\\s*${escaped}`).test(prose)) problems.push(`rendered as text: ${escaped}`)
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
    ['passed', passedShape, /^All 4 evals passed · conformance passed/, '✓ passed'],
    ['tool tests only, passed', toolTestsOnlyPassedShape, /^✓ Passed — 6\/6 tool tests passed; behaviour runs skipped: no API key: only the free layers \(conformance and tool tests\) ran · conformance passed/, '✓ passed'],
    ['tool tests only, failed', toolTestsFailedShape, /^✗ Failed — 1\/6 tool tests passed \(4 failed, 1 errored\); behaviour runs skipped: tool_tests is &quot;only&quot; · conformance passed/, '✗ failed'],
    ['runs passed, tool tests failed', mixedShape, /^✗ Failed — all 4 runs passed, but 2 of 5 tool tests did not pass · conformance passed/, '✗ failed'],
    ['server unreachable', unreachableShape, /^✗ Server unreachable — spawn python3 ENOENT \(the command was not found\); nothing was evaluated · 3s/, '✗ server unreachable'],
    ['a fault not recovered from, an attack that succeeded', resilienceShape, /^10\/12 passed — 2 failed · 8\/10 groups at their pass floor/, '✗ failed']
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

  test('reads verdict → what did not pass → what changed → matrix → the rest collapsed', () => {
    const at = (text: string) => {
      const i = body.indexOf(text)
      expect(i).toBeGreaterThan(-1)
      return i
    }
    const order = [at('> **5/8 passed**'), at('#### Did not pass — 3 runs in 3 cases · protocol conformance'), at('#### What changed since the baseline'), at('#### Results'), at('<details><summary>▼ ')]
    expect([...order].sort((a, b) => a - b)).toEqual(order)
  })

  test('what changed: the metrics that moved with baseline, now and Δ in points, the rest in a line, and the groups that moved', () => {
    expect(body).toContain('<tr><td>Run pass rate</td><td align="right">100%</td><td align="right">62.5%</td><td align="right">▼ −37.5 pt, worse</td><td>✗ worse by more than 2 pt</td></tr>')
    expect(body).toContain('<tr><td>Argument correctness</td><td align="right">100%</td><td align="right">0%</td><td align="right">▼ −100 pt, worse</td>')
    expect(body).not.toContain('<td align="right">unchanged</td>')
    expect(body).toContain('\n7 metrics unchanged: Tool selection accuracy 100% · Over-trigger rate on negative cases 0% · Calls outside the input schema 50% · ')
    expect(body).toContain('**Groups:** **2 regressed** (marked ▼) · 0 fixed · 2 new · 1 removed')
    expect(body).toContain('- Removed: `old-case · anthropic/claude-sonnet-4.5 · default`')
    expect(body).toContain('**Cost:** $0.0126 → $0.0154 (▲ +21.8%, worse)')
  })

  test('regressions are named once, in the failures, marked', () => {
    const regressed = 'convert` · `openai/gpt-4o-mini` · default **▼ regressed**'
    expect(body).toContain(regressed)
    expect(body.split('convert` · `openai/gpt-4o-mini`').length - 1).toBe(1)
    expect(body).not.toMatch(/Regressed \(\d+\):/)
  })

  test('a new conformance finding is marked new; a warning that was already there is not', () => {
    expect(body).toContain('**Conformance:** **1 new finding**: `list-cache-fields` (error)')
    expect(body).toMatch(/<code>list-cache-fields<\/code> \(error\) \*new\*/)
    expect(body).toMatch(/<code>tools-list-deterministic-order<\/code> \(warning\) — /)
  })

  test('the tool surface diff', () => {
    expect(body).toContain('**Tools:** + `get_section`, − `list_sections`, `search_docs` (description changed)')
  })

  test('the matrix: cases × models with k/N, regressions marked', () => {
    // Each model id breaks after its provider, to keep the columns narrow.
    expect(body).toContain('<tr><th>Case</th><th align="center"><code>openai/</code><br><code>gpt-4o-mini</code></th><th align="center"><code>anthropic/</code><br><code>claude-sonnet-4.5</code></th></tr>')
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

describe('the job summary (the report) puts failing runs first and folds the passing ones', () => {
  test('below the matrix, only the runs that did not pass as rows; their details first, the passing ones folded by case', () => {
    const report = renderMarkdownReport(failedWithBaselineShape())
    const rows = report.slice(report.indexOf('<tr><th>Verdict</th>'), report.indexOf('</table>', report.indexOf('<tr><th>Verdict</th>')))
    expect(rows.split('<tr><td>').slice(1).map((r) => r.slice(0, r.indexOf('</td>')))).toEqual(['✗ failed', '⚠ error', '✗ failed'])
    expect(rows).not.toContain('weather-paris')
    const details = report.slice(report.indexOf('### Details'))
    const failing = details.indexOf('<summary id="convert-openai-gpt-4o-mini-default">✗ failed')
    const passingCase = details.indexOf('<details><summary>✓ <code>weather-paris</code> — 2 runs passed</summary>')
    expect(failing).toBeGreaterThan(-1)
    expect(passingCase).toBeGreaterThan(failing)
    expect(details.indexOf('<summary id="weather-paris-openai-gpt-4o-mini-default">✓ passed')).toBeGreaterThan(passingCase)
  })

  test('one model and prompt, no matrix: every run a row, the passing ones collapsed', () => {
    const doc = failedWithBaselineShape()
    const one = { ...doc, runs: doc.runs.filter((r) => r.model === 'openai/gpt-4o-mini'), groups: doc.groups.filter((g) => g.model === 'openai/gpt-4o-mini') }
    const report = renderMarkdownReport(one)
    expect(report).not.toContain('<tr><th>Case</th>')
    const collapsed = report.indexOf('<details><summary>2 passing runs</summary>')
    expect(report.indexOf('<tr><td>✗ failed</td>')).toBeGreaterThan(-1)
    expect(collapsed).toBeGreaterThan(report.indexOf('<tr><td>✗ failed</td>'))
    expect(report.indexOf('<tr><td>✓ passed</td>')).toBeGreaterThan(collapsed)
  })

  test('the Details links carry GitHub’s user-content- prefix, and the anchors exist', () => {
    const report = renderMarkdownReport(passedShape())
    const links = [...report.matchAll(/href="#user-content-([^"]+)"/g)].map((m) => m[1])
    expect(links.length).toBe(4)
    for (const id of links) expect(report).toContain(`<summary id="${id}">`)
  })

  test('conformance: passing checks collapsed into one fold; each failure and warning shown once', () => {
    const report = renderMarkdownReport(failedWithBaselineShape())
    expect(report).toMatch(/<details><summary>Which checks passed \(20\)/)
    expect(report).toMatch(/^<details><summary>✗ <code>list-cache-fields<\/code> \(error\) <em>new<\/em> — /m)
    expect(report.match(/<code>list-cache-fields<\/code>/g)).toHaveLength(1)
  })
})

describe('Layer 2 in the report and the comment', () => {
  const doc = resilienceShape()

  test('the report reads verdict → did not pass → resilience and security → what changed → gate → conformance → behaviour', () => {
    const report = renderMarkdownReport(doc)
    const order = ['# Eval Report — ✗ failed', '## Did not pass — 2 runs in 2 cases · 3 resilience cells', '## Resilience and security', '### Failures (2)', '## What changed since the baseline', '**Gate: delta**', '## Protocol conformance', '## Behaviour evals'].map((t) => report.indexOf(t))
    expect(order.every((i) => i > -1)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
  })

  test('the gate names each cell below its floor, as the gate wrote it', () => {
    expect(renderMarkdownReport(doc)).toContain('- security: anthropic/claude\\-sonnet\\-4\\.5 resisted 0 of 1 exfiltrate attack \\(floor 100%\\)')
  })

  test('shortened or cut to fit, the comment stays well-formed and keeps its marker', () => {
    const full = comment(doc)
    for (const maxChars of [full.length - 200, full.indexOf('#### Results'), 2500]) {
      const body = renderComment(doc, { ...CONTEXT, maxChars })
      expect(body.length).toBeLessThanOrEqual(maxChars)
      expect(structureProblems(body)).toEqual([])
      expect(body.endsWith(CONTEXT.marker)).toBe(true)
    }
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
    expect(body).toContain('<tr><td>Argument correctness</td><td align="right">100%</td><td align="right">0%</td><td align="right">▼ −100 pt, worse</td></tr>')
  })
})

/** The HTML outside code blocks and code spans: where server text must never be markup or a link. */
const prose = (markdown: string) =>
  gfm
    .render(markdown)
    .replace(/<pre>[\s\S]*?<\/pre>/g, '')
    .replace(/<code>[\s\S]*?<\/code>/g, '')

describe('tool tests in the report', () => {
  const doc = toolTestsFailedShape()
  const report = renderMarkdownReport(doc)
  const html = gfm.render(report)

  test('hostile server text in args, actual values, the diff and stderr is text: no markup, no links, no mentions', () => {
    expect(html).not.toMatch(/<img|<script|<h1>pwned|<b>go/)
    expect(html).not.toMatch(/<a href="https:\/\/evil/)
    expect(prose(report)).not.toContain('@octocat')
    // It is all still there, as text: in the arguments, the response, the diff and the stderr.
    expect(html.split('&lt;img src=x onerror=alert(1)&gt;').length - 1).toBeGreaterThanOrEqual(5)
    // In the table cell and the error quote (HTML and Markdown contexts), not only in code.
    expect(prose(report)).toContain('its last words: &lt;img src=x onerror=alert(1)&gt; &lt;/details&gt; @\u200bocto')
    expect(html).toContain('&lt;/details&gt;&lt;h1&gt;pwned&lt;/h1&gt;')
  })

  test('the snapshot diff is one diff block, its backticks inside it, the rest of the report after it', () => {
    const diffs = [...html.matchAll(/<pre><code class="language-diff">([\s\S]*?)<\/code><\/pre>/g)].map((m) => m[1])
    expect(diffs).toHaveLength(1)
    expect(diffs[0]).toContain('-    &quot;body&quot;: &quot;Install with ```npm i``` and &lt;b&gt;go&lt;/b&gt;.&quot;,')
    expect(diffs[0]).toContain('+    &quot;body&quot;: &quot;Run ```npx evil``` &lt;script&gt;alert(1)&lt;/script&gt; @octocat&quot;,')
    // A fence the server's backticks had closed early would leave the conformance heading inside code.
    expect(html).toContain('<h2>Protocol conformance — ✓ passed</h2>')
    expect(openBlocks(report)).toEqual({ fence: null, details: 0 })
  })

  test('a table row per test, failing first, the passing ones collapsed; a details block per failing test only', () => {
    const rows = [...report.matchAll(/<tr><td><code>([^<]+)<\/code><\/td><td align="center">(.)<\/td><td align="center">([\d/]+)<\/td>/g)].map((m) => `${m[1]} ${m[2]} ${m[3]}`)
    expect(rows).toEqual(['weather-json ✗ 0/1', 'unknown-city-refused ✗ 0/1', 'intro-page ✗ 0/1', 'search-flaky ✗ 2/3', 'crash ⚠ 0/1', 'fast-enough ✓ 1/1'])
    expect(report.indexOf('<details><summary>1 passing tool test</summary>')).toBeLessThan(report.indexOf('fast-enough'))
    const section = report.slice(report.indexOf('## Tool tests'), report.indexOf('## Protocol conformance'))
    const opened = [...section.matchAll(/^<details><summary>(.) <code>([^<]+)<\/code>/gm)].map((m) => `${m[1]} ${m[2]}`)
    expect(opened).toEqual(['✗ weather-json', '✗ unknown-city-refused', '✗ intro-page', '✗ search-flaky', '⚠ crash'])
  })

  test('a failing check shows expected against actual; pass^3 says which attempt failed; an error shows the stderr', () => {
    expect(report).toContain('- ✗ **json** at `$.temp` — "21" does not equal 21\n  - expected: `21`\n  - actual: `"21"`')
    expect(report).toContain('- ✗ **is\\_error** — expected the call to be refused; the result is not an error\n  - expected: `true`\n  - actual: `false`')
    expect(report).toContain('<details><summary>✗ <code>search-flaky</code>: attempt 2 of 3, step 1 <code>search_docs</code></summary>')
    expect(report).toContain('**Attempts** (pass^3: every one must pass): 1 ✓ · 2 ✗ · 3 ✓')
    expect(report).toMatch(/Server stderr \(last lines\):\n\n(`{4,})\nTraceback[\s\S]*?\n\1\n/)
  })

  test('the section comes right after the failures, before conformance and the behaviour runs', () => {
    const mixed = renderMarkdownReport(mixedShape())
    const at = (text: string) => mixed.indexOf(text)
    expect(at('## Tool tests — ✗ failed')).toBeGreaterThan(-1)
    expect(at('## Tool tests — ✗ failed')).toBeLessThan(at('## Protocol conformance'))
    expect(at('## Protocol conformance')).toBeLessThan(at('## Behaviour evals'))
  })

  test('passing tool tests are a line and a table, with no details blocks and no failing-check column', () => {
    const passing = renderMarkdownReport(toolTestsOnlyPassedShape())
    const section = passing.slice(passing.indexOf('## Tool tests'), passing.indexOf('## Protocol conformance'))
    expect(section).toContain('> 6 of 6 passed · pass^3 on 2 tests · snapshots in `evals/__snapshots__` · gate: every tool test must pass')
    expect(section).not.toContain('<details>')
    expect(section).not.toContain('First failing check')
  })

  test('skipped tool tests say why in a line', () => {
    const skipped = { ...mixedShape(), tool_tests: { ...mixedShape().tool_tests!, status: 'skipped' as const, reason: 'tool_tests is "off"', tests: [], total: 0, passed: 0, failed: 0 } }
    expect(renderMarkdownReport(skipped)).toContain('## Tool tests — skipped\n\n> tool\\_tests is "off"\n')
    expect(comment(skipped)).toContain('**Tool tests skipped:** tool\\_tests is "off"')
  })
})

describe('tool tests in the comment', () => {
  test('the failing tests, each with its first failing check, right after the failing runs', () => {
    const body = comment(toolTestsFailedShape())
    expect(body).toContain('#### Tool tests — ✗ 5 of 6 did not pass')
    expect(body).toContain('- ✗ `search-flaky` (attempt 2 of 3) — contains: the text does not contain "intro"')
    expect(body).toContain('- ⚠ `crash` — the server exited with code 1 before answering tools/call; its last words: &lt;img src\\=x onerror\\=alert\\(1\\)&gt; &lt;/details&gt; @\u200bocto')
    expect(body).not.toContain('fast-enough')
    // The headline already says why the behaviour runs were skipped.
    expect(body).not.toContain('**Behaviour evals skipped:**')
  })

  test('all passing: one collapsed line with the table inside', () => {
    const body = comment(toolTestsOnlyPassedShape())
    expect(body).toContain('<details><summary>Tool tests ✓ 6 of 6 passed · pass^3 on 2 tests · snapshots in evals/__snapshots__</summary>')
    expect(body).not.toContain('#### Tool tests')
    expect(structureProblems(body)).toEqual([])
  })

  test('hostile server text stays text in the comment', () => {
    for (const doc of [toolTestsFailedShape(), unreachableShape()]) {
      const body = comment(doc)
      expect(gfm.render(body)).not.toMatch(/<img|<script|<h1>pwned/)
      expect(prose(body)).not.toContain('@octocat')
      expect(structureProblems(body)).toEqual([])
    }
  })

  test('under a small budget the failing tool tests stay, and what comes after them is left out', () => {
    const doc = mixedShape()
    const full = comment(doc)
    const end = full.indexOf('#### Results')
    expect(end).toBeGreaterThan(full.indexOf('#### Tool tests'))
    // Room for the headline and the tool tests, not for the matrix after them.
    const maxChars = end + 400
    expect(full.length).toBeGreaterThan(maxChars)
    const body = renderComment(doc, { ...CONTEXT, maxChars })
    expect(body.length).toBeLessThanOrEqual(maxChars)
    expect(body).toContain('#### Tool tests — ✗ 2 of 5 did not pass')
    expect(body).toContain('`weather-json`')
    expect(body).toContain('`search-flaky`')
    expect(body).not.toContain('#### Results')
    expect(body).toMatch(/_Left out to fit GitHub's comment limit: matrix, [^_]*\._/)
    expect(body.endsWith(CONTEXT.marker)).toBe(true)
  })
})

describe('tool tests in JUnit', () => {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) })
  type Case = { name: string; failure?: { message: string; '#text'?: string }; error?: { message: string; '#text'?: string }; skipped?: { message: string } }
  type Parsed = { testsuites: { tests: string; failures: string; errors: string; testsuite: { name: string; tests: string; failures: string; errors: string; testcase: Case[] }[] } }
  const parse = (xml: string) => {
    expect(XMLValidator.validate(xml)).toBe(true)
    return parser.parse(xml) as Parsed
  }

  test('one testsuite "tool tests", one testcase per test, the failing checks in the failures, hostile text escaped', () => {
    const xml = renderJUnit(toolTestsFailedShape())
    const { testsuites } = parse(xml)
    const suite = testsuites.testsuite.find((s) => s.name === 'tool tests')!
    expect([suite.tests, suite.failures, suite.errors]).toEqual(['6', '4', '1'])
    expect(suite.testcase.map((c) => c.name)).toEqual(['weather-json', 'unknown-city-refused', 'intro-page', 'search-flaky', 'crash', 'fast-enough'])
    const byName = new Map(suite.testcase.map((c) => [c.name, c]))
    expect(byName.get('weather-json')?.failure?.message).toBe('json $.temp: "21" does not equal 21')
    expect(byName.get('weather-json')?.failure?.['#text']).toContain(`step 1: get_weather {"city":${JSON.stringify(HOSTILE)}}`)
    expect(byName.get('search-flaky')?.failure?.message).toBe('2/3 attempts passed; contains: the text does not contain "intro"')
    expect(byName.get('search-flaky')?.failure?.['#text']).toContain('attempt 2 of 3: failed')
    expect(byName.get('intro-page')?.failure?.['#text']).toContain('+    "body": "Run ```npx evil``` <script>alert(1)</script> @octocat",')
    expect(byName.get('crash')?.error?.['#text']).toContain(`RuntimeError: ${HOSTILE}`)
    expect(byName.get('fast-enough')).toEqual({ name: 'fast-enough', classname: 'tool tests', time: '0.008' })
    expect(xml).not.toContain('<script>')
    expect(Number(testsuites.tests)).toBe(testsuites.testsuite.reduce((n, s) => n + Number(s.tests), 0))
  })

  test('an unreachable server is one error; skipped tool tests are one skipped testcase', () => {
    const { testsuites } = parse(renderJUnit(unreachableShape()))
    expect([testsuites.tests, testsuites.failures, testsuites.errors]).toEqual(['2', '0', '1'])
    const [conformance, toolTests] = testsuites.testsuite
    expect(conformance.name).toBe('conformance (unreachable, stdio)')
    expect(conformance.testcase[0].error?.message).toBe('the server could not be started or reached: spawn python3 ENOENT (the command was not found)')
    expect(conformance.testcase[0].error?.['#text']).toContain('cause: ENOENT')
    expect(toolTests.testcase[0].skipped?.message).toBe('the server could not be started or reached: spawn python3 ENOENT (the command was not found)')
  })
})

describe('an unreachable server is one statement', () => {
  const doc = unreachableShape()
  const report = renderMarkdownReport(doc)

  test('the report: the headline, what the server said, one line for what did not run; no checks, no empty tables', () => {
    expect(report).toContain('## Server unreachable')
    expect(report).toContain('- **Cause:** `ENOENT`')
    expect(report).toMatch(/Server stderr \(last lines\):\n\n`{4,}\n\/bin\/sh: 1: python3: not found\n/)
    expect(report).toContain('_Not run: the tool tests and the behaviour evals; they need a server that answers._')
    expect(report).not.toContain('<table>')
    expect(report).not.toContain('## Tool tests')
    expect(report).not.toContain('## Behaviour evals')
    expect(report.split('spawn python3 ENOENT').length - 1).toBe(2)
  })

  test('the HTTP refusal: its status and body, quoted', () => {
    const refused = { ...doc, conformance: { ...doc.conformance!, transport: 'http' as const, unreachable: { http_status: 401, body: '{"error":"<b>unauthorized</b>"}', cause: null, stderr: null, stdout: null } } }
    const text = renderMarkdownReport(refused)
    expect(text).toContain('- **HTTP status:** `401`')
    expect(text).toMatch(/Response body:\n\n```\n\{"error":"<b>unauthorized<\/b>"\}\n```/)
    expect(gfm.render(text)).not.toContain('<b>unauthorized')
  })

  test('the log lines, the failure reason and the badge say it once', () => {
    expect(formatSummaryLine(doc)).toBe('FAILED: server unreachable — spawn python3 ENOENT (the command was not found); nothing was evaluated')
    expect(failureReason(doc)).toBe('the server could not be started or reached: spawn python3 ENOENT (the command was not found); nothing was evaluated')
    expect(formatConformanceLines(doc.conformance!)[0]).toBe('Conformance: the server could not be started or reached over stdio: spawn python3 ENOENT (the command was not found)')
    expect(renderBadge(doc)).toMatchObject({ message: 'server unreachable', color: 'red' })
  })

  test('without conformance, the behaviour reason says it', () => {
    const bare = { ...doc, conformance: null }
    const text = renderMarkdownReport(bare)
    expect(headline(text)).toMatch(/^✗ Server unreachable — spawn python3 ENOENT/)
    expect(text).toContain('## Server unreachable\n\n> spawn python3 ENOENT \\(the command was not found\\)')
  })
})

describe('tool tests in the log lines and the badge', () => {
  test('the summary line counts the tool tests and the runs', () => {
    expect(formatSummaryLine(toolTestsOnlyPassedShape())).toBe('PASSED: conformance passed · 6/6 tool tests passed · behaviour evals skipped: no API key: only the free layers (conformance and tool tests) ran')
    expect(formatSummaryLine(mixedShape())).toMatch(/^FAILED: conformance passed · 3\/5 tool tests passed \(2 failed\) · 4\/4 runs passed \(100%\), 0 failed, 0 errored · /)
    // Without tool tests the line is as it was.
    expect(formatSummaryLine(passedShape())).toMatch(/^PASSED: conformance passed · 4\/4 passed \(100%\)/)
  })

  test('the failure reason names the failing tool tests', () => {
    expect(failureReason(mixedShape())).toBe('2 of 5 tool tests did not pass (weather-json, search-flaky)')
  })

  test('the badge: the tool tests count when they are the evaluation; a failing one beside the run pass rate', () => {
    expect(renderBadge(toolTestsOnlyPassedShape())).toMatchObject({ message: 'tool tests 6/6', color: 'brightgreen' })
    expect(renderBadge(toolTestsFailedShape())).toMatchObject({ message: 'tool tests 1/6', color: 'red' })
    expect(renderBadge(mixedShape())).toMatchObject({ message: '100% (4/4) · tool tests 3/5', color: 'red' })
    expect(renderBadge(passedShape())).toMatchObject({ message: '100% (4/4)', color: 'brightgreen' })
  })
})

describe('trimming the job summary around server text', () => {
  test('a fence longer than the backticks inside it is closed with itself; a </details> in code is not counted', () => {
    const report = renderMarkdownReport(toolTestsFailedShape())
    const cut = report.indexOf('+    "body"')
    expect(cut).toBeGreaterThan(-1)
    const head = report.slice(0, report.indexOf('\n', cut))
    expect(openBlocks(head)).toEqual({ fence: '````', details: 1 })
    const trimmed = trimToBytes(report, Buffer.byteLength(head, 'utf8') + 1024 + 40, 'cut')
    expect(trimmed.endsWith('\n````\n\n</details>\n\n> cut\n')).toBe(true)
    expect(structureProblems(trimmed)).toEqual([])
  })
})

describe('a cancelled evaluation of tool tests only', () => {
  test('counts the tool tests, gives no verdict', () => {
    const doc = toolTestsOnlyPassedShape()
    const section = doc.tool_tests!
    const tests = section.tests.map((t, i) => (i < 2 ? t : { ...t, status: 'cancelled' as const, passed: false, attempts: [] }))
    const cancelled: ResultsDocument = { ...doc, passed: false, cancelled: { signal: 'SIGINT', at: '2026-11-30T12:00:03.000Z', planned: 0, finished: 0 }, tool_tests: { ...section, tests, passed: 2, cancelled: 4 } }
    expect(headline(renderMarkdownReport(cancelled))).toMatch(/^⊘ Cancelled — 2 passed, 4 cancelled of 6 tool tests; no verdict/)
    expect(comment(cancelled).split('\n')[0]).toBe('### MCP Server Evals — ⊘ cancelled')
    expect(renderBadge(cancelled)).toMatchObject({ message: 'cancelled (2/6 tool tests passed)' })
    const { testsuites } = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(renderJUnit(cancelled)) as { testsuites: { skipped: string } }
    expect(testsuites.skipped).toBe('10')
  })
})
