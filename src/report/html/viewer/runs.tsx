import { Section } from './common.js'

/** Runs (to be filled in). */
export function Runs() {
  return (
    <Section id="runs" title="Runs">
      <p>…</p>
    </Section>
  )
}
