import { Section } from './common.js'

/** Telemetry (to be filled in). */
export function Telemetry() {
  return (
    <Section id="telemetry" title="Telemetry">
      <p>…</p>
    </Section>
  )
}
