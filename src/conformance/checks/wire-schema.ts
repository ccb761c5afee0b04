import type { Catalog } from '../catalog-types.js'
import type { ProbeData } from '../probe-data.js'
import type { CheckResult } from '../types.js'

/** wire-schema-valid on the probes' exchanges: every message the server sent, against its revision's published JSON Schema. */
export function checkWireSchema(probe: ProbeData): CheckResult[] {
  void probe
  return []
}

export const WIRE_SCHEMA_CATALOG: Catalog = {}
