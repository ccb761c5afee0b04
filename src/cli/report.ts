import { parseArgs } from 'node:util'
import { writeResults, applyGate } from '../evaluate.js'
import { documentFromJournal, JournalError, readJournal } from '../execute/journal.js'
import { formatSummaryLine } from '../report/progress.js'
import { Defaults } from '../constants.js'

export const REPORT_USAGE = `mcp-server-evals report --from FILE: rebuild the results document, the report and JUnit from a run
journal (what an interrupted or finished evaluation wrote, one line per run), with nothing run again.
  --from PATH                 the journal (eval-runs.jsonl)
  --output PATH               results JSON (default eval-results.json)
  --report PATH               Markdown report (default eval-report.md)
  --junit PATH                also write JUnit XML there
  --baseline PATH             gate against this results document (default: the journal's own baseline)`

/**
 * `report --from`: every rendering from the journal alone. Exit status 0 when the document
 * passes, 1 when it does not (a cancelled or incomplete journal never does), 2 when the journal
 * cannot be read.
 */
export function reportCommand(argv: string[]): number {
  let values: Record<string, string | boolean | undefined>
  try {
    values = parseArgs({
      args: argv,
      options: {
        from: { type: 'string' },
        output: { type: 'string' },
        report: { type: 'string' },
        junit: { type: 'string' },
        baseline: { type: 'string' },
        help: { type: 'boolean', short: 'h' }
      },
      strict: true
    }).values
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${REPORT_USAGE}\n`)
    return 2
  }
  if (values.help) {
    process.stdout.write(`${REPORT_USAGE}\n`)
    return 0
  }
  const from = values.from as string | undefined
  if (!from) {
    process.stderr.write(`error: --from is required\n\n${REPORT_USAGE}\n`)
    return 2
  }
  try {
    const { state, skipped } = readJournal(from)
    if (skipped > 0) process.stderr.write(`warning: skipped ${skipped} unreadable line(s) of ${from}.\n`)
    const gate = { ...state.header.gate, ...(values.baseline !== undefined ? { baseline: values.baseline as string } : {}) }
    const doc = applyGate(documentFromJournal(state), gate, (message) => process.stderr.write(`warning: ${message}\n`))
    const paths = {
      resultsPath: (values.output as string | undefined) ?? Defaults.ResultsPath,
      reportPath: (values.report as string | undefined) ?? Defaults.ReportPath,
      junitPath: values.junit as string | undefined
    }
    const written = writeResults(doc, paths, [])
    process.stdout.write(`${formatSummaryLine(written.document)}\nResults: ${paths.resultsPath}\nReport:  ${paths.reportPath}\n`)
    return doc.passed ? 0 : 1
  } catch (error) {
    if (!(error instanceof JournalError)) throw error
    process.stderr.write(`error: ${error.message}\n`)
    return 2
  }
}
