/** The inputs and environment variables that name models (SuiteOverrides' model keys). */
interface ModelChoices {
  models?: string
  envModels?: string
  judgeModel?: string
  envJudgeModel?: string
}

/**
 * The models that win over the suite's: the models input, else EVAL_MODELS (eval-action's
 * reading: split on commas and lines, trimmed, empties dropped, so "," is zero models; a model
 * named twice runs once); undefined when neither is given.
 */
export function modelsOverride(overrides: ModelChoices): string[] | undefined {
  const list = firstNonEmpty(overrides.models, overrides.envModels)
  if (list === undefined) return undefined
  return [
    ...new Set(
      list
        .split(/[,\n]/)
        .map((m) => m.trim())
        .filter((m) => m.length > 0)
    )
  ]
}

/** The judge model that wins over the suite's: the judge_model input, else EVAL_JUDGE_MODEL; undefined when neither is given. */
export function judgeModelOverride(overrides: ModelChoices): string | undefined {
  return firstNonEmpty(overrides.judgeModel, overrides.envJudgeModel)
}

function firstNonEmpty(...values: (string | undefined)[]): string | undefined {
  return values.find((v) => v !== undefined && v.trim() !== '')?.trim()
}
