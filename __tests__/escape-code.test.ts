import { describe, expect, test } from '@jest/globals'
import MarkdownIt from 'markdown-it'
import { fixturePath } from '../__fixtures__/harness.js'
import { runConformance } from '../src/conformance/run.js'
import { renderConformance } from '../src/report/conformance.js'
import { codeBlock, codeHtml, codeSpan, escapeHtml, escapeMarkdown } from '../src/report/escape.js'
import type { ConformanceSection } from '../src/results/types.js'

// Inside code the text stays as it is: GitHub links no mention, reference or URL in code, so
// nothing is inserted there (a zero-width space after "https:" made a copied URL a broken one
// and a reader saw "https: //raw…"). Outside code, URLs are kept from linking by an entity
// (GFM finds them in the source, where `&#58;` is not a colon): the reader gets the URL unchanged.

/** CommonMark with raw HTML, no fuzzy linking: GFM links only scheme URLs, www. and emails, which the source checks below cover. */
const md = new MarkdownIt({ html: true })
const decode = (html: string) =>
  html
    .replace(/<!--.*?-->/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&')
/** The text of every <code> element of the rendered Markdown, entities decoded. */
const codeTexts = (markdown: string) => [...md.render(markdown).matchAll(/<code[^>]*>([\s\S]*?)<\/code>/g)].map((m) => decode(m[1]))

const TEXTS = [
  'https://raw.githubusercontent.com/octo/repo/main/README.md',
  'see www.example.com/x or mail audit@exfil.example',
  '@octocat fixed #123 in `main`',
  '<img src=x onerror=alert(1)> </code></details> **bold** | _x_ [l](http://x) ![i](http://x/y.png) & &amp; \\ ~~s~~'
]
/** The GFM autolink triggers, as its parser looks for them in the source: a scheme's "://", "www.", an address around "@". */
const AUTOLINK = /:\/\/|\bwww\.|[A-Za-z0-9._+-]@[A-Za-z0-9-]+\.[A-Za-z]/i

describe('inside code the text is kept, character for character', () => {
  test.each(TEXTS)('a code span, a code block and <code> in a table and in a list item: %s', (text) => {
    expect(codeTexts(`- ${codeSpan(text)}`)).toEqual([text])
    expect(codeTexts(codeBlock(text))).toEqual([`${text}\n`])
    expect(codeTexts(`<table><tr><td>${codeHtml(text)}</td></tr></table>`)).toEqual([text])
    // In a list item the content of <code> is Markdown-parsed: still the same text, and nothing GFM would link.
    expect(codeTexts(`- ${codeHtml(text)}`)).toEqual([text])
    expect(codeHtml(text)).not.toMatch(AUTOLINK)
    for (const code of [codeSpan(text), codeBlock(text), codeHtml(text)]) expect(code).not.toContain('\u200b')
  })

  test('characters nobody sees are shown, never dropped or turned into spaces; joiners stay', () => {
    const text = 'https:\u200b//raw.example/\u202ex\u0007 👩\u200d💻'
    const shown = 'https:⟨U+200B⟩//raw.example/⟨U+202E⟩x⟨U+0007⟩ 👩\u200d💻'
    expect(codeTexts(`- ${codeSpan(text)}`)).toEqual([shown])
    expect(codeTexts(codeBlock(text))).toEqual([`${shown}\n`])
    expect(codeTexts(`<table><tr><td>${codeHtml(text)}</td></tr></table>`)).toEqual([shown])
  })

  test('no way out of <code>: no tag, no blank line to end its HTML block', () => {
    const html = codeHtml('a\n\nb </code><script>x</script>')
    expect(html).toBe('<code>a  b &lt;/code&gt;&lt;script&gt;x&lt;/script&gt;</code>')
  })
})

describe('outside code, a URL reads as it is and is not linked', () => {
  const url = 'https://raw.githubusercontent.com/octo/repo/main/x.json'

  test('prose and HTML text: the reader gets the URL back; the source has no autolink trigger', () => {
    expect(decode(md.render(`- ${escapeMarkdown(`fetches ${url}`)}`))).toContain(`fetches ${url}`)
    expect(decode(md.render(`<table><tr><td>${escapeHtml(`fetches ${url}`)}</td></tr></table>`))).toContain(`fetches ${url}`)
    for (const out of [escapeMarkdown(TEXTS[1]), escapeHtml(TEXTS[1]), escapeMarkdown(url), escapeHtml(url)]) expect(out).not.toMatch(AUTOLINK)
  })

  test('mentions and references are still broken outside code (GitHub finds them in the rendered text)', () => {
    expect(escapeMarkdown('@octocat #123')).toBe('@\u200boctocat \\#\u200b123')
    expect(escapeHtml('@octocat #123')).toBe('@\u200boctocat #\u200b123')
  })

  test('a URL in a tool description, through the probe and the report, reads unchanged', async () => {
    const report = await runConformance({ kind: 'stdio', command: process.execPath, args: [fixturePath('servers/security-server.mjs'), 'POISONED=1'], env: {} })
    const check = report.checks.find((c) => c.id === 'tool-description-poisoning')!
    expect(check.message).toContain('https://exfil-collector.example/c')
    const section = { ...report, fail_on: 'error', passed: false } as unknown as ConformanceSection
    const rendered = decode(md.render(renderConformance(section).join('\n')))
    expect(rendered).toContain('https://exfil-collector.example/c')
    expect(rendered).not.toMatch(/https: \/\/|https:\u200b/)
  })
})
