import { Section } from './common.js'

/** Overview (to be filled in). */
export function Overview() {
  return (
    <Section id="overview" title="Overview">
      <p>…</p>
    </Section>
  )
}
