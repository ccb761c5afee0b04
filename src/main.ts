import { existsSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import * as core from '@actions/core'
import { ConfigError, ConfigErrors } from './config/errors.js'
import type { RunOptions } from './config/options.js'
import { Defaults } from './constants.js'
import { evaluate, fatalDocument, journalHash, prepare, suiteHash, writeResults, type EvaluateHooks } from './evaluate.js'
import { CANCEL_EXIT_CODES, watchSignals } from './execute/cancellation.js'
import { restoreBaseline, restoreJournal, restoreResponses, saveBaseline, saveJournal, saveResponses } from './github/cache.js'
import { uploadResultsArtifact } from './github/artifact.js'
import { readActionOptions, readPublishOptions, type PublishOptions } from './github/inputs.js'
import { annotateResults, publishComment, setActionOutputs, writeJobSummary } from './github/publish.js'
import { killAllGroupsSync, terminateAllGroups } from './mcp/process-group.js'
import { removeLiveRunDirsSync } from './execute/run-dirs.js'
import { formatPlanLine } from './report/plan-line.js'
import { formatToolTestLine } from './report/tool-test-line.js'
import { cancelledReason, failureReason, formatConformanceLines, formatProgressLine, formatSummaryLine } from './report/progress.js'
import type { ResultsDocument } from './results/types.js'
import { MIN_SECRET_LENGTH, redactDeep, redactText, secretForms } from './util/redact.js'

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

/** The snapshot files in a directory under the workspace (the artifact's root); none elsewhere. */
function snapshotFiles(dir: string): string[] {
  const absolute = resolve(dir)
  if (!existsSync(absolute) || relative(process.cwd(), absolute).startsWith('..')) return []
  return readdirSync(absolute)
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(absolute, name))
}

/**
 * After a cancel the runner kills the step 7.5 s after its SIGINT. The files are written first
 * (milliseconds); the network steps share what is left of this budget, counted from the signal,
 * each at most STEP_MS.
 */
const CANCELLED_NETWORK_BUDGET_MS = 5000
const CANCELLED_STEP_MS = 2000

/**
 * Runs network steps (cache restores and saves, the comment, the artifact). Once the job is
 * cancelled — before a step or while it runs — each is bounded so that all of them end by the
 * budget's deadline: a step still running then is abandoned with a warning, and later ones are
 * skipped.
 */
function networkSteps(cancel: AbortSignal) {
  let deadline: number | undefined
  const startBudget = () => (deadline ??= Date.now() + CANCELLED_NETWORK_BUDGET_MS)
  if (cancel.aborted) startBudget()
  else cancel.addEventListener('abort', startBudget, { once: true })
  return async (what: string, task: () => Promise<unknown>): Promise<void> => {
    if (deadline !== undefined && deadline <= Date.now()) {
      core.warning(`Cancelled: skipped ${what}, to finish inside the runner's grace period.`)
      return
    }
    let timer: NodeJS.Timeout | undefined
    let arm: (() => void) | undefined
    const gaveUp = new Promise<void>((resolve) => {
      arm = () => {
        const ms = Math.max(0, Math.min(CANCELLED_STEP_MS, startBudget() - Date.now()))
        timer = setTimeout(() => {
          core.warning(`Cancelled: gave up on ${what} after ${(ms / 1000).toFixed(1)}s, to finish inside the runner's grace period.`)
          resolve()
        }, ms)
        timer.unref()
      }
      if (cancel.aborted) arm()
      else cancel.addEventListener('abort', arm, { once: true })
    })
    try {
      await Promise.race([task(), gaveUp])
    } finally {
      clearTimeout(timer)
      if (arm) cancel.removeEventListener('abort', arm)
    }
  }
}

/**
 * The action: read inputs, evaluate, publish. Outputs, the results file and the report are
 * written on every path, failures and cancellation included, before the step fails. On SIGINT
 * or SIGTERM the evaluation stops, every server process tree is ended, and what had finished is
 * written and published within the runner's grace period. Returns the exit code for the entry
 * point to exit with (it is not set here, so tests that call run() keep their own): 0 passed,
 * 1 failed, 2 bad configuration, 130 / 143 / 129 cancelled by SIGINT / SIGTERM / SIGHUP.
 */
export async function run(hooks: EvaluateHooks = {}): Promise<number> {
  const signals = watchSignals({
    onCancel: (reason) => {
      core.warning(`${reason.signalName} received: stopping the evaluation and writing what has finished (a second signal exits at once).`)
      void terminateAllGroups()
    },
    onForce: () => {
      killAllGroupsSync()
      // What the killed servers wrote into their run directories goes with them.
      removeLiveRunDirsSync()
    }
  })
  let code: number
  try {
    code = await runAction(hooks, signals.signal)
  } finally {
    signals.dispose()
  }
  const cancelled = signals.received()
  return cancelled ? CANCEL_EXIT_CODES[cancelled.signalName] : code
}

async function runAction(hooks: EvaluateHooks, cancel: AbortSignal): Promise<number> {
  let options: RunOptions | undefined
  let publish = FALLBACK_PUBLISH
  let secrets: string[] = []
  let doc: ResultsDocument
  let annotated = false
  let badConfiguration = false
  // What the caches keep for the next workflow run or the next attempt, saved after publishing.
  let saves: { what: string; task: () => Promise<unknown> }[] = []
  const network = networkSteps(cancel)
  try {
    options = readActionOptions()
    publish = readPublishOptions()
    let prepared = prepare(options, process.env)
    secrets = prepared.secrets
    // The runner masks exact strings: every encoded form we might print is masked too.
    for (const secret of secrets) for (const form of secretForms(secret)) if (form.length >= MIN_SECRET_LENGTH) core.setSecret(form)
    const { suite } = prepared
    if (!options.skipBehaviour) core.info(formatPlanLine(suite, options))
    if (options.skipBehaviour) core.notice(`Behaviour evals skipped: ${options.skipBehaviour}.`, { title: 'MCP Server Evals' })
    const hash = suiteHash(prepared)
    const behaviour = options.skipBehaviour === null
    const { cacheDir, journalPath } = options
    const { baselineKey } = publish
    if (behaviour && options.cache !== 'off') await network('restoring the recorded LLM answers', () => restoreResponses(cacheDir, hash))
    if (behaviour && options.resume) await network('restoring the run journal', () => restoreJournal(journalPath, journalHash(prepared), baselineKey))
    if (behaviour && options.baseline === 'auto') {
      let baseline = ''
      await network('restoring the baseline', async () => (baseline = await restoreBaseline(BASELINE_DIR(), baselineKey)))
      prepared = { ...prepared, options: { ...options, baseline } }
    }
    doc = await evaluate(prepared, {
      cancel,
      ...hooks,
      // The runner masks a secret as it is; these lines can carry it in another form too.
      onWarning: (message) => core.warning(redactText(message, secrets)),
      onConformance: (report) => formatConformanceLines(report).forEach((line) => core.info(redactText(line, secrets))),
      onRunFinished: (r, n, total) => core.info(redactText(formatProgressLine(r, n, total), secrets)),
      onToolTestFinished: (test, n, total) => core.info(redactText(formatToolTestLine(test, n, total), secrets))
    })
    // The next attempt of this workflow run ("Re-run failed jobs") picks up what this one finished.
    if (behaviour && options.resume && !doc.passed) saves.push({ what: 'saving the run journal', task: () => saveJournal(journalPath, journalHash(prepared), baselineKey) })
    if (behaviour && options.cache === 'read-write' && (doc.summary.cache?.misses ?? 0) > 0) saves.push({ what: 'saving the recorded LLM answers', task: () => saveResponses(cacheDir, hash) })
  } catch (error) {
    saves = []
    const message = error instanceof ConfigError ? error.message : `unexpected error: ${(error as Error).stack ?? String(error)}`
    doc = fatalDocument(message, new Date(), error instanceof ConfigError ? 'configuration' : 'internal')
    if (error instanceof ConfigError) {
      badConfiguration = true
      annotated = annotateFileErrors(error)
    }
  }

  const paths = {
    resultsPath: options?.resultsPath ?? Defaults.ResultsPath,
    reportPath: options?.reportPath ?? Defaults.ReportPath,
    junitPath: Defaults.JunitPath,
    sarifPath: Defaults.SarifPath,
    badgePath: Defaults.BadgePath,
    transcriptsDir: Defaults.TranscriptsDir,
    journalPath: doc.journal?.path || undefined
  }
  let report = ''
  let files: string[] = []
  try {
    const written = writeResults(doc, paths, secrets)
    doc = written.document
    report = written.report
    files = written.files
    if (paths.journalPath && existsSync(paths.journalPath)) files.push(paths.journalPath)
    // Snapshots written on the runner reach the repository only through the artifact.
    if (options?.updateSnapshots && doc.tool_tests) files.push(...snapshotFiles(doc.tool_tests.snapshot_dir))
  } catch (error) {
    core.error(`Could not write the results: ${(error as Error).message}`)
    // What is published below must be redacted all the same.
    doc = redactDeep(doc, secrets)
  }
  setActionOutputs(doc, paths)
  annotateResults(doc)
  if (publish.jobSummary && report) await writeJobSummary(report, paths.reportPath)
  // Cancelled: the comment says so first, then what a re-run needs, then the artifact.
  let commented = false
  const comment = async (artifactId: number | undefined) => {
    commented = true
    await network('the PR comment', () => publishComment(doc, publish, artifactId))
  }
  if (cancel.aborted) {
    await comment(undefined)
    for (const save of saves.splice(0)) await network(save.what, save.task)
  }
  let artifactId: number | undefined
  if (publish.uploadArtifact && files.length) {
    await network('the artifact upload', async () => (artifactId = await uploadResultsArtifact(publish.artifactName, files.map((f) => resolve(f)), process.cwd(), publish.retentionDays)))
  }
  if (!commented) await comment(artifactId)
  for (const save of saves) await network(save.what, save.task)
  if (files.length && doc.behaviour.status === 'ran' && !cancel.aborted) {
    await network('saving the baseline', () => saveBaseline(paths.resultsPath, BASELINE_DIR(), publish.baselineKey, publish.saveBaseline, doc.passed))
  }

  core.info(formatSummaryLine(doc))
  if (doc.fatal_error !== null) {
    core.setFailed(annotated ? 'Invalid configuration: see the errors above.' : doc.fatal_error)
    return badConfiguration ? 2 : 1
  }
  if (doc.cancelled) core.setFailed(cancelledReason(doc))
  else if (cancel.aborted) core.setFailed(`Cancelled while publishing: the evaluation had finished (passed: ${doc.passed}) and its results are written.`)
  else if (!doc.passed) core.setFailed(failureReason(doc))
  return doc.passed ? 0 : 1
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
