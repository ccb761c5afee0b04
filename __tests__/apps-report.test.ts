import { afterEach, describe, expect, test } from '@jest/globals'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import MarkdownIt from 'markdown-it'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { VIEW_HOSTILE } from '../__fixtures__/apps-renders.js'
import { appsShape, appsSkippedShape, conversationShape, passedShape } from '../__fixtures__/report-shapes.js'
import { throwingView } from '../__fixtures__/apps-renders.js'
import { copyBaselineScreenshots } from '../src/github/cache.js'
import { appFiles } from '../src/output/app-files.js'
import { withoutScreenshots } from '../src/report/apps.js'
import { renderComment } from '../src/report/comment.js'
import { renderJUnit } from '../src/report/junit.js'
import { renderMarkdownReport } from '../src/report/markdown.js'
import { renderSarif } from '../src/report/sarif.js'
import { formatToolTestLine } from '../src/report/tool-test-line.js'
import type { ResultsDocument } from '../src/results/types.js'

const CONTEXT = { marker: '<!-- mcp-server-evals:sticky:MCP evals/evals -->', links: {} }
const gfm = new MarkdownIt({ html: true, linkify: true })

/** The part of a Markdown text between a heading that starts with `start` and the next heading of its level. */
function section(markdown: string, start: string): string {
  const from = markdown.indexOf(start)
  if (from < 0) return ''
  const level = /^#+/.exec(start)![0]
  const rest = markdown.slice(from + start.length)
  const end = rest.search(new RegExp(`\\n${level} `))
  return start + (end < 0 ? rest : rest.slice(0, end))
}

describe('the report’s MCP Apps section', () => {
  const report = renderMarkdownReport(appsShape())
  const apps = section(report, '## MCP Apps')

  test('the browser, the counts, then every render beside the call that made it, failed first and passing folded', () => {
    expect(apps).toMatch(/^## MCP Apps — ✗ 7 of 11 renders failed\n\n> ran in Chromium 156\\.0\\.8078\\.73 \(`\/usr\/bin\/chromium`, found by the search\) · 11 renders · 7 failed · 2 screenshots changed/)
    const summaries = [...apps.matchAll(/<summary id="app-[^"]+">(.)/g)].map((m) => m[1])
    expect(summaries.join('')).toBe('✗✗✗✗✗✗✗◐◐✓✓')
    expect(apps).toContain('<summary id="app-run-1.call-1">◐ <code>get_weather</code> · run 1 (weather-paris · openai/gpt-4o-mini), call 1 — app-visual-change')
    expect(apps).toContain('<details><summary>2 renders passed</summary>')
  })

  test('the screenshot is a link and an image to apps/<id>.png beside the report; a changed one shows the baseline and the difference', () => {
    expect(apps).toContain('Screenshot: [`apps/tool-test.widget-throws.1.step-1.png`](apps/tool-test.widget-throws.1.step-1.png)')
    expect(apps).toContain('<a href="apps/run-1.call-1.png"><img src="apps/run-1.call-1.png" alt="screenshot of get_weather (run-1.call-1)" width="480"></a>')
    expect(apps).toContain('**Screenshot changed** since the baseline: 4.2% of the pixels differ — baseline [`apps/baseline/run-1.call-1.png`](apps/baseline/run-1.call-1.png) · difference [`apps/diff/run-1.call-1.png`](apps/diff/run-1.call-1.png)')
    // The job summary cannot show the artifact's files: the images go, the links stay.
    const summary = withoutScreenshots(report)
    expect(summary).not.toMatch(/<img src="apps/)
    expect(summary).toContain('Screenshot: [`apps/run-1.call-1.png`](apps/run-1.call-1.png)')
    expect(report.length - summary.length).toBeGreaterThan(0)
  })

  test('findings failed first, evidence folded; actions, assertions, the view’s tool calls, blocked URLs and console errors', () => {
    const from = apps.indexOf('<details open><summary id="app-tool-test.widget-throws.1.step-1">')
    const throws = apps.slice(from, apps.indexOf('<details open><summary id="app-', from + 1))
    expect(throws.indexOf('- ✗ `app-no-errors`')).toBeLessThan(throws.indexOf('- ✓ `app-initializes`'))
    expect(throws).toContain('<details><summary>Evidence: <code>app-no-errors</code> (2 lines)</summary>')
    // The console's lines are the finding's evidence: said once.
    expect(throws).not.toContain('Console errors')
    const fetches = apps.slice(apps.indexOf('<summary id="app-tool-test.widget-fetches.1.step-1">'), apps.indexOf('<summary id="app-tool-test.widget-blank.1.step-1">'))
    expect(fetches).toContain('<details><summary>Console errors (2)</summary>')
    expect(fetches).not.toContain('**Blocked by the CSP**')
    // More URLs than the evidence holds: the list of them.
    const doc = appsShape()
    const tests = doc.tool_tests!.tests.map((x) => (x.id !== 'widget-fetches' ? x : { ...x, attempts: x.attempts.map((a) => ({ ...a, steps: a.steps.map((s) => ({ ...s, app: { ...s.app!, blocked_requests: [...s.app!.blocked_requests, 'https://cdn.example/x.js'] } })) })) }))
    expect(renderMarkdownReport({ ...doc, tool_tests: { ...doc.tool_tests!, tests } })).toContain('**Blocked by the CSP** (2)\n\n```\nhttps://tracker.evil.example/collect?u=%3C%2Fdetails%3E%40octocat\nhttps://cdn.example/x.js\n```')
    expect(apps).toContain('- ✗ fill `#missing` with `Paris` — no element matched \\#missing within 15,000 ms')
    expect(apps).toContain('- ✗ `selector` `.temp` — \\.temp matched 0 elements, not 1\n  - expected: `{"count":1}`\n  - actual: `{"count":0}`')
    expect(apps).toContain('- ✓ `judge` · judge 9/10 — A clear card with the city and the temperature\\.')
    expect(apps).toContain('- ✗ `delete_all` `{}` — refused: the tool is not visible to the app')
    expect(apps).toContain('<details><summary>Evidence: <code>app-csp-respected</code> (1 line)</summary>\n\n```\nhttps://tracker.evil.example/collect?u=%3C%2Fdetails%3E%40octocat\n```')
    expect(apps).toContain('CSP: none declared (the default: no network)')
    expect(apps).toContain('> Not rendered: the resource ui&#58;//show\\_page/view\\.html is text/plain')
  })

  test('the view’s hostile text renders inert: no tag, no link, no mention outside code', () => {
    const html = gfm.render(report)
    expect(html).not.toMatch(/<img src=x/)
    expect(html).not.toMatch(/<a href="https:\/\/evil/)
    expect(html).not.toMatch(/<a href="https:\/\/tracker/)
    const prose = html.replace(/<pre>[\s\S]*?<\/pre>/g, '').replace(/<code>[\s\S]*?<\/code>/g, '')
    expect(prose).not.toMatch(/@octocat/)
    expect(prose).not.toMatch(/(^|[^&])#123/)
    // Every <details> the section opens, it closes.
    const lines = apps.split('\n')
    expect(lines.filter((l) => l.startsWith('<details')).length).toBe(lines.filter((l) => l === '</details>').length)
    expect(report).toContain(VIEW_HOSTILE.slice(0, 10))
  })

  test('beside a run’s tool call, its render; in a tool test’s row and failure, the app verdict', () => {
    expect(report).toContain('App ◐ <a href="#user-content-app-run-1.call-1"><code>run-1.call-1</code></a> — app\\-visual\\-change: 4\\.2% of the pixels differ')
    expect(report).toContain('<tr><td><code>widget-blank</code></td><td align="center">✗ · app ✗</td>')
    expect(report).toContain('<tr><td><code>widget-restyled</code></td><td align="center">✓ · app ◐</td>')
    expect(report).toContain('**App** ✗ app\\-renders: the screenshot is one flat colour')
    const test = appsShape().tool_tests!.tests.find((t) => t.id === 'widget-blank')!
    expect(formatToolTestLine(test, 1, 1)).toBe('✗ tool test widget-blank (12 ms): app-renders: the screenshot is one flat colour (#ffffff) [1/1]')
  })

  test('in a multi-turn run, the render under its call in the turn', () => {
    const doc = conversationShape()
    const [scripted, ...rest] = doc.runs
    const call = scripted.tool_calls[0]
    const render = { ...throwingView('run-1.call-1'), tool: call.name }
    const runs = [{ ...scripted, tool_calls: [{ ...call, app_render: render.id }, ...scripted.tool_calls.slice(1)], app_renders: [render] }, ...rest]
    const report = renderMarkdownReport({ ...doc, runs, apps: appsShape().apps })
    const line = report.split('\n').findIndex((l) => l.startsWith(`- Tool call \`${call.name}\``))
    expect(report.split('\n')[line + 1]).toBe('  - App ✗ <a href="#user-content-app-run-1.call-1"><code>run-1.call-1</code></a> — app\\-no\\-errors: the view threw: Uncaught TypeError: Cannot read properties of undefined \\(reading \'temp\'\\) &lt;img src\\=x onerror\\=alert\\(1\\)&gt; &lt;/details&gt; @\u200boctocat \\#\u200b123 ht…')
  })

  test('skipped for want of a browser: a notice, never a pass', () => {
    const skipped = renderMarkdownReport(appsSkippedShape())
    const part = section(skipped, '## MCP Apps')
    expect(part).toMatch(/^## MCP Apps — ⚠ skipped: nothing was rendered or checked\n\n> ⚠ \*\*Not rendered:\*\* no Chrome or Chromium found/)
    expect(part).toContain('2 renders asked for were not done: no app finding was checked, and none counts as passed.')
    expect(part).not.toMatch(/✓/)
    expect(skipped).toContain('<td align="center">✓ · app ⊘</td>')
  })

  test('a document without apps has no such section', () => {
    expect(renderMarkdownReport(passedShape())).not.toContain('MCP Apps')
    expect(renderComment(passedShape(), CONTEXT)).not.toContain('MCP Apps')
  })
})

describe('the comment: the worst app finding per tool, screenshot changed', () => {
  test('failed > review > warning, each tool once with the call that made its worst render', () => {
    const body = renderComment(appsShape(), CONTEXT)
    const part = section(body, '#### MCP Apps')
    const lines = part.split('\n').filter((l) => l.startsWith('- '))
    expect(lines.map((l) => /^- (.) `([^`]+)`/.exec(l)!.slice(1).join(' '))).toEqual(['✗ show_weather', '✗ show_page', '◐ show_forecast', '◐ get_weather', '✓ convert_currency'])
    expect(lines[0]).toContain('(2 of 3 renders failed) — app\\-no\\-errors: the view threw')
    expect(lines[0]).toContain('· tool test widget\\-throws, step 1')
    expect(lines[2]).toContain('app\\-visual\\-change: 4\\.2% of the pixels differ')
    // The failing tool tests come before, the section right after them.
    expect(body.indexOf('#### Tool tests')).toBeLessThan(body.indexOf('#### MCP Apps'))
  })

  test('a failing tool with a changed screenshot says so', () => {
    const doc = appsShape()
    const tests = doc.tool_tests!.tests.map((t) =>
      t.id === 'widget-throws' ? { ...t, attempts: t.attempts.map((a) => ({ ...a, steps: a.steps.map((s) => ({ ...s, app: { ...s.app!, visual_diff: { baseline: 'apps/baseline/x.png', changed_ratio: 0.5, changed: true, diff: 'apps/diff/x.png' } } })) })) } : t
    )
    const body = renderComment({ ...doc, tool_tests: { ...doc.tool_tests!, tests } }, CONTEXT)
    expect(body).toMatch(/- ✗ `show_weather` \(2 of 3 renders failed\) — .* · screenshot changed \(50%\)\n/)
  })

  test('skipped: a notice early in the comment', () => {
    const body = renderComment(appsSkippedShape(), CONTEXT)
    expect(body).toContain('**⚠ MCP Apps not rendered (skipped, not a pass):** no Chrome or Chromium found')
    expect(body.indexOf('MCP Apps not rendered')).toBeLessThan(body.indexOf('Tool tests ✓'))
  })

  test('under a small limit, the apps part takes its brief form before anything is left out, and the comment stays within it', () => {
    const doc = appsShape()
    const full = renderComment(doc, CONTEXT)
    const body = renderComment(doc, { ...CONTEXT, maxChars: full.length - 200 })
    expect(body.length).toBeLessThanOrEqual(full.length - 200)
    expect(body).toContain("Shortened to fit GitHub's comment limit: mcp apps.")
    expect(body).toMatch(/\*\*MCP Apps ✗ 7 of 11 renders failed\*\* — worst: `show_weather`: app\\-no\\-errors/)
    expect(body.endsWith(CONTEXT.marker)).toBe(true)
  })
})

describe('JUnit and SARIF', () => {
  test('a failed app render fails its testcase with the finding’s message; the body has the evidence; a skipped layer is a skipped testcase', () => {
    const xml = renderJUnit(appsShape())
    expect(XMLValidator.validate(xml)).toBe(true)
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml)
    const suites = [parsed.testsuites.testsuite].flat()
    const cases = [suites.find((s: { '@_name': string }) => s['@_name'] === 'tool tests').testcase].flat()
    const blank = cases.find((c: { '@_name': string }) => c['@_name'] === 'widget-blank')
    expect(blank.failure['@_message']).toBe('app-renders: the screenshot is one flat colour (#ffffff)')
    const throws = cases.find((c: { '@_name': string }) => c['@_name'] === 'widget-throws')
    expect(throws.failure['#text']).toContain('failed app-no-errors: the view threw')
    expect(throws.failure['#text']).toContain('screenshot: apps/tool-test.widget-throws.1.step-1.png')
    expect(cases.find((c: { '@_name': string }) => c['@_name'] === 'weather-widget').failure).toBeUndefined()
    const skipped = new XMLParser({ ignoreAttributes: false }).parse(renderJUnit(appsSkippedShape()))
    const apps = [skipped.testsuites.testsuite].flat().find((s: { '@_name': string }) => s['@_name'] === 'mcp apps')
    expect(apps.testcase.skipped['@_message']).toMatch(/^not rendered: no Chrome or Chromium found/)
    expect(renderJUnit(passedShape())).not.toContain('mcp apps')
  })

  test('SARIF: the findings that failed, warn or ask for review, under mcp-apps/<finding id>, plain text, one fingerprint per render and finding', () => {
    const log = renderSarif(appsShape())
    const results = log.runs[0].results.filter((r) => r.ruleId.startsWith('mcp-apps/'))
    expect(new Set(results.map((r) => r.ruleId))).toEqual(new Set(['mcp-apps/app-no-errors', 'mcp-apps/app-initializes', 'mcp-apps/app-csp-respected', 'mcp-apps/app-csp-declared', 'mcp-apps/app-renders', 'mcp-apps/app-tool-calls', 'mcp-apps/app-visual-change']))
    expect(results.filter((r) => r.ruleId === 'mcp-apps/app-visual-change').map((r) => r.level)).toEqual(['note', 'note'])
    expect(results.find((r) => r.ruleId === 'mcp-apps/app-csp-declared')?.level).toBe('warning')
    const errors = results.find((r) => r.ruleId === 'mcp-apps/app-no-errors')!
    expect(errors.level).toBe('error')
    expect(errors.message.text).not.toMatch(/https:\/\//)
    expect(errors.message.text).toContain('tool test widget-throws, step 1')
    expect(new Set(results.map((r) => r.partialFingerprints['mcpServerEvals/v1'])).size).toBe(results.length)
    expect(renderSarif(passedShape()).runs[0].results.some((r) => r.ruleId.startsWith('mcp-apps/'))).toBe(false)
  })
})

describe('the artifact and the baseline carry the screenshots', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  const temp = () => {
    const dir = mkdtempSync(join(tmpdir(), 'app-files-'))
    dirs.push(dir)
    return dir
  }

  test('the artifact: every screenshot, baseline copy and diff the document names and that is there, each once', () => {
    const out = temp()
    mkdirSync(join(out, 'apps', 'baseline'), { recursive: true })
    mkdirSync(join(out, 'apps', 'diff'), { recursive: true })
    for (const f of ['apps/run-1.call-1.png', 'apps/baseline/run-1.call-1.png', 'apps/diff/run-1.call-1.png', 'apps/tool-test.widget-blank.1.step-1.png', 'apps/stale-from-before.png']) writeFileSync(join(out, f), 'png')
    const doc: ResultsDocument = appsShape()
    expect(appFiles(doc, out).map((f) => f.slice(out.length + 1)).sort()).toEqual(['apps/baseline/run-1.call-1.png', 'apps/diff/run-1.call-1.png', 'apps/run-1.call-1.png', 'apps/tool-test.widget-blank.1.step-1.png'])
    expect(appFiles(passedShape(), out)).toEqual([])
  })

  test('the baseline saved with its screenshots, in place of the earlier baseline’s (not the baseline copies and diffs)', () => {
    const out = temp()
    const baseline = temp()
    mkdirSync(join(out, 'apps', 'diff'), { recursive: true })
    writeFileSync(join(out, 'apps', 'run-1.call-1.png'), 'now')
    writeFileSync(join(out, 'apps', 'diff', 'run-1.call-1.png'), 'diff')
    mkdirSync(join(baseline, 'apps'), { recursive: true })
    writeFileSync(join(baseline, 'apps', 'old.png'), 'old')
    expect(copyBaselineScreenshots(join(out, 'apps'), baseline)).toBe(1)
    expect(readdirSync(join(baseline, 'apps'))).toEqual(['run-1.call-1.png'])
    // Results without screenshots leave no screenshot of an earlier baseline behind.
    expect(copyBaselineScreenshots(join(out, 'nothing'), baseline)).toBe(0)
    expect(existsSync(join(baseline, 'apps'))).toBe(false)
  })
})
