import * as core from '@actions/core'
import { resolveOptions, type RawOption, type RunOptions } from '../config/options.js'
import { Inputs } from '../constants.js'

const input = (name: string): RawOption => ({ value: core.getInput(name), name })

/** Read every action input once, into one validated object. Throws ConfigError naming the input. */
export function readActionOptions(): RunOptions {
  const openrouterKey = core.getInput(Inputs.OpenRouterApiKey)
  // Mask before anything can print it, even if validation fails below.
  for (const key of [openrouterKey, core.getInput(Inputs.ApiKey)]) if (key) core.setSecret(key)
  return resolveOptions({
    serverConfig: input(Inputs.ServerConfig),
    evalCases: input(Inputs.EvalCases),
    apiKey: openrouterKey ? { value: openrouterKey, name: Inputs.OpenRouterApiKey } : { value: core.getInput(Inputs.ApiKey), name: Inputs.OpenRouterApiKey },
    filter: input(Inputs.Filter),
    maxSteps: input(Inputs.MaxSteps),
    parallel: input(Inputs.Parallel),
    concurrency: input(Inputs.Concurrency),
    baseUrl: input(Inputs.BaseUrl),
    judgeModel: input(Inputs.JudgeModel),
    models: input(Inputs.Models),
    timeoutSeconds: input(Inputs.TimeoutSeconds),
    conformance: input(Inputs.Conformance),
    conformanceFailOn: input(Inputs.ConformanceFailOn)
  })
}

export function jobSummaryEnabled(): boolean {
  const value = core.getInput(Inputs.JobSummary).trim()
  return value === '' || ['true', 'True', 'TRUE'].includes(value)
}
