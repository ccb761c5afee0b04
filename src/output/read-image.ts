import { realpathSync } from 'node:fs'
import { isAbsolute, join, relative, sep } from 'node:path'
import { readBoundedBytes } from '../util/read-file.js'

/** The largest picture the HTML report inlines: a screenshot is a few hundred KiB; more is not one. */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024

/**
 * Reads the pictures a results document names (MCP Apps screenshots, baselines, diffs), whose
 * paths are relative to `root`, the output directory the host wrote `apps/` into. The names come
 * from a document (which `report --from` reads from anywhere), so a name that leaves the
 * directory — absolute, with a `..` step, or through a symbolic link that leads out — is refused,
 * and so is anything that is not a regular file or is larger than MAX_IMAGE_BYTES. A refused or
 * missing picture is null: the page shows it as absent.
 */
export function imageReaderUnder(root: string): (path: string) => Buffer | null {
  let realRoot: string | null | undefined
  return (path) => {
    if (typeof path !== 'string' || path === '' || path.includes('\0') || isAbsolute(path) || /^[A-Za-z]:/.test(path)) return null
    if (path.split(/[\\/]/).some((step) => step === '..')) return null
    try {
      realRoot ??= realpathSync(root || '.')
    } catch {
      realRoot = null
    }
    if (realRoot === null) return null
    let real: string
    try {
      real = realpathSync(join(realRoot, path))
    } catch {
      return null // not there
    }
    const within = relative(realRoot, real)
    if (within === '' || within.startsWith(`..${sep}`) || within === '..' || isAbsolute(within)) return null
    try {
      return readBoundedBytes(real, MAX_IMAGE_BYTES)
    } catch {
      return null // not a regular file, or too large
    }
  }
}
