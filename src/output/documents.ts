import { summarize } from '../aggregate/summarize.js'
import { RESULTS_VERSION, type ResultsDocument } from '../results/types.js'
import { TOOL_NAME, TOOL_VERSION } from '../version.js'

function emptyDocument(startedAt = new Date()): ResultsDocument {
  return {
    version: RESULTS_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    started_at: startedAt.toISOString(),
    duration_s: 0,
    passed: true,
    config: null,
    behaviour: { status: 'ran', reason: null },
    conformance: null,
    summary: summarize([], []),
    gate: null,
    metrics: null,
    groups: [],
    runs: [],
    fatal_error: null,
    cancelled: null,
    journal: null,
    changes: null,
    tool_tests: null,
    telemetry: null,
    shard: null
  }
}

/**
 * The document written when the evaluation could not run at all, so outputs always exist:
 * `configuration` for an invalid configuration, `internal` for an unexpected error.
 */
export function fatalDocument(message: string, startedAt = new Date(), kind: 'configuration' | 'internal' = 'configuration'): ResultsDocument {
  return {
    ...emptyDocument(startedAt),
    passed: false,
    behaviour: { status: 'skipped', reason: kind === 'configuration' ? 'the configuration is invalid' : 'the evaluation could not run' },
    fatal_error: message
  }
}
