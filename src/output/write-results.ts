import { join } from 'node:path'
import { renderBadge } from '../report/badge.js'
import { renderJUnit } from '../report/junit.js'
import { renderMarkdownReport } from '../report/markdown.js'
import { anchor } from '../report/runs.js'
import { renderSarif } from '../report/sarif.js'
import type { ResultsDocument } from '../results/types.js'
import { redactDeep } from '../util/redact.js'
import { writeFileReplacing } from '../util/write-file.js'

/**
 * Every fraction to 12 significant digits, where the document is written: 8.7 / 10 is
 * 0.8700000000000001 in floating point and 0.87 in the document, while a cost of $0.0000012 keeps
 * its digits.
 */
export function withoutFloatNoise<T>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'number') return Number.isInteger(v) || !Number.isFinite(v) ? v : Number(v.toPrecision(12))
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    return v
  }
  return walk(value) as T
}

export interface OutputPaths {
  /** Undefined: the document is not written (`report --from eval-results.json` keeps its input). */
  resultsPath: string | undefined
  reportPath: string
  junitPath?: string
  /** SARIF 2.1.0 for code scanning. */
  sarifPath?: string
  badgePath?: string
  /** One JSON file per run, with its whole transcript. */
  transcriptsDir?: string
}

/**
 * Write the results document and everything rendered from it (report, JUnit XML, badge,
 * per-run transcripts), with every secret redacted first. Returns the texts and the files.
 */
export function writeResults(doc: ResultsDocument, paths: OutputPaths, secrets: readonly string[]) {
  const safe = redactDeep(withoutFloatNoise(doc), secrets)
  const results = `${JSON.stringify(safe, null, 2)}\n`
  const report = renderMarkdownReport(safe)
  const junit = renderJUnit(safe)
  const outputs: [string, string][] = [...(paths.resultsPath ? [[paths.resultsPath, results] as [string, string]] : []), [paths.reportPath, report]]
  if (paths.junitPath) outputs.push([paths.junitPath, junit])
  if (paths.sarifPath) outputs.push([paths.sarifPath, `${JSON.stringify(renderSarif(safe), null, 2)}\n`])
  if (paths.badgePath) outputs.push([paths.badgePath, `${JSON.stringify(renderBadge(safe), null, 2)}\n`])
  if (paths.transcriptsDir) {
    for (const run of safe.runs) outputs.push([join(paths.transcriptsDir, `${String(run.index).padStart(3, '0')}-${anchor(run)}.json`), `${JSON.stringify(run, null, 2)}\n`])
  }
  // Each file replaced, never written through a link planted at its name (util/write-file.ts); one
  // that cannot be written does not keep the others from being written, and is said at the end.
  const failures: string[] = []
  for (const [path, text] of outputs) {
    try {
      writeFileReplacing(path, text)
    } catch (error) {
      failures.push((error as Error).message)
    }
  }
  if (failures.length > 0) throw new Error(failures.length === 1 ? failures[0] : `${failures.length} files could not be written: ${failures.join('; ')}`)
  return { document: safe, results, report, junit, files: outputs.map(([path]) => path) }
}
