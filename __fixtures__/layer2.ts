import { noResilience } from '../src/config/resilience.js'
import type { InjectSpec, ResilienceSpec } from '../src/config/types.js'

/** A case's Layer 2 keys: none, except those given. */
export const resilienceSpec = (partial: Partial<ResilienceSpec> = {}): ResilienceSpec => ({ ...noResilience(), ...partial })

/** One attack planted in get_calendar_event's output (appended), except what is given. */
export const injectSpec = (payload: InjectSpec['payload'], partial: Partial<InjectSpec> = {}): InjectSpec => ({
  tool: 'get_calendar_event',
  payload,
  position: 'append',
  attack: 'tool_output',
  ...partial
})
