import { randomBytes } from 'node:crypto'
import { closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, readlinkSync, renameSync, unlinkSync, writeSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'

/** An output path that leads through a symbolic link, or that cannot be replaced. */
export class OutputPathError extends Error {
  constructor(
    message: string,
    readonly path: string
  ) {
    super(message)
    this.name = 'OutputPathError'
  }
}

/** Created new, never through a link: an existing file or a planted symlink at the name fails the open. */
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0)

/**
 * Write a file the way every output is written: into a new temporary file beside it (created
 * exclusively, so nothing planted at its name is followed), then renamed over the path. A rename
 * replaces the directory entry itself: a symlink (or a hard link) planted at the path is replaced
 * by the new file, and its target is left as it was. Inside the working directory, a directory on
 * the way that is a symbolic link is refused (OutputPathError): outputs are never written through
 * a link to somewhere else. `fsync`: flushed to disk before the rename.
 */
export function writeFileReplacing(path: string, data: string | Uint8Array, options: { fsync?: boolean; root?: string } = {}): void {
  writeFileReplacingWith(path, (write) => write(data), options)
}

/** writeFileReplacing with the content written in pieces by `fill` (thousands of lines never become one string). */
export function writeFileReplacingWith(path: string, fill: (write: (chunk: string | Uint8Array) => void) => void, options: { fsync?: boolean; root?: string } = {}): void {
  const dir = outputDirectory(path, options.root)
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  const fd = openSync(temp, CREATE_NEW, 0o666)
  let open = true
  try {
    fill((chunk) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at)
    })
    if (options.fsync) fsyncSync(fd)
    open = false
    closeSync(fd)
    renameSync(temp, path)
  } catch (error) {
    if (open) closeSync(fd)
    try {
      unlinkSync(temp)
    } catch {
      // Never there.
    }
    throw error
  }
}

/**
 * A file written like writeFileReplacing (with `initial`, flushed), then opened to append to and
 * read back from (by position); the open does not follow a link, so what is appended goes to the
 * file just written.
 */
export function openFileReplacing(path: string, initial: string, options: { root?: string } = {}): number {
  writeFileReplacing(path, initial, { fsync: true, root: options.root })
  return openSync(path, constants.O_RDWR | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0))
}

/**
 * The directory a file goes in, created when missing; refused (OutputPathError) when a directory
 * on the way is a symbolic link (linkOnPath).
 */
export function outputDirectory(path: string, root = process.cwd()): string {
  const problem = linkOnPath(path, root)
  if (problem) throw new OutputPathError(problem, path)
  const dir = dirname(resolve(path))
  mkdirSync(dir, { recursive: true })
  return dir
}

/**
 * Why a file cannot be written at `path`, or null: below `root` (the working directory) no
 * directory on the way may be a symbolic link, since a link planted in a checkout
 * (`eval-transcripts -> ~/.ssh`) would send the files outside it. A path outside `root` is the
 * user's own choice of place (`/tmp` is itself a link on macOS): there only the file's own name
 * is protected (by the rename).
 */
export function linkOnPath(path: string, root = process.cwd()): string | null {
  const base = resolve(root)
  const inside = relative(base, dirname(resolve(path)))
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return null
  let at = base
  for (const part of inside.split(sep)) {
    at = join(at, part)
    let linked: boolean
    try {
      linked = lstatSync(at).isSymbolicLink()
    } catch {
      return null // Missing from here on: mkdir makes real directories.
    }
    if (linked) return `cannot write ${path}: ${relative(base, at)} is a symbolic link (to ${readlinkSafe(at)}); outputs are never written through a link: remove the link or choose another path`
  }
  return null
}

function readlinkSafe(path: string): string {
  try {
    return readlinkSync(path)
  } catch {
    return '?'
  }
}
