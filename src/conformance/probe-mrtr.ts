import type { ProbeContext } from './probe-context.js'
import type { MrtrProbes } from './probe-mrtr-data.js'

/** The mrtr probe: multi round-trip requests (input_required rounds) on real calls. Undefined when nothing applies. */
export async function probeMrtr(context: ProbeContext): Promise<MrtrProbes | undefined> {
  void context
  return undefined
}
