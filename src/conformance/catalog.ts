import type { CheckResult } from '../results/conformance.js'
import { CORE_CATALOG } from './catalog-core.js'
import type { Catalog, CatalogEntry } from './catalog-types.js'
import { AUTH_CATALOG } from './checks/auth.js'
import { ERAS_CATALOG } from './checks/eras.js'
import { MRTR_CATALOG } from './checks/mrtr.js'
import { STREAMS_CATALOG } from './checks/streams.js'
import { TASKS_CATALOG } from './checks/tasks.js'
import { WIRE_SCHEMA_CATALOG } from './checks/wire-schema.js'
import { HEADER_FORMS_CATALOG } from './checks/header-forms.js'
import { RESOURCE_ERRORS_CATALOG } from './checks/resource-errors.js'
import { SCHEMA_DIALECT_CATALOG } from './checks/schema-dialect.js'

export type { Catalog, CatalogEntry } from './catalog-types.js'

/** Each part of the catalog by where it is kept; an id belongs to one part (the catalog test holds them to it). */
export const CATALOG_PARTS: Record<string, Catalog> = {
  core: CORE_CATALOG,
  eras: ERAS_CATALOG,
  mrtr: MRTR_CATALOG,
  streams: STREAMS_CATALOG,
  tasks: TASKS_CATALOG,
  auth: AUTH_CATALOG,
  'wire-schema': WIRE_SCHEMA_CATALOG,
  'header-forms': HEADER_FORMS_CATALOG,
  'resource-errors': RESOURCE_ERRORS_CATALOG,
  'schema-dialect': SCHEMA_DIALECT_CATALOG
}

/** Every check's revision and official-suite mapping, by check id. */
export const CATALOG: Catalog = Object.assign({}, ...Object.values(CATALOG_PARTS)) as Catalog


export function catalogEntry(id: string): CatalogEntry | undefined {
  return Object.hasOwn(CATALOG, id) ? CATALOG[id] : undefined
}

/** Each check with its revision and official mapping from the catalog (what a check set itself stays; an id the catalog lacks is left as it is). */
export function withCatalog(checks: CheckResult[]): CheckResult[] {
  return checks.map((check) => {
    const entry = catalogEntry(check.id)
    if (!entry) return check
    return { ...check, revision: check.revision ?? entry.revision, official: check.official ?? { ...entry.official, scenarios: [...entry.official.scenarios] } }
  })
}
