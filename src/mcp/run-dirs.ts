import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { join, resolve, sep } from 'node:path'

/**
 * The directories a server runs in (`${RUN_DIR}`): made fresh per run or per session, removed when
 * it is over, and removed synchronously on a forced exit, as its process group is killed.
 */

/** One run's `${RUN_DIR}`: an empty directory, removed by `dispose` unless it is to be kept. */
export interface RunDir {
  path: string
  /** Removes the directory, unless `keep`; never throws. Resolves with whether it was kept. */
  dispose(keep: boolean): Promise<boolean>
}

/**
 * The run directories made and not yet disposed of: a forced exit (a second signal) removes
 * them synchronously, as it kills the servers that wrote into them.
 */
const live = new Set<string>()

/** Removes every run directory still in use; for a forced exit. Never throws. */
export function removeLiveRunDirsSync(): void {
  for (const path of live) removeSync(path)
  live.clear()
}

/**
 * A fresh, empty directory under `base`, its name starting with `label` (a run's number and
 * case), with the directories under it the server needs before it starts (`subdirs(path)`: its
 * cwd and roots below `${RUN_DIR}`; one outside the directory is left alone).
 */
export async function makeRunDir(base: string, label: string, subdirs: (path: string) => string[] = () => []): Promise<RunDir> {
  mkdirSync(base, { recursive: true })
  const path = await mkdtemp(join(base, `${safeLabel(label)}-`))
  live.add(path)
  let disposed: Promise<boolean> | undefined
  const dispose = (keep: boolean) => {
    live.delete(path)
    return keep
      ? Promise.resolve(true)
      : rm(path, { recursive: true, force: true, maxRetries: 3 }).then(
          () => false,
          () => false
        )
  }
  try {
    makeSubdirs(path, subdirs(path))
  } catch (error) {
    await dispose(false)
    throw error
  }
  return { path, dispose: (keep) => (disposed ??= dispose(keep)) }
}

/** The same, made synchronously (a conformance probe opens its connections synchronously); always removed. */
export function makeRunDirSync(base: string, label: string, subdirs: (path: string) => string[] = () => []): { path: string; remove(): void } {
  mkdirSync(base, { recursive: true })
  const path = mkdtempSync(join(base, `${safeLabel(label)}-`))
  live.add(path)
  const remove = () => {
    live.delete(path)
    removeSync(path)
  }
  try {
    makeSubdirs(path, subdirs(path))
  } catch (error) {
    remove()
    throw error
  }
  return { path, remove }
}

function makeSubdirs(path: string, subdirs: string[]): void {
  for (const dir of subdirs) if (resolve(dir).startsWith(`${path}${sep}`)) mkdirSync(dir, { recursive: true })
}

function removeSync(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 3 })
  } catch {
    // A directory the server still writes into is left for the runner to clean up.
  }
}

/** A label as a directory name: letters, digits, `-`, `_` and `.`, at most 60 characters. */
function safeLabel(label: string): string {
  return label.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+/, '').slice(0, 60) || 'run'
}
