import type { Catalog } from '../catalog-types.js'
import type { ProbeData } from '../probe-data.js'
import type { CheckResult } from '../types.js'

/** Checks on the tasks extension, when the server declares it. Called for every era: each check says itself when it does not apply. */
export function checkTasks(probe: ProbeData): CheckResult[] {
  void probe
  return []
}

/** These checks' revisions and official-suite mapping. */
export const TASKS_CATALOG: Catalog = {}
