import type { ComponentChildren } from 'preact'

/** A heading at a level the caller knows (a call is an h4 in a run, an h5 inside a turn), so the outline stays in order. */
export function Heading({ level, id, children, class: cls }: { level: 3 | 4 | 5 | 6; id?: string; children: ComponentChildren; class?: string }) {
  const Tag = `h${level}` as 'h3'
  return (
    <Tag id={id} tabIndex={id ? -1 : undefined} class={cls}>
      {children}
    </Tag>
  )
}
