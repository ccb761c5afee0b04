import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'

/**
 * A `<details>` whose body is built only once it is opened: a document of a thousand renders or
 * tests puts a thousand folds on the page, and the closed ones cost only their summary (no
 * screenshot decoded, no JSON pretty-printed) until a reader opens one. Open from the start when
 * `open` (a failure; the check or render the address names).
 */
export function Fold({ id, class: className, open, summary, children }: { id: string; class: string; open: boolean; summary: ComponentChildren; children: () => ComponentChildren }) {
  const [built, setBuilt] = useState(open)
  useEffect(() => {
    if (open) setBuilt(true)
  }, [open])
  return (
    <details id={id} class={className} open={open} onToggle={(e) => (e.currentTarget as HTMLDetailsElement).open && setBuilt(true)}>
      <summary>{summary}</summary>
      {(built || open) && <div class="fold-body">{children()}</div>}
    </details>
  )
}
