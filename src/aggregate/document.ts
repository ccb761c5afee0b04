import type { EvalCase } from '../config/types.js'
import type { CacheStats, TokenUsage } from '../results/types.js'
import {
  RESULTS_VERSION,
  type BehaviourStatus,
  type Cancellation,
  type ConformanceSection,
  type EvalsV1Section,
  type JournalInfo,
  type ResultsConfig,
  type ResultsDocument,
  type RunResult,
  type ShardSection,
  type ToolTestsSection
} from '../results/types.js'
import { appsSection, rendersOf, type AppsOpened, type AppsSectionSettings } from '../apps/section.js'
import { CATALOG, withCatalog } from '../conformance/catalog.js'
import { observedChecks } from '../conformance/observed.js'
import { withSessionWireSchema } from '../conformance/wire-schema/merge.js'
import { conformancePassed } from '../conformance/run.js'
import { applyExpectedFailures } from '../conformance/expected-failures.js'
import { TOOL_NAME, TOOL_VERSION } from '../version.js'
import { groupRuns } from './groups.js'
import { computeMetrics } from './metrics.js'
import { summarize } from './summarize.js'
import { summarizeResilience } from './resilience.js'
import { assembledPassed } from './verdict.js'
import { summarizeTelemetry } from '../telemetry/summarize.js'
import { upgradeConfig } from '../results/upgrade.js'

/** Everything a results document is computed from; the run journal holds exactly this. */
export interface DocumentParts {
  started_at: string
  duration_s: number
  config: ResultsConfig
  /** The cases as configured: the metrics need their golden-set expectations. */
  cases: EvalCase[]
  behaviour: BehaviourStatus
  conformance: ConformanceSection | null
  tool_tests: ToolTestsSection | null
  runs: RunResult[]
  overhead: TokenUsage
  cache: CacheStats | null
  cancelled: Cancellation | null
  journal: JournalInfo | null
  /** One shard of a suite: its document gives no verdict (the merge does). Absent or null otherwise. */
  shard?: ShardSection | null
  /** An evals/v1 suite's own section (the suite's `evals_v1`); absent or null for an eval_cases suite. */
  evals_v1?: EvalsV1Section | null
  /** MCP Apps: the settings and how the host's opening went (null: never opened), when the suite asks for renders; absent or null otherwise (no `apps` section). */
  apps?: { settings: AppsSectionSettings; opened: AppsOpened | null } | null
}

/**
 * The results document as a pure function of its parts (the gate is applied after, since it
 * needs the baseline). Runs are in plan order; every run's `total_duration_s` is the whole
 * evaluation's, as eval-action reports it. A cancelled or incomplete evaluation never passes, nor
 * does one over a Layer 3 budget (or whose runs the budget stopped).
 */
export function assembleDocument(parts: DocumentParts): ResultsDocument {
  const runs = [...parts.runs].sort((a, b) => a.index - b.index).map((r) => ({ ...r, total_duration_s: parts.duration_s }))
  const ran = parts.behaviour.status === 'ran'
  // A journal written before Layer 2 or Layer 3 lacks their keys.
  const config = upgradeConfig(parts.config)
  const groups = groupRuns(runs, config.pass_floors)
  const resilience = summarizeResilience(runs, parts.cases, config.resilience_floors, config.pass_floors)
  const summary = { ...summarize(runs, groups, parts.overhead), cache: parts.cache, resilience }
  const complete = parts.cancelled === null && (parts.journal?.missing ?? 0) === 0
  const conformance = parts.conformance ? withObservedChecks(parts.conformance, runs, parts.tool_tests) : null
  const telemetry = summarizeTelemetry({
    runs,
    tool_tests: parts.tool_tests,
    wall_s: parts.duration_s,
    overhead: parts.overhead,
    cache: parts.cache,
    judge_model: config.judge_model,
    pricing: config.pricing,
    budgets: config.budgets
  })
  const shard = parts.shard ?? null
  return {
    version: RESULTS_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    started_at: parts.started_at,
    duration_s: parts.duration_s,
    // A shard sees part of the suite: it says only whether it ran completely; the merge gives the verdict.
    passed: assembledPassed({ complete, sharded: shard !== null, groups, resilience, telemetry, conformance, tool_tests: parts.tool_tests }),
    config,
    behaviour: parts.behaviour,
    conformance,
    summary,
    gate: null,
    metrics: ran ? computeMetrics(runs, parts.cases) : null,
    groups,
    runs,
    fatal_error: null,
    cancelled: parts.cancelled,
    journal: parts.journal,
    changes: null,
    tool_tests: parts.tool_tests,
    telemetry,
    shard,
    // Only an evals/v1 suite's document has the key: an eval_cases document stays as it was.
    ...(parts.evals_v1 ? { evals_v1: parts.evals_v1 } : {}),
    // Only a suite that asks for renders has the key: every other document stays as it was.
    ...(parts.apps ? { apps: appsSection(parts.apps.settings, parts.apps.opened, rendersOf(parts.tool_tests, runs)) } : {})
  }
}

/**
 * The probe's checks plus the checks observed on real calls (tool tests and runs), each finding
 * with where it was seen, each check with its catalog entry, and wire-schema-valid over the probe's
 * and the sessions' messages; the conformance verdict covers both.
 */
function withObservedChecks(section: ConformanceSection, runs: RunResult[], toolTests: ToolTestsSection | null): ConformanceSection {
  // Each check says which revision's rule it is and how the official suite scores it (src/conformance/catalog.ts).
  if (section.era === 'unreachable') return applyExpectedFailures({ ...section, checks: withCatalog(section.checks) }, Object.keys(CATALOG))
  const sources = [
    ...(toolTests?.tests ?? []).flatMap((test) =>
      test.attempts.flatMap((attempt) => attempt.steps.map((step) => ({ label: `tool test ${test.id}${test.runs > 1 ? ` (attempt ${attempt.attempt})` : ''}`, observed: step.observed })))
    ),
    ...runs.map((run) => ({ label: `run #${run.index} ${run.case_id} · ${run.model} · ${run.prompt_name}`, observed: run.observed }))
  ]
  // wire-schema-valid stays one check: the probe's, with what the sessions' messages showed.
  const checks = withCatalog([...withSessionWireSchema(section.checks, sources, section.era), ...observedChecks(sources)])
  // The team's expected failures, over every check (the observed ones too): excused, stale or unknown.
  const applied = applyExpectedFailures({ ...section, checks }, Object.keys(CATALOG))
  return { ...applied, passed: conformancePassed(applied, section.fail_on) }
}
