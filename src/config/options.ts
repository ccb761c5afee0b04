import type { FailOn } from '../conformance/run.js'
import { dirname, join } from 'node:path'
import { Defaults } from '../constants.js'
import type { CacheMode } from '../llm/cache.js'
import { budgetsFromOptions, type BudgetKey } from './budgets.js'
import { ConfigError, isFlag } from './errors.js'
import type { Budgets } from './types.js'
import { parseShard, shardFileName, type Shard } from '../plan/shard.js'

/** Everything a run needs to know, from action inputs or CLI flags, validated once. */
export interface RunOptions {
  serverConfig: string
  evalCases: string
  apiKey: string
  filter: string
  maxSteps: number
  concurrency: number
  baseUrl: string
  judgeModel: string
  models: string
  timeoutSeconds: number
  resultsPath: string
  reportPath: string
  /** auto: conformance, then the behaviour runs; only: conformance alone; off: behaviour alone. */
  conformance: 'auto' | 'only' | 'off'
  conformanceFailOn: FailOn
  /** safe: probes that call a tool call read-only tools only; all: every tool; none: no such probe. */
  conformanceProbes: 'safe' | 'all' | 'none'
  /** auto: run the suite's tool tests (with or without the behaviour runs); only: tool tests without behaviour runs; off: none. */
  toolTests: 'auto' | 'only' | 'off'
  /** Where tool test snapshots live; empty: `__snapshots__` beside the eval cases file. */
  snapshotDir: string
  /** Write missing and changed snapshots instead of failing on them. */
  updateSnapshots: boolean
  /** The error for a missing API key, when only a suite without tool tests would make it one (conformance is off). */
  missingKey?: ConfigError | null
  /** Why the behaviour layer will not run (no API key, conformance only), or null. */
  skipBehaviour: string | null
  /** null: delta when a baseline exists, else absolute. */
  gate: 'delta' | 'absolute' | 'both' | null
  maxDrop: number
  /** Path of an earlier results document; empty for none; 'auto' (action only): the Actions cache. */
  baseline: string
  /** Record and replay of LLM answers. */
  cache: CacheMode
  cacheDir: string
  /** The run journal (JSON Lines), beside the results document unless set. */
  journalPath: string
  /** Reuse the runs an interrupted attempt of the same suite finished (from the journal). */
  resume: boolean
  /** Layer 3 budgets given as inputs or flags; the YAML's `budgets:` wins per key. */
  budgets: Partial<Omit<Budgets, 'tools'>>
  /** OTLP/HTTP base endpoint for traces as given (input or flag); empty: OTEL_EXPORTER_OTLP_* decide. */
  otlpEndpoint: string
  /** OTLP headers as given (`key=value,key2=value2`, as OTEL_EXPORTER_OTLP_HEADERS); their values are secrets. */
  otlpHeaders: string
  /** The most characters of a tool result a model is shown (0: no limit), as given; null: not given (the YAML's, else 100,000). */
  maxToolResultChars: number | null
  /** Keep the `${RUN_DIR}` of a run that failed or errored (under the runner's temp directory) instead of removing it. */
  keepRunDirs: boolean
  /** One shard of the plan (`2/4`): its runs only, conformance and tool tests in shard 1 only, no verdict; null: the whole plan. */
  shard: Shard | null
  /** `run`: a fresh server process per run; `worker`: one stdio server process per concurrency slot, reused by its runs. */
  serverReuse: ServerReuse
  /**
   * What the user calls the server config and the eval cases (the action's inputs, or the CLI's
   * flags), so errors found while they are read name what was typed.
   */
  names?: { serverConfig: string; evalCases: string; filter: string; models: string; otlpEndpoint: string; otlpHeaders: string }
}

/** How server processes are shared between runs. */
export type ServerReuse = 'run' | 'worker'

/**
 * Raw text values keyed by option, with the name the user typed them under (for errors): an
 * action input (`eval_cases`) or a CLI flag (`--eval-cases`, which errors print as it is).
 */
export type RawOption = {
  value: string | undefined
  name: string
  /** Environment variables that can give the value instead (the CLI's API key). */
  env?: string[]
}

export interface RawOptions {
  serverConfig: RawOption
  evalCases: RawOption
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
  const required = (o: RawOption) => {
    const v = (o.value ?? '').trim()
    if (v === '') throw new ConfigError('is required', { input: o.name })
    return v
  }
  const baseUrl = (raw.baseUrl.value ?? '').trim() || Defaults.BaseUrl
  try {
    const url = new URL(baseUrl)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)')
  } catch {
    throw new ConfigError(`must be an http(s) URL, got '${baseUrl}'`, { input: raw.baseUrl.name })
  }
  const conformance = parseChoice(raw.conformance, ['auto', 'only', 'off'] as const, 'auto')
  const toolTests = parseChoice(raw.toolTests, ['auto', 'only', 'off'] as const, 'auto')
  if (conformance === 'only' && toolTests === 'only') {
    throw new ConfigError(`cannot be only together with ${raw.conformance?.name ?? 'conformance'} only: choose one, or leave both auto to run the free layers without a model`, { input: raw.toolTests?.name })
  }
  const apiKey = (raw.apiKey.value ?? '').trim()
  const keyMissing = apiKey === '' && isOpenRouter(baseUrl)
  // Without a key (a pull request from a fork gets no secrets) conformance still runs.
  const keyVariables = raw.apiKey.env ?? []
  const orVariables = keyVariables.length ? `set ${keyVariables.join(' or ')}, or ` : ''
  const conformanceName = raw.conformance?.name ?? 'conformance'
  const orConformance = isFlag(conformanceName) ? `pass ${conformanceName} auto or only` : `set ${conformanceName} to auto or only`
  const keyRequired = new ConfigError(`is required (or ${orVariables}${orConformance})`, { input: raw.apiKey.name })
  // With tool tests on, whether anything would run depends on the suite: prepare() decides.
  if (keyMissing && conformance === 'off' && toolTests === 'off') throw keyRequired
  const free = 'only the free layers (conformance and tool tests) ran'
  const skipBehaviour =
    conformance === 'only'
      ? 'conformance is "only"'
      : toolTests === 'only'
        ? raw.toolTests?.name === '--only-tool-tests'
          ? '--only-tool-tests was given'
          : `${raw.toolTests?.name ?? 'tool_tests'} is "only"`
        : keyMissing
          ? keyVariables.length
            ? `no API key (no ${[raw.apiKey.name, ...keyVariables].join(', ').replace(/, ([^,]*)$/, ' or $1')}): ${free}`
            : `no API key (${raw.apiKey.name} is empty, as on a pull request from a fork, which gets no secrets): ${free}`
          : null
  const parallel = parseBoolean(raw.parallel, true)
  const shard = raw.shard ? parseShardOption(raw.shard) : null
  // A shard's default files are its own (the shards' artifacts are downloaded into one directory); a path given is used as it is.
  const resultsPath = raw.resultsPath?.value?.trim() || shardFileName(Defaults.ResultsPath, shard)
  return {
    serverConfig: required(raw.serverConfig),
    evalCases: required(raw.evalCases),
    apiKey,
    filter: raw.filter.value ?? '',
    maxSteps: parseInteger(raw.maxSteps, Defaults.MaxSteps, 1, 1000),
    // "parallel: false" really runs one at a time (eval-action ignored it).
    concurrency: parallel ? parseInteger(raw.concurrency, Defaults.Concurrency, 1, 256) : 1,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    judgeModel: (raw.judgeModel.value ?? '').trim(),
    models: (raw.models.value ?? '').trim(),
    timeoutSeconds: parseInteger(raw.timeoutSeconds, Defaults.TimeoutSeconds, 1, 86_400),
    resultsPath,
    reportPath: raw.reportPath?.value?.trim() || shardFileName(Defaults.ReportPath, shard),
    conformance,
    conformanceFailOn: parseChoice(raw.conformanceFailOn, ['error', 'warning', 'never'] as const, 'error'),
    conformanceProbes: parseChoice(raw.conformanceProbes, ['safe', 'all', 'none'] as const, 'safe'),
    // Conformance alone means conformance alone: no tool is called by a test either.
    toolTests: conformance === 'only' ? 'off' : toolTests,
    snapshotDir: (raw.snapshotDir?.value ?? '').trim(),
    updateSnapshots: raw.updateSnapshots ? parseBoolean(raw.updateSnapshots, false) : false,
    skipBehaviour,
    missingKey: keyMissing && conformance === 'off' ? keyRequired : null,
    ...gateOptions(raw),
    cache: parseChoice(raw.cache, ['read-write', 'read-only', 'off'] as const, defaults.cache),
    cacheDir: (raw.cacheDir?.value ?? '').trim() || defaults.cacheDir,
    journalPath: (raw.journal?.value ?? '').trim() || join(dirname(resultsPath), shardFileName(Defaults.JournalFile, shard)),
    resume: raw.resume ? parseBoolean(raw.resume, false) : false,
    budgets: budgetsFromOptions(raw.budgets),
    otlpEndpoint: (raw.otlpEndpoint?.value ?? '').trim(),
    otlpHeaders: (raw.otlpHeaders?.value ?? '').trim(),
    maxToolResultChars: raw.maxToolResultChars ? parseOptionalInteger(raw.maxToolResultChars, 0, MAX_TOOL_RESULT_CHARS_LIMIT) : null,
    keepRunDirs: raw.keepRunDirs ? parseBoolean(raw.keepRunDirs, false) : false,
    shard,
    serverReuse: parseChoice(raw.serverReuse, ['run', 'worker'] as const, 'run'),
    names: {
      serverConfig: raw.serverConfig.name,
      evalCases: raw.evalCases.name,
      filter: raw.filter.name,
      models: raw.models.name,
      otlpEndpoint: raw.otlpEndpoint?.name ?? 'otlp_endpoint',
      otlpHeaders: raw.otlpHeaders?.name ?? 'otlp_headers'
    }
  }
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

export function parseInteger(o: RawOption, fallback: number, min: number, max: number): number {
  const text = (o.value ?? '').trim()
  if (text === '') return fallback
  if (!/^\d+$/.test(text)) throw new ConfigError(`must be a whole number, got '${text}'`, { input: o.name })
  const n = Number(text)
  if (n < min || n > max) throw new ConfigError(`must be between ${min} and ${max}, got ${n}`, { input: o.name })
  return n
}

/** A whole number from `min` to `max`, or null when the value is empty (not given). */
function parseOptionalInteger(o: RawOption, min: number, max: number): number | null {
  return (o.value ?? '').trim() === '' ? null : parseInteger(o, min, min, max)
}

/** A number from 0 to 1. */
function parseFraction(o: RawOption | undefined, fallback: number): number {
  const text = (o?.value ?? '').trim()
  if (text === '') return fallback
  const n = Number(text)
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new ConfigError(`must be a number from 0 to 1, got '${text}'`, { input: o?.name })
  return n
}

export function parseChoice<T extends string>(o: RawOption | undefined, choices: readonly T[], fallback: T): T {
  const text = (o?.value ?? '').trim()
  if (text === '') return fallback
  if ((choices as readonly string[]).includes(text)) return text as T
  throw new ConfigError(`must be one of ${choices.join(', ')}, got '${text}'`, { input: o?.name })
}

/** YAML 1.2 booleans, as GitHub's getBooleanInput accepts, with a default for empty. */
export function parseBoolean(o: RawOption, fallback: boolean): boolean {
  const text = (o.value ?? '').trim()
  if (text === '') return fallback
  if (['true', 'True', 'TRUE'].includes(text)) return true
  if (['false', 'False', 'FALSE'].includes(text)) return false
  throw new ConfigError(`must be true or false, got '${text}'`, { input: o.name })
}
