import type { EvalCase } from '../config/types.js'
import type { CacheStats } from '../llm/cache.js'
import type { TokenUsage } from '../llm/chat.js'
import {
  RESULTS_VERSION,
  type BehaviourStatus,
  type Cancellation,
  type ConformanceSection,
  type JournalInfo,
  type ResultsConfig,
  type ResultsDocument,
  type RunResult
} from '../results/types.js'
import { TOOL_NAME, TOOL_VERSION } from '../version.js'
import { groupRuns } from './groups.js'
import { computeMetrics } from './metrics.js'
import { summarize } from './summarize.js'

/** Everything a results document is computed from; the run journal holds exactly this. */
export interface DocumentParts {
  started_at: string
  duration_s: number
  config: ResultsConfig
  /** The cases as configured: the metrics need their golden-set expectations. */
  cases: EvalCase[]
  behaviour: BehaviourStatus
  conformance: ConformanceSection | null
  runs: RunResult[]
  overhead: TokenUsage
  cache: CacheStats | null
  cancelled: Cancellation | null
  journal: JournalInfo | null
}

/**
 * The results document as a pure function of its parts (the gate is applied after, since it
 * needs the baseline). Runs are in plan order; every run's `total_duration_s` is the whole
 * evaluation's, as eval-action reports it. A cancelled or incomplete evaluation never passes.
 */
export function assembleDocument(parts: DocumentParts): ResultsDocument {
  const runs = [...parts.runs].sort((a, b) => a.index - b.index).map((r) => ({ ...r, total_duration_s: parts.duration_s }))
  const ran = parts.behaviour.status === 'ran'
  const groups = groupRuns(runs, parts.config.pass_floors)
  const summary = { ...summarize(runs, groups, parts.overhead), cache: parts.cache }
  const complete = parts.cancelled === null && (parts.journal?.missing ?? 0) === 0
  return {
    version: RESULTS_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    started_at: parts.started_at,
    duration_s: parts.duration_s,
    passed: complete && groups.every((g) => g.success) && (parts.conformance?.passed ?? true),
    config: parts.config,
    behaviour: parts.behaviour,
    conformance: parts.conformance,
    summary,
    gate: null,
    metrics: ran ? computeMetrics(runs, parts.cases) : null,
    groups,
    runs,
    fatal_error: null,
    cancelled: parts.cancelled,
    journal: parts.journal,
    changes: null
  }
}
