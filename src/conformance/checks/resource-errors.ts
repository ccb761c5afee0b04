import type { Catalog } from '../catalog-types.js'
import type { ProbeData } from '../probe-data.js'
import type { CheckResult } from '../types.js'
import { describeResponse, failed, isObject, passed, skipped, type CheckSpec } from './common.js'

/**
 * The data of a resource-not-found error. Apart from missing-resource-error (the code, a MUST):
 * `data.uri` is what the spec's example and the official suite's sep-2164-data-uri ask for, a
 * SHOULD, so it only warns, and says nothing when the server answered no error at all (that is
 * missing-resource-error's finding).
 */
export const RESOURCE_NOT_FOUND_DATA_URI: CheckSpec = {
  id: 'resource-not-found-data-uri',
  severity: 'warning',
  spec: 'server/resources "Error Handling" (2025-11-25, 2026-07-28): the resource-not-found error carries data.uri, the URI requested (SHOULD, as in the spec’s example)'
}

export function checkResourceErrors(probe: ProbeData): CheckResult[] {
  const exchange = probe.missingResource
  if (!exchange) return [skipped(RESOURCE_NOT_FOUND_DATA_URI, 'the server advertises no resources')]
  const error = exchange.response.frame?.error
  if (!error) return [skipped(RESOURCE_NOT_FOUND_DATA_URI, `reading a missing resource got ${describeResponse(exchange)}, no error (see missing-resource-error)`)]
  const params = exchange.request.params
  const requested = isObject(params) ? params.uri : undefined
  const data = error.data
  const uri = isObject(data) ? data.uri : undefined
  if (uri === requested) return [passed(RESOURCE_NOT_FOUND_DATA_URI, `error ${error.code} carries data.uri ${JSON.stringify(uri)}`, exchange)]
  const got = data === undefined ? 'no data' : uri === undefined ? `data without uri (${JSON.stringify(data).slice(0, 120)})` : `data.uri ${JSON.stringify(uri)}`
  return [failed(RESOURCE_NOT_FOUND_DATA_URI, `reading ${JSON.stringify(requested)} got error ${error.code} with ${got}; expected data.uri ${JSON.stringify(requested)}, so a client can tell which resource is missing`, exchange)]
}

/** These checks' revisions and official-suite mapping. */
export const RESOURCE_ERRORS_CATALOG: Catalog = {
  [RESOURCE_NOT_FOUND_DATA_URI.id]: {
    revision: 'both',
    official: {
      scenarios: ['sep-2164-resource-not-found:sep-2164-data-uri'],
      scoring: 'scored',
      note: 'a WARNING there as here; the official suite FAILs a result with no error under the same id, which here is missing-resource-error’s finding'
    }
  }
}
