import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import * as core from '@actions/core'
import { ConfigError, ConfigErrors } from './config/errors.js'
import type { RunOptions } from './config/options.js'
import { Defaults } from './constants.js'
import { evaluate, fatalDocument, prepare, suiteHash, writeResults, type EvaluateHooks } from './evaluate.js'
import { restoreBaseline, restoreResponses, saveBaseline, saveResponses } from './github/cache.js'
import { uploadResultsArtifact } from './github/artifact.js'
import { readActionOptions, readPublishOptions, type PublishOptions } from './github/inputs.js'
import { annotateResults, publishComment, setActionOutputs, writeJobSummary } from './github/publish.js'
import { failureReason, formatConformanceLines, formatProgressLine, formatSummaryLine } from './report/progress.js'
import type { ResultsDocument } from './results/types.js'

/** Where the baseline lives while it is restored or saved. */
const BASELINE_DIR = () => join(process.env.RUNNER_TEMP || tmpdir(), 'mcp-server-evals-baseline')

/** When the publishing inputs themselves are invalid: still write the summary, nothing else. */
const FALLBACK_PUBLISH: PublishOptions = {
  jobSummary: true,
  token: '',
  comment: null,
  commentSkipped: null,
  uploadArtifact: false,
  artifactName: '',
  retentionDays: undefined,
  saveBaseline: 'never',
  baselineKey: ''
}

/**
 * The action: read inputs, evaluate, publish. Outputs, the results file and the report are
 * written on every path, failures included, before the step fails.
 */
export async function run(hooks: EvaluateHooks = {}): Promise<void> {
  let options: RunOptions | undefined
  let publish = FALLBACK_PUBLISH
  let secrets: string[] = []
  let doc: ResultsDocument
  let annotated = false
  try {
    options = readActionOptions()
    publish = readPublishOptions()
    let prepared = prepare(options, process.env)
    secrets = prepared.secrets
    for (const secret of secrets) core.setSecret(secret)
    const { suite } = prepared
    core.info(
      `Evaluating ${suite.cases.length} case(s) × ${suite.models.length} model(s) × ${suite.system_prompts.length} system prompt(s), judge ${suite.judge_model}, concurrency ${options.concurrency}`
    )
    if (options.skipBehaviour) core.notice(`Behaviour evals skipped: ${options.skipBehaviour}.`, { title: 'MCP Server Evals' })
    const hash = suiteHash(prepared)
    const behaviour = options.skipBehaviour === null
    if (behaviour && options.cache !== 'off') await restoreResponses(options.cacheDir, hash)
    if (behaviour && options.baseline === 'auto') {
      prepared = { ...prepared, options: { ...options, baseline: await restoreBaseline(BASELINE_DIR(), publish.baselineKey) } }
    }
    doc = await evaluate(prepared, {
      ...hooks,
      onWarning: (message) => core.warning(message),
      onConformance: (report) => formatConformanceLines(report).forEach((line) => core.info(line)),
      onRunFinished: (r, n, total) => core.info(formatProgressLine(r, n, total))
    })
    if (behaviour && options.cache === 'read-write' && (doc.summary.cache?.misses ?? 0) > 0) await saveResponses(options.cacheDir, hash)
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : `unexpected error: ${(error as Error).stack ?? String(error)}`
    doc = fatalDocument(message)
    if (error instanceof ConfigError) annotated = annotateFileErrors(error)
  }

  const paths = {
    resultsPath: options?.resultsPath ?? Defaults.ResultsPath,
    reportPath: options?.reportPath ?? Defaults.ReportPath,
    junitPath: Defaults.JunitPath,
    badgePath: Defaults.BadgePath,
    transcriptsDir: Defaults.TranscriptsDir
  }
  let report = ''
  let files: string[] = []
  try {
    const written = writeResults(doc, paths, secrets)
    doc = written.document
    report = written.report
    files = written.files
  } catch (error) {
    core.error(`Could not write the results: ${(error as Error).message}`)
  }
  setActionOutputs(doc, paths)
  annotateResults(doc)
  if (publish.jobSummary && report) await writeJobSummary(report, paths.reportPath)
  const artifactId =
    publish.uploadArtifact && files.length ? await uploadResultsArtifact(publish.artifactName, files.map((f) => resolve(f)), process.cwd(), publish.retentionDays) : undefined
  await publishComment(doc, publish, artifactId)
  if (files.length && doc.behaviour.status === 'ran') await saveBaseline(paths.resultsPath, BASELINE_DIR(), publish.baselineKey, publish.saveBaseline, doc.passed)

  core.info(formatSummaryLine(doc))
  if (doc.fatal_error !== null) core.setFailed(annotated ? 'Invalid configuration: see the errors above.' : doc.fatal_error)
  else if (!doc.passed) core.setFailed(failureReason(doc))
}

/**
 * Problems located in a file become annotations on that file and line (shown on the PR diff).
 * Returns whether it annotated; other problems are reported by the final setFailed.
 */
function annotateFileErrors(error: ConfigError): boolean {
  const errors = error instanceof ConfigErrors ? error.errors : [error]
  if (!errors.some((e) => e.where.file && e.where.file !== '<inline>')) return false
  for (const e of errors) {
    const { file, line, column } = e.where
    core.error(e.message, { title: 'Invalid configuration', ...(file && file !== '<inline>' ? { file, startLine: line, startColumn: column } : {}) })
  }
  return true
}
