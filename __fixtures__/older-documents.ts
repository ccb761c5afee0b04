/**
 * A results document as an older version wrote it: the fields each later version added taken
 * out again, one version at a time, so an upgrade test reads what that version really wrote.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>

/** What each version added, taken out of a document of that version to make it the one before. */
const ADDED_BY: Record<number, (doc: Loose) => void> = {
  8: (doc) => {
    delete doc.shard
    if (doc.config) delete doc.config.server_reuse
  },
  7: (doc) => {
    for (const run of doc.runs) {
      delete run.model_view
      delete run.run_dir
      for (const call of run.tool_calls) for (const key of ['cut', 'media', 'error_pattern']) delete call[key]
    }
  },
  6: (doc) => {
    for (const run of doc.runs) {
      delete run.dialogue
      delete run.inputs
      for (const call of run.tool_calls) delete call.input_rounds
      for (const call of run.llm_calls) delete call.purpose
      for (const entry of run.conversation) for (const key of ['turn', 'simulated']) delete entry[key]
      if (run.observed) delete run.observed.asked
    }
  },
  5: (doc) => {
    delete doc.telemetry
    if (doc.config) for (const key of ['budgets', 'pricing']) delete doc.config[key]
    delete doc.summary.skipped
    if (doc.gate) delete doc.gate.trends
    for (const run of doc.runs) {
      delete run.trace_id
      delete run.skipped
      if (run.judge) delete run.judge.latency_ms
      for (const call of run.tool_calls) delete call.span_id
      for (const call of run.llm_calls) delete call.cached
    }
  },
  4: (doc) => {
    delete doc.summary.resilience
    if (doc.config) delete doc.config.resilience_floors
    for (const run of doc.runs) for (const key of ['recovery', 'answer_check', 'security']) delete run[key]
    for (const run of doc.runs) for (const call of run.tool_calls) for (const key of ['fault', 'injected']) delete call[key]
  }
}

/** `doc` (the current version) as version `version` wrote it; `doc` itself is not changed. */
export function asVersion(doc: object, version: number): Loose {
  const old = JSON.parse(JSON.stringify(doc)) as Loose
  for (let v = old.version as number; v > version; v--) ADDED_BY[v]?.(old)
  old.version = version
  return old
}
