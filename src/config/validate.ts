import { Flags, Inputs } from '../constants.js'
import { ConfigError, ConfigErrors, isFlag } from './errors.js'
import { selectCases, selectToolTests } from './filter.js'
import { checkRootsAnswerable } from './inputs.js'
import { mentionsRunDir, usesRunDir } from './run-dir.js'
import { inputNames, type RunOptions, type ServerReuse } from './run-options.js'
import type { ServerConfig, Suite } from './types.js'

/**
 * Every check between fields of the configuration is here; each field alone is parsed (and
 * checked) where it is read: the inputs or flags (options.ts, budgets.ts, otlp.ts),
 * server_config (server-config.ts) and the eval cases (suite.ts). Only the CLI's spellings of
 * one flag by another (`--only-tool-tests` against `--tool-tests`, `--demo` against `--base-url`
 * and `--api-key`) are checked where the flags are read, as usage errors.
 */

/** What the checks need of the disk, passed in so that they are tested without it. */
export interface ConfigDisk {
  /** Where the `${RUN_DIR}` directories are made. */
  runDirsBase: string
  /** Makes `dir` when it is missing; why it cannot be written in, or null when it can. */
  writable(dir: string): string | null
  /** Why a file cannot be written at `path` (a symbolic link on its way, util/write-file.ts), or null; absent: not checked. */
  linkOnPath?(path: string): string | null
}

/** The configuration once each part is parsed: the options, server_config and the suite (its budgets merged). */
export interface ParsedConfig {
  options: RunOptions
  server: ServerConfig
  suite: Suite
}

/**
 * The checks between options alone, made as the options are parsed: before server_config and the
 * eval cases are read, so that their errors come first. `keyRequired` is the error for a missing
 * API key (the options build it: it names the key's input and variables).
 */
export function checkOptionChoices(
  given: { conformance: RunOptions['conformance']; toolTests: RunOptions['toolTests']; keyMissing: boolean },
  names: { conformance: string; toolTests: string | undefined },
  keyRequired: ConfigError
): void {
  if (given.conformance === 'only' && given.toolTests === 'only') {
    throw new ConfigError(`cannot be only together with ${names.conformance} only: choose one, or leave both auto to run the free layers without a model`, { input: names.toolTests })
  }
  // With tool tests on, whether anything would run depends on the suite: validateConfig() decides.
  if (given.keyMissing && given.conformance === 'off' && given.toolTests === 'off') throw keyRequired
}

/**
 * With the action's `merge` input set, `shard` must be empty: a job either runs one shard or
 * merges the shards' results (the CLI has a merge command of its own, so the question is the action's).
 */
export function checkMergeWithoutShard(shard: string): void {
  if (shard.trim() !== '') {
    throw new ConfigError(`cannot be set together with ${Inputs.Shard}: a job either runs one shard (${Inputs.Shard}) or merges the shards' results (${Inputs.Merge}), in a job of its own that needs the shards' jobs`, { input: Inputs.Merge })
  }
}

/**
 * The checks between the options, server_config and the suite, once all three are parsed and
 * before any server starts or any model is called. Throws ConfigError (ConfigErrors for several).
 */
export function validateConfig(config: ParsedConfig, disk: ConfigDisk): void {
  const { options, server, suite } = config
  const names = inputNames(options)
  // A case may expect roots that only server_config declares: checked once both are known.
  const unanswerable = checkRootsAnswerable(suite, server.roots)
  if (unanswerable.length > 0) throw new ConfigErrors(unanswerable)
  checkPlan(suite, options, names)
  checkRunDirsBase(server, suite, names.serverConfig, disk)
  checkServerReuse(options.serverReuse, server, names.serverConfig)
  checkOutputPaths(options, disk)
}

/** An output whose directory is a planted symbolic link is refused now, before anything runs, not when the files are written. */
function checkOutputPaths(options: RunOptions, disk: ConfigDisk): void {
  const problems = [options.resultsPath, options.reportPath, options.journalPath]
    .filter((path) => path)
    .map((path) => disk.linkOnPath?.(path) ?? null)
    .filter((problem): problem is string => problem !== null)
  if (problems.length > 0) throw new ConfigErrors([...new Set(problems)].map((problem) => new ConfigError(problem)))
}

/**
 * Where `${RUN_DIR}` is used, the directory the run directories go in must be writable: found
 * now, as a configuration error, rather than as every run's error (or a crash of the probes).
 */
function checkRunDirsBase(server: ServerConfig, suite: Suite, input: string, disk: ConfigDisk): void {
  if (!usesRunDir(server) && !suite.cases.some((c) => (c.inputs?.roots ?? []).some(mentionsRunDir))) return
  const base = disk.runDirsBase
  const problem = disk.writable(base)
  if (problem !== null) {
    throw new ConfigError(`\${RUN_DIR} needs a writable directory to make the run directories in, and ${base} is not one (${problem}); point RUNNER_TEMP (or TMPDIR) at a writable directory`, { input })
  }
}

/**
 * An evaluation that would run nothing is an error, not a green check: a filter that selects no
 * case and no tool test, a suite with neither, or no model to run the cases with
 * (`EVAL_MODELS=","`). Conformance alone is asked for with `conformance: only`.
 */
function checkPlan(suite: Suite, options: RunOptions, names: { filter: string; models: string }): void {
  const toolTests = options.toolTests === 'off' ? [] : suite.tool_tests
  const behaviour = options.skipBehaviour === null
  if (options.toolTests === 'only' && toolTests.length === 0) {
    const what = suite.evals_v1 ? { text: 'has no checks', path: 'flows' } : { text: 'has no tool_tests', path: 'tool_tests' }
    throw new ConfigError(`${what.text}, but only tool tests were asked for: nothing would be evaluated`, { file: options.evalCases, path: what.path })
  }
  // Without a key (a fork's pull request) and without tool tests, conformance alone runs, as asked.
  if (!behaviour && toolTests.length === 0 && options.missingKey) throw options.missingKey
  if (options.conformance === 'only' || (!behaviour && toolTests.length === 0)) return
  // An evals/v1 filter selects scenarios (the checks always run): one that selects none is a typo, not a pass.
  if (suite.evals_v1 && options.filter !== '' && behaviour && suite.cases.length > 0 && selectCases(suite, options.filter).length === 0) {
    const ids = suite.cases.map((c) => c.id)
    const shown = ids.slice(0, 30).join(', ') + (ids.length > 30 ? `, … (${ids.length} in all)` : '')
    throw new ConfigError(`'${options.filter}' matches no scenario id (case-sensitive substring; the checks run whatever the filter); the scenario ids are: ${shown}`, { input: names.filter })
  }
  if (options.filter !== '' && (!behaviour || selectCases(suite, options.filter).length === 0) && selectToolTests({ ...suite, tool_tests: toolTests }, options.filter).length === 0) {
    const ids = [...(behaviour ? suite.cases.map((c) => c.id) : []), ...toolTests.map((t) => t.id)]
    const shown = ids.slice(0, 30).join(', ') + (ids.length > 30 ? `, … (${ids.length} in all)` : '')
    const what = behaviour && toolTests.length ? 'no case id and no tool test id' : toolTests.length ? 'no tool test id' : 'no case id'
    throw new ConfigError(`'${options.filter}' matches ${what} (case-sensitive substring); the ids are: ${shown || '(none)'}`, { input: names.filter })
  }
  if (suite.evals_v1 && suite.cases.length === 0 && toolTests.length === 0) {
    const clients = suite.evals_v1.clients.some((c) => c.run) ? '' : ` (no client runs here: ${suite.evals_v1.not_run.filter((n) => n.what === 'client').map((n) => `${n.where}: ${n.reason}`).join('; ')})`
    throw new ConfigError(`has no checks and no scenario to run${clients}: nothing would be evaluated; to run only the protocol checks, set ${Inputs.Conformance} to only`, { file: options.evalCases, path: 'flows' })
  }
  if (suite.cases.length === 0 && toolTests.length === 0) {
    throw new ConfigError(`has no cases and no tool tests: nothing would be evaluated; to run only the protocol checks, set ${Inputs.Conformance} to only`, { file: options.evalCases, path: 'cases' })
  }
  if (!behaviour || suite.cases.length === 0) return
  if (suite.models.length === 0) {
    throw new ConfigError(
      `no model to evaluate: ${isFlag(names.models) ? names.models : `the ${names.models} input`}, EVAL_MODELS and the YAML's models give an empty list (EVAL_MODELS="," means none); to run only the protocol checks, set ${Inputs.Conformance} to only`,
      { file: options.evalCases }
    )
  }
}

/**
 * `server_reuse: worker` where it cannot mean anything is a configuration error, found before
 * any server starts, rather than a setting quietly ignored: an HTTP server has no process of
 * ours to reuse (every run already opens its own session on the one server), and a server_config
 * with `${RUN_DIR}` starts each run's server in a directory of its own, which a process shared
 * between runs cannot be. `serverConfigInput` is what the user typed server_config as: the error
 * names `--server-reuse` on the CLI and `server_reuse` in the action.
 */
function checkServerReuse(reuse: ServerReuse, server: ServerConfig, serverConfigInput: string): void {
  if (reuse === 'run') return
  const input = isFlag(serverConfigInput) ? Flags.ServerReuse : Inputs.ServerReuse
  const config = isFlag(serverConfigInput) ? serverConfigInput : `the ${serverConfigInput} input`
  if (server.kind === 'http') {
    throw new ConfigError(`is 'worker', but ${config} names an HTTP server (url): there is no server process to reuse, each run opens its own session on it; use 'run'`, { input })
  }
  if (usesRunDir(server)) {
    throw new ConfigError(`is 'worker', but ${config} uses \${RUN_DIR}, which gives each run's server a directory of its own: a process shared by several runs cannot have one; remove \${RUN_DIR} or use 'run'`, { input })
  }
}
