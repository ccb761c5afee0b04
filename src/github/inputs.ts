import * as core from '@actions/core'
import * as github from '@actions/github'
import { resolveOptions, type RunOptions } from '../config/options.js'
import { parseBoolean, parseChoice, parseInteger, type RawOption } from '../config/raw-option.js'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Defaults, Inputs } from '../constants.js'
import { checkMergeWithoutShard } from '../config/validate.js'
import { resolveMergeOptions, type MergeOptions } from '../merge/options.js'
import type { SaveBaseline } from './cache.js'

const input = (name: string): RawOption => ({ value: core.getInput(name), name })

/**
 * Mask the secret inputs before anything can print them, even if validation fails later. The OTLP
 * headers' values are masked one by one once parsed (prepare); the whole list is masked here already.
 */
function maskSecretInputs(): void {
  for (const key of [core.getInput(Inputs.OpenRouterApiKey), core.getInput(Inputs.ApiKey), core.getInput(Inputs.GithubToken), core.getInput(Inputs.OtlpHeaders)]) if (key) core.setSecret(key)
}

/** Read every evaluation input once, into one validated object. Throws ConfigError naming the input. */
export function readActionOptions(): RunOptions {
  maskSecretInputs()
  const openrouterKey = core.getInput(Inputs.OpenRouterApiKey)
  return resolveOptions({
    serverConfig: input(Inputs.ServerConfig),
    evalCases: input(Inputs.EvalCases),
    evalSuite: input(Inputs.EvalSuite),
    serverUrl: input(Inputs.ServerUrl),
    outputDir: input(Inputs.OutputDir),
    ignored: [input(Inputs.EvalsVersion), input(Inputs.NodeVersion)],
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
    conformanceFailOn: input(Inputs.ConformanceFailOn),
    conformanceProbes: input(Inputs.ConformanceProbes),
    conformanceExpectedFailures: input(Inputs.ConformanceExpectedFailures),
    toolTests: input(Inputs.ToolTests),
    snapshotDir: input(Inputs.SnapshotDir),
    updateSnapshots: input(Inputs.UpdateSnapshots),
    gate: input(Inputs.Gate),
    maxDrop: input(Inputs.MaxDrop),
    baseline: input(Inputs.Baseline),
    cache: input(Inputs.Cache),
    resume: input(Inputs.Resume),
    budgets: {
      max_cost_usd: input(Inputs.MaxCostUsd),
      max_cost_per_run_usd: input(Inputs.MaxCostPerRunUsd),
      max_tokens_per_run: input(Inputs.MaxTokensPerRun),
      max_p95_tool_ms: input(Inputs.MaxP95ToolMs),
      max_p95_run_s: input(Inputs.MaxP95RunS),
      max_p95_increase: input(Inputs.MaxP95Increase),
      max_cost_increase: input(Inputs.MaxCostIncrease)
    },
    otlpEndpoint: input(Inputs.OtlpEndpoint),
    otlpHeaders: input(Inputs.OtlpHeaders),
    maxToolResultChars: input(Inputs.MaxToolResultChars),
    keepRunDirs: input(Inputs.KeepRunDirs),
    chromePath: input(Inputs.ChromePath),
    appVisualDiff: input(Inputs.AppVisualDiff),
    shard: input(Inputs.Shard),
    serverReuse: input(Inputs.ServerReuse)
  }, { cache: 'read-write', cacheDir: join(process.env.RUNNER_TEMP || tmpdir(), 'mcp-server-evals-cache') })
}

/** The inputs that say what to evaluate: a merge reads them from the shards' documents instead. */
const SUITE_INPUTS = [Inputs.ServerConfig, Inputs.EvalCases, Inputs.EvalSuite, Inputs.ServerUrl, Inputs.Models, Inputs.JudgeModel, Inputs.Filter] as const

/**
 * With `merge` set, this job merges the shards' results instead of evaluating: the glob (one a
 * line) and the gate inputs, validated; null without `merge`. `unused` names the suite inputs
 * that are set although a merge does not read them (warned about, never silently ignored).
 * Throws ConfigError naming the input; `shard` and `merge` together are one.
 */
export function readMergeOptions(): { options: MergeOptions; unused: string[] } | null {
  const merge = core.getInput(Inputs.Merge).trim()
  if (merge === '') return null
  maskSecretInputs()
  checkMergeWithoutShard(core.getInput(Inputs.Shard))
  const options = resolveMergeOptions({ patterns: merge.split('\n'), gate: input(Inputs.Gate), maxDrop: input(Inputs.MaxDrop), baseline: input(Inputs.Baseline), outputDir: input(Inputs.OutputDir) })
  return { options, unused: SUITE_INPUTS.filter((name) => core.getInput(name).trim() !== '') }
}

/** How the results reach GitHub: summary, sticky comment, artifact. */
export interface PublishOptions {
  jobSummary: boolean
  token: string
  /** Where to comment, when commenting is on and this is a pull request. */
  comment: { owner: string; repo: string; issue_number: number; key: string } | null
  /** Why there will be no comment although it was asked for. */
  commentSkipped: string | null
  /** Write eval-report.html (html_report), and upload it on its own beside the artifact. */
  htmlReport: boolean
  uploadArtifact: boolean
  artifactName: string
  retentionDays: number | undefined
  saveBaseline: SaveBaseline
  /** Keeps two suites' baselines apart (the comment key). */
  baselineKey: string
}

export function readPublishOptions(): PublishOptions {
  const token = core.getInput(Inputs.GithubToken).trim()
  const mode = parseChoice(input(Inputs.Comment), ['auto', 'true', 'false'] as const, 'auto')
  const { context } = github
  const pr = context.payload.pull_request?.number
  const key = core.getInput(Inputs.CommentKey).trim() || `${context.workflow}/${context.job}`
  let comment: PublishOptions['comment'] = null
  let commentSkipped: string | null = null
  if (mode !== 'false') {
    if (pr === undefined) commentSkipped = mode === 'true' ? `${Inputs.Comment} is "true" but this ${context.eventName || 'run'} event is not a pull request` : null
    else if (!token) commentSkipped = mode === 'true' ? `${Inputs.Comment} is "true" but ${Inputs.GithubToken} is empty` : null
    else comment = { ...context.repo, issue_number: pr, key }
  }
  const retention = core.getInput(Inputs.RetentionDays).trim()
  return {
    jobSummary: parseBoolean(input(Inputs.JobSummary), true),
    token,
    comment,
    commentSkipped,
    htmlReport: parseBoolean(input(Inputs.HtmlReport), true),
    uploadArtifact: parseBoolean(input(Inputs.UploadArtifact), true),
    artifactName: core.getInput(Inputs.ArtifactName).trim() || Defaults.ArtifactName,
    retentionDays: retention === '' ? undefined : parseInteger(input(Inputs.RetentionDays), 0, 1, 90),
    saveBaseline: parseChoice(input(Inputs.SaveBaseline), ['auto', 'always', 'never'] as const, 'auto'),
    baselineKey: key
  }
}
