import { Section } from './common.js'

/** Tool tests (to be filled in). */
export function ToolTests() {
  return (
    <Section id="tool-tests" title="Tool tests">
      <p>…</p>
    </Section>
  )
}
