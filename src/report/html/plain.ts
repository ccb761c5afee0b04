/**
 * The report's Markdown phrases (a headline built with escapeMarkdown and `**`) as the plain text
 * they show: the HTML report inserts text, never markup, so it needs the characters back.
 */
export function markdownPhraseToText(markdown: string): string {
  return markdown
    .replace(/^>\s?/, '')
    .replace(/\*\*/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|~=])/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
}
