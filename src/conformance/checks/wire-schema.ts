import type { Catalog } from '../catalog-types.js'
import type { ProbeData } from '../probe-data.js'
import { LEGACY_VERSION, META, MODERN_VERSION, type CheckResult } from '../types.js'
import type { Exchange } from '../wire.js'
import { SchemaTally, type FrameSource } from '../wire-schema/tally.js'
import type { SchemaRevision } from '../wire-schema/schemas.js'
import { wireSchemaResult } from '../wire-schema/verdict.js'
import { exchangesIn, isObject, skipped, type CheckSpec } from './common.js'

export const WIRE_SCHEMA_VALID: CheckSpec = {
  id: 'wire-schema-valid',
  severity: 'error',
  spec:
    "schema.json of the server's revision (2026-07-28, or 2025-11-25 for a legacy server): every message the server sends validates against the published JSON Schema; " +
    "the rules of resultType, ttlMs/cacheScope and an error's id are named here but scored by result-type-present, list-cache-fields and error-response-id"
}

/** wire-schema-valid on the probes' exchanges: every message the server sent, against its revision's published JSON Schema. */
export function checkWireSchema(probe: ProbeData): CheckResult[] {
  if (probe.era === 'unreachable') return [skipped(WIRE_SCHEMA_VALID, 'the server was not reached: no message to check')]
  const revision: SchemaRevision = probe.era === 'modern' ? MODERN_VERSION : LEGACY_VERSION
  const tally = new SchemaTally(revision)
  // A stdio notification goes with every request in flight (wire.ts): one object, checked once.
  const seen = new Set<unknown>()
  for (const exchange of exchangesIn(probe, new Set<Exchange>())) addExchange(tally, exchange, revisionOf(exchange, revision), seen)
  return [wireSchemaResult(WIRE_SCHEMA_VALID, [tally.summary()], 'probe')]
}

/** Every message the server sent in one exchange: its answer and what came with it. */
function addExchange(tally: SchemaTally, exchange: Exchange, revision: SchemaRevision, seen: Set<unknown>): void {
  // An HTTP GET or DELETE carries no JSON-RPC request: its body, if any, answers none.
  if (exchange.request.jsonrpc !== '2.0') return
  const label = labelOf(exchange)
  const { frame, messages } = exchange.response
  if (frame) {
    // An answer that carries another request's id answers that one, not this method.
    const answersThis = frame.id === exchange.request.id || frame.id === null || frame.id === undefined
    tally.add(frame, { label, request: exchange.request, ...(answersThis && typeof exchange.request.method === 'string' ? { requestMethod: exchange.request.method } : {}) }, revision)
  }
  for (const message of messages ?? []) {
    if (seen.has(message)) continue
    seen.add(message)
    const source: FrameSource = typeof message.method === 'string' ? { label: `${message.method} during ${label}` } : { label: `a response during ${label}` }
    tally.add(message, source, revision)
  }
}

/** `tools/call get_weather`, `resources/read file:///a`, `tools/list`. */
export function labelOf(exchange: Pick<Exchange, 'method' | 'request'>): string {
  const params = isObject(exchange.request.params) ? exchange.request.params : {}
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined
  return name ? `${exchange.method} ${name.slice(0, 80)}` : exchange.method
}

/**
 * The revision an exchange speaks: everything a legacy server says is 2025-11-25. On a modern
 * server, a request with the 2026-07-28 version in its envelope is
 * answered by that revision; one without a version (a legacy `initialize` and its session's
 * requests, or the probe that leaves the version out, which a dual-era server rightly answers
 * as 2025-era) by 2025-11-25; one with another version (the unsupported-version probe) by the
 * probe's era.
 */
function revisionOf(exchange: Exchange, era: SchemaRevision): SchemaRevision {
  // A legacy server speaks 2025-11-25 throughout, its answer to our first server/discover included.
  if (era === LEGACY_VERSION || exchange.request.method === 'initialize') return LEGACY_VERSION
  const params = isObject(exchange.request.params) ? exchange.request.params : {}
  const version = isObject(params._meta) ? params._meta[META.protocolVersion] : undefined
  if (version === MODERN_VERSION) return MODERN_VERSION
  // No version at all is how a 2025-era request looks (§11): a dual-era server answers it as one.
  if (version === undefined) return LEGACY_VERSION
  return era
}

export const WIRE_SCHEMA_CATALOG: Catalog = {
  'wire-schema-valid': {
    revision: 'both',
    official: {
      scenarios: ['wire-schema-valid'],
      scoring: 'differs',
      note:
        'Same schema files (schema/<revision>/schema.json) and the same choice of definition (by method, by the request a response answers, by error code, InputRequiredResult for input_required). ' +
        'It checks HTTP only, and fails a missing resultType/ttlMs/cacheScope or a null error id here; we also check stdio, the tool tests and the runs, and leave those four rules to result-type-present, list-cache-fields and error-response-id. ' +
        'Its wire-schema-harness-error (the suite\'s own messages) has no counterpart: our requests are not the server\'s.'
    }
  }
}
