import { existsSync } from 'node:fs'
import type { AppsOpened } from '../apps/section.js'
import { runKey, specKey, type RunSpec } from '../plan/expand.js'
import type { RunResult } from '../results/types.js'
import { count } from '../util/words.js'
import { describeSkippedLines, readJournal, reusableRuns } from './journal.js'

/**
 * What this evaluation takes from an earlier attempt of the same suite (`--resume`): the runs
 * its journal at `path` finished with a verdict, of them those this plan holds, each at its place
 * in this plan (none when there is no usable journal, each reason one warning); and how that
 * attempt's browser host opened, when those runs rendered views (so the apps section still names
 * the browser when this attempt renders nothing new).
 */
export function resumeFrom(path: string, suiteHash: string, plan: RunSpec[], warn: (message: string) => void): { runs: RunResult[]; apps: AppsOpened | null } {
  const earlier = resumableRuns(path, suiteHash, warn)
  const runs = inPlan(earlier.runs, plan)
  return { runs, apps: runs.some((run) => (run.app_renders ?? []).length > 0) ? earlier.apps : null }
}

/**
 * Of an earlier attempt's runs, those this evaluation plans (another --filter plans others), each
 * at its place in this plan.
 */
function inPlan(runs: RunResult[], plan: RunSpec[]): RunResult[] {
  const indexes = new Map(plan.map((spec) => [specKey(spec), spec.index]))
  return runs.flatMap((run) => {
    const index = indexes.get(runKey(run))
    return index === undefined ? [] : [{ ...run, index }]
  })
}

/** The runs an earlier attempt of the same suite finished with a verdict; none when there is no usable journal. */
function resumableRuns(path: string, suiteHash: string, warn: (message: string) => void): { runs: RunResult[]; apps: AppsOpened | null } {
  const none = { runs: [], apps: null }
  if (!existsSync(path)) {
    warn(`resume: no run journal at ${path} yet; running everything.`)
    return none
  }
  try {
    const { state, lines } = readJournal(path)
    if (lines.length > 0) warn(`resume: skipped ${count(lines.length, 'unreadable line')} of ${path} (${describeSkippedLines(lines)}); their runs run again.`)
    if (state.header.suite_hash !== suiteHash) {
      warn(`resume: ${path} is from another suite, models, server, max_steps or max_tool_result_chars; running everything.`)
      return none
    }
    return { runs: reusableRuns(state), apps: state.apps }
  } catch (error) {
    warn(`resume: ${(error as Error).message}; running everything.`)
    return none
  }
}
