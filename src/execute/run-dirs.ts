import { dirname } from 'node:path'
import { escapeRegExp } from '../util/text.js'

/** The failed runs' kept directories (keep_run_dirs): how many, and the directory holding them; null when none was kept. */
export function keptRunDirs(runs: readonly { run_dir?: string | null }[]): { count: number; parent: string } | null {
  const kept = runs.flatMap((run) => (run.run_dir ? [run.run_dir] : []))
  return kept.length === 0 ? null : { count: kept.length, parent: dirname(kept[0]) }
}

/**
 * `text` with every run directory under `base` written `${RUN_DIR}`: a server that echoes its
 * directory (a path in a result) then asks the same of the model in every evaluation, so a
 * recorded answer replays.
 */
export function withoutRunDirs(text: string, base: string): string {
  return text.replace(new RegExp(`${escapeRegExp(base)}/[A-Za-z0-9._-]+`, 'g'), '${RUN_DIR}')
}
