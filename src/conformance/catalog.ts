import type { CheckResult } from '../results/conformance.js'
import { CORE_CATALOG } from './catalog-core.js'
import type { Catalog, CatalogEntry } from './catalog-types.js'
import { AUTH_CATALOG } from './checks/auth.js'
import { ERAS_CATALOG } from './checks/eras.js'
import { MRTR_CATALOG } from './checks/mrtr.js'
import { STREAMS_CATALOG } from './checks/streams.js'
import { TASKS_CATALOG } from './checks/tasks.js'
import { WIRE_SCHEMA_CATALOG } from './checks/wire-schema.js'

export type { Catalog, CatalogEntry } from './catalog-types.js'

/** Each part of the catalog by where it is kept; an id belongs to one part (the catalog test holds them to it). */
export const CATALOG_PARTS: Record<string, Catalog> = {
  core: CORE_CATALOG,
  eras: ERAS_CATALOG,
  mrtr: MRTR_CATALOG,
  streams: STREAMS_CATALOG,
  tasks: TASKS_CATALOG,
  auth: AUTH_CATALOG,
  'wire-schema': WIRE_SCHEMA_CATALOG
}

/** Every check's revision and official-suite mapping, by check id. */
export const CATALOG: Catalog = Object.assign({}, ...Object.values(CATALOG_PARTS)) as Catalog

/**
 * The server scenarios of @modelcontextprotocol/conformance 0.2.0-alpha.12 (`conformance list`),
 * and `wire-schema-valid`, the check each of them adds: the names a mapping may give.
 */
export const OFFICIAL_SCENARIOS: readonly string[] = [
  'server-initialize',
  'server-session-lifecycle',
  'server-stateless',
  'logging-set-level',
  'ping',
  'completion-complete',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-with-logging',
  'tools-call-error',
  'tools-call-with-progress',
  'tools-call-sampling',
  'tools-call-elicitation',
  'json-schema-2020-12',
  'elicitation-sep1034-defaults',
  'server-sse-polling',
  'server-sse-multiple-streams',
  'elicitation-sep1330-enums',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'resources-subscribe',
  'resources-unsubscribe',
  'sep-2164-resource-not-found',
  'sep-2640-skills-directory',
  'sep-2640-skills-enumeration',
  'sep-2640-skills-manifest',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'dns-rebinding-protection',
  'caching',
  'http-header-validation',
  'http-custom-header-server-validation',
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-status-notifications',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
  'input-required-result-basic-elicitation',
  'input-required-result-basic-sampling',
  'input-required-result-basic-list-roots',
  'input-required-result-request-state',
  'input-required-result-multiple-input-requests',
  'input-required-result-multi-round',
  'input-required-result-missing-input-response',
  'input-required-result-non-tool-request',
  'input-required-result-result-type',
  'input-required-result-unsupported-methods',
  'input-required-result-tampered-state',
  'input-required-result-capability-check',
  'input-required-result-ignore-extra-params',
  'input-required-result-validate-input',
  'wire-schema-valid'
]

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
