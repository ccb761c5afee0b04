import type { ProbeContext } from './probe-context.js'
import type { ErasProbes } from './probe-eras-data.js'

/** The eras probe: the eras a server speaks: dual-era detection, removed methods, the 2025-era lifecycle. Undefined when nothing applies. */
export async function probeEras(context: ProbeContext): Promise<ErasProbes | undefined> {
  void context
  return undefined
}
