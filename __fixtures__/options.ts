import { join } from 'node:path'
import { resolveOptions, type RawOptions, type RunOptions } from '../src/config/options.js'

/** Inputs every evaluation reads; those a test does not give are empty, as an unset action input. */
const ALWAYS_READ = ['filter', 'maxSteps', 'parallel', 'concurrency', 'judgeModel', 'models', 'timeoutSeconds', 'maxToolResultChars', 'keepRunDirs'] as const

/**
 * RunOptions as the action's inputs would give them: the suite at `<dir>/evals.yaml`, the results
 * and the journal beside it, a placeholder key, and `values` (RawOptions keys) over those.
 */
export function runOptions(dir: string, values: Record<string, string>): RunOptions {
  const given = { evalCases: join(dir, 'evals.yaml'), apiKey: 'k', resultsPath: join(dir, 'eval-results.json'), journal: join(dir, 'eval-runs.jsonl'), ...values }
  const raw: Record<string, { value: string; name: string }> = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, { value: v, name: k }]))
  for (const key of ALWAYS_READ) raw[key] ??= { value: '', name: key }
  return resolveOptions(raw as unknown as RawOptions)
}
