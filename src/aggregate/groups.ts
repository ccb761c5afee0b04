import type { GroupResult, RunResult } from '../results/types.js'
import { round4 } from '../util/text.js'

/**
 * A group is one case × model × system prompt; its runs are the repeats. It passes when its
 * pass rate reaches its floor: hard cases need every run (1.0 by default), soft cases a share
 * (0.8 by default: 4 of 5). A run that errored, was cancelled or was skipped counts as not passed;
 * a skipped run (never started: the spend reached max_cost_usd) is counted with the cancelled
 * ones, since neither reached a verdict.
 */
export function groupRuns(runs: RunResult[], floors: { hard: number; soft: number }): GroupResult[] {
  const groups = new Map<string, RunResult[]>()
  for (const run of runs) {
    const key = JSON.stringify([run.case_id, run.model, run.prompt_name])
    const list = groups.get(key) ?? []
    list.push(run)
    groups.set(key, list)
  }
  return [...groups.values()].map((attempts) => {
    const first = attempts[0]
    const passed = attempts.filter((r) => r.status === 'passed').length
    const floor = first.kind === 'hard' ? floors.hard : floors.soft
    const passRate = passed / attempts.length
    return {
      case_id: first.case_id,
      model: first.model,
      prompt_name: first.prompt_name,
      kind: first.kind,
      tags: first.tags,
      runs: attempts.length,
      passed,
      errored: attempts.filter((r) => r.status === 'error').length,
      cancelled: attempts.filter((r) => r.status === 'cancelled' || r.status === 'skipped').length,
      pass_rate: round4(passRate),
      floor,
      // A tiny epsilon so 4/5 meets 0.8 whatever the float arithmetic says.
      success: passRate + 1e-9 >= floor,
      run_indexes: attempts.map((r) => r.index)
    }
  })
}
