import { dirname, join } from 'node:path'
import { Defaults, Flags, Inputs } from '../constants.js'
import type { CacheMode } from '../results/types.js'
import { budgetsFromOptions, type BudgetKey } from './budgets.js'
import { ConfigError, isFlag } from './errors.js'
import { isEvalsV1Text } from './evals-v1-suite.js'
import { readExpectedFailures } from './expected-failures.js'
import { FileLimits, readBoundedFile } from '../util/read-file.js'
import { parseBoolean, parseChoice, parseFraction, parseInteger, parseOptionalInteger, type RawOption } from './raw-option.js'
import type { RunOptions } from './run-options.js'
import { checkOptionChoices } from './validate.js'
import { parseShard, shardFileName, type Shard } from './shard.js'

// The options' type is its own module: the cross-field checks read it too.
export type { RunOptions, ServerReuse } from './run-options.js'

// Raw options are shared with the budgets' parser (and the merge's gate options).
export type { RawOption } from './raw-option.js'

export interface RawOptions {
  serverConfig: RawOption
  evalCases: RawOption
  /** eval_suite: an evals/v1 suite (not with eval_cases). */
  evalSuite?: RawOption
  serverUrl?: RawOption
  outputDir?: RawOption
  /** evals_version, node_version: @mcp-use/evals' action inputs, accepted and ignored (one notice). */
  ignored?: RawOption[]
  apiKey: RawOption
  filter: RawOption
  maxSteps: RawOption
  parallel: RawOption
  concurrency: RawOption
  baseUrl: RawOption
  judgeModel: RawOption
  models: RawOption
  timeoutSeconds: RawOption
  resultsPath?: RawOption
  reportPath?: RawOption
  conformance?: RawOption
  conformanceFailOn?: RawOption
  conformanceProbes?: RawOption
  /** conformance_expected_failures: a YAML file of the check ids the team knows it fails. */
  conformanceExpectedFailures?: RawOption
  toolTests?: RawOption
  snapshotDir?: RawOption
  updateSnapshots?: RawOption
  gate?: RawOption
  maxDrop?: RawOption
  baseline?: RawOption
  cache?: RawOption
  cacheDir?: RawOption
  journal?: RawOption
  resume?: RawOption
  /** Layer 3 budgets by their YAML key (`max_cost_usd`), each under its input or flag name. */
  budgets?: Partial<Record<BudgetKey, RawOption>>
  otlpEndpoint?: RawOption
  otlpHeaders?: RawOption
  maxToolResultChars?: RawOption
  keepRunDirs?: RawOption
  chromePath?: RawOption
  appVisualDiff?: RawOption
  shard?: RawOption
  serverReuse?: RawOption
}

/** The largest max_tool_result_chars accepted (0 is no limit). */
const MAX_TOOL_RESULT_CHARS_LIMIT = 100_000_000

/** Defaults that differ between the action and the CLI. */
export interface OptionDefaults {
  cache: CacheMode
  cacheDir: string
}

export function resolveOptions(raw: RawOptions, defaults: OptionDefaults = { cache: 'off', cacheDir: '.mcp-evals-cache' }): RunOptions {
  const baseUrl = (raw.baseUrl.value ?? '').trim() || Defaults.BaseUrl
  try {
    const url = new URL(baseUrl)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)')
  } catch {
    throw new ConfigError(`must be an http(s) URL, got '${baseUrl}'`, { input: raw.baseUrl.name })
  }
  const conformance = parseChoice(raw.conformance, ['auto', 'only', 'off'] as const, 'auto')
  const toolTests = parseChoice(raw.toolTests, ['auto', 'only', 'off'] as const, 'auto')
  const apiKey = (raw.apiKey.value ?? '').trim()
  const keyMissing = apiKey === '' && isOpenRouter(baseUrl)
  // Without a key (a pull request from a fork gets no secrets) conformance still runs.
  const keyVariables = raw.apiKey.env ?? []
  const orVariables = keyVariables.length ? `set ${keyVariables.join(' or ')}, or ` : ''
  const conformanceName = raw.conformance?.name ?? Inputs.Conformance
  const orConformance = isFlag(conformanceName) ? `pass ${conformanceName} auto or only` : `set ${conformanceName} to auto or only`
  const keyRequired = new ConfigError(`is required (or ${orVariables}${orConformance})`, { input: raw.apiKey.name })
  checkOptionChoices({ conformance, toolTests, keyMissing }, { conformance: conformanceName, toolTests: raw.toolTests?.name }, keyRequired)
  const free = 'only the free layers (conformance and tool tests) ran'
  const skipBehaviour =
    conformance === 'only'
      ? isFlag(conformanceName)
        ? `${conformanceName} only was given`
        : `${conformanceName} is "only"`
      : toolTests === 'only'
        ? raw.toolTests?.name === Flags.OnlyToolTests
          ? `${Flags.OnlyToolTests} was given`
          : `${raw.toolTests?.name ?? Inputs.ToolTests} is "only"`
        : keyMissing
          ? keyVariables.length
            ? `no API key (no ${[raw.apiKey.name, ...keyVariables].join(', ').replace(/, ([^,]*)$/, ' or $1')}): ${free}`
            : `no API key (${raw.apiKey.name} is empty, as on a pull request from a fork, which gets no secrets): ${free}`
          : null
  const parallel = parseBoolean(raw.parallel, true)
  const shard = raw.shard ? parseShardOption(raw.shard) : null
  const suiteFiles = suiteFilesOf(raw, conformance === 'only')
  const given = (o: RawOption | undefined) => (o?.value ?? '').trim() !== ''
  const outputs = placeOutputs((raw.outputDir?.value ?? '').trim(), shard, {
    resultsPath: (raw.resultsPath?.value ?? '').trim(),
    reportPath: (raw.reportPath?.value ?? '').trim(),
    journalPath: (raw.journal?.value ?? '').trim()
  })
  return {
    ...suiteFiles,
    serverUrl: (raw.serverUrl?.value ?? '').trim(),
    ...outputs,
    given: {
      maxSteps: given(raw.maxSteps),
      timeoutSeconds: given(raw.timeoutSeconds),
      concurrency: given(raw.concurrency) || given(raw.parallel),
      resultsPath: given(raw.resultsPath),
      reportPath: given(raw.reportPath),
      journalPath: given(raw.journal)
    },
    ignoredInputs: (raw.ignored ?? []).filter(given).map((o) => o.name),
    apiKey,
    filter: raw.filter.value ?? '',
    maxSteps: parseInteger(raw.maxSteps, Defaults.MaxSteps, 1, 1000),
    // "parallel: false" really runs one at a time (eval-action ignored it).
    concurrency: parallel ? parseInteger(raw.concurrency, Defaults.Concurrency, 1, 256) : 1,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    judgeModel: (raw.judgeModel.value ?? '').trim(),
    models: (raw.models.value ?? '').trim(),
    timeoutSeconds: parseInteger(raw.timeoutSeconds, Defaults.TimeoutSeconds, 1, 86_400),
    conformance,
    conformanceFailOn: parseChoice(raw.conformanceFailOn, ['error', 'warning', 'never'] as const, 'error'),
    conformanceProbes: parseChoice(raw.conformanceProbes, ['safe', 'all', 'none'] as const, 'safe'),
    conformanceExpectedFailures: given(raw.conformanceExpectedFailures) ? readExpectedFailures(raw.conformanceExpectedFailures!.value!.trim(), raw.conformanceExpectedFailures!.name) : null,
    // Conformance alone means conformance alone: no tool is called by a test either.
    toolTests: conformance === 'only' ? 'off' : toolTests,
    snapshotDir: (raw.snapshotDir?.value ?? '').trim(),
    updateSnapshots: raw.updateSnapshots ? parseBoolean(raw.updateSnapshots, false) : false,
    skipBehaviour,
    missingKey: keyMissing && conformance === 'off' ? keyRequired : null,
    ...gateOptions(raw),
    cache: parseChoice(raw.cache, ['read-write', 'read-only', 'off'] as const, defaults.cache),
    cacheDir: (raw.cacheDir?.value ?? '').trim() || defaults.cacheDir,
    resume: raw.resume ? parseBoolean(raw.resume, false) : false,
    budgets: budgetsFromOptions(raw.budgets),
    otlpEndpoint: (raw.otlpEndpoint?.value ?? '').trim(),
    otlpHeaders: (raw.otlpHeaders?.value ?? '').trim(),
    maxToolResultChars: raw.maxToolResultChars ? parseOptionalInteger(raw.maxToolResultChars, 0, MAX_TOOL_RESULT_CHARS_LIMIT) : null,
    keepRunDirs: raw.keepRunDirs ? parseBoolean(raw.keepRunDirs, false) : false,
    chromePath: (raw.chromePath?.value ?? '').trim(),
    appVisualDiff: parseChoice(raw.appVisualDiff, ['review', 'fail'] as const, 'review'),
    shard,
    serverReuse: parseChoice(raw.serverReuse, ['run', 'worker'] as const, 'run'),
    names: {
      serverConfig: raw.serverConfig.name,
      evalCases: raw.evalCases.name,
      filter: raw.filter.name,
      models: raw.models.name,
      otlpEndpoint: raw.otlpEndpoint?.name ?? Inputs.OtlpEndpoint,
      otlpHeaders: raw.otlpHeaders?.name ?? Inputs.OtlpHeaders,
      serverUrl: raw.serverUrl?.name ?? Inputs.ServerUrl,
      evalSuite: raw.evalSuite?.name ?? Inputs.EvalSuite
    }
  }
}

/**
 * The suite file and server_config as given. eval_cases and eval_suite are one or the other, and
 * one of them is required unless conformance is "only" (then neither is needed). With
 * neither server_config nor server_url, an eval_cases file needs server_config (said here, first,
 * as ever) unless its content is an evals/v1 suite, which may name its own server (prepare decides).
 */
function suiteFilesOf(raw: RawOptions, conformanceOnly: boolean): Pick<RunOptions, 'serverConfig' | 'evalCases' | 'evalSuite'> {
  const value = (o: RawOption | undefined) => (o?.value ?? '').trim()
  const [serverConfig, evalCases, evalSuite, serverUrl] = [raw.serverConfig, raw.evalCases, raw.evalSuite, raw.serverUrl].map(value)
  const suiteName = raw.evalSuite?.name ?? Inputs.EvalSuite
  if (evalCases !== '' && evalSuite !== '') {
    const other = isFlag(raw.evalCases.name) ? raw.evalCases.name : `the ${raw.evalCases.name} input`
    throw new ConfigError(`cannot be given together with ${other}: give one suite (${suiteName} for an evals/v1 suite, ${raw.evalCases.name} for eval_cases.yaml, which is also read as evals/v1 when its apiVersion says so)`, { input: suiteName })
  }
  if (serverConfig === '' && serverUrl === '' && evalSuite === '' && !(evalCases !== '' && fileIsEvalsV1(evalCases))) throw new ConfigError('is required', { input: raw.serverConfig.name })
  // The protocol checks need a server and nothing from a suite.
  if (evalCases === '' && evalSuite === '' && !conformanceOnly) throw new ConfigError(`is required (or ${suiteName} for an evals/v1 suite; no suite is needed with ${isFlag(raw.evalCases.name) ? '--conformance only' : 'conformance: only'})`, { input: raw.evalCases.name })
  return { serverConfig, evalCases: evalCases || evalSuite, evalSuite }
}

/** Whether the file reads as an evals/v1 suite; false when it cannot be read (its loader says why). */
export function fileIsEvalsV1(path: string): boolean {
  try {
    return isEvalsV1Text(readBoundedFile(path, FileLimits.suite))
  } catch {
    return false
  }
}

/**
 * The default paths of the results document, the report and the journal: in `outputDir` when it is
 * set (`eval-results.json`, `report.md`, `eval-runs.jsonl`), else as ever; a path given is used as it
 * is, and a shard's default files are its own (the shards' artifacts are downloaded into one directory).
 */
export function placeOutputs(outputDir: string, shard: Shard | null, given: { resultsPath: string; reportPath: string; journalPath: string }): Pick<RunOptions, 'outputDir' | 'resultsPath' | 'reportPath' | 'journalPath'> {
  const inDir = (name: string) => (outputDir === '' ? shardFileName(name, shard) : join(outputDir, shardFileName(name, shard)))
  const resultsPath = given.resultsPath || inDir(Defaults.ResultsPath)
  return {
    outputDir,
    resultsPath,
    reportPath: given.reportPath || inDir(outputDir === '' ? Defaults.ReportPath : Defaults.OutputDirReport),
    journalPath: given.journalPath || join(dirname(resultsPath), shardFileName(Defaults.JournalFile, shard))
  }
}

/** The one notice for @mcp-use/evals' runner inputs (evals_version, node_version) given here; null when none was. */
export function ignoredInputsNotice(names: string[]): string | null {
  if (names.length === 0) return null
  return `${names.join(' and ')}: accepted and ignored: MCP Server Evals is the runner itself (it runs no @mcp-use/evals package and sets up no Node.js), so ${names.length > 1 ? 'no version is' : 'the version is not'} read.`
}

/** The gate as given (a run's and a merge's alike): the mode (null: delta with a baseline, else absolute), max_drop and the baseline path. */
export function gateOptions(raw: { gate?: RawOption; maxDrop?: RawOption; baseline?: RawOption }): Pick<RunOptions, 'gate' | 'maxDrop' | 'baseline'> {
  return {
    gate: (raw.gate?.value ?? '').trim() === '' ? null : parseChoice(raw.gate, ['delta', 'absolute', 'both'] as const, 'absolute'),
    maxDrop: parseFraction(raw.maxDrop, 0.02),
    baseline: (raw.baseline?.value ?? '').trim()
  }
}

function parseShardOption(o: RawOption): Shard | null {
  try {
    return parseShard(o.value ?? '')
  } catch (error) {
    throw new ConfigError((error as Error).message, { input: o.name })
  }
}

function isOpenRouter(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname.endsWith('openrouter.ai')
  } catch {
    return false
  }
}
