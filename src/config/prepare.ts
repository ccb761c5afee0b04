import { accessSync, constants, mkdirSync } from 'node:fs'
import { Inputs } from '../constants.js'
import { mergeBudgets } from './budgets.js'
import { renamingInput } from './errors.js'
import { resolveOtlp, type OtlpTarget } from './otlp.js'
import { runDirsBase } from './run-dir.js'
import { inputNames, type RunOptions } from './run-options.js'
import { serverSecrets } from './server-config.js'
import { resolveServer } from './server-source.js'
import { loadEvalsV1Suite } from './evals-v1-suite.js'
import { contextOf } from './evals-v1-matrix.js'
import { withEvalsV1Defaults } from './evals-v1-options.js'
import { fileIsEvalsV1 } from './options.js'
import { urlCredentials } from '../util/redact.js'
import { linkOnPath } from '../util/write-file.js'
import { loadSuiteFile, parseSuite } from './suite.js'
import type { ServerConfig, Suite } from './types.js'
import { validateConfig, type ConfigDisk } from './validate.js'

/** The suite of a run given no suite file (conformance only): nothing in it runs. */
const NO_SUITE = 'cases: []\n'

/** A validated configuration, ready to run. */
export interface Prepared {
  options: RunOptions
  server: ServerConfig
  suite: Suite
  /** Values that must never be written anywhere. */
  secrets: string[]
  /** Under CI=true a missing snapshot fails its tool test instead of being written. */
  ci: boolean
  /** Where spans go (OTLP/HTTP): the traces URL and its headers; null: no export (runs still get trace ids). */
  otlp: OtlpTarget | null
}

/** The disk the checks look at: this machine's. */
function localDisk(): ConfigDisk {
  return {
    runDirsBase: runDirsBase(),
    linkOnPath: (path) => linkOnPath(path),
    writable(dir) {
      try {
        mkdirSync(dir, { recursive: true })
        accessSync(dir, constants.W_OK)
        return null
      } catch (error) {
        return (error as Error).message
      }
    }
  }
}

/**
 * Parse and validate everything before any server starts or any model is called: server_config,
 * then the eval cases (an evals/v1 suite: the suite, then its server, with server_url or
 * server_config over its own, and its defaults applied to the options not given), then the checks
 * between them and the options, then the OTLP settings. Throws ConfigError.
 */
export function prepare(given: RunOptions, env: NodeJS.ProcessEnv, disk: ConfigDisk = localDisk()): Prepared {
  // Errors name what the user typed: the action's inputs, or the CLI's flags.
  const names = inputNames(given)
  const overrides = { models: given.models, judgeModel: given.judgeModel, envModels: env.EVAL_MODELS, envJudgeModel: env.EVAL_JUDGE_MODEL, appVisualDiff: given.appVisualDiff }
  let options = given
  let server: ServerConfig
  let fromYaml: Suite
  // eval_suite, or an eval_cases file whose apiVersion says evals/v1; else eval_cases.yaml, as ever.
  if (given.evalSuite !== '' || fileIsEvalsV1(given.evalCases)) {
    const input = given.evalSuite !== '' ? names.evalSuite : names.evalCases
    const loaded = renamingInput(Inputs.EvalSuite, input, () => loadEvalsV1Suite(given.evalCases, { ...overrides, context: contextOf(env), maxToolResultChars: given.maxToolResultChars }))
    server = resolveServer(given, { block: loaded.server, file: given.evalCases }, env, names)
    fromYaml = loaded.suite
    options = withEvalsV1Defaults(given, loaded.defaults)
  } else if (given.evalCases === '') {
    // Conformance only, with no suite file: the protocol checks need nothing from one.
    server = resolveServer(given, undefined, env, names)
    fromYaml = parseSuite(NO_SUITE, '', overrides)
  } else {
    server = resolveServer(given, undefined, env, names)
    fromYaml = renamingInput(Inputs.EvalCases, names.evalCases, () =>
      loadSuiteFile(given.evalCases, { ...overrides, transport: server.kind, timeoutSeconds: given.timeoutSeconds, maxToolResultChars: given.maxToolResultChars })
    )
  }
  // The YAML's budgets win per key; the inputs (or flags) fill the rest.
  const suite: Suite = { ...fromYaml, budgets: mergeBudgets(fromYaml.budgets, options.budgets) }
  validateConfig({ options, server, suite }, disk)
  const otlp = resolveOtlp(
    { endpoint: options.otlpEndpoint, headers: options.otlpHeaders, names: { endpoint: names.otlpEndpoint, headers: names.otlpHeaders } },
    env
  )
  // A key written into base_url (`?api-key=…`, `user:pass@`) is a secret like the API key: redacted everywhere, recorded masked.
  const urls = [options.baseUrl, options.otlpEndpoint].flatMap((url) => urlCredentials(url).secrets)
  const secrets = [...serverSecrets(server), options.apiKey, ...urls, ...otlp.secrets].filter((s) => s.length > 0)
  return { options, server, suite, secrets, ci: env.CI === 'true', otlp: otlp.target }
}
