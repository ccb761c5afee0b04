import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { SKIPPED_MARK } from './marks.js'

/**
 * A status as a mark and a word, both in the text (colour is never the only signal); skipped is » (marks.ts).
 */
export type Tone = 'pass' | 'fail' | 'warn' | 'skip' | 'neutral'

const MARKS: Record<Tone, string> = { pass: '✓', fail: '✗', warn: '⚠', skip: SKIPPED_MARK, neutral: '•' }

function toneOf(status: string): Tone {
  if (['passed', 'pass', 'ok', 'success', 'resisted', 'recovered'].includes(status)) return 'pass'
  if (['failed', 'fail', 'stale'].includes(status)) return 'fail'
  // An error is marked ⚠ as in eval-report.md: it did not pass, and it is not the server's answer failing a check.
  if (['warn', 'warning', 'expected', 'error', 'errored'].includes(status)) return 'warn'
  if (['skipped', 'skip', 'not-run', 'cancelled'].includes(status)) return 'skip'
  return 'neutral'
}

/** "✓ passed", with the tone's class: the mark and the word say it, the colour repeats it. */
export function Status({ status, label }: { status: string; label?: string }) {
  const tone = toneOf(status)
  return (
    <span class={`status status-${tone}`}>
      <span aria-hidden="true">{MARKS[tone]} </span>
      {label ?? status}
    </span>
  )
}

/** A section of the page: a landmark with its heading, reachable at `#id`. */
export function Section({ id, title, children }: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} class="section">
      <h2 id={`${id}-heading`} tabIndex={-1}>
        {title}
      </h2>
      {children}
    </section>
  )
}

/** How much of a long text is shown before "show all". */
const SHOWN_CHARS = 2000

/**
 * Text that may be long (a tool result, a prompt): shown up to `max` characters, the cut marked
 * ("… 12,345 more characters") with a button that shows the rest. Always inserted as text.
 */
export function LongText({ text, max = SHOWN_CHARS, label }: { text: string; max?: number; label?: string }) {
  const [all, setAll] = useState(false)
  const cut = !all && text.length > max
  return (
    <div class="long-text">
      <pre aria-label={label}>
        {cut ? text.slice(0, max) : text}
        {cut && <span class="cut-mark">{`\n… ${(text.length - max).toLocaleString('en-US')} more characters`}</span>}
      </pre>
      {text.length > max && (
        <button type="button" class="link-button" onClick={() => setAll(!all)} aria-expanded={all}>
          {all ? 'Show less' : `Show all ${text.length.toLocaleString('en-US')} characters`}
        </button>
      )}
    </div>
  )
}

/** A JSON value, pretty-printed, as LongText. */
export function JsonText({ value, max, label }: { value: unknown; max?: number; label?: string }) {
  return <LongText text={JSON.stringify(value, null, 2) ?? 'undefined'} max={max} label={label} />
}

export const ms = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : v >= 1000 ? `${(v / 1000).toFixed(v >= 10_000 ? 1 : 2)} s` : `${Math.round(v)} ms`)
export const seconds = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : `${v.toFixed(v >= 10 ? 1 : 2)} s`)
export const usd = (v: number | null | undefined): string => (v === null || v === undefined ? 'unknown' : v === 0 ? '$0' : v < 0.01 ? `$${v.toPrecision(2)}` : `$${v.toFixed(2)}`)
export const percent = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : `${Math.round(v * 100)}%`)
/** "3 runs", "1 run". */
export const count = (n: number, noun: string): string => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`

/** The anchor of a run: `run-17` (its index in the document). */
export const runAnchor = (run: { index: number }): string => `run-${run.index}`
/** The anchor of a conformance check: `check-unknown-tool-error`. */
export const checkAnchor = (id: string): string => `check-${id}`
