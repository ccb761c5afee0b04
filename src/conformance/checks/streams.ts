import type { Catalog } from '../catalog-types.js'
import type { ProbeData } from '../probe-data.js'
import type { CheckResult } from '../types.js'

/** Checks on subscriptions/listen, log notifications, what rides on a response stream. Called for every era: each check says itself when it does not apply. */
export function checkStreams(probe: ProbeData): CheckResult[] {
  void probe
  return []
}

/** These checks' revisions and official-suite mapping. */
export const STREAMS_CATALOG: Catalog = {}
