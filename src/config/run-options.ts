import { Inputs } from '../constants.js'
import type { CacheMode, FailOn } from '../results/types.js'
import type { ConfigError } from './errors.js'
import type { ExpectedFailuresFile } from './expected-failures.js'
import type { Shard } from './shard.js'
import type { Budgets } from './types.js'

/** Everything a run needs to know, from action inputs or CLI flags, validated once. */
export interface RunOptions {
  /** server_config as given; '' when not given (an evals/v1 suite may name its own server, server_url wins over both). */
  serverConfig: string
  /** The suite file: eval_cases, or eval_suite when that was given. */
  evalCases: string
  /** eval_suite as given ('' when not): the file is read as an evals/v1 suite (an eval_cases file is too when its content says apiVersion: mcp-use.com/evals/v1). */
  evalSuite: string
  /** server_url as given ('' when not): a Streamable HTTP server that wins over server_config and the suite's server block. */
  serverUrl: string
  /**
   * output_dir as given, '' when not; prepare() makes it `eval-results` for an evals/v1 suite.
   * When set, the default paths of the results document, the report and the journal are in it
   * (`eval-results.json`, `report.md`, `eval-runs.jsonl`).
   */
  outputDir: string
  /** Which options were given (an input or flag not empty), so that an evals/v1 suite's defaults apply only where they were not. */
  given: GivenOptions
  /** evals_version, node_version (@mcp-use/evals' action inputs) as typed, when given: accepted, ignored, with one notice (ignoredInputsNotice). */
  ignoredInputs: string[]
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
  /** conformance_expected_failures, read and parsed (a bad file is a ConfigError); null when not given. */
  conformanceExpectedFailures?: ExpectedFailuresFile | null
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
  /** MCP Apps: the Chrome or Chromium executable as given (chrome_path); '' : CHROME_PATH, then the usual places. */
  chromePath: string
  /** MCP Apps: a screenshot changed against the baseline is a finding for `review` (default) or fails the gate (`fail`); the suite's apps.visual_diff. */
  appVisualDiff: 'review' | 'fail'
  /** One shard of the plan (`2/4`): its runs only, conformance and tool tests in shard 1 only, no verdict; null: the whole plan. */
  shard: Shard | null
  /** `run`: a fresh server process per run; `worker`: one stdio server process per concurrency slot, reused by its runs. */
  serverReuse: ServerReuse
  /**
   * What the user calls the server config and the eval cases (the action's inputs, or the CLI's
   * flags), so errors found while they are read name what was typed.
   */
  names?: { serverConfig: string; evalCases: string; filter: string; models: string; otlpEndpoint: string; otlpHeaders: string; serverUrl: string; evalSuite: string }
}

/** Which options were given rather than defaulted. */
export interface GivenOptions {
  maxSteps: boolean
  timeoutSeconds: boolean
  /** concurrency, or parallel (true or false). */
  concurrency: boolean
  resultsPath: boolean
  reportPath: boolean
  journalPath: boolean
}

/** How server processes are shared between runs. */
export type ServerReuse = 'run' | 'worker'

/** What the user calls the inputs that errors name: as typed (the CLI's flags), else the action's inputs. */
export function inputNames(options: RunOptions): NonNullable<RunOptions['names']> {
  return (
    options.names ?? {
      serverConfig: Inputs.ServerConfig,
      evalCases: Inputs.EvalCases,
      filter: Inputs.Filter,
      models: Inputs.Models,
      otlpEndpoint: Inputs.OtlpEndpoint,
      otlpHeaders: Inputs.OtlpHeaders,
      serverUrl: Inputs.ServerUrl,
      evalSuite: Inputs.EvalSuite
    }
  )
}
