/**
 * Escaping for text that comes from a server or a model before it goes into GitHub Markdown.
 * Whatever the text holds, it renders as the same characters: no raw HTML, no images or links,
 * no `@` mentions or `#123` references, no way out of a code span, code block or <details>.
 */

const ZWSP = '\u200b'
/** Bidi overrides and other invisible controls that can make a report lie about its content. */
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g

/** Break GitHub's auto-linking of mentions, issue references and bare URLs. */
function defuse(text: string): string {
  return text
    .replace(/@(?=[A-Za-z0-9])/g, `@${ZWSP}`)
    .replace(/#(?=\d)/g, `#${ZWSP}`)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/\bwww\./gi, (m) => `${m.slice(0, 3)}${ZWSP}.`)
}

function clean(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(INVISIBLE, '')
}

/** For text placed inside HTML (table cells, <summary>): entities, no Markdown is parsed there. */
export function escapeHtml(text: string): string {
  return defuse(clean(text))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/`/g, '&#96;')
    .replace(/\n/g, ' ')
}

/** For Markdown text (paragraphs, blockquotes): every syntax character is backslash-escaped. */
export function escapeMarkdown(text: string): string {
  return defuse(clean(text))
    .replace(/[\\`*_{}[\]()#+\-.!|~=]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
}

/** A blockquote whose every line is quoted (eval-action quoted only the first). */
export function blockquote(text: string): string {
  const lines = escapeMarkdown(text).split('\n')
  return lines.map((line) => (line.trim() === '' ? '>' : `> ${line}`)).join('\n')
}

/** An inline code span that no backtick in the text can close early. */
export function codeSpan(text: string): string {
  const flat = clean(text).replace(/\n/g, ' ')
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length))
  const ticks = '`'.repeat(longest + 1)
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat === '' ? ' ' : ''
  return `${ticks}${pad}${flat}${pad}${ticks}`
}

/** A fenced code block whose fence is longer than any backtick run inside it. */
export function codeBlock(text: string, language = ''): string {
  const body = clean(text)
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return `${fence}${language}\n${body}\n${fence}`
}

/** Cut long text with a visible marker. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text
  return `${text.slice(0, max)}\n… (truncated: ${text.length - max} more characters)`
}
