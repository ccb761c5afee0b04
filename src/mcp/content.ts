/** Flatten MCP content blocks into the text a model is shown as a tool result. */
export function contentToText(content: unknown, structuredContent?: unknown): string {
  const blocks = Array.isArray(content) ? content : []
  const parts = blocks.map(blockToText).filter((t) => t !== '')
  if (parts.length === 0 && structuredContent !== undefined) return JSON.stringify(structuredContent)
  return parts.join('\n')
}

function blockToText(block: unknown): string {
  if (typeof block !== 'object' || block === null) return ''
  const b = block as Record<string, unknown>
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string' ? b.text : ''
    case 'image':
    case 'audio':
      return `[${b.type}: ${String(b.mimeType ?? 'unknown type')}]`
    case 'resource_link':
      return `[resource link: ${String(b.uri ?? '')}]`
    case 'resource': {
      const r = (b.resource ?? {}) as Record<string, unknown>
      if (typeof r.text === 'string') return r.text
      return `[resource: ${String(r.uri ?? '')}${r.mimeType ? ` (${String(r.mimeType)})` : ''}]`
    }
    default:
      return typeof b.text === 'string' ? b.text : JSON.stringify(b)
  }
}

/** An image or audio block of a tool result, as the server sent it (base64 `data`, its `mimeType`). */
export interface McpMedia {
  type: 'image' | 'audio'
  /** As contentToText writes it in the block's placeholder: the server's mimeType, or `unknown type`. */
  mime_type: string
  /** Base64, as sent; '' when the block had none. */
  data: string
}

/** The image and audio blocks of a tool result's content, in order. */
export function mediaOf(content: unknown): McpMedia[] {
  const blocks = Array.isArray(content) ? content : []
  const media: McpMedia[] = []
  for (const block of blocks) {
    if (typeof block !== 'object' || block === null) continue
    const b = block as Record<string, unknown>
    if (b.type !== 'image' && b.type !== 'audio') continue
    media.push({ type: b.type, mime_type: String(b.mimeType ?? 'unknown type'), data: typeof b.data === 'string' ? b.data : '' })
  }
  return media
}
