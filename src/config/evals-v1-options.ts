import { Defaults } from '../constants.js'
import type { V1OptionDefaults } from './evals-v1-suite.js'
import { placeOutputs } from './options.js'
import type { RunOptions } from './run-options.js'

/**
 * An evals/v1 suite's `defaults.maxAgentSteps`, `defaults.timeoutMs` (rounded up to whole
 * seconds) and `ci.parallelCases: false` (one at a time), each where its input or flag
 * (max_steps, timeout_seconds, concurrency or parallel) was not given; and output_dir, when not
 * given, `eval-results` (as @mcp-use/evals' action), with our default files in it.
 */
export function withEvalsV1Defaults(options: RunOptions, defaults: V1OptionDefaults): RunOptions {
  const { given } = options
  const outputDir = options.outputDir || Defaults.EvalsV1OutputDir
  return {
    ...options,
    maxSteps: !given.maxSteps && defaults.maxAgentSteps !== null ? defaults.maxAgentSteps : options.maxSteps,
    timeoutSeconds: !given.timeoutSeconds && defaults.timeoutMs !== null ? Math.max(1, Math.ceil(defaults.timeoutMs / 1000)) : options.timeoutSeconds,
    concurrency: !given.concurrency && defaults.parallelCases === false ? 1 : options.concurrency,
    ...placeOutputs(outputDir, options.shard, {
      resultsPath: given.resultsPath ? options.resultsPath : '',
      reportPath: given.reportPath ? options.reportPath : '',
      journalPath: given.journalPath ? options.journalPath : ''
    })
  }
}
