import type { Catalog } from '../catalog-types.js'
import type { ProbeData } from '../probe-data.js'
import type { CheckResult } from '../types.js'

/** Checks on the eras a server speaks: dual-era detection, removed methods, the 2025-era lifecycle. Called for every era: each check says itself when it does not apply. */
export function checkEras(probe: ProbeData): CheckResult[] {
  void probe
  return []
}

/** These checks' revisions and official-suite mapping. */
export const ERAS_CATALOG: Catalog = {}
