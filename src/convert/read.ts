import { parse } from 'yaml'
import { ConfigError } from '../config/errors.js'
import { isEvalsV1Text, parseEvalsV1Suite } from '../config/evals-v1-suite.js'
import { parseSuite } from '../config/suite.js'
import type { Json } from '../config/types.js'
import { FileLimits, readBoundedFile } from '../util/read-file.js'
import type { V1Suite } from './v1-types.js'

export type SuiteFormat = 'eval-cases' | 'evals-v1'

export type ReadSuite = { format: 'evals-v1'; suite: V1Suite } | { format: 'eval-cases'; raw: Record<string, Json> }

/** Which format a suite's text is in, by its content, as the eval_cases input recognises an evals/v1 suite. */
export function formatOfText(text: string): SuiteFormat {
  return isEvalsV1Text(text) ? 'evals-v1' : 'eval-cases'
}

/** Read a suite file of either format; a bad one is a ConfigError naming the file, line and path. */
export function readSuiteFile(file: string): ReadSuite {
  let text: string
  try {
    text = readBoundedFile(file, FileLimits.suite)
  } catch (error) {
    throw new ConfigError(`cannot read the suite: ${(error as Error).message}`, { file })
  }
  return readSuiteText(text, file)
}

export function readSuiteText(text: string, file: string): ReadSuite {
  if (formatOfText(text) === 'eval-cases') {
    // The loader's every check (the schema, the patterns, the ids), with its file:line:column errors.
    parseSuite(text, file)
    return { format: 'eval-cases', raw: parse(text, { maxAliasCount: 100 }) as Record<string, Json> }
  }
  // The evals/v1 loader's every check (the schema, the assertions, the ids), located the same way;
  // the context only picks which clients would run, which a conversion does not need.
  parseEvalsV1Suite(text, file, { context: 'manual' })
  return { format: 'evals-v1', suite: parse(text, { maxAliasCount: 100 }) as V1Suite }
}
