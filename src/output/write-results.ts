import { join, resolve } from 'node:path'
import { renderBadge } from '../report/badge.js'
import { renderJUnit } from '../report/junit.js'
import { renderMarkdownReport } from '../report/markdown.js'
import { anchor } from '../report/runs.js'
import { renderSarif } from '../report/sarif.js'
import { htmlReportChunks } from '../report/html/render.js'
import { appsRootOf } from './app-files.js'
import { imageReaderUnder } from './read-image.js'
import type { ResultsDocument } from '../results/types.js'
import { mapJsonLeaves } from '../util/json.js'
import { redactDeep } from '../util/redact.js'
import { writeFileReplacing, writeFileReplacingWith } from '../util/write-file.js'
import { evalsV1Metrics } from '../aggregate/evals-v1-metrics.js'
import { evalsV1Results } from './evals-v1-results.js'
import { documentJsonPieces } from './document-json.js'

/**
 * Every fraction to 12 significant digits, where the document is written: 8.7 / 10 is
 * 0.8700000000000001 in floating point and 0.87 in the document, while a cost of $0.0000012 keeps
 * its digits.
 */
export function withoutFloatNoise<T>(value: T): T {
  // Copied only where a number changes: most of a document is strings and whole numbers.
  return mapJsonLeaves(value, (v) => (typeof v === 'number' && !Number.isInteger(v) && Number.isFinite(v) ? Number(v.toPrecision(12)) : v)) as T
}

export interface OutputPaths {
  /** Undefined: the document is not written (`report --from eval-results.json` keeps its input). */
  resultsPath: string | undefined
  reportPath: string
  junitPath?: string
  /** SARIF 2.1.0 for code scanning. */
  sarifPath?: string
  badgePath?: string
  /** eval-report.html: the self-contained page, rendered from the same redacted document. */
  htmlPath?: string
  /**
   * Where the pictures the document names are (its `apps/…` paths are relative to it), for the
   * HTML report to inline; default: where the host wrote them, appsRootOf(evalsV1Dir, resultsPath).
   */
  appsRoot?: string
  /** One JSON file per run, with its whole transcript. */
  transcriptsDir?: string
  /** An evals/v1 suite's document only: where @mcp-use/evals' `results.json` and `metrics.json` go (the output_dir); unset or '': not written. */
  evalsV1Dir?: string
}

/** The report with `note` as a paragraph after its first line (the heading), or as it is without one. */
function withNote(report: string, note: string | undefined): string {
  if (!note) return report
  const end = report.indexOf('\n')
  return end < 0 ? `${report}\n\n${note}\n` : `${report.slice(0, end)}\n\n${note}${report.slice(end)}`
}

/**
 * Where an evals/v1 suite's results.json and metrics.json go: `dir` (output_dir), when the
 * document is an evals/v1 suite's and is not one shard's (a shard gives no verdict: the merge
 * writes them); null for any other document, or without a directory.
 */
export function evalsV1Files(doc: Pick<ResultsDocument, 'evals_v1' | 'shard'>, dir: string | undefined): { results: string; metrics: string } | null {
  if (!doc.evals_v1 || !dir || doc.shard) return null
  return { results: join(dir, 'results.json'), metrics: join(dir, 'metrics.json') }
}

/** Some files could not be rendered or written; the others were. */
export class ResultsNotWrittenError extends Error {
  constructor(
    message: string,
    /** The redacted document, the report's text ('' when it was not rendered) and the files that were written. */
    readonly written: { document: ResultsDocument; report: string; files: string[] }
  ) {
    super(message)
    this.name = 'ResultsNotWrittenError'
  }
}

/**
 * What a failed writeResults left, in words: "the results could not be written (why): only
 * eval-report.md were written", or "…: eval-results.json and the files rendered with it are
 * missing or stale" when nothing was.
 */
export function describeNotWritten(error: unknown, resultsPath: string | undefined): string {
  const files = error instanceof ResultsNotWrittenError ? error.written.files : []
  const wrote = files.length ? `only ${files.join(', ')} were written` : `${resultsPath} and the files rendered with it are missing or stale`
  return `the results could not be written (${(error as Error).message}): ${wrote}`
}

/** The CLI's line naming an evals/v1 suite's results.json and metrics.json ("" for any other document). */
export function evalsV1Lines(doc: ResultsDocument, dir: string | undefined): string {
  const files = evalsV1Files(doc, dir)
  return files ? `evals/v1: ${files.results}, ${files.metrics}\n` : ''
}

/** results.json and metrics.json, where evalsV1Files puts them. */
function evalsV1Outputs(doc: ResultsDocument, paths: OutputPaths): [string, string, () => string][] {
  const files = evalsV1Files(doc, paths.evalsV1Dir)
  if (!files) return []
  // Never over one of our own files (results_path: eval-results/results.json): that one is kept, this one refused.
  const ours = new Set([paths.resultsPath, paths.reportPath, paths.junitPath, paths.sarifPath, paths.badgePath, paths.htmlPath].flatMap((p) => (p ? [resolve(p)] : [])))
  const apart = (path: string, render: () => string) => () => {
    if (ours.has(resolve(path))) throw new Error(`it is also the path of another file written here; give that one another name`)
    return render()
  }
  return [
    [files.results, 'evals/v1 results.json', apart(files.results, () => `${JSON.stringify(withoutFloatNoise(evalsV1Results(doc, paths.resultsPath)), null, 2)}\n`)],
    [files.metrics, 'evals/v1 metrics.json', apart(files.metrics, () => `${JSON.stringify(withoutFloatNoise(evalsV1Metrics(doc)), null, 2)}\n`)]
  ]
}

/** Pieces gathered to about this many characters before each write. */
const STREAM_WRITE_CHARS = 1 << 20

/**
 * Write `pieces` to `path` as writeFileReplacing does (nothing is left at the path when it fails
 * half-way); null when written, else why not, and whether it was the rendering that failed.
 */
function writeStreamed(path: string, pieces: Iterable<string>): { message: string; rendering: boolean } | null {
  let renderError: Error | null = null
  try {
    writeFileReplacingWith(path, (write) => {
      const iterator = pieces[Symbol.iterator]()
      let buffer = ''
      for (;;) {
        let step: IteratorResult<string>
        try {
          step = iterator.next()
        } catch (error) {
          renderError = error as Error
          throw error
        }
        if (step.done) break
        buffer += step.value
        if (buffer.length >= STREAM_WRITE_CHARS) {
          write(buffer)
          buffer = ''
        }
      }
      if (buffer) write(buffer)
    })
    return null
  } catch (error) {
    return renderError ? { message: (renderError as Error).message, rendering: true } : { message: (error as Error).message, rendering: false }
  }
}

/**
 * Write the results document and everything rendered from it (an evals/v1 suite's results.json
 * and metrics.json, report, JUnit XML, SARIF, badge, HTML report, per-run transcripts), with every secret
 * redacted first. The results document is written first;
 * a file that cannot be rendered or written does not keep the others from being written, and all
 * such failures are thrown at the end as one ResultsNotWrittenError, which says what was written.
 * Returns the texts and the files. `reportNote`: a Markdown paragraph the report carries under its
 * first heading (`--demo`: its figures are simulated).
 */
export function writeResults(doc: ResultsDocument, paths: OutputPaths, secrets: readonly string[], extras: { reportNote?: string } = {}) {
  const safe = redactDeep(withoutFloatNoise(doc), secrets)
  const texts: Record<string, string> = {}
  const outputs: [string | undefined, string, () => string | Iterable<string>][] = [
    // In pieces, run by run: never one string of the document's size.
    [paths.resultsPath, 'results', () => documentJsonPieces(safe)],
    // @mcp-use/evals' files, from the document alone (already redacted), right after it.
    ...evalsV1Outputs(safe, paths),
    [paths.reportPath, 'report', () => withNote(renderMarkdownReport(safe), extras.reportNote)],
    [paths.junitPath, 'junit', () => renderJUnit(safe)],
    [paths.sarifPath, 'sarif', () => `${JSON.stringify(renderSarif(safe), null, 2)}\n`],
    [paths.badgePath, 'badge', () => `${JSON.stringify(renderBadge(safe), null, 2)}\n`],
    // The pictures are read only from under the output directory: a document's paths never lead out of it.
    [paths.htmlPath, 'HTML report', () => htmlReportChunks(safe, { readImage: imageReaderUnder(paths.appsRoot ?? appsRootOf(paths.evalsV1Dir ?? '', paths.resultsPath ?? '')) })]
  ]
  if (paths.transcriptsDir) {
    for (const run of safe.runs) outputs.push([join(paths.transcriptsDir, `${String(run.index).padStart(3, '0')}-${anchor(run)}.json`), 'transcript', () => `${JSON.stringify(run, null, 2)}\n`])
  }
  // Each file replaced, never written through a link planted at its name (util/write-file.ts).
  const failures: string[] = []
  const files: string[] = []
  for (const [path, what, render] of outputs) {
    if (!path) continue
    let rendered: string | Iterable<string>
    try {
      rendered = render()
    } catch (error) {
      failures.push(`${path}: the ${what} could not be rendered (${(error as Error).message})`)
      continue
    }
    if (typeof rendered !== 'string') {
      // Streamed in pieces (the HTML report embeds the whole document): never one more string of its size.
      const failure = writeStreamed(path, rendered)
      if (failure === null) files.push(path)
      else failures.push(failure.rendering ? `${path}: the ${what} could not be rendered (${failure.message})` : failure.message)
      continue
    }
    // The transcripts are not returned: they can be many, and no caller prints them.
    if (what !== 'transcript') texts[what] = rendered
    try {
      writeFileReplacing(path, rendered)
      files.push(path)
    } catch (error) {
      failures.push((error as Error).message)
    }
  }
  const report = texts.report ?? ''
  if (failures.length > 0) {
    const message = failures.length === 1 ? failures[0] : `${failures.length} files could not be written: ${failures.join('; ')}`
    throw new ResultsNotWrittenError(message, { document: safe, report, files })
  }
  return {
    document: safe,
    // Rendered when asked for (a test): at 10,000 runs each is a large string no caller needs.
    get results() {
      return `${JSON.stringify(safe, null, 2)}\n`
    },
    report,
    get junit() {
      return texts.junit ?? renderJUnit(safe)
    },
    files
  }
}
