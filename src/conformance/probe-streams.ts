import type { ProbeContext } from './probe-context.js'
import type { StreamsProbes } from './probe-streams-data.js'

/** The streams probe: subscriptions/listen, log notifications, what rides on a response stream. Undefined when nothing applies. */
export async function probeStreams(context: ProbeContext): Promise<StreamsProbes | undefined> {
  void context
  return undefined
}
