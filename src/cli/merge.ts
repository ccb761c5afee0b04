import { parseArgs } from 'node:util'
import { docsLink } from '../constants.js'
import { ConfigError } from '../config/errors.js'
import { evalsV1Lines, ResultsNotWrittenError, writeResults } from '../output/write-results.js'
import { checkOutputsApart, checkShardSet } from '../merge/check-shards.js'
import { mergeShards } from '../merge/merge-document.js'
import { formatMergeLines } from '../merge/merge-lines.js'
import { resolveMergeOptions } from '../merge/options.js'
import { readShardFiles } from '../merge/read-shards.js'
import { formatSummaryLine } from '../report/progress.js'
import { describeFlagError } from './parse-error.js'
import { cliCommand } from './invocation.js'
import { RENDER_OPTIONS, writeCommentFile } from './report.js'
import { HTML_USAGE, htmlPathOf, withBareHtml } from './html-flag.js'

export const mergeUsage = (cmd: string) => `${cmd} merge FILE_OR_GLOB...: merge the results documents of a suite run in shards
(--shard I/N, one job each) into the one results document, report, HTML report, JUnit and PR comment that one
unsharded run of the suite writes, with its verdict. Shards of different suites or versions, and
missing, duplicated or overlapping shards, are refused with a message naming the file.
  FILE_OR_GLOB                the shards' eval-results.shard-I-of-N.json: paths, or a quoted glob
                              ('shards/eval-results.shard-*.json')
  --output PATH               results JSON (default eval-results.json)
  --report PATH               Markdown report (default eval-report.md)
${HTML_USAGE}
  --journal PATH              the merged run journal (default eval-runs.jsonl beside --output)
  --junit PATH                also write JUnit XML there
  --sarif PATH                also write SARIF 2.1.0 there
  --comment PATH              also write the sticky PR comment's Markdown there
  --output-dir DIR            an evals/v1 suite's results.json and metrics.json (default eval-results)
  --baseline PATH             an earlier results document to gate against
  --gate MODE                 delta (default with a baseline), absolute (default without), both
  --max-drop X                largest allowed fall of an aggregate metric (default 0.02)
The verdict and exit status are a run's (${cmd} --help): a cancelled or incomplete shard never
passes; shards that cannot be merged, or a wrong flag, exit 2 with nothing written.
The reference: ${docsLink('sharding.md')}`

const MERGE_OPTIONS = { ...RENDER_OPTIONS, journal: { type: 'string' } } as const
const MERGE_FLAGS = Object.keys(MERGE_OPTIONS)

/**
 * `merge`: read and check every shard first, then write the merged journal, document, report and
 * the files asked for, and print what was merged and the verdict. Returns the exit status.
 */
export function mergeCommand(argv: string[], io: { stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown } } = process): number {
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] }
  try {
    parsed = parseArgs({ args: withBareHtml(argv), options: MERGE_OPTIONS, allowPositionals: true, strict: true })
  } catch (error) {
    io.stderr.write(`error: ${describeFlagError(error as Error, MERGE_FLAGS)}\nRun '${cliCommand()} merge --help' for the flags.\n`)
    return 2
  }
  const { values, positionals } = parsed
  if (values.help) {
    io.stdout.write(`${mergeUsage(cliCommand())}\n`)
    return 0
  }
  if (positionals.length === 0) {
    io.stderr.write(`error: name the shards' results documents to merge\n\n${mergeUsage(cliCommand())}\n`)
    return 2
  }
  const text = (name: string) => values[name] as string | undefined
  const flag = (name: string) => ({ value: text(name), name: `--${name}` })
  try {
    const options = resolveMergeOptions({
      patterns: positionals,
      resultsPath: flag('output'),
      reportPath: flag('report'),
      journal: flag('journal'),
      gate: flag('gate'),
      maxDrop: flag('max-drop'),
      baseline: flag('baseline'),
      outputDir: flag('output-dir')
    })
    const shards = checkShardSet(readShardFiles(options.patterns))
    const asked = { junit: text('junit'), sarif: text('sarif'), comment: text('comment'), html: htmlPathOf(values, options.reportPath) }
    checkOutputsApart(shards, [
      { path: options.resultsPath, what: 'results' },
      { path: options.reportPath, what: 'report' },
      { path: options.journalPath, what: 'journal' },
      ...Object.entries(asked).flatMap(([what, path]) => (path ? [{ path, what }] : []))
    ])
    for (const line of formatMergeLines(shards)) io.stdout.write(`${line}\n`)
    const doc = mergeShards(shards, { gate: options.gate, journalPath: options.journalPath, warn: (message) => io.stderr.write(`warning: ${message}\n`) })
    // An evals/v1 suite's results.json and metrics.json: in --output-dir, else eval-results, as an unsharded run's.
    const evalsV1Dir = options.outputDir
    const written = writeResults(doc, { resultsPath: options.resultsPath, reportPath: options.reportPath, htmlPath: asked.html, junitPath: asked.junit, sarifPath: asked.sarif, evalsV1Dir }, [])
    if (asked.comment) writeCommentFile(asked.comment, written.document)
    io.stdout.write(
      `${formatSummaryLine(written.document)}\nResults: ${options.resultsPath}\n${evalsV1Lines(written.document, evalsV1Dir)}Report:  ${options.reportPath}\n${asked.html ? `HTML:    ${asked.html}\n` : ''}Journal: ${options.journalPath}\n${asked.comment ? `Comment: ${asked.comment}\n` : ''}`
    )
    return written.document.passed ? 0 : 1
  } catch (error) {
    if (error instanceof ResultsNotWrittenError) {
      io.stderr.write(`error: the results could not be written (${error.message})\n`)
      return 1
    }
    if (!(error instanceof ConfigError)) throw error
    io.stderr.write(`error: ${error.message}\n`)
    return 2
  }
}
