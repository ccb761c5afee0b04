import { describe, expect, test } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { gfm } from '../__fixtures__/rendered.js'

/**
 * Every golden comment and report, rendered as GitHub renders it (CommonMark + GFM, raw HTML on),
 * read the way a reviewer reads it: nothing about a failed run may look like a pass, and no table
 * may be wider than the page. The goldens are what the renderers write (report-shapes.test.ts,
 * github.test.ts and report.test.ts hold them to it), so this reads the real output.
 */

const GOLDEN = fixturePath('golden')

function goldenFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? goldenFiles(path) : entry.name.endsWith('.md') ? [path] : []
  })
}

const FILES = goldenFiles(GOLDEN).map((path) => ({ name: relative(GOLDEN, path), html: gfm.render(readFileSync(path, 'utf8')) }))

/** What an element says, with each image replaced by its alt text (a badge reads as its alt to a screen reader, and its colour to the eye). */
const textOf = (html: string) =>
  html
    .replace(/<img\b[^>]*\balt="([^"]*)"[^>]*>/g, ' $1 ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim()

/** What marks a pass: the green of a badge (GitHub's or shields.io's), its label, a tick. */
const PASSING_MARKS: [string, RegExp][] = [
  ['the green 2da44e', /2da44e/i],
  ['the colour brightgreen', /brightgreen/i],
  ['a "passing" label', /\bpassing\b/i],
  ['a "passed" badge', /alt="passed"/],
  ['a ✓', /✓/],
  ['a ✅', /✅/]
]

function passingMarks(html: string): string[] {
  return PASSING_MARKS.filter(([, mark]) => mark.test(html)).map(([name]) => name)
}

/** A verdict that is not a pass, at the start of an element: "✗ failed", "⚠ error", "cancelled", "skipped". */
const FAILING_START = /^(?:[✗⚠⊘⏭❌]|(?:failed|error|errored|cancelled|skipped)\b)/i

/** The run anchors whose details say they did not pass: `<summary id="…">` with a failing badge or verdict. */
function failedAnchors(html: string): Set<string> {
  const failed = new Set<string>()
  for (const m of html.matchAll(/<summary id="([^"]+)">([\s\S]*?)<\/summary>/g)) {
    if (FAILING_START.test(textOf(m[2]))) failed.add(m[1])
  }
  return failed
}

/** Each element that speaks of one run or one entry as a whole: table rows, list items (without their nested lists), summaries, headings. */
function elements(html: string): { kind: string; html: string }[] {
  const out: { kind: string; html: string }[] = []
  for (const m of html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)) out.push({ kind: 'row', html: m[1] })
  for (const m of html.matchAll(/<li>([\s\S]*?)(?=<\/li>|<ul>|<ol>|<li>)/g)) out.push({ kind: 'list item', html: m[1] })
  for (const m of html.matchAll(/<summary\b[^>]*>([\s\S]*?)<\/summary>/g)) out.push({ kind: 'summary', html: m[1] })
  return out
}

/** The cells of a row, as HTML. */
const cells = (row: string) => [...row.matchAll(/<t[dh]\b[^>]*>([\s\S]*?)<\/t[dh]>/g)].map((m) => m[1])

/**
 * Why an element about a run that did not pass looks like a pass: the row of a run whose details
 * say it failed (by its link), a row whose first cell is a failing verdict, a list item or summary
 * that opens with one — each must carry no green, no "passing", no tick. A tick in a cell of its
 * own is read with that cell (a matrix row holds several groups, each its own verdict).
 */
function greenOnFailure(html: string): string[] {
  const failed = failedAnchors(html)
  const problems: string[] = []
  for (const { kind, html: element } of elements(html)) {
    const text = textOf(element)
    const linked = [...element.matchAll(/href="#user-content-([^"]+)"/g)].map((m) => m[1])
    const row = kind === 'row' ? cells(element) : []
    const aboutFailedRun = linked.some((a) => failed.has(a)) || (row.length > 0 ? FAILING_START.test(textOf(row[0])) : FAILING_START.test(text))
    if (!aboutFailedRun) {
      // A cell that says a failing verdict carries no green beside it.
      for (const cell of row) if (FAILING_START.test(textOf(cell)) && passingMarks(cell).length) problems.push(`a ${kind}'s cell "${textOf(cell)}" fails and carries ${passingMarks(cell).join(', ')}`)
      continue
    }
    const marks = passingMarks(element)
    if (marks.length > 0) problems.push(`a ${kind} about a run that did not pass carries ${marks.join(', ')}: "${text.slice(0, 160)}"`)
  }
  return problems
}

describe('every golden comment and report, rendered (markdown-it, html: true)', () => {
  test('there are goldens to read, reports and comments, and some of them about failed runs', () => {
    expect(FILES.some((f) => f.name.endsWith('report.md'))).toBe(true)
    expect(FILES.some((f) => f.name.endsWith('comment.md'))).toBe(true)
    expect(FILES.filter((f) => failedAnchors(f.html).size > 0).length).toBeGreaterThan(2)
  })

  test.each(FILES.map((f) => [f.name, f.html]))('%s: nothing about a run that did not pass looks like a pass', (_name, html) => {
    expect(greenOnFailure(html)).toEqual([])
  })
})

/**
 * A table's width as a browser lays it out before wrapping, roughly: GitHub's 14 px text is about
 * 7 px a character, each cell adds 13 px of padding either side; a line longer than 30 characters
 * is prose and wraps, so it counts as 30. `<br>` starts a new line.
 */
const CHAR_PX = 7
const CELL_PADDING_PX = 26
const WRAPS_AT = 30
const PAGE_PX = 1000

function tableWidths(html: string): { width: number; columns: number; head: string }[] {
  return [...html.matchAll(/<table>([\s\S]*?)<\/table>/g)].map((t) => {
    const rows = [...t[1].matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) => cells(r[1]))
    const columns = Math.max(0, ...rows.map((r) => r.length))
    const widths = Array.from({ length: columns }, (_, i) =>
      Math.max(0, ...rows.map((r) => Math.max(0, ...(r[i] ?? '').split(/<br\s*\/?>/).map((line) => Math.min(WRAPS_AT, [...textOf(line)].length)))))
    )
    return { width: widths.reduce((sum, w) => sum + w * CHAR_PX + CELL_PADDING_PX, 0), columns, head: textOf(rows[0]?.join(' | ') ?? '').slice(0, 120) }
  })
}

describe('every golden report and comment fits the page', () => {
  test.each(FILES.map((f) => [f.name, f.html]))('%s: no table wider than about 1,000 px', (_name, html) => {
    const wide = tableWidths(html).filter((t) => t.width > PAGE_PX)
    expect(wide.map((t) => `${t.columns} columns, about ${t.width} px: ${t.head}`)).toEqual([])
  })
})

describe('the check itself', () => {
  const render = (markdown: string) => greenOnFailure(gfm.render(markdown))
  const details = (id: string, verdict: string) => `<details>\n<summary id="${id}">${verdict} <code>c</code></summary>\n\nbody\n</details>\n`

  test("a failed run's row with a green score badge, linked to its details, is found", () => {
    const row = '<table>\n<tr><td><img src="https://img.shields.io/badge/87%25-passing-2da44e" alt="87% passing"></td><td><a href="#user-content-c-m-p">View</a></td></tr>\n</table>\n\n'
    expect(render(row + details('c-m-p', '✗ failed'))).toEqual([expect.stringMatching(/row about a run that did not pass carries the green 2da44e, a "passing" label/)])
    // The same row for a run that passed is fine.
    expect(render(row + details('c-m-p', '✓ passed'))).toEqual([])
  })

  test('a row whose verdict cell fails and whose tools cell ticks is found; plain figures are not', () => {
    expect(render('<table>\n<tr><td>✗ failed</td><td>✓ 1/1</td></tr>\n</table>\n')).toHaveLength(1)
    expect(render('<table>\n<tr><td>✗ failed</td><td>57% (≥ 90%)</td><td>1/1</td></tr>\n</table>\n')).toEqual([])
  })

  test('the width of a table: its longest line in each column, prose wrapped', () => {
    const row = (cellsHtml: string[]) => `<tr>${cellsHtml.map((c) => `<td>${c}</td>`).join('')}</tr>`
    expect(tableWidths(`<table>${row(['abc', 'de'])}${row(['a', 'defg<br>h'])}</table>`)).toEqual([{ width: 3 * 7 + 26 + 4 * 7 + 26, columns: 2, head: 'abc | de' }])
    expect(tableWidths(`<table>${row(['x'.repeat(100)])}</table>`)[0].width).toBe(30 * 7 + 26)
    expect(tableWidths(`<table>${row(Array.from({ length: 12 }, () => 'Output tokens p50 / p95'))}</table>`)[0].width).toBeGreaterThan(PAGE_PX)
  })

  test('a failing list item or summary with a tick is found; a matrix row of mixed groups is not', () => {
    expect(render('- ✗ `weather-paris` — judge 87% passing\n')).toHaveLength(1)
    expect(render(details('x', '<img alt="failed"> ✅'))).toHaveLength(1)
    expect(render('<table>\n<tr><td><code>convert</code></td><td>✗ 0/1 ▼</td><td>✓ 1/1</td></tr>\n</table>\n')).toEqual([])
    expect(render('<table>\n<tr><td><code>convert</code></td><td>✗ 0/1 ✓</td></tr>\n</table>\n')).toHaveLength(1)
  })
})
