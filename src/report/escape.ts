/**
 * Escaping for text that comes from a server or a model before it goes into GitHub Markdown.
 * Whatever the text holds, it renders as the same characters: no raw HTML, no images or links,
 * no `@` mentions or `#123` references, no way out of a code span, code block or <details>.
 * Inside code (codeSpan, codeBlock, codeHtml) the text stays as it is, character for character:
 * GitHub links no mention, reference or URL there, so nothing needs breaking; only the characters
 * nobody sees are shown, as ⟨U+XXXX⟩.
 */

import { codePoint } from '../util/text.js'

const ZWSP = '\u200b'
/** Bidi overrides and other invisible controls that can make a report lie about its content. */
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g
/**
 * What code shows rather than hides: controls, bidi marks and overrides, zero-width and other
 * format characters, tag characters. Not ZWNJ and ZWJ, which join letters and emoji.
 */
const UNSEEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/gu

/**
 * Break GitHub's mentions and issue references: it finds them in the rendered text, so only a
 * character in between (a zero-width space) stops them. Not in code, where it finds none.
 */
function defuse(text: string): string {
  return text.replace(/@(?=[A-Za-z0-9])/g, `@${ZWSP}`).replace(/#(?=\d)/g, `#${ZWSP}`)
}

/**
 * Break the autolinking of bare URLs and www. addresses without changing the text: GFM finds
 * them in the source, where `&#58;` is no colon, while the reader (and a copy) gets the colon
 * back. Applied to entity-escaped text.
 */
function unlink(escaped: string): string {
  return escaped.replace(/:\/\//g, '&#58;//').replace(/\b(www)\./gi, '$1&#46;')
}

function clean(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(INVISIBLE, '')
}

/** Code's text with the characters nobody sees made visible: `a⟨U+200B⟩b`. */
function shown(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(UNSEEN, (c) => `⟨${codePoint(c)}⟩`)
}

const entities = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/`/g, '&#96;')

/** For text placed inside HTML (table cells, <summary>): entities, no Markdown is parsed there. */
export function escapeHtml(text: string): string {
  return unlink(entities(defuse(clean(text)))).replace(/\n/g, ' ')
}

/** Markdown syntax a `<code>` standing in Markdown would still give its meaning; `_` only where it can start or end emphasis. */
const MARKDOWN_IN_CODE = /[*[\]\\~|]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g

/**
 * `<code>` for HTML (a table cell, a <summary>) and for Markdown (a list item): the text as it
 * is, the unseen characters shown. Entities for what HTML or Markdown would read (a reader, and a
 * copy, get the characters back); a newline, which could end an HTML block, is a space, as a
 * browser shows code anyway. GFM would still link a bare address inside a `<code>` in Markdown:
 * URLs are unlinked as in prose, and an email address is split by an empty comment, since GFM
 * finds those in the parsed text, where an entity is a character again.
 */
export function codeHtml(text: string): string {
  const body = unlink(entities(shown(text)))
    .replace(MARKDOWN_IN_CODE, (c) => `&#${c.codePointAt(0)};`)
    .replace(/@(?=[A-Za-z0-9])/g, '@<!-- -->')
    .replace(/\n/g, ' ')
  return `<code>${body}</code>`
}

/** For Markdown text (paragraphs, blockquotes): every syntax character is backslash-escaped. */
export function escapeMarkdown(text: string): string {
  return unlink(
    defuse(clean(text))
      .replace(/[\\`*_{}[\]()#+\-.!|~=]/g, (c) => `\\${c}`)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
  )
}

/** A blockquote whose every line is quoted (eval-action quoted only the first). */
export function blockquote(text: string): string {
  const lines = escapeMarkdown(text).split('\n')
  return lines.map((line) => (line.trim() === '' ? '>' : `> ${line}`)).join('\n')
}

/** An inline code span that no backtick in the text can close early. */
export function codeSpan(text: string): string {
  const flat = shown(text).replace(/\n/g, ' ')
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length))
  const ticks = '`'.repeat(longest + 1)
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat === '' ? ' ' : ''
  return `${ticks}${pad}${flat}${pad}${ticks}`
}

/** A fenced code block whose fence is longer than any backtick run inside it. */
export function codeBlock(text: string, language = ''): string {
  const body = shown(text)
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return `${fence}${language}\n${body}\n${fence}`
}

/** Cut long text with a visible marker. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text
  return `${text.slice(0, max)}\n… (truncated: ${text.length - max} more characters)`
}
