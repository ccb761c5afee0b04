/** `shard: "2/4"`: the second of four parts of the plan. */
export interface Shard {
  /** 1-based. */
  index: number
  count: number
}

/** The most shards a suite may be split into (a GitHub matrix has at most 256 jobs). */
const MAX_SHARDS = 256

/** "2/4" → { index: 2, count: 4 }; null for an empty value. Throws an Error whose message says what is wrong. */
export function parseShard(text: string): Shard | null {
  const value = text.trim()
  if (value === '') return null
  const match = /^(\d+)\s*\/\s*(\d+)$/.exec(value)
  if (!match) throw new Error(`must be INDEX/COUNT, as 2/4 (the second of four shards), got '${value}'`)
  const index = Number(match[1])
  const count = Number(match[2])
  if (count < 1 || count > MAX_SHARDS) throw new Error(`must have a count from 1 to ${MAX_SHARDS}, got '${value}'`)
  if (index < 1 || index > count) throw new Error(`must have an index from 1 to its count (${count}), got '${value}'`)
  return { index, count }
}

/** "2/4" as a file-name part: "shard-2-of-4". */
export function shardLabel(shard: Shard): string {
  return `shard-${shard.index}-of-${shard.count}`
}

/**
 * A default file name made a shard's own, so that the shards' artifacts can be downloaded into one
 * directory: `eval-results.json` → `eval-results.shard-2-of-4.json`. Unchanged without a shard.
 */
export function shardFileName(path: string, shard: Shard | null): string {
  if (!shard) return path
  const slash = path.lastIndexOf('/') + 1
  const dot = path.indexOf('.', slash + 1)
  return dot === -1 ? `${path}.${shardLabel(shard)}` : `${path.slice(0, dot)}.${shardLabel(shard)}${path.slice(dot)}`
}
