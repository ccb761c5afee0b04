import { Section } from './common.js'

/** MCP Apps (to be filled in). */
export function Apps() {
  return (
    <Section id="apps" title="MCP Apps">
      <p>…</p>
    </Section>
  )
}
