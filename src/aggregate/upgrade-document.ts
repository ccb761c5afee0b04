import { NO_BUDGETS, addUsage, emptyUsage, type ResultsDocument, type RunResult, type Summary, type TelemetrySection, type TokenUsage } from '../results/types.js'
import { upgradeFields } from '../results/upgrade.js'
import { summarizeTelemetry } from '../telemetry/summarize.js'

/**
 * A saved results document as the current version holds it, or null when it is not one we can
 * read. Version 1 had no `changes` and no `conformance.tools`, and a `pass_rate` of 1 for nothing;
 * versions 1 and 2 had no tool tests, no `observed` on runs and no `conformance.unreachable`;
 * versions 1 to 3 had no Layer 2 (faults, attacks, their verdicts and summary); versions 1 to 4
 * had no Layer 3: their telemetry is computed here from their runs (no budgets, no pricing), so an
 * older baseline still serves the trend budgets; versions 1 to 5 had no conversations and no
 * server input (their runs get `dialogue` and `inputs` null; versions 5 and 6 keep their telemetry);
 * versions 1 to 6 had no record of what the model was shown (`model_view` and `run_dir` null);
 * versions 1 to 7 had no shards (`shard` null).
 */
export function upgradeDocument(data: unknown): ResultsDocument | null {
  const upgraded = upgradeFields(data)
  if (!upgraded) return null
  const { document, version } = upgraded
  if (version >= 5 || document.fatal_error) return document
  return { ...document, telemetry: telemetryOf(document) }
}

/** An older document's telemetry, from its runs; the judge's overhead is its judge tokens not owned by a run. */
function telemetryOf(doc: ResultsDocument): TelemetrySection {
  return summarizeTelemetry({
    runs: doc.runs,
    tool_tests: doc.tool_tests,
    wall_s: doc.duration_s,
    overhead: judgeOverhead(doc.summary, doc.runs),
    cache: doc.summary.cache ?? null,
    judge_model: doc.config?.judge_model ?? '',
    pricing: {},
    budgets: NO_BUDGETS
  })
}

/** The summary's judge tokens less the runs' own: the evaluation steps and semantic matches. */
function judgeOverhead(summary: Summary, runs: RunResult[]): TokenUsage {
  const judge = summary.tokens?.judge ?? emptyUsage()
  const owned = emptyUsage()
  for (const run of runs) addUsage(owned, run.judge?.usage ?? null)
  const overhead: TokenUsage = {
    prompt_tokens: Math.max(0, judge.prompt_tokens - owned.prompt_tokens),
    completion_tokens: Math.max(0, judge.completion_tokens - owned.completion_tokens),
    total_tokens: Math.max(0, judge.total_tokens - owned.total_tokens)
  }
  if (judge.cost_usd !== undefined && overhead.total_tokens > 0) overhead.cost_usd = Math.max(0, Math.round((judge.cost_usd - (owned.cost_usd ?? 0)) * 1e8) / 1e8)
  return overhead
}
