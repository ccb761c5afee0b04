import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { globSync } from 'tinyglobby'
import { ConfigError } from '../config/errors.js'
import type { ResultsDocument, ShardSection } from '../results/types.js'
import { READABLE_VERSIONS_TEXT } from '../results/upgrade.js'
import { upgradeDocument } from '../aggregate/upgrade-document.js'
import { shapeProblem } from '../execute/record-shapes.js'
import { FileLimits, readBoundedFile } from '../util/read-file.js'
import { byCodeUnits } from '../util/text.js'

/** The results version that brought the shard section. */
const SHARDS_SINCE = 8

/**
 * Why the shards cannot be merged: a file that is missing, unreadable or not a shard's results, or
 * a set of shards that is not one whole suite. The message names the file (or files) and what is
 * wrong. A configuration error: the CLI exits 2, the action writes a fatal document and fails.
 */
export class MergeError extends ConfigError {
  constructor(message: string) {
    super(message)
    this.name = 'MergeError'
  }
}

/** A shard's results document: one with its `shard` section. */
export type ShardDocument = ResultsDocument & { shard: ShardSection }

/** One shard's results, and the file they were read from (every message names it). */
export interface ShardFile {
  path: string
  document: ShardDocument
}

/**
 * The files the patterns name, in the order given: a path to an existing file as it is (a name
 * the shell already expanded may hold glob characters), anything else as a glob whose matches
 * are sorted. A pattern that matches nothing is an error naming it; a file named twice is read once.
 */
function expandShardPatterns(patterns: readonly string[]): string[] {
  const cwd = process.cwd()
  if (patterns.length === 0) throw new MergeError("no shard results given: name the shards' results documents (eval-results.shard-*.json), as paths or a glob")
  const files: string[] = []
  const seen = new Set<string>()
  for (const pattern of patterns) {
    const kind = fileKind(resolve(cwd, pattern))
    if (kind === 'directory') throw new MergeError(`'${pattern}' is a directory: name the shards' files in it, as '${pattern.replace(/\/+$/, '')}/eval-results.shard-*.json'`)
    const matched = kind === 'file' ? [pattern] : globSync(pattern, { cwd, onlyFiles: true, expandDirectories: false }).sort(byCodeUnits)
    if (matched.length === 0) throw new MergeError(`'${pattern}' matches no file: were the shards' results downloaded (or written) there?`)
    for (const file of matched) {
      const key = resolve(cwd, file)
      if (seen.has(key)) continue
      seen.add(key)
      files.push(file)
    }
  }
  return files
}

function fileKind(path: string): 'file' | 'directory' | null {
  try {
    const stat = statSync(path)
    return stat.isDirectory() ? 'directory' : 'file'
  } catch {
    return null
  }
}

/**
 * One shard's results document, refused with a message naming the file when it cannot be read,
 * is not a results document, has no shard section (an unsharded run, or a version before shards)
 * or holds a shard whose evaluation could not run.
 */
function readShardFile(path: string): ShardFile {
  let text: string
  try {
    text = readBoundedFile(path, FileLimits.document)
  } catch (error) {
    throw new MergeError(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    throw new MergeError(`${path}: is not JSON, so not a shard's results document (eval-results.shard-I-of-N.json)`)
  }
  const document = upgradeDocument(data)
  if (!document) throw new MergeError(`${path}: is JSON but not a results document (eval-results.json, version ${READABLE_VERSIONS_TEXT})`)
  const problem = shapeProblem('document', document, '')
  if (problem) throw new MergeError(`${path}: is not a results document this version can merge: ${problem}`)
  if (document.fatal_error !== null) throw new MergeError(`${path}: this shard's evaluation could not run: ${document.fatal_error}; fix that and run the shard again`)
  if (!document.shard) {
    const version = (data as { version: number }).version
    const why = version < SHARDS_SINCE ? `it was written by results version ${version}, before shards existed (version ${SHARDS_SINCE})` : 'it is the results of an unsharded run'
    throw new MergeError(`${path}: is not a shard's results (it has no shard section: ${why}); merge the results of runs with shard: I/N`)
  }
  return { path, document: document as ShardDocument }
}

/** Every shard the patterns name, each read and checked on its own (checkShardSet checks them together). */
export function readShardFiles(patterns: readonly string[]): ShardFile[] {
  return expandShardPatterns(patterns).map(readShardFile)
}
