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
