import { describe, expect, test } from '@jest/globals'
import MarkdownIt from 'markdown-it'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { parse as parseYaml } from 'yaml'
import { gated, passedShape, telemetryShape } from '../__fixtures__/report-shapes.js'
import { LiveProgress } from '../src/cli/live-progress.js'
import type { Budgets } from '../src/config/types.js'
import { NO_BUDGETS } from '../src/config/types.js'
import { renderBadge } from '../src/report/badge.js'
import { renderComment } from '../src/report/comment.js'
import { renderJUnit } from '../src/report/junit.js'
import { renderMarkdownReport } from '../src/report/markdown.js'
import { MAX_BARS, mermaidLabel, mermaidNumber, renderBarChart } from '../src/report/mermaid.js'
import { failureReason, formatProgressLine, formatSummaryLine } from '../src/report/progress.js'
import { failureReasons } from '../src/report/reasons.js'
import { renderTelemetry } from '../src/report/telemetry.js'
import { budgetsBrief, budgetsDigest, skipWords } from '../src/report/telemetry-budgets.js'
import { byteSize, cost } from '../src/report/telemetry-figures.js'
import { modelsBrief, modelsTable } from '../src/report/telemetry-models.js'
import { milliseconds } from '../src/util/words.js'
import { openBlocks, trimToBytes } from '../src/report/trim.js'
import type { ResultsDocument, ToolTelemetry } from '../src/results/types.js'
import { summarizeTelemetry } from '../src/telemetry/summarize.js'
import { emptyUsage } from '../src/llm/chat.js'

const CONTEXT = { marker: '<!-- mcp-server-evals:sticky:MCP evals/evals -->', links: { summary: 'https://github.com/octo/server/actions/runs/1' } }
const gfm = new MarkdownIt({ html: true, linkify: true })
const SKIPPED_MODEL = 'anthropic/claude-sonnet-4.5'
const UNPRICED_MODEL = 'mistralai/mistral-small-3.2'

/** The fenced blocks of some Markdown as markdown-it parses them: their info string and content. */
const fences = (markdown: string) =>
  gfm
    .parse(markdown, {})
    .filter((t) => t.type === 'fence')
    .map((t) => ({ info: t.info, content: t.content }))

/** A document with its telemetry recomputed for other budgets, and the gate applied again. */
function withBudgets(doc: ResultsDocument, budgets: Partial<Budgets>): ResultsDocument {
  const config = { ...doc.config!, budgets: { ...NO_BUDGETS, ...budgets } }
  const telemetry = summarizeTelemetry({ runs: doc.runs, tool_tests: doc.tool_tests, wall_s: doc.duration_s, overhead: emptyUsage(), cache: doc.summary.cache, judge_model: config.judge_model, pricing: config.pricing, budgets: config.budgets })
  return gated({ ...doc, config, telemetry }, null)
}

/** A tool as the telemetry holds it, with a p95 latency. */
const toolOf = (name: string, p95: number): ToolTelemetry => ({
  name,
  calls: 3,
  errors: 0,
  faulted: 0,
  latency_ms: { samples: 3, p50: p95 / 2, p95, max: p95 },
  result_bytes: { samples: 3, p50: 100, p95: 200, max: 200 }
})

describe('the Models table', () => {
  test('without a baseline: one row per model, the figures, and no change noise', () => {
    const doc = passedShape()
    const table = modelsTable(doc).join('\n')
    expect(table).toContain(
      '<tr><td><code>openai/</code><br><code>gpt-4o-mini</code></td><td align="right">100%</td><td align="right">0%</td><td align="right">66.7%</td><td align="right">100%</td><td align="right">1.5s</td><td align="right">180</td><td align="right">$0.0010</td></tr>'
    )
    expect(table).not.toMatch(/[▲▼]|<em>new<\/em>|against the baseline/)
    expect(table).toContain('p95 run: nearest-rank over 4 runs')
  })

  test('against a baseline: each cell over its change, a new model marked, a model gone named', () => {
    const doc = telemetryShape()
    const table = modelsTable(doc).join('\n')
    // Pass rate is a share (points); time, tokens and cost are figures (relative change). A change on its own line keeps the columns narrow.
    expect(table).toContain(
      '<tr><td><code>openai/</code><br><code>gpt-4o-mini</code></td><td align="right">100%</td><td align="right">100%</td><td align="right">100%</td><td align="right">100%</td><td align="right">3s<br>▲ +11.1%, worse</td><td align="right">2,560<br>▼ −13.5%, better</td><td align="right">$0.00046<br>▼ −11.6%, better</td></tr>'
    )
    const [provider, name] = SKIPPED_MODEL.split('/')
    expect(table).toContain(`<td><code>${provider}/</code><br><code>${name}</code></td><td align="right">100%</td><td align="right">100%</td><td align="right">100%</td><td align="right">50%<br>▼ −50 pt, worse</td>`)
    expect(table).toContain(`<code>${UNPRICED_MODEL.split('/')[1]}</code> <em>new</em>`)
    expect(table).toContain('_In the baseline, not run now: `google/gemini-2.5-flash`._')
    expect(table).toContain('a second line: the change against the baseline, where it moved')
    // The brief form keeps the change beside its figure, in brackets.
    expect(modelsBrief(doc).join('\n')).toContain('p95 run 3s (▲ +11.1%, worse)')
  })

  test('an unknown cost is "unknown", never $0', () => {
    const doc = telemetryShape()
    const row = modelsTable(doc).find((l) => l.includes(UNPRICED_MODEL.split('/')[1]))!
    expect(row.endsWith('<td align="right">unknown</td></tr>')).toBe(true)
    expect(modelsBrief(doc).join('\n')).toContain(`\`${UNPRICED_MODEL}\` *new*: selection 100% · arguments 83.3% · completion 83.3% · pass rate 83.3% · p95 run 2.9s · 2,600 tokens / run · cost unknown`)
    expect(renderMarkdownReport(doc)).not.toMatch(/\$0\.0000\b/)
  })

  test('in the comment: several models in the table, open when the evaluation failed; a single model in a line', () => {
    expect(renderComment(telemetryShape(), CONTEXT)).toContain('#### Models\n\n<table>')
    const single = renderComment(passedShape(), CONTEXT)
    expect(single).toContain('**Model** `openai/gpt-4o-mini`: selection 100% · arguments 0% · completion 66.7% · pass rate 100% · p95 run 1.5s · 180 tokens / run · $0.0010 / run')
    expect(single).not.toContain('#### Models')
  })
})

describe('unknown costs are said plainly, with the YAML that prices them', () => {
  const report = renderMarkdownReport(telemetryShape())

  test('the models are named and the pricing: entry is valid YAML for them', () => {
    expect(report).toContain(`> **Cost unknown** for \`${UNPRICED_MODEL}\`: the provider reported no cost and \`pricing:\` has no entry, so every total that includes it is unknown (not $0).`)
    const yaml = fences(report).find((f) => f.info === 'yaml')
    expect(yaml).toBeDefined()
    expect(Object.keys((parseYaml(yaml!.content) as { pricing: Record<string, unknown> }).pricing)).toEqual([UNPRICED_MODEL])
  })

  test('the totals that include it are unknown; the known parts are shown', () => {
    expect(report).toContain('<tr><td>Agent</td><td align="right">36,000</td><td align="right">3,030</td><td align="right">39,030</td><td align="right">unknown</td></tr>')
    expect(report).toContain('<tr><td>Judge</td><td align="right">9,300</td><td align="right">900</td><td align="right">10,200</td><td align="right">$0.0019</td></tr>')
    expect(report).toContain('- **Where the costs come from:** of 45 LLM calls, 27 reported by the provider, 6 from `pricing:`, 12 unknown')
    expect(report).toContain('**Tokens:** 39,030 agent + 10,200 judge (cost unknown)')
  })
})

describe('the Layer 3 section', () => {
  const doc = telemetryShape()
  const section = renderTelemetry(doc).join('\n')

  test('names the percentile method and the samples, and says the sums overlap', () => {
    expect(section).toContain("nearest-rank percentiles over each tool's calls that reached the server, behaviour runs and tool tests (5 samples) · under 20 samples the p95 is the slowest call")
    expect(section).toContain('_Sums over runs overlap when runs are concurrent (concurrency 4): they can exceed the wall clock._')
    expect(section).toMatch(/- \*\*Agent loop:\*\* 39s summed over 15 runs — the model 30s \(\d+(\.\d)?%\), the tools 4\.5s/)
  })

  test('per tool: calls, errors, latency and result size, the p95 beside its change', () => {
    expect(section).toContain('<tr><td><code>get_weather</code></td><td align="right">5</td><td align="right">0</td><td align="right">450 ms</td><td align="right">1,240 ms (▲ +37.8%, worse)</td><td align="right">1,240 ms</td><td align="right">58 B</td><td align="right">58 B</td></tr>')
    expect(section).toContain('<td align="right">3.4 KiB</td>')
  })

  test('per model × system prompt, as there are two prompts', () => {
    expect(section).toContain('### Per model and system prompt')
    expect(section).toContain(`<tr><td><code>${SKIPPED_MODEL}</code></td><td>default</td><td align="right">3</td>`)
    // Claude's terse runs never started: no row for them.
    expect(section).not.toContain(`<tr><td><code>${SKIPPED_MODEL}</code></td><td>terse</td>`)
    expect(renderTelemetry(passedShape()).join('\n')).not.toContain('Per model and system prompt')
  })

  test('every budget with its verdict and reason, the trends apart; the failing ones in the heading', () => {
    expect(section.split('\n')[0]).toBe('## Layer 3 — latency, tokens and cost — ✗ 2 of 17 budgets exceeded · 3 runs skipped')
    expect(section).toContain("- ❌ `tools.max_p95_ms` · `get_weather` — tool 'get\\_weather': p95 latency 1,240 ms is over its max\\_p95\\_ms \\(800 ms\\)")
    expect(section).toContain("- ✅ `max_p95_tool_ms` · `search_docs` — tool 'search\\_docs': p95 latency 300 ms is within max\\_p95\\_tool\\_ms \\(1,500 ms\\)")
    expect(section).toMatch(/- ❌ `max_cost_usd` — the evaluation's cost is unknown/)
    expect(section).toContain('Against the baseline:\n\n- ✅ `max_p95_increase` · `convert_currency`')
    expect(section.match(/^- [✅❌] /gm)).toHaveLength(17)
  })

  test('the skipped runs, plainly, with the budget reason', () => {
    expect(section).toMatch(
      /> \*\*3 runs were skipped \(budget\)\*\* and never started: the spend reached max\\_cost\\_usd \\\(\$0\\\.\d{4} of \$0\\\.0300\\\) before they started\. Not run: `weather-paris · anthropic\/claude-sonnet-4\.5 · terse`/
    )
  })

  test('no budget set: says how to set one', () => {
    expect(renderTelemetry(passedShape()).join('\n')).toContain('_No budget is set. `budgets:` in the YAML (or the `max_*` inputs) turns latency, tokens and cost into gates._')
  })

  test('a document without telemetry (a fatal one) has no section', () => {
    expect(renderTelemetry({ ...passedShape(), telemetry: null })).toEqual([])
  })

  test('a failing Layer 3 comes right after the failures; a passing one with the other layers, before the behaviour runs', () => {
    const failing = renderMarkdownReport(doc)
    const order = ['## Did not pass', '## Layer 3', '## Protocol conformance', '## Behaviour evals'].map((t) => failing.indexOf(t))
    expect(order.every((i) => i > -1)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    const passing = renderMarkdownReport(passedShape())
    const later = ['## Protocol conformance', '## Layer 3', '## Behaviour evals'].map((t) => passing.indexOf(t))
    expect([...later].sort((a, b) => a - b)).toEqual(later)
  })
})

describe('Mermaid charts', () => {
  const HOSTILE_TOOL = 'evil"] \n```\n</details>`x` %%{init} #quot; <b>'

  test('a hostile label loses every character that could end its string, its line or the block', () => {
    const label = mermaidLabel(HOSTILE_TOOL)
    expect(label).not.toMatch(/["`\][\n\r<>%#;{}]/)
    expect(label.length).toBeLessThanOrEqual(40)
    expect(mermaidLabel('openai/gpt-4o-mini')).toBe('openai/gpt-4o-mini')
    expect(mermaidLabel('')).toBe('_')
    expect(mermaidLabel('a'.repeat(60))).toBe(`${'a'.repeat(39)}…`)
  })

  test('a hostile tool name in a chart: one mermaid block, its labels quoted, nothing after it opened', () => {
    const doc = telemetryShape()
    const hostile: ResultsDocument = { ...doc, telemetry: { ...doc.telemetry!, tools: [toolOf(HOSTILE_TOOL, 900), toolOf('search', 300)] } }
    const report = renderMarkdownReport(hostile)
    const mermaid = fences(report).filter((f) => f.info === 'mermaid')
    expect(mermaid).toHaveLength(2)
    const chart = mermaid.find((m) => m.content.includes('latency'))!.content
    expect(chart.split('\n').filter(Boolean)).toHaveLength(5)
    expect(chart).toContain('  x-axis ["evil__ ______/details__x_ ___init_ _quo…", "search"]\n')
    expect(openBlocks(report)).toEqual({ fence: null, details: 0 })
    // The table beside it escapes the same name as HTML.
    expect(report).toContain('<td><code>evil&quot;&#93;  &#96;&#96;&#96; &lt;/details&gt;&#96;x&#96; %%{init} #quot; &lt;b&gt;</code></td>')
    // Rendered, the name is text everywhere (the only bold tag is our own Total row's).
    expect(gfm.render(report)).not.toMatch(/<b>(?!Total<\/b>)/)
  })

  test('fewer than two bars: no chart', () => {
    expect(renderBarChart({ title: 't', unit: 'ms', bars: [{ label: 'a', value: 1 }] }).lines).toEqual([])
    expect(renderBarChart({ title: 't', unit: 'ms', bars: [{ label: 'a', value: 1 }, { label: 'b', value: Number.NaN }] }).lines).toEqual([])
    // No model with a known cost: no cost chart; two known of three: two bars.
    expect(renderMarkdownReport(passedShape())).not.toContain('Cost per run (USD)')
    const cost = fences(renderMarkdownReport(telemetryShape())).find((f) => f.content.includes('Cost per run'))!.content
    expect(cost).toContain('x-axis ["anthropic/claude-sonnet-4.5", "openai/gpt-4o-mini"]')
  })

  test('bars capped at the highest values, and the chart says the table has them all', () => {
    const doc = passedShape()
    const tools = Array.from({ length: 20 }, (_, i) => toolOf(`tool_${String(i).padStart(2, '0')}`, (i + 1) * 10))
    const section = renderTelemetry({ ...doc, telemetry: { ...doc.telemetry!, tools } }).join('\n')
    const chart = fences(section).find((f) => f.info === 'mermaid')!.content
    expect(chart).toContain(`bar [${Array.from({ length: MAX_BARS }, (_, i) => (20 - i) * 10).join(', ')}]`)
    expect(chart).not.toContain('tool_04')
    expect(section).toContain('_The chart shows the 15 highest of 20 tools; the table has them all._')
    expect(section.match(/<tr><td><code>tool_/g)).toHaveLength(20)
  })

  test.each([
    [1240, '1240'],
    [0.000456, '0.000456'],
    [1e-7, '0.0000001'],
    [0.01155, '0.01155'],
    [2.2, '2.2'],
    [0, '0'],
    [Number.POSITIVE_INFINITY, '0']
  ])('mermaidNumber(%p) = %p (plain decimal, never an exponent)', (value, text) => {
    expect(mermaidNumber(value)).toBe(text)
  })
})

describe('runs skipped because the spend reached max_cost_usd', () => {
  const doc = telemetryShape()
  const skipped = doc.runs.filter((r) => r.status === 'skipped')

  test('the shape has them: three, the last model · prompt, no trace', () => {
    expect(skipped.map((r) => `${r.case_id} · ${r.model} · ${r.prompt_name}`)).toEqual([
      `weather-paris · ${SKIPPED_MODEL} · terse`,
      `convert · ${SKIPPED_MODEL} · terse`,
      `docs-install · ${SKIPPED_MODEL} · terse`
    ])
    expect(skipped.every((r) => r.trace_id === null)).toBe(true)
  })

  test('JUnit: each is a skipped testcase with the budget reason; the budgets are a testsuite of their own', () => {
    const xml = renderJUnit(doc)
    expect(XMLValidator.validate(xml)).toBe(true)
    expect(xml).toMatch(/<testcase classname="anthropic\/claude-sonnet-4\.5 · terse" name="convert" time="0">\n\s+<skipped message="skipped: budget — the spend reached max_cost_usd \(\$0\.\d{4} of \$0\.0300\) before this run started"\/>/)
    type Suite = { name: string; tests: string; failures: string; skipped: string; testcase: { name: string; failure?: { message: string } }[] }
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as { testsuites: { testsuite: Suite[] } }
    const behaviour = parsed.testsuites.testsuite.find((s) => s.name === 'behaviour')!
    expect(behaviour).toMatchObject({ tests: '18', failures: '1', skipped: '3' })
    const budgets = parsed.testsuites.testsuite.find((s) => s.name === 'budgets')!
    expect(budgets).toMatchObject({ tests: '17', failures: '2' })
    expect(budgets.testcase.filter((c) => c.failure).map((c) => c.name)).toEqual(['max_cost_usd', 'tools.max_p95_ms · get_weather'])
  })

  test('the reasons, the progress line, the summary line and the headline say "skipped: budget"', () => {
    expect(failureReasons(skipped[0])).toEqual([`skipped: budget — ${skipped[0].skipped!.detail}`])
    expect(formatProgressLine(skipped[0], 16, 18)).toBe(`[16/18] - weather-paris · ${SKIPPED_MODEL} · terse — skipped: budget (${skipped[0].skipped!.detail})`)
    expect(formatSummaryLine(doc)).toMatch(/^FAILED: conformance passed · 14\/18 passed \(77\.8%\), 1 failed, 0 errored, 3 skipped \(budget\) · 2 budgets exceeded · /)
    // One model's cost is unknown: the line does not guess what was spent.
    expect(formatSummaryLine(doc)).not.toContain('spent')
    expect(failureReason(doc)).toContain('max_cost_usd: the spend reached')
    expect(renderMarkdownReport(doc)).toContain('> **14/18 passed** — 1 failed, 3 skipped (budget)')
  })

  test('the failures name the groups once, in one line; the matrix marks them', () => {
    const report = renderMarkdownReport(doc)
    // Not measured is not worse: a group the budget skipped is no regression, though it passed in the baseline.
    expect(report).toMatch(/- ⏭ 3 groups skipped: budget — the spend reached max\\_cost\\_usd .* before they started: `weather-paris · anthropic\/claude-sonnet-4\.5 · terse`, /)
    expect(report).not.toContain('▼ regressed')
    expect(report).toContain('<td align="center">⏭ 0/1</td>')
    expect(report).toContain('⏭ skipped: budget (never started)')
  })

  test('their details say so, and every run that started shows its trace', () => {
    const report = renderMarkdownReport(doc)
    expect(report).toContain('##### Skipped: budget\n\nNever started: the spend reached max\\_cost\\_usd')
    const traces = [...report.matchAll(/^Trace `([0-9a-f]{32})`$/gm)].map((m) => m[1])
    expect(traces).toHaveLength(15)
    expect(new Set(traces).size).toBe(15)
  })

  test('the live status line counts them apart from the failures', () => {
    const writes: string[] = []
    const live = new LiveProgress({ write: (t: string) => writes.push(t) }, { isTTY: true, total: 2, now: () => 0, tickMs: 0 })
    live.finished(skipped[0], 'line')
    expect(live.status()).toBe('1/2 done · 0 in flight · 0 failed · 1 skipped (budget) · 0s')
    live.stop()
  })

  test('one run or several: the reason is worded for them', () => {
    expect(skipWords('the spend reached max_cost_usd ($0.50 of $0.50) before this run started.', false)).toBe('the spend reached max_cost_usd ($0.50 of $0.50) before this run started')
    expect(skipWords('the spend reached max_cost_usd ($0.50 of $0.50) before this run started', true)).toBe('the spend reached max_cost_usd ($0.50 of $0.50) before they started')
  })
})

describe('budgets in the comment', () => {
  const doc = telemetryShape()

  test('the digest lists the failed budgets only, with the skipped runs and the pricing hint', () => {
    const digest = budgetsDigest(doc).join('\n')
    expect(digest.split('\n')[0]).toBe('#### Budgets — ✗ 2 of 17 budgets exceeded · 3 runs skipped')
    expect(digest).toContain("- ❌ `tools.max_p95_ms` · `get_weather` — tool 'get\\_weather': p95 latency 1,240 ms is over its max\\_p95\\_ms \\(800 ms\\)")
    expect(digest).not.toContain('✅')
    expect(digest).toContain('**3 runs were skipped (budget)**')
    expect(digest).toContain('"mistralai/mistral-small-3.2": { input_per_mtok: <USD>, output_per_mtok: <USD> }')
  })

  test('the brief: each failed budget in a line', () => {
    expect(budgetsBrief(doc)).toEqual([
      '**Budgets** ✗ 2 of 17 budgets exceeded · 3 runs skipped (the spend reached max_cost_usd; 3 runs never started)',
      '',
      '- ❌ `max_cost_usd`',
      '- ❌ `tools.max_p95_ms` · `get_weather`',
      ''
    ])
  })

  test('every budget held: nothing in the comment', () => {
    const held = withBudgets(passedShape(), { max_p95_tool_ms: 1000 })
    expect(held.telemetry!.budgets).toHaveLength(2)
    expect(budgetsDigest(held)).toEqual([])
    expect(renderComment(held, CONTEXT)).not.toContain('Budgets')
    expect(renderTelemetry(held).join('\n')).toContain('### Budgets — ✓ every one held')
  })

  test('runs that all passed, but a budget failed: the headline says which', () => {
    const over = withBudgets(passedShape(), { tools: { get_weather: { max_p95_ms: 1 } } })
    expect(over.passed).toBe(false)
    expect(renderComment(over, CONTEXT)).toContain('> **✗ Failed** — all 4 runs passed, but the budget tools.max_p95_ms was exceeded ·')
    expect(renderComment(over, CONTEXT)).toContain("#### Budgets — ✗ 1 of 1 budget exceeded\n\n- ❌ `tools.max_p95_ms` · `get_weather` — tool 'get\\_weather': p95 latency 2 ms is over its max\\_p95\\_ms \\(1 ms\\)")
  })

  test('shortened or cut to fit, the comment stays well-formed and keeps its marker', () => {
    const full = renderComment(doc, CONTEXT)
    for (const maxChars of [full.length - 200, full.indexOf('#### Models'), 4000, 2500]) {
      const body = renderComment(doc, { ...CONTEXT, maxChars })
      expect(body.length).toBeLessThanOrEqual(maxChars)
      expect(openBlocks(body)).toEqual({ fence: null, details: 0 })
      expect(body.endsWith(CONTEXT.marker)).toBe(true)
    }
    expect(renderComment(doc, { ...CONTEXT, maxChars: full.indexOf('#### Models') })).toMatch(/Shortened|Left out/)
  })
})

describe('the job summary cut inside a chart', () => {
  test('the mermaid fence is closed before the note', () => {
    const report = renderMarkdownReport(telemetryShape())
    const start = report.indexOf('```mermaid')
    const head = report.slice(0, report.indexOf('\n', report.indexOf('x-axis', start)))
    expect(openBlocks(head).fence).toBe('```')
    const trimmed = trimToBytes(report, Buffer.byteLength(head, 'utf8') + 1024 + 40, 'cut')
    expect(trimmed.endsWith('\n```\n\n> cut\n')).toBe(true)
    expect(openBlocks(trimmed)).toEqual({ fence: null, details: 0 })
  })
})

describe('figures as cells show them', () => {
  test.each([
    [null, '—'],
    [0, '0 ms'],
    [1240.4, '1,240 ms']
  ])('milliseconds(%p) = %p', (ms, text) => expect(milliseconds(ms)).toBe(text))

  test.each([
    [null, 'unknown'],
    [0, '$0.0000'],
    [0.0123, '$0.0123'],
    [0.001, '$0.0010'],
    [0.000456, '$0.00046'],
    [1e-7, '$0.00000010']
  ])('cost(%p) = %p', (usd, text) => expect(cost(usd)).toBe(text))

  test.each([
    [null, '—'],
    [512, '512 B'],
    [3500, '3.4 KiB'],
    [5 * 1024 * 1024, '5.0 MiB']
  ])('byteSize(%p) = %p', (bytes, text) => expect(byteSize(bytes)).toBe(text))
})

describe('the badge says "over budget" for every budget the report and JUnit fail', () => {
  test('a trend budget against the baseline that failed, as surely as an absolute one', () => {
    const doc = passedShape()
    const trend = { budget: 'max_p95_increase' as const, subject: 'search', limit: 0.1, actual: 300, baseline: 200, passed: false, reason: "tool 'search': p95 latency rose from 200 ms to 300 ms (+50%), more than max_p95_increase (+10%)" }
    const failed: ResultsDocument = { ...doc, passed: false, gate: { ...doc.gate!, trends: [trend], reasons: [trend.reason], passed: false } }
    expect(renderJUnit(failed)).toContain('type="budget"')
    expect(renderBadge(failed)).toMatchObject({ message: expect.stringMatching(/ · over budget$/), color: 'red' })
    expect(renderBadge(doc).message).not.toContain('over budget')
  })
})

describe('a known cost below a tenth of a cent never reads as $0', () => {
  test('the glance line and the cache savings use the cost cell format', () => {
    const doc = passedShape()
    const telemetry = doc.telemetry!
    const tiny: ResultsDocument = {
      ...doc,
      telemetry: { ...telemetry, overall: { ...telemetry.overall, cost_usd: { agent: 0.00003, judge: 0.00001, total: 0.00004 }, spent_usd: 0.00001, cache: { hits: 2, saved_tokens: 50, saved_cost_usd: 0.00003 } } }
    }
    const text = renderTelemetry(tiny).join('\n')
    // "$0.0000" on its own: a known cost shown as nothing.
    expect(text).not.toMatch(/\$0\.0000(?!\d)/)
    expect(text).toMatch(/^> .* · \$0\.000040$/m)
    expect(text).toContain('($0.000030)')
  })
})
