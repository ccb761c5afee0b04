// Log lines through the neutraliser; setOutput and the summary as @actions/core has them.
import * as core from './log.js'
import * as github from '@actions/github'
import { Outputs } from '../constants.js'
import { keptRunDirs } from '../execute/run-dirs.js'
import { failureReasons } from '../report/reasons.js'
import { renderComment } from '../report/comment.js'
import { toolTestFailureWords } from '../report/tool-tests.js'
import { trimToBytes } from '../report/trim.js'
import { withoutScreenshots } from '../report/apps.js'
import type { ResultsDocument } from '../results/types.js'
import { stickyMarker, upsertStickyComment } from './comment.js'
import type { PublishOptions } from './inputs.js'

/** GitHub's job summary limit per step. */
const SUMMARY_MAX_BYTES = 1024 * 1024
/** GitHub shows only the first 10 error and 10 warning annotations of a step. */
const MAX_ANNOTATIONS = 10

export function setActionOutputs(doc: ResultsDocument, paths: { resultsPath: string; reportPath: string; htmlPath?: string; junitPath?: string; sarifPath?: string; badgePath?: string; journalPath?: string }): void {
  core.setOutput(Outputs.ResultsJson, paths.resultsPath)
  core.setOutput(Outputs.ReportMd, paths.reportPath)
  // Set whenever html_report is on ('' when it could not be written), as report_md is.
  if (paths.htmlPath !== undefined) core.setOutput(Outputs.ReportHtml, paths.htmlPath)
  core.setOutput(Outputs.Passed, doc.passed ? 'true' : 'false')
  core.setOutput(Outputs.PassRate, doc.summary.pass_rate === null ? '' : String(doc.summary.pass_rate))
  core.setOutput(Outputs.Total, String(doc.summary.total))
  core.setOutput(Outputs.Failed, String(doc.summary.failed + doc.summary.errored))
  core.setOutput(Outputs.Cancelled, doc.cancelled ? 'true' : 'false')
  core.setOutput(Outputs.ToolTestsTotal, String(doc.tool_tests?.total ?? 0))
  core.setOutput(Outputs.ToolTestsFailed, String(doc.tool_tests ? doc.tool_tests.total - doc.tool_tests.passed : 0))
  // What was spent; empty when unknown (a provider without costs and no `pricing:`), never 0 for unknown.
  const spent = doc.telemetry?.overall.spent_usd ?? null
  core.setOutput(Outputs.CostUsd, spent === null ? '' : String(spent))
  if (paths.junitPath) core.setOutput(Outputs.JunitXml, paths.junitPath)
  if (paths.sarifPath) core.setOutput(Outputs.Sarif, paths.sarifPath)
  if (paths.badgePath) core.setOutput(Outputs.BadgeJson, paths.badgePath)
  if (paths.journalPath) core.setOutput(Outputs.Journal, paths.journalPath)
  // Where the failed runs' directories were kept (keep_run_dirs), for an upload-artifact step.
  core.setOutput(Outputs.RunDirs, keptRunDirs(doc.runs)?.parent ?? '')
}

/** Append the report to the job summary; a summary problem is a warning, never a failure. */
export async function writeJobSummary(report: string, reportPath: string): Promise<void> {
  try {
    // The artifact's screenshots cannot be shown in a job summary: their links stay, their images go.
    const text = trimToBytes(withoutScreenshots(report), SUMMARY_MAX_BYTES, `The report was cut here to fit GitHub's 1 MiB job summary limit; the full report is in ${reportPath}.`)
    await core.summary.addRaw(text, true).write()
  } catch (error) {
    core.warning(`Could not write the job summary: ${(error as Error).message}`)
  }
}

/** Conformance errors, and runs and tool tests that did not pass, as annotations with titles. */
export function annotateResults(doc: ResultsDocument): void {
  const errors: [string, string][] = []
  const warnings: [string, string][] = []
  for (const check of doc.conformance?.checks ?? []) {
    if (check.status === 'fail') errors.push([`MCP conformance: ${check.id}`, `${check.message} (${check.spec})`])
    if (check.status === 'warn') warnings.push([`MCP conformance: ${check.id}`, `${check.message} (${check.spec})`])
  }
  for (const run of doc.runs.filter((r) => r.status === 'failed' || r.status === 'error')) {
    errors.push([`Eval ${run.status === 'error' ? 'errored' : 'failed'}: ${run.case_id} · ${run.model} · ${run.prompt_name}`, failureReasons(run).join('; ')])
  }
  for (const test of doc.tool_tests?.tests ?? []) {
    const why = toolTestFailureWords(test)
    if (why && test.status !== 'cancelled') errors.push([`Tool test ${test.status === 'error' ? 'errored' : 'failed'}: ${test.id}`, why])
  }
  const emit = (list: [string, string][], annotate: (message: string, props: { title: string }) => void) => {
    for (const [title, message] of list.slice(0, MAX_ANNOTATIONS)) annotate(message, { title })
    if (list.length > MAX_ANNOTATIONS) core.info(`${list.length - MAX_ANNOTATIONS} more annotations are in the report.`)
  }
  emit(errors, core.error)
  emit(warnings, core.warning)
}

/** The run's page, where the job summary is shown. */
function runUrl(): string | undefined {
  const { serverUrl, runId } = github.context
  const repository = process.env.GITHUB_REPOSITORY
  return repository && runId ? `${serverUrl}/${repository}/actions/runs/${runId}` : undefined
}

/** The artifacts this step uploaded, by id: the results (zipped) and the HTML report (non-zipped, opens in the browser). */
export interface UploadedArtifacts {
  results?: number
  html?: number
}

/**
 * Create or update the sticky PR comment. A read-only token (a pull request from a fork) or any
 * other API problem is one warning; the job summary still has the report. Its links are built
 * from GitHub's context and the artifacts' ids only; with the HTML artifact, each failed run and
 * conformance finding it lists links to its anchor in the page.
 */
export async function publishComment(doc: ResultsDocument, options: PublishOptions, artifacts: UploadedArtifacts = {}): Promise<void> {
  if (options.commentSkipped) core.warning(`No PR comment: ${options.commentSkipped}.`)
  if (!options.comment) return
  const run = runUrl()
  const artifactUrl = (id: number | undefined) => (run && id !== undefined ? `${run}/artifacts/${id}` : undefined)
  const body = renderComment(doc, {
    marker: stickyMarker(options.comment.key),
    links: { summary: run, artifact: artifactUrl(artifacts.results), html: artifactUrl(artifacts.html) }
  })
  try {
    const octokit = github.getOctokit(options.token)
    const { key, ...target } = options.comment
    const { action, url } = await upsertStickyComment(octokit, target, stickyMarker(key), body)
    core.info(`PR comment ${action}: ${url}`)
    core.setOutput(Outputs.CommentUrl, url)
  } catch (error) {
    const status = (error as { status?: number }).status
    const hint = status === 403 || status === 404 ? ': the token cannot write comments here (a pull request from a fork gets a read-only token; grant pull-requests: write otherwise)' : ''
    core.warning(`Could not write the PR comment (${status ? `HTTP ${status}` : (error as Error).message})${hint}. The report is in the job summary.`)
  }
}
