import { Section } from './common.js'

/** Resilience and security (to be filled in). */
export function Resilience() {
  return (
    <Section id="resilience" title="Resilience and security">
      <p>…</p>
    </Section>
  )
}
