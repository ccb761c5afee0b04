import type { Catalog } from '../catalog-types.js'
import type { ProbeData } from '../probe-data.js'
import type { CheckResult } from '../types.js'

/** Checks on a protected server's resource-server side (401, RFC 9728 metadata, 403 insufficient_scope). Called for every era: each check says itself when it does not apply. */
export function checkAuth(probe: ProbeData): CheckResult[] {
  void probe
  return []
}

/** These checks' revisions and official-suite mapping. */
export const AUTH_CATALOG: Catalog = {}
