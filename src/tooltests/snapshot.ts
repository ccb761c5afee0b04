import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { createTwoFilesPatch } from 'diff'
import type { Json } from '../config/types.js'
import type { AssertionCheck } from '../results/types.js'
import { sortKeys } from '../util/objects.js'
import { writeFileReplacing } from '../util/write-file.js'
import { removePaths } from './jsonpath.js'
import { deepEqual, trimForReport } from './matchers.js'

/**
 * Where snapshots live. `ci`: a missing snapshot fails instead of being written, since a file
 * written on a CI runner is thrown away and the test would never compare anything. `update`
 * (`--update-snapshots`): missing and changed snapshots are (re)written, in CI too.
 */
export interface SnapshotStore {
  /** The file's text, or undefined when there is none. */
  read(name: string): string | undefined
  write(name: string, text: string): void
  readonly ci: boolean
  readonly update: boolean
  /** Where the files are, for messages. */
  readonly dir: string
}

/** What a snapshot file holds: whether the call was refused, and the value, keys sorted. */
export interface SnapshotDocument {
  is_error: boolean
  value: Json
}

/** Snapshots as files in `dir`, which is made on the first write. */
export function fileSnapshotStore(dir: string, options: { ci: boolean; update: boolean }): SnapshotStore {
  const file = (name: string) => {
    // Names come from snapshotFileName; a separator here would write outside the directory.
    if (/[/\\]/.test(name) || name === '.' || name === '..') throw new Error(`invalid snapshot name ${JSON.stringify(name)}`)
    return join(dir, name)
  }
  return {
    ...options,
    dir,
    read(name) {
      try {
        return readFileSync(file(name), 'utf8')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        throw error
      }
    },
    write(name, text) {
      // Replaced, never written through a link planted at its name or on the way (util/write-file.ts).
      writeFileReplacing(file(name), text)
    }
  }
}

/** Snapshots in memory, for tests; `files` is what has been written. */
export function memorySnapshotStore(options: { ci?: boolean; update?: boolean; dir?: string; files?: Record<string, string> } = {}): SnapshotStore & { files: Map<string, string> } {
  const files = new Map(Object.entries(options.files ?? {}))
  return {
    ci: options.ci ?? false,
    update: options.update ?? false,
    dir: options.dir ?? '__snapshots__',
    files,
    read: (name) => files.get(name),
    write: (name, text) => void files.set(name, text)
  }
}

/**
 * `<id>.json` for a single-step test, `<id>.step-<n>.json` (n 1-based) for a step of several.
 * Characters that are not safe in a file name on every OS become `_`.
 */
export function snapshotFileName(testId: string, stepIndex: number, stepCount: number): string {
  const safe = testId.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, (dots) => '_'.repeat(dots.length))
  return stepCount > 1 ? `${safe}.step-${stepIndex}.json` : `${safe}.json`
}

/** The document to store: the value without the `ignore` paths, keys sorted at every level so the file is stable. */
export function normaliseSnapshot(isError: boolean, value: Json, ignore: string[]): SnapshotDocument {
  return { is_error: isError, value: sortKeys(ignore.length ? removePaths(value, ignore) : value) }
}

/** Pretty JSON, two spaces, a trailing newline: what a snapshot file holds. */
export function snapshotText(doc: SnapshotDocument): string {
  return `${JSON.stringify(doc, null, 2)}\n`
}

const MAX_DIFF = 20_000

/**
 * Compare `doc` with the stored snapshot `name`, writing it when the store's mode says so.
 * Stored and current are compared as JSON values (key order aside), not as text, so a file a
 * formatter or Git's line endings touched still matches; the diff is of the texts.
 */
export function compareSnapshot(store: SnapshotStore, name: string, doc: SnapshotDocument): AssertionCheck {
  const file = join(store.dir, name)
  const text = snapshotText(doc)
  const actual = trimForReport(doc as unknown as Json)
  const check = (passed: boolean, expected: Json, reason: string, diff?: string): AssertionCheck => ({
    check: 'snapshot',
    path: null,
    passed,
    expected: trimForReport(expected),
    actual,
    reason,
    ...(diff !== undefined ? { diff } : {})
  })
  let stored: string | undefined
  try {
    stored = store.read(name)
  } catch (error) {
    return check(false, null, `cannot read snapshot ${file}: ${(error as Error).message}`)
  }
  if (stored === undefined) {
    if (store.ci && !store.update) {
      return check(false, null, `no snapshot ${file}; run the evaluation again with --update-snapshots (the action's update_snapshots: true in CI) to write it, and commit it`)
    }
    const failure = write(store, name, text, file)
    return failure ? check(false, null, failure) : check(true, null, `snapshot written to ${file}`)
  }
  const storedDoc = parse(stored)
  if (storedDoc !== undefined && deepEqual(storedDoc, doc as unknown as Json)) return check(true, storedDoc, `matches snapshot ${file}`)
  const diff = unifiedDiff(file, stored.replace(/\r\n/g, '\n'), text)
  const expected = storedDoc ?? stored
  const what = storedDoc === undefined ? 'the stored snapshot is not valid JSON' : 'the result differs from the snapshot'
  if (store.update) {
    const failure = write(store, name, text, file)
    return failure ? check(false, expected, failure, diff) : check(true, expected, `snapshot updated: ${file} (${what})`, diff)
  }
  return check(false, expected, `${what} ${file}; if the change is intended, run with --update-snapshots and commit the file`, diff)
}

function write(store: SnapshotStore, name: string, text: string, file: string): string | undefined {
  try {
    store.write(name, text)
    return undefined
  } catch (error) {
    return `cannot write snapshot ${file}: ${(error as Error).message}`
  }
}

function parse(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json
  } catch {
    return undefined
  }
}

function unifiedDiff(file: string, stored: string, current: string): string {
  // Headers name the file as a reviewer knows it (no temp or runner paths) and drop the "Index:" and "===" lines.
  const name = basename(file)
  const diff = createTwoFilesPatch(`stored ${name}`, `this run`, stored, current, undefined, undefined)
    .split('\n')
    .filter((line) => !line.startsWith('Index: ') && !/^=+$/.test(line))
    .join('\n')
  return diff.length > MAX_DIFF ? `${diff.slice(0, MAX_DIFF)}\n… (diff cut at ${MAX_DIFF} characters)\n` : diff
}
