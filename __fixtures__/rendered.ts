import MarkdownIt from 'markdown-it'

/** A CommonMark + GFM renderer with raw HTML on, as GitHub reads a comment before sanitising it. */
export const gfm = new MarkdownIt({ html: true, linkify: true })

/** What a reader sees: the HTML GitHub would render, tags removed, entities decoded, zero-width spaces dropped, whitespace folded. */
export const seen = (markdown: string): string =>
  gfm
    .render(markdown)
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, '`')
    .replace(/&amp;/g, '&')
    .replace(/\u200b/g, '')
    .replace(/\s+/g, ' ')
