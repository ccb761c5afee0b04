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
  // Close an open code fence and open <details> blocks so the cut does not swallow the note.
  const { fence, details } = openBlocks(text)
  if (fence) text += `\n${fence}`
  text += '\n\n</details>'.repeat(details)
  return text + suffix
}

/**
 * What is still open at the end of `markdown`: a code fence, and how many <details> blocks. A
 * fence closes only on a line of at least as many backticks and nothing else, so server text
 * inside a longer fence (a diff with ``` in it) neither opens nor closes anything; <details>
 * count only as the renderers write them, at the start of a line and outside code, so a
 * `</details>` that a server put in a code span or a code block is left alone.
 */
export function openBlocks(markdown: string): { fence: string | null; details: number } {
  let fence: string | null = null
  let details = 0
  for (const line of markdown.split('\n')) {
    if (fence !== null) {
      const end = /^ {0,3}(`{3,})\s*$/.exec(line)
      if (end && end[1].length >= fence.length) fence = null
      continue
    }
    const start = /^ {0,3}(`{3,})(?!.*`)/.exec(line)
    if (start) fence = start[1]
    else if (/^<details>/.test(line)) details++
    else if (/^<\/details>\s*$/.test(line)) details = Math.max(0, details - 1)
  }
  return { fence, details }
}
