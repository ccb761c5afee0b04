import { groupRuns } from '../src/aggregate/groups.js'
import { summarize } from '../src/aggregate/summarize.js'
import type { ResultsDocument, RunResult } from '../src/results/types.js'
import { gated, golden } from './report-shapes.js'

/**
 * A large results document for the HTML report's run list and its benchmark: the golden
 * document's runs replicated as `cases` × `models` × `repeats` runs (new cases, models and
 * indexes), the golden runs taking turns so some groups pass, some fail and some are flaky;
 * groups, summary and gate recomputed by the real aggregation code.
 */
export interface ManyRuns {
  cases: number
  models: number
  repeats: number
  /** System prompts per case × model (default 1): `default`, `prompt-2`, … */
  prompts?: number
  /** Case ids and model names, by position; `case-007`, `vendor/model-2` otherwise. */
  caseId?: (i: number) => string
  modelName?: (i: number) => string
}

export function manyRunsDocument({ cases, models, repeats, prompts = 1, caseId = (i) => `case-${String(i + 1).padStart(3, '0')}`, modelName = (i) => `vendor/model-${i + 1}` }: ManyRuns): ResultsDocument {
  const doc = golden()
  const templates = doc.runs
  const runs: RunResult[] = []
  for (let c = 0; c < cases; c++) {
    for (let m = 0; m < models; m++) {
      for (let p = 0; p < prompts; p++) {
        for (let r = 0; r < repeats; r++) {
          // Cases that keep one template are steady (all pass, all fail); the others mix them: flaky.
          const pick = c % 3 === 0 ? (c + m) % templates.length : (c + m + r) % templates.length
          const run = templates[pick]
          const prompt_name = p === 0 ? 'default' : `prompt-${p + 1}`
          runs.push({ ...run, case_id: caseId(c), model: modelName(m), prompt_name, attempt: r + 1, attempts: repeats, index: runs.length + 1, tags: [`tag-${c % 4}`] })
        }
      }
    }
  }
  const groups = groupRuns(runs, doc.config?.pass_floors ?? { hard: 1, soft: 0.8 })
  const summary = { ...summarize(runs, groups), cache: doc.summary.cache }
  const config = doc.config && { ...doc.config, models: [...new Set(runs.map((r) => r.model))] }
  return gated({ ...doc, runs, groups, summary, config }, null)
}
