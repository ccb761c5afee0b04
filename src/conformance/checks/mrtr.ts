import type { Catalog } from '../catalog-types.js'
import type { ProbeData } from '../probe-data.js'
import type { CheckResult } from '../types.js'

/** Checks on multi round-trip requests (input_required rounds) on real calls. Called for every era: each check says itself when it does not apply. */
export function checkMrtr(probe: ProbeData): CheckResult[] {
  void probe
  return []
}

/** These checks' revisions and official-suite mapping. */
export const MRTR_CATALOG: Catalog = {}
