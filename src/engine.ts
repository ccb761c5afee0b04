import { assembleDocument } from './aggregate/document.js'
import type { ServerConfig, Suite } from './config/types.js'
import type { EngineDeps, EngineSettings } from './execute/engine-types.js'
import { executeRuns } from './execute/run-matrix.js'
import { expandMatrix, type RunSpec } from './plan/expand.js'
import { shardOf } from './plan/shard.js'
import { cancelledSummary, resultsConfig } from './record/results-config.js'
import type { ResultsDocument, RunResult } from './results/types.js'

export type { EngineDeps, EngineSettings, ExecutedRuns } from './execute/engine-types.js'
export { executeRuns } from './execute/run-matrix.js'
export { cancelledSummary, resultsConfig } from './record/results-config.js'

/** The runs of a suite, assembled into a results document (conformance and the gate come later). */
export async function runEvaluation(suite: Suite, server: ServerConfig, settings: EngineSettings, deps: EngineDeps): Promise<ResultsDocument> {
  // No journal here: the runs are kept as they finish, for the document.
  const runs: RunResult[] = []
  const executed = await executeRuns(planOf(suite, settings), suite, { serverRoots: server.roots ?? null, ...settings }, {
    ...deps,
    onRunFinished: (run, finished, total) => {
      runs.push(run)
      deps.onRunFinished?.(run, finished, total)
    }
  })
  return assembleDocument({
    started_at: executed.started_at,
    duration_s: executed.duration_s,
    config: resultsConfig(suite, server, settings),
    cases: suite.cases,
    behaviour: { status: 'ran', reason: null },
    conformance: null,
    tool_tests: null,
    runs,
    overhead: executed.overhead,
    cache: null,
    cancelled: cancelledSummary(deps.cancel, executed),
    journal: null
  })
}

/** The runs of a suite (or of its shard), at their plan index: expanded once, by whoever starts the runs. */
export function planOf(suite: Suite, settings: Pick<EngineSettings, 'filter' | 'today' | 'shard'>): RunSpec[] {
  return shardOf(expandMatrix(suite, { filter: settings.filter, today: settings.today }), settings.shard ?? null)
}
