/** Cut Markdown to a byte budget at a line boundary, saying where and why it was cut. */
export function trimToBytes(markdown: string, maxBytes: number, note: string): string {
  if (Buffer.byteLength(markdown, 'utf8') <= maxBytes) return markdown
  const suffix = `\n\n> ${note}\n`
  // Keep room for the closing fence and </details> tags added below.
  const budget = maxBytes - Buffer.byteLength(suffix, 'utf8') - 1024
  const lines = markdown.split('\n')
  let used = 0
  let keep = 0
  for (; keep < lines.length; keep++) {
    const size = Buffer.byteLength(lines[keep], 'utf8') + 1
    if (used + size > budget) break
    used += size
  }
  let text = lines.slice(0, keep).join('\n')
  // Close open <details> blocks and code fences so the cut does not swallow the note.
  const fences = text.match(/^`{3,}/gm) ?? []
  if (fences.length % 2 === 1) text += `\n${fences[fences.length - 1]}`
  const open = (text.match(/<details>/g) ?? []).length - (text.match(/<\/details>/g) ?? []).length
  text += '\n\n</details>'.repeat(Math.max(0, open))
  return text + suffix
}
