import { useReport } from './context.js'

/**
 * A picture the document names by path (an MCP Apps screenshot, its baseline, the diff), inline
 * from the data: URL the page was given for it; "not in this file" when the report was written
 * without it. The `src` is only ever one of those data: URLs, never text from the document.
 */
export function Picture({ path, alt }: { path: string | null; alt: string }) {
  const { view } = useReport()
  if (path === null) return null
  const src = view.images[path]
  if (!src || !src.startsWith('data:image/png;base64,')) {
    return (
      <p class="picture-missing muted">
        <code>{path}</code>: screenshot not in this file (it is in the artifact, beside the report).
      </p>
    )
  }
  return (
    <figure class="picture">
      <img src={src} alt={alt} />
      <figcaption class="muted">
        <code>{path}</code>
      </figcaption>
    </figure>
  )
}
