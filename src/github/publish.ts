import * as core from '@actions/core'
import { Outputs } from '../constants.js'
import { trimToBytes } from '../report/trim.js'
import type { ResultsDocument } from '../results/types.js'

/** GitHub's job summary limit per step. */
const SUMMARY_MAX_BYTES = 1024 * 1024

export function setActionOutputs(doc: ResultsDocument, paths: { resultsPath: string; reportPath: string }): void {
  core.setOutput(Outputs.ResultsJson, paths.resultsPath)
  core.setOutput(Outputs.ReportMd, paths.reportPath)
  core.setOutput(Outputs.Passed, doc.passed ? 'true' : 'false')
  core.setOutput(Outputs.PassRate, String(doc.summary.pass_rate))
  core.setOutput(Outputs.Total, String(doc.summary.total))
  core.setOutput(Outputs.Failed, String(doc.summary.failed + doc.summary.errored))
}

/** Append the report to the job summary; a summary problem is a warning, never a failure. */
export async function writeJobSummary(report: string, reportPath: string): Promise<void> {
  try {
    const text = trimToBytes(report, SUMMARY_MAX_BYTES, `The report was cut here to fit GitHub's 1 MiB job summary limit; the full report is in ${reportPath}.`)
    await core.summary.addRaw(text, true).write()
  } catch (error) {
    core.warning(`Could not write the job summary: ${(error as Error).message}`)
  }
}
