// What a harness's heap really held: the lines `node --trace-gc` prints after each full
// collection (`Mark-Compact 380.2 (420.1) -> 150.3 (430.0) MB`: used and committed before, then
// after it). Used after a full collection is the live heap then; committed is what V8 keeps
// (and the RSS shows) whatever is live.
import { readFileSync } from 'node:fs'

export interface FullGc {
  /** ms since the harness's heap was set up (close to its start). */
  at_ms: number
  live_mb: number
  committed_mb: number
}

/** Every full collection in a harness's output (its stdout with --trace-gc). */
export function fullCollections(outputPath: string): FullGc[] {
  const line = /\s(\d+) ms: Mark-Compact(?: \(reduce\))? [\d.]+ \([\d.]+\) -> ([\d.]+) \(([\d.]+)\) MB/
  return readFileSync(outputPath, 'utf8')
    .split('\n')
    .flatMap((text) => {
      const m = line.exec(text)
      return m ? [{ at_ms: Number(m[1]), live_mb: Number(m[2]), committed_mb: Number(m[3]) }] : []
    })
}
