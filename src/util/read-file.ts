import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'

/** Byte limits for the files the harness reads; each names what it bounds. */
export const FileLimits = {
  /** eval_cases.yaml, an evals suite, server_config given as a file. */
  suite: 4 * 1024 * 1024,
  /** A results document read as a baseline, a shard or a report's source. */
  document: 256 * 1024 * 1024,
  /** The run journal. */
  journal: 1024 * 1024 * 1024,
  /** One response-cache entry. */
  cacheEntry: 64 * 1024 * 1024
} as const

/** A file that is not a regular file, or is larger than the limit it was read under. */
export class UnreadableFileError extends Error {
  constructor(
    message: string,
    readonly path: string
  ) {
    super(message)
    this.name = 'UnreadableFileError'
  }
}

/**
 * Read a file as UTF-8, refusing what is not a regular file (a FIFO, a device such as /dev/zero,
 * a directory) and what is larger than `maxBytes`, each with a message that says which. The file
 * is opened non-blocking, so a FIFO with no writer never blocks, and checked on the opened
 * descriptor, so a symlink to a device is caught too; the read stops at the limit even when the
 * file grows while it is read.
 */
export function readBoundedFile(path: string, maxBytes: number): string {
  return readBoundedBytes(path, maxBytes).toString('utf8')
}

/** readBoundedFile's bytes, not decoded (a picture). */
export function readBoundedBytes(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    const stat = fstatSync(fd)
    if (!stat.isFile()) throw new UnreadableFileError(`${path} is not a regular file (${kindOf(stat)})`, path)
    if (stat.size > maxBytes) throw new UnreadableFileError(`${path} is ${formatBytes(stat.size)}, over the limit of ${formatBytes(maxBytes)}`, path)
    const chunks: Buffer[] = []
    let length = 0
    let chunk = Buffer.allocUnsafe(Math.min(stat.size, maxBytes) + 1)
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null)
      if (n === 0) break
      length += n
      if (length > maxBytes) throw new UnreadableFileError(`${path} grew over the limit of ${formatBytes(maxBytes)} while it was read`, path)
      chunks.push(chunk.subarray(0, n))
      chunk = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes - length + 1))
    }
    return Buffer.concat(chunks, length)
  } finally {
    closeSync(fd)
  }
}

function kindOf(stat: ReturnType<typeof fstatSync>): string {
  if (stat.isDirectory()) return 'a directory'
  if (stat.isFIFO()) return 'a FIFO'
  if (stat.isCharacterDevice()) return 'a character device'
  if (stat.isBlockDevice()) return 'a block device'
  if (stat.isSocket()) return 'a socket'
  return 'not a file'
}

/** "16 MiB", "1.5 KiB", "12 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  const units = ['KiB', 'MiB', 'GiB', 'TiB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`
}
