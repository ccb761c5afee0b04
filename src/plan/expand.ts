import { selectCases } from '../config/filter.js'
import type { EvalCase, Suite } from '../config/types.js'

// What a filter selects is checked with the configuration (nothing selected is an error), so it lives in config.
export { selectCases, selectToolTests } from '../config/filter.js'

/** One planned run: a case against one model under one system prompt. */
export interface RunSpec {
  /** 1-based position in eval-action's run order (repeats of a group are adjacent). */
  index: number
  /** Which repeat of its case × model × prompt group this is, 1-based, of `case.runs`. */
  attempt: number
  case: EvalCase
  model: string
  prompt_name: string
  /** The system prompt with `{today}` already replaced. */
  system_prompt: string
}

/**
 * Expand the matrix in eval-action's order (case, then model, then system prompt, then repeat).
 * `filter` keeps cases whose id contains it (case-sensitive substring, as eval-action).
 * `{today}` is replaced in system prompts only, with the run's date computed once.
 */
export function expandMatrix(suite: Suite, options: { filter?: string; today: string }): RunSpec[] {
  const cases = selectCases(suite, options.filter)
  const runs: RunSpec[] = []
  for (const evalCase of cases) {
    for (const model of suite.models) {
      for (const prompt of suite.system_prompts) {
        for (let attempt = 1; attempt <= evalCase.runs; attempt++) {
          runs.push({
            index: runs.length + 1,
            attempt,
            case: evalCase,
            model,
            prompt_name: prompt.name,
            system_prompt: prompt.text.split('{today}').join(options.today)
          })
        }
      }
    }
  }
  return runs
}

/** The runner's local date as YYYY-MM-DD (UTC on GitHub-hosted runners). */
export function localDate(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

/** Which planned run a record is: the same case, model, prompt and repeat in any attempt of the suite. */
export function runKey(run: { case_id: string; model: string; prompt_name: string; attempt: number }): string {
  return JSON.stringify([run.case_id, run.model, run.prompt_name, run.attempt])
}

/** The `runKey` of the run a spec plans. */
export function specKey(spec: RunSpec): string {
  return runKey({ case_id: spec.case.id, model: spec.model, prompt_name: spec.prompt_name, attempt: spec.attempt })
}
