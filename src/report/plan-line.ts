import type { Suite } from '../config/types.js'
import { expandMatrix, selectCases } from '../plan/expand.js'
import { count as plural } from '../util/words.js'

/**
 * What is about to run, in one line, as the action and the CLI print it first:
 * "Evaluating 5 cases × 2 models × 1 system prompt = 10 runs, judge openai/gpt-4o-mini, concurrency 4".
 * The run count is the plan's (repeats included, "(with repeats)" when they add runs); a filter
 * shows how many of the suite's cases it kept.
 */
export function formatPlanLine(suite: Suite, options: { filter?: string; concurrency: number }): string {
  const filter = options.filter ?? ''
  const planned = expandMatrix(suite, { filter, today: '' }).length
  const cases = selectCases(suite, filter).length
  const caseText = filter ? `${cases} of ${plural(suite.cases.length, 'case')} (filter ${JSON.stringify(filter)})` : plural(cases, 'case')
  const product = cases * suite.models.length * suite.system_prompts.length
  const runs = `${plural(planned, 'run')}${planned !== product ? ' (with repeats)' : ''}`
  return `Evaluating ${caseText} × ${plural(suite.models.length, 'model')} × ${plural(suite.system_prompts.length, 'system prompt')} = ${runs}, judge ${suite.judge_model}, concurrency ${options.concurrency}`
}
