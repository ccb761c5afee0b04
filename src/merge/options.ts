import { dirname, join } from 'node:path'
import { gateOptions, type RawOption } from '../config/options.js'
import { Defaults } from '../constants.js'
import type { JournalGate } from '../execute/journal.js'

/** What a merge needs, from the action's inputs or the `merge` command's flags, validated once. */
export interface MergeOptions {
  /** Paths or globs of the shards' results documents, as given. */
  patterns: string[]
  resultsPath: string
  reportPath: string
  /** The merged run journal: beside the results unless given, where an unsharded run puts its own. */
  journalPath: string
  /** The merge's own verdict settings (a shard gives none). */
  gate: JournalGate
  /** Where an evals/v1 suite's results.json and metrics.json go: output_dir / --output-dir, else `eval-results`, as an unsharded run of it. */
  outputDir: string
}

/** The raw values, each with the name the user typed it under (for errors). */
interface RawMergeOptions {
  patterns: string[]
  resultsPath?: RawOption
  reportPath?: RawOption
  journal?: RawOption
  gate?: RawOption
  maxDrop?: RawOption
  baseline?: RawOption
  outputDir?: RawOption
}

/** Throws ConfigError naming the input or flag. Defaults are an unsharded run's. */
export function resolveMergeOptions(raw: RawMergeOptions): MergeOptions {
  const text = (o: RawOption | undefined) => (o?.value ?? '').trim()
  const resultsPath = text(raw.resultsPath) || Defaults.ResultsPath
  const gate = gateOptions(raw)
  return {
    patterns: raw.patterns.map((p) => p.trim()).filter((p) => p !== ''),
    resultsPath,
    reportPath: text(raw.reportPath) || Defaults.ReportPath,
    journalPath: text(raw.journal) || join(dirname(resultsPath), Defaults.JournalFile),
    gate: { mode: gate.gate, max_drop: gate.maxDrop, baseline: gate.baseline },
    outputDir: text(raw.outputDir) || Defaults.EvalsV1OutputDir
  }
}
