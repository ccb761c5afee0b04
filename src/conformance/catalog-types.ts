import type { CheckRevision, OfficialMapping } from '../results/conformance.js'

/** A check's place among the revisions and against the official suite: what the report and the docs' mapping table say of it. */
export interface CatalogEntry {
  revision: CheckRevision
  official: OfficialMapping
}

/** By check id. Each check module exports the entries of its own checks; src/conformance/catalog.ts joins them. */
export type Catalog = Record<string, CatalogEntry>
