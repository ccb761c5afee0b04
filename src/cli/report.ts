import { parseArgs } from 'node:util'
import { describeFlagError } from './parse-error.js'
import { cliCommand } from './invocation.js'
import { dirname } from 'node:path'
import { evalsV1Lines, ResultsNotWrittenError, writeResults } from '../output/write-results.js'
import { applyGate } from '../execute/baseline.js'
import { shapeProblem } from '../execute/record-shapes.js'
import { describeSkippedLines, documentFromJournal, JournalError, readJournal } from '../execute/journal.js'
import { renderComment } from '../report/comment.js'
import { writeFileReplacing } from '../util/write-file.js'
import { formatSummaryLine } from '../report/progress.js'
import type { ResultsDocument } from '../results/types.js'
import { READABLE_VERSIONS_TEXT } from '../results/upgrade.js'
import { upgradeDocument } from '../aggregate/upgrade-document.js'
import { Defaults, docsLink } from '../constants.js'
import { FileLimits, readBoundedFile } from '../util/read-file.js'
import { count } from '../util/words.js'
import { ConfigError } from '../config/errors.js'
import { HTML_OPTIONS, HTML_USAGE, htmlPathOf, withBareHtml } from './html-flag.js'

export const reportUsage = (cmd: string) => `${cmd} report --from FILE: rebuild the results document, the report, the HTML report, JUnit and
the PR comment from a saved results document (eval-results.json) or a run journal (eval-runs.jsonl, what an
interrupted or finished evaluation wrote, one line per run), with nothing run again.
  --from PATH                 eval-results.json or eval-runs.jsonl
  --baseline PATH             compare with this earlier results document: the gate and "What changed"
                              (default: a journal's own baseline; a results document keeps its gate)
  --gate MODE                 delta (default with a baseline), absolute, both
  --max-drop X                largest allowed fall of an aggregate metric (default: as recorded, else 0.02)
  --output PATH               results JSON (default: eval-results.json from a journal; none from a results document)
  --report PATH               Markdown report (default eval-report.md)
${HTML_USAGE}
  --junit PATH                also write JUnit XML there
  --sarif PATH                also write SARIF 2.1.0 there
  --comment PATH              also write the sticky PR comment's Markdown there
  --output-dir DIR            an evals/v1 suite's results.json and metrics.json, and where the screenshots (apps/) are
                              (default: beside --from)
The reference: ${docsLink('cli.md')}`

/** The flags of the commands that render a document without running anything (`report`, `merge`): where to write, and how to gate. */
export const RENDER_OPTIONS = {
  output: { type: 'string' },
  report: { type: 'string' },
  ...HTML_OPTIONS,
  junit: { type: 'string' },
  sarif: { type: 'string' },
  comment: { type: 'string' },
  'output-dir': { type: 'string' },
  baseline: { type: 'string' },
  gate: { type: 'string' },
  'max-drop': { type: 'string' },
  help: { type: 'boolean', short: 'h' }
} as const

const REPORT_OPTIONS = { from: { type: 'string' }, ...RENDER_OPTIONS } as const
const REPORT_FLAGS = Object.keys(REPORT_OPTIONS)

class ReportError extends Error {}

function gateMode(value: string | boolean | undefined): 'delta' | 'absolute' | 'both' | null {
  if (value === undefined) return null
  if (value === 'delta' || value === 'absolute' || value === 'both') return value
  throw new ReportError(`--gate: must be one of delta, absolute, both, got '${String(value)}'`)
}

function maxDrop(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (typeof value !== 'string' || value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new ReportError(`--max-drop: must be a number from 0 to 1, got '${String(value)}'`)
  return n
}

/**
 * A saved results document, or null when the file is not one (then it is read as a journal). A
 * file that is not a regular file (a FIFO, /dev/zero) or is over the journal's limit is an error.
 */
function readResultsDocument(path: string): ResultsDocument | null {
  let text: string
  try {
    text = readBoundedFile(path, Math.max(FileLimits.document, FileLimits.journal))
  } catch (error) {
    throw new ReportError(`cannot read --from ${path}: ${(error as Error).message}`)
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return null // JSON Lines: a journal
  }
  // A journal of one line (its header) is JSON too.
  if ((data as { type?: unknown } | null)?.type === 'header') return null
  const doc = upgradeDocument(data)
  if (!doc) throw new ReportError(`--from ${path} is JSON but neither a results document (eval-results.json, version ${READABLE_VERSIONS_TEXT}) nor a run journal (eval-runs.jsonl)`)
  // A field of the wrong type would crash a renderer half-way: refused here, naming it.
  const problem = shapeProblem('document', doc, '')
  if (problem) throw new ReportError(`--from ${path} is not a results document this version can render: ${problem}`)
  return doc
}

/** `--comment PATH`: the sticky PR comment's Markdown, as the action would post it, written to a file. */
export function writeCommentFile(path: string, doc: ResultsDocument): void {
  try {
    writeFileReplacing(path, renderComment(doc, { marker: '<!-- mcp-server-evals:sticky:local -->', links: {} }))
  } catch (error) {
    throw new ResultsNotWrittenError(`${path}: the comment could not be written (${(error as Error).message})`, { document: doc, report: '', files: [] })
  }
}

/**
 * `report --from`: every rendering from a saved document or a journal. Exit status 0 when the
 * document passes, 1 when it does not (a cancelled or incomplete journal never does), 2 when the
 * input cannot be read or the flags are wrong.
 */
export function reportCommand(argv: string[], io: { stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown } } = process): number {
  let values: Record<string, string | boolean | undefined>
  try {
    values = parseArgs({
      args: withBareHtml(argv),
      options: REPORT_OPTIONS,
      strict: true
    }).values
  } catch (error) {
    io.stderr.write(`error: ${describeFlagError(error as Error, REPORT_FLAGS)}\nRun '${cliCommand()} report --help' for the flags.\n`)
    return 2
  }
  if (values.help) {
    io.stdout.write(`${reportUsage(cliCommand())}\n`)
    return 0
  }
  const from = values.from as string | undefined
  if (!from) {
    io.stderr.write(`error: --from is required\n\n${reportUsage(cliCommand())}\n`)
    return 2
  }
  const warn = (message: string) => io.stderr.write(`warning: ${message}\n`)
  const baseline = values.baseline as string | undefined
  try {
    const gateFlag = gateMode(values.gate)
    const dropFlag = maxDrop(values['max-drop'])
    let doc = readResultsDocument(from)
    const fromDocument = doc !== null
    if (doc) {
      // Re-gated when a flag asks: the gate it ran under (unless that was only the default for
      // "no baseline"), its max_drop and its baseline, each unless a flag says otherwise.
      if (baseline !== undefined || gateFlag !== null || dropFlag !== undefined) {
        const mode = gateFlag ?? (doc.gate?.baseline ? doc.gate.mode : null)
        doc = applyGate({ ...doc, gate: null, changes: null }, { mode, max_drop: dropFlag ?? doc.gate?.max_drop ?? 0.02, baseline: baseline ?? doc.gate?.baseline?.source ?? '' }, warn)
      }
    } else {
      const { state, lines } = readJournal(from)
      if (lines.length > 0) warn(`skipped ${count(lines.length, 'unreadable line')} of ${from} (${describeSkippedLines(lines)}).`)
      const gate = {
        mode: gateFlag ?? state.header.gate.mode,
        max_drop: dropFlag ?? state.header.gate.max_drop,
        baseline: baseline ?? state.header.gate.baseline
      }
      doc = applyGate(documentFromJournal(state), gate, warn)
    }
    const reportPath = (values.report as string | undefined) ?? Defaults.ReportPath
    const paths = {
      // Re-rendering a results document writes a new one only where asked, never over its input by default.
      resultsPath: (values.output as string | undefined) ?? (fromDocument ? undefined : Defaults.ResultsPath),
      reportPath,
      htmlPath: htmlPathOf(values, reportPath),
      junitPath: values.junit as string | undefined,
      sarifPath: values.sarif as string | undefined,
      // An evals/v1 suite's results.json and metrics.json: where its run wrote them (beside the document or journal read), unless told.
      evalsV1Dir: (values['output-dir'] as string | undefined) || dirname(from)
    }
    const written = writeResults(doc, paths, [])
    const comment = values.comment as string | undefined
    if (comment) writeCommentFile(comment, written.document)
    io.stdout.write(`${formatSummaryLine(written.document)}\n${paths.resultsPath ? `Results: ${paths.resultsPath}\n` : ''}${evalsV1Lines(written.document, paths.evalsV1Dir)}Report:  ${paths.reportPath}\n${paths.htmlPath ? `HTML:    ${paths.htmlPath}\n` : ''}${comment ? `Comment: ${comment}\n` : ''}`)
    return written.document.passed ? 0 : 1
  } catch (error) {
    if (error instanceof ResultsNotWrittenError) {
      io.stderr.write(`error: the results could not be written (${error.message})\n`)
      return 1
    }
    if (!(error instanceof JournalError) && !(error instanceof ReportError) && !(error instanceof ConfigError)) throw error
    io.stderr.write(`error: ${error.message}\n`)
    return 2
  }
}
