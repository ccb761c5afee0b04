import { existsSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
// Log lines through the neutraliser (github/log.ts); setSecret and setOutput as @actions/core has them.
import * as core from './github/log.js'
import { ConfigError, ConfigErrors } from './config/errors.js'
import { Defaults, Inputs } from './constants.js'
import { prepare } from './config/prepare.js'
import { ignoredInputsNotice } from './config/options.js'
import { evaluate, type EvaluateHooks } from './evaluate.js'
import { journalHash, suiteHash } from './execute/suite-hash.js'
import { fatalDocument } from './output/documents.js'
import type { OutputPaths } from './output/write-results.js'
import { appFiles, appsRootOf } from './output/app-files.js'
import { CANCEL_EXIT_CODES, watchSignals } from './execute/cancellation.js'
import { readActionOptions, readMergeOptions, readPublishOptions, type PublishOptions } from './github/inputs.js'
import type { MergeOptions } from './merge/options.js'
import type { UploadedArtifacts } from './github/publish.js'
import { killAllGroupsSync, terminateAllGroups } from './mcp/process-group.js'
import { removeLiveRunDirsSync } from './mcp/run-dirs.js'
import { formatPlanLine } from './report/plan-line.js'
import { shardFileName, shardLabel, type Shard } from './plan/shard.js'
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
  htmlReport: true,
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

/** Runs a network step, bounded once the job is cancelled (see networkSteps). */
type NetworkSteps = ReturnType<typeof networkSteps>
/** A network step kept for after publishing (a cache save). */
interface NetworkTask {
  what: string
  task: () => Promise<unknown>
}

/**
 * What publishing needs from the evaluation (or the merge) besides its document, filled in as far
 * as it got: a failure part-way still publishes a fatal document with what was known by then.
 */
interface Produced {
  publish: PublishOptions
  secrets: string[]
  /** What the caches keep for the next workflow run or the next attempt, saved after publishing. */
  saves: NetworkTask[]
  paths: ResultPaths
  /** Snapshots written on the runner (update_snapshots) go into the artifact. */
  updateSnapshots: boolean
}

/** Where the action writes its files (the journal's path is the document's own). */
type ResultPaths = Required<Omit<OutputPaths, 'resultsPath' | 'htmlPath' | 'appsRoot'>> & { resultsPath: string; htmlPath?: string }

/**
 * The default files, a shard's with its suffix (the shards' artifacts are downloaded into one
 * directory); an evals/v1 suite's results.json and metrics.json in `evalsV1Dir` (output_dir); the
 * HTML report beside the Markdown report (left out by html_report: false when publishing).
 */
function resultPaths(resultsPath: string, reportPath: string, shard: Shard | null, evalsV1Dir: string): ResultPaths {
  return {
    resultsPath,
    reportPath,
    htmlPath: join(dirname(reportPath), shardFileName(Defaults.HtmlPath, shard)),
    evalsV1Dir,
    junitPath: shardFileName(Defaults.JunitPath, shard),
    sarifPath: shardFileName(Defaults.SarifPath, shard),
    badgePath: shardFileName(Defaults.BadgePath, shard),
    transcriptsDir: Defaults.TranscriptsDir
  }
}

/** Loaded when a cache step runs: @actions/cache is a tenth of a second of the start otherwise. */
const githubCache = () => import('./github/cache.js')
// Loaded when the step gets there, not before the first server spawn: the merge (with `merge`
// only), and the writing and publishing of the results (the renderers, @actions/github's client).
const mergeModules = async () => ({
  ...(await import('./merge/check-shards.js')),
  ...(await import('./merge/merge-document.js')),
  ...(await import('./merge/merge-lines.js')),
  ...(await import('./merge/read-shards.js'))
})
const outputModules = async () => ({ ...(await import('./output/write-results.js')), ...(await import('./github/publish.js')) })

async function runAction(hooks: EvaluateHooks, cancel: AbortSignal): Promise<number> {
  const produced: Produced = { publish: FALLBACK_PUBLISH, secrets: [], saves: [], paths: resultPaths(Defaults.ResultsPath, Defaults.ReportPath, null, ''), updateSnapshots: false }
  let doc: ResultsDocument
  let annotated = false
  let badConfiguration = false
  const network = networkSteps(cancel)
  try {
    const merge = readMergeOptions()
    doc = merge ? await mergeShardResults(merge.options, merge.unused, produced, network) : await evaluateSuite(hooks, cancel, produced, network)
  } catch (error) {
    produced.saves = []
    const message = error instanceof ConfigError ? error.message : `unexpected error: ${(error as Error).stack ?? String(error)}`
    doc = fatalDocument(message, new Date(), error instanceof ConfigError ? 'configuration' : 'internal')
    if (error instanceof ConfigError) {
      badConfiguration = true
      annotated = annotateFileErrors(error)
    }
  }
  return publishResults(doc, produced, cancel, network, { annotated, badConfiguration })
}

/** The evaluation of the suite (or of one shard of it), with the cache restores before it and the saves it leaves for after publishing. */
async function evaluateSuite(hooks: EvaluateHooks, cancel: AbortSignal, produced: Produced, network: NetworkSteps): Promise<ResultsDocument> {
  const given = readActionOptions()
  produced.paths = resultPaths(given.resultsPath, given.reportPath, given.shard, given.outputDir)
  produced.publish = forShard(readPublishOptions(), given.shard)
  const { publish } = produced
  const ignored = ignoredInputsNotice(given.ignoredInputs)
  if (ignored) core.notice(ignored, { title: 'MCP Server Evals' })
  let prepared = prepare(given, process.env)
  // An evals/v1 suite puts the default files in its output_dir (eval-results), and its results.json and metrics.json.
  const { options, secrets } = prepared
  produced.paths = resultPaths(options.resultsPath, options.reportPath, options.shard, options.outputDir)
  produced.secrets = secrets
  produced.updateSnapshots = options.updateSnapshots
  // The runner masks exact strings: every encoded form we might print is masked too.
  for (const secret of secrets) for (const form of secretForms(secret)) if (form.length >= MIN_SECRET_LENGTH) core.setSecret(form)
  const { suite } = prepared
  if (!options.skipBehaviour) core.info(formatPlanLine(suite, options))
  if (options.shard) core.info(formatShardLine(options.shard, publish.artifactName))
  if (options.skipBehaviour) core.notice(`Behaviour evals skipped: ${options.skipBehaviour}.`, { title: 'MCP Server Evals' })
  // Each shard keeps its own recorded answers and journal: cache keys are immutable, and the shards run at once.
  const hash = withShard(suiteHash(prepared), options.shard)
  const journalKey = withShard(journalHash(prepared), options.shard)
  const behaviour = options.skipBehaviour === null
  const { cacheDir, journalPath } = options
  const { baselineKey } = publish
  if (behaviour && options.cache !== 'off') await network('restoring the recorded LLM answers', async () => (await githubCache()).restoreResponses(cacheDir, hash))
  if (behaviour && options.resume) await network('restoring the run journal', async () => (await githubCache()).restoreJournal(journalPath, journalKey, baselineKey))
  // A shard gives no verdict: the merge restores the baseline.
  if (behaviour && options.baseline === 'auto' && !options.shard) {
    const baseline = await restoredBaseline(baselineKey, network)
    prepared = { ...prepared, options: { ...options, baseline } }
  }
  const doc = await evaluate(prepared, {
    cancel,
    ...hooks,
    // The runner masks a secret as it is; these lines can carry it in another form too.
    onWarning: (message) => core.warning(redactText(message, secrets)),
    onRunFinished: (r, n, total) => core.info(redactText(formatProgressLine(r, n, total), secrets)),
    onToolTestFinished: (test, n, total) => core.info(redactText(formatToolTestLine(test, n, total), secrets))
  })
  // The next attempt of this workflow run ("Re-run failed jobs") picks up what this one finished.
  if (behaviour && options.resume && !doc.passed) produced.saves.push({ what: 'saving the run journal', task: async () => (await githubCache()).saveJournal(journalPath, journalKey, baselineKey) })
  if (behaviour && options.cache === 'read-write' && (doc.summary.cache?.misses ?? 0) > 0) {
    produced.saves.push({ what: 'saving the recorded LLM answers', task: async () => (await githubCache()).saveResponses(cacheDir, hash) })
  }
  return doc
}

/**
 * `merge`: the shards' results documents, checked to be one whole suite, made the one document an
 * unsharded run of it would write, gated here (with the baseline restored for `baseline: auto`).
 * A shard that cannot be merged is a configuration error naming the input and the file.
 */
async function mergeShardResults(merge: MergeOptions, unused: string[], produced: Produced, network: NetworkSteps): Promise<ResultsDocument> {
  // An evals/v1 suite's results.json and metrics.json go in output_dir (eval-results), as an unsharded run's.
  produced.paths = resultPaths(merge.resultsPath, merge.reportPath, null, merge.outputDir)
  produced.publish = readPublishOptions()
  const { checkOutputsApart, checkShardSet, formatMergeLines, mergeShards, MergeError, readShardFiles } = await mergeModules()
  if (unused.length > 0) core.warning(`${unused.join(', ')}: not used with ${Inputs.Merge}, which merges the suite the shards' results documents hold.`)
  try {
    const shards = checkShardSet(readShardFiles(merge.patterns))
    const { paths } = produced
    checkOutputsApart(shards, [
      { path: paths.resultsPath, what: 'results' },
      { path: paths.reportPath, what: 'report' },
      { path: merge.journalPath, what: 'journal' },
      ...(paths.htmlPath && produced.publish.htmlReport ? [{ path: paths.htmlPath, what: 'HTML report' }] : [])
    ])
    for (const line of formatMergeLines(shards)) core.info(line)
    let { gate } = merge
    if (gate.baseline === 'auto' && shards[0]!.document.shard.planned_total > 0) gate = { ...gate, baseline: await restoredBaseline(produced.publish.baselineKey, network) }
    return mergeShards(shards, { gate, journalPath: merge.journalPath, warn: (message) => core.warning(message) })
  } catch (error) {
    throw error instanceof MergeError ? error.withInput(Inputs.Merge) : error
  }
}

/** The last green results restored from the Actions cache (`baseline: auto`); '' when there are none. */
async function restoredBaseline(baselineKey: string, network: NetworkSteps): Promise<string> {
  let baseline = ''
  await network('restoring the baseline', async () => (baseline = await (await githubCache()).restoreBaseline(BASELINE_DIR(), baselineKey)))
  return baseline
}

/**
 * Everything a finished evaluation or merge (or a fatal document) publishes: the files, outputs,
 * annotations, job summary, the comment, the artifact, the cache saves and the baseline, then the
 * one setFailed. Returns the exit code.
 */
async function publishResults(document: ResultsDocument, produced: Produced, cancel: AbortSignal, network: NetworkSteps, failure: { annotated: boolean; badConfiguration: boolean }): Promise<number> {
  let doc = document
  const { publish, secrets, saves } = produced
  const { annotateResults, describeNotWritten, evalsV1Files, publishComment, ResultsNotWrittenError, setActionOutputs, writeJobSummary, writeResults } = await outputModules()
  const paths = { ...produced.paths, htmlPath: publish.htmlReport ? produced.paths.htmlPath : undefined, journalPath: doc.journal?.path || undefined }
  let report = ''
  let files: string[] = []
  // Set when the results document (or a file rendered with it) could not be written: the step then fails, whatever the verdict.
  let notWritten: string | null = null
  // Where the host wrote the screenshots: the action's paths carry output_dir as evalsV1Dir.
  const appsRoot = appsRootOf(paths.evalsV1Dir ?? '', paths.resultsPath ?? '')
  try {
    const written = writeResults(doc, paths, secrets)
    doc = written.document
    report = written.report
    files = written.files
    // Snapshots written on the runner reach the repository only through the artifact.
    if (produced.updateSnapshots && doc.tool_tests) files.push(...snapshotFiles(doc.tool_tests.snapshot_dir))
    // MCP Apps: the screenshots the document names (and the baseline's and the diffs), for the artifact.
    files.push(...appFiles(doc, appsRoot))
  } catch (error) {
    const partly = error instanceof ResultsNotWrittenError ? error.written : null
    const what = describeNotWritten(error, paths.resultsPath)
    notWritten = `${what.charAt(0).toUpperCase()}${what.slice(1)}, so this step fails whatever the verdict.`
    core.error(notWritten)
    // What is published below is redacted all the same, and names only the files that were written.
    doc = partly?.document ?? redactDeep(doc, secrets)
    report = partly?.report ?? ''
    files = partly?.files ?? []
  }
  // The journal is written as the runs finish: named (and uploaded) whenever it is there, a failure to write the rest included.
  if (paths.journalPath && existsSync(paths.journalPath)) files.push(paths.journalPath)
  setActionOutputs(doc, writtenPaths(doc, paths, files, evalsV1Files))
  annotateResults(doc)
  if (publish.jobSummary && report) await writeJobSummary(report, paths.reportPath)
  // Cancelled: the comment says so first, then what a re-run needs, then the artifact.
  let commented = false
  const comment = async (artifacts: UploadedArtifacts) => {
    commented = true
    await network('the PR comment', () => publishComment(doc, publish, artifacts))
  }
  if (cancel.aborted) {
    await comment({})
    for (const save of saves.splice(0)) await network(save.what, save.task)
  }
  const artifacts: UploadedArtifacts = {}
  if (publish.uploadArtifact && files.length) {
    // Loaded here: @actions/artifact is a large part of the start otherwise.
    const artifact = () => import('./github/artifact.js')
    const upload = async () => (await artifact()).uploadResultsArtifact(publish.artifactName, files.map((f) => resolve(f)), process.cwd(), publish.retentionDays)
    await network('the artifact upload', async () => (artifacts.results = await upload()))
    // The page again on its own, not zipped: GitHub opens it in the browser, and the comment links into it (so before the comment).
    const html = paths.htmlPath && files.includes(paths.htmlPath) ? paths.htmlPath : null
    if (html) await network('the HTML report upload', async () => (artifacts.html = await (await artifact()).uploadHtmlArtifact(publish.artifactName, resolve(html), publish.retentionDays)))
  }
  if (!commented) await comment(artifacts)
  for (const save of saves) await network(save.what, save.task)
  if (notWritten === null && files.length && doc.behaviour.status === 'ran' && !cancel.aborted) {
    await network('saving the baseline', async () => (await githubCache()).saveBaseline(paths.resultsPath, BASELINE_DIR(), publish.baselineKey, publish.saveBaseline, doc.passed, join(appsRoot, 'apps')))
  }

  // The document's section, not the probes' report: it holds the checks observed on the runs' calls too, as the report does.
  if (doc.conformance) for (const line of formatConformanceLines(doc.conformance)) core.info(redactText(line, secrets))
  core.info(formatSummaryLine(doc))
  if (notWritten !== null) {
    core.setFailed(notWritten)
    return failure.badConfiguration ? 2 : 1
  }
  if (doc.fatal_error !== null) {
    core.setFailed(failure.annotated ? 'Invalid configuration: see the errors above.' : doc.fatal_error)
    return failure.badConfiguration ? 2 : 1
  }
  if (doc.cancelled) core.setFailed(cancelledReason(doc))
  else if (cancel.aborted) core.setFailed(`Cancelled while publishing: the evaluation had finished (passed: ${doc.passed}) and its results are written.`)
  else if (!doc.passed) core.setFailed(failureReason(doc))
  return doc.passed ? 0 : 1
}

/**
 * The paths as outputs name them: each file this step wrote, '' (or absent) for one it did not.
 * For an evals/v1 suite `results_json` is its results.json, as eval-action's output is (report_md
 * is already output_dir's report.md).
 */
function writtenPaths(
  doc: ResultsDocument,
  paths: ResultPaths & { journalPath?: string },
  files: readonly string[],
  evalsV1Files: typeof import('./output/write-results.js').evalsV1Files
): ResultPaths & { journalPath?: string } {
  const written = new Set(files.map((f) => resolve(f)))
  const named = (path: string | undefined) => (path && written.has(resolve(path)) ? path : '')
  const results = evalsV1Files(doc, paths.evalsV1Dir)?.results ?? paths.resultsPath
  return {
    ...paths,
    resultsPath: named(results),
    reportPath: named(paths.reportPath),
    // Named only with html_report on: report_html is then '' when the page could not be written.
    htmlPath: paths.htmlPath === undefined ? undefined : named(paths.htmlPath),
    junitPath: named(paths.junitPath),
    sarifPath: named(paths.sarifPath),
    badgePath: named(paths.badgePath),
    journalPath: named(paths.journalPath)
  }
}

/**
 * A shard publishes its results (summary, artifact under a shard-suffixed name) but no comment and
 * no baseline: the merge of all shards does, with the verdict of the whole suite.
 */
function forShard(publish: PublishOptions, shard: Shard | null): PublishOptions {
  if (!shard) return publish
  return { ...publish, comment: null, commentSkipped: null, artifactName: `${publish.artifactName}-${shardLabel(shard)}`, saveBaseline: 'never' }
}

/** What a shard does and does not do, said once at the start. */
function formatShardLine(shard: Shard, artifactName: string): string {
  const free = shard.index === 1 ? 'with conformance and the tool tests' : 'conformance and the tool tests run in shard 1'
  return `Shard ${shard.index} of ${shard.count}: its share of the plan (${free}); results in the artifact ${artifactName}; no PR comment, no gate and no baseline here: the job that merges the shards gives the verdict.`
}

/** A cache key part made a shard's own. */
function withShard(key: string, shard: Shard | null): string {
  return shard ? `${key}-${shardLabel(shard)}` : key
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
