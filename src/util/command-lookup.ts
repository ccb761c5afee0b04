import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, isAbsolute, join, resolve } from 'node:path'

/** The PATH and working directory a stdio server is spawned with. */
export interface SpawnPlace {
  /** The server's PATH: its env's, else this process's. */
  path: string
  cwd: string
}

/** Whether `file` is a regular file this process may execute. */
function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * Whether a spawn of `command` would find a program, as execvp looks: a name with a slash is a
 * path (from `cwd`), a bare name is searched along PATH. True on Windows, whose lookup (PATHEXT,
 * the current directory first) this does not copy: there the spawn's own error says it.
 */
export function commandFound(command: string, place: SpawnPlace): boolean {
  if (process.platform === 'win32') return true
  if (command.includes('/')) return isExecutable(isAbsolute(command) ? command : resolve(place.cwd, command))
  return place.path.split(delimiter).some((dir) => dir !== '' && isExecutable(join(resolve(place.cwd, dir), command)))
}

/** "'uvx' was not found on PATH": what a spawn's ENOENT means, in the words of the command as given. */
export function commandNotFound(command: string): string {
  return command.includes('/') ? `'${command}' does not exist or is not executable` : `'${command}' was not found on PATH`
}

/**
 * A spawn error in words: ENOENT as "'x' not found on PATH" (Node says `spawn x ENOENT`, which
 * names neither the cause nor the fix), anything else as it is.
 */
export function describeSpawnError(command: string, error: Error, cwd?: string): string {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return error.message
  // Node says ENOENT for a missing working directory too.
  if (cwd !== undefined && !isDirectory(cwd)) return `the working directory '${cwd}' does not exist`
  return commandNotFound(command)
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory()
  } catch {
    return false
  }
}
