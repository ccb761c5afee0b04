import { Section } from './common.js'

/** Protocol conformance (to be filled in). */
export function Conformance() {
  return (
    <Section id="conformance" title="Protocol conformance">
      <p>…</p>
    </Section>
  )
}
