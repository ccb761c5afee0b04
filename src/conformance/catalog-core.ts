import type { Catalog } from './catalog-types.js'

/**
 * The revision and the official-suite mapping of the checks that predate the probe modules (run.ts's
 * MODERN_CHECKS and legacyReport, checks/*.ts, the observed-* checks). Read against
 * @modelcontextprotocol/conformance 0.2.0-alpha.12 with `--requirements 2026-07-28` (scored: its
 * `server` list; unscored: its `not_scored` list, pending or extension). A `scenario:check` id
 * names the official check; a bare scenario name, the scenario as a whole. `wire-schema-valid` is
 * the check every official scenario adds for the messages it saw.
 */
export const CORE_CATALOG: Catalog = {
  'server-reachable': {
    revision: 'both',
    official: { scenarios: ['server-stateless', 'server-initialize'], scoring: 'scored', note: 'no check of its own: every scenario fails when it cannot connect' }
  },
  'legacy-initialize': {
    revision: '2025-11-25',
    official: { scenarios: ['server-initialize:server-initialize'], scoring: 'scored', note: 'scored by --requirements 2025-11-25; the 2026-07-28 set does not run it' }
  },
  'discover-responds': { revision: '2026-07-28', official: { scenarios: ['server-stateless:sep-2575-server-implements-discover'], scoring: 'scored' } },
  'discover-supported-versions': {
    revision: '2026-07-28',
    official: { scenarios: ['server-stateless:sep-2575-server-implements-discover', 'wire-schema-valid'], scoring: 'differs', note: 'it requires a supportedVersions array, not that it lists 2026-07-28' }
  },
  'discover-capabilities': { revision: '2026-07-28', official: { scenarios: ['server-stateless:sep-2575-server-implements-discover'], scoring: 'scored' } },
  'discover-server-info': {
    revision: '2026-07-28',
    official: { scenarios: ['server-stateless:sep-2575-server-identifies-in-result-meta'], scoring: 'scored', note: 'a warning there too' }
  },
  'discover-capabilities-honest': {
    revision: '2026-07-28',
    official: { scenarios: ['server-stateless:sep-2575-discover-capabilities-match-handlers'], scoring: 'scored', note: 'tools only there; prompts-list and resources-list fail on a broken list of their own' }
  },
  'discover-capabilities-complete': {
    revision: '2026-07-28',
    official: {
      scenarios: ['server-stateless:sep-2575-discover-capabilities-match-handlers', 'server-stateless:sep-2575-server-declares-prompts-in-discover'],
      scoring: 'differs',
      note: 'an error there, for tools and prompts only: tools/list without the capability must answer -32601 even when empty; here a warning, for a list with items'
    }
  },
  'tools-list-deterministic-order': {
    revision: '2026-07-28',
    official: { scenarios: ['tools-list:tools-list-deterministic-order'], scoring: 'scored', note: 'a warning there too; three calls on one connection, here two and a fresh connection' }
  },
  'list-cache-fields': {
    revision: '2026-07-28',
    official: {
      scenarios: ['caching', 'wire-schema-valid'],
      scoring: 'differs',
      note: 'caching fails a list a server does not serve (prompts/list answered -32601) and an input_required resources/read (no ttlMs by the schema); here only complete results, server/discover included'
    }
  },
  'list-pagination-cache-scope': { revision: '2026-07-28', official: { scenarios: [], scoring: 'none', note: 'no scenario follows nextCursor' } },
  'result-type-present': {
    revision: '2026-07-28',
    official: { scenarios: ['wire-schema-valid', 'input-required-result-result-type:sep-2322-result-type-included', 'input-required-result-unsupported-methods:sep-2322-not-on-unsupported-requests'], scoring: 'scored' }
  },
  'tool-input-schema-valid': {
    revision: 'both',
    official: { scenarios: ['tools-list:tools-list', 'wire-schema-valid'], scoring: 'differs', note: 'it requires an inputSchema object; it never compiles it nor resolves its $refs' }
  },
  'tool-output-schema-valid': { revision: 'both', official: { scenarios: ['wire-schema-valid'], scoring: 'differs', note: 'the message schema types it an object; the schema itself is never compiled' } },
  'schema-no-remote-ref': {
    revision: '2026-07-28',
    official: { scenarios: [], scoring: 'none', note: 'its client scenario json-schema-ref-no-deref checks that clients do not fetch; no server check' }
  },
  'tool-names-valid': { revision: 'both', official: { scenarios: ['tools-list:tools-name-format'], scoring: 'scored', note: 'the same text (1–128 of A-Z a-z 0-9 _ - .), a warning there too' } },
  'tool-names-unique': { revision: 'both', official: { scenarios: [], scoring: 'none' } },
  'tool-x-mcp-header-valid': {
    revision: '2026-07-28',
    official: { scenarios: [], scoring: 'none', note: 'its client scenario http-invalid-tool-headers checks that clients drop such tools; no server check' }
  },
  'tool-task-support-required': {
    revision: '2026-07-28',
    official: { scenarios: [], scoring: 'none', note: 'tasks-required-task-error (extension, unscored) checks the error for such a call, not the listing' }
  },
  'unknown-tool-error': { revision: '2026-07-28', official: { scenarios: [], scoring: 'none', note: 'no scenario calls a tool that does not exist' } },
  'invalid-arguments-result': {
    revision: 'both',
    official: { scenarios: [], scoring: 'none', note: 'tools-call-error checks isError on its own failing tool, not on arguments that break the schema' }
  },
  'unsupported-version-error': {
    revision: '2026-07-28',
    official: {
      scenarios: ['server-stateless:sep-2575-server-unsupported-version-error', 'server-stateless:sep-2575-http-server-unsupported-version-400'],
      scoring: 'differs',
      note: 'it also requires HTTP 400 and data.supported within discover’s supportedVersions'
    }
  },
  'missing-envelope-error': {
    revision: '2026-07-28',
    official: {
      scenarios: ['server-stateless:sep-2575-request-meta-invalid-missing-client-capabilities', 'server-stateless:sep-2575-request-meta-invalid-missing-meta', 'server-stateless:sep-2575-http-server-meta-invalid-400'],
      scoring: 'scored',
      note: 'sent as server/discover there'
    }
  },
  'missing-version-error': {
    revision: '2026-07-28',
    official: {
      scenarios: ['server-stateless:sep-2575-request-meta-invalid-missing-protocol-version', 'server-stateless:sep-2575-http-server-meta-invalid-400'],
      scoring: 'differs',
      note: 'an error there on every server; a warning here where a dual-era server may serve it as a 2025-era request'
    }
  },
  'missing-resource-error': {
    revision: '2026-07-28',
    official: {
      scenarios: ['sep-2164-resource-not-found:sep-2164-error-code', 'sep-2164-resource-not-found:sep-2164-no-empty-contents'],
      scoring: 'differs',
      note: 'a code other than -32602 only warns there (read as a SHOULD; the spec says MUST); empty contents fail both'
    }
  },
  'retired-error-codes': { revision: '2026-07-28', official: { scenarios: [], scoring: 'none', note: 'sep-2164-error-code names -32002 in its message; nothing looks for retired codes elsewhere' } },
  'error-response-id': {
    revision: 'both',
    official: { scenarios: ['server-stateless:sep-2575-http-server-error-jsonrpc-id'], scoring: 'scored', note: 'it fails when it saw no error response at all' }
  },
  'jsonrpc-one-response': { revision: 'both', official: { scenarios: [], scoring: 'none' } },
  'http-mcp-method-header': {
    revision: '2026-07-28',
    official: { scenarios: ['http-header-validation:sep-2243-server-reject-invalid-headers'], scoring: 'unscored', note: 'pending' }
  },
  'http-mcp-name-header': {
    revision: '2026-07-28',
    official: { scenarios: ['http-header-validation:sep-2243-server-reject-invalid-headers'], scoring: 'unscored', note: 'pending' }
  },
  'http-protocol-version-header': { revision: '2026-07-28', official: { scenarios: ['server-stateless:sep-2575-http-server-header-mismatch-400'], scoring: 'scored' } },
  'http-get-delete-405': { revision: '2026-07-28', official: { scenarios: [], scoring: 'none' } },
  'http-no-session-id': { revision: '2026-07-28', official: { scenarios: [], scoring: 'none' } },
  'http-unknown-method-404': { revision: '2026-07-28', official: { scenarios: ['server-stateless:sep-2575-http-server-method-not-found-404'], scoring: 'scored' } },
  'http-mcp-param-header': {
    revision: '2026-07-28',
    official: {
      scenarios: ['http-custom-header-server-validation:sep-2243-server-validate-param-match', 'http-custom-header-server-validation:sep-2243-server-reject-param-mismatch'],
      scoring: 'unscored',
      note: 'pending'
    }
  },
  'http-dns-rebinding-protection': {
    revision: 'both',
    official: {
      scenarios: ['dns-rebinding-protection:localhost-host-rebinding-rejected'],
      scoring: 'differs',
      note: 'it sends a foreign Host and Origin together and takes any 4xx (a 400 for a missing session passes), so a server that checks Host alone passes; it fails a non-loopback URL, which is skipped here'
    }
  },
  'lint-tool-descriptions': {
    revision: 'both',
    official: { scenarios: ['tools-list:tools-list'], scoring: 'differs', note: 'tools-list fails a tool without a description (optional in the schema); a one-word one passes' }
  },
  'lint-parameter-descriptions': { revision: 'both', official: { scenarios: [], scoring: 'none' } },
  'lint-near-duplicate-names': { revision: 'both', official: { scenarios: [], scoring: 'none' } },
  'lint-schema-size': { revision: 'both', official: { scenarios: [], scoring: 'none' } },
  'tool-description-poisoning': { revision: 'both', official: { scenarios: [], scoring: 'none' } },
  'observed-output-schema': { revision: 'both', official: { scenarios: [], scoring: 'none', note: 'no scenario holds structuredContent to the outputSchema' } },
  'observed-invalid-arguments-result': { revision: 'both', official: { scenarios: [], scoring: 'none' } },
  'observed-unknown-tool-error': { revision: '2026-07-28', official: { scenarios: [], scoring: 'none' } },
  'observed-content-blocks': {
    revision: 'both',
    official: {
      scenarios: ['tools-call-simple-text', 'tools-call-image', 'tools-call-audio', 'tools-call-embedded-resource', 'tools-call-mixed-content', 'wire-schema-valid'],
      scoring: 'scored',
      note: 'on its own test tools’ results there; here on every real call'
    }
  },
  'observed-input-required': {
    revision: '2026-07-28',
    official: {
      scenarios: ['input-required-result-result-type:sep-2322-result-type-included', 'input-required-result-unsupported-methods:sep-2322-not-on-unsupported-requests', 'wire-schema-valid'],
      scoring: 'scored',
      note: 'on its own test tools there; here on every real call'
    }
  },
  'observed-undeclared-capability': {
    revision: '2026-07-28',
    official: {
      scenarios: ['input-required-result-capability-check:sep-2322-respect-client-capabilities', 'server-stateless:sep-2575-server-rejects-undeclared-capability'],
      scoring: 'scored',
      note: 'on its own test tools there; here on every real call'
    }
  },
  'observed-input-rounds': { revision: 'both', official: { scenarios: [], scoring: 'none', note: 'a limit of the suite (max_input_rounds), not of the spec' } }
}
