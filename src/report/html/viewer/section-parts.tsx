import type { ComponentChildren } from 'preact'

/** Small pieces the layer sections share: a list of facts, a labelled block of evidence. */

/** Facts as a description list: each label once, its value beside it; a null value leaves its row out. */
export function Facts({ items }: { items: [label: string, value: ComponentChildren | null | undefined][] }) {
  const shown = items.filter(([, value]) => value !== null && value !== undefined && value !== '')
  if (shown.length === 0) return null
  return (
    <dl class="facts">
      {shown.map(([label, value]) => (
        <div key={label} class="fact">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** A labelled piece of evidence (a request, a response, stderr): the label, then its content. */
export function Evidence({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="evidence">
      <p class="evidence-label">{label}</p>
      {children}
    </div>
  )
}

/** A JSON value in one line, cut at `max` characters (the caller shows the whole elsewhere when it matters). */
export function oneLine(value: unknown, max = 300): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** A JSON value pretty-printed as text. */
export function pretty(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value)
  } catch {
    return String(value)
  }
}

/** Text cut at `max` characters with an ellipsis. */
export const shorten = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
