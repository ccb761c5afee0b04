import { readFileSync } from 'node:fs'

/**
 * Running, as opposed to gone or a zombie. An orphan (its wrapper died first) is reaped by init,
 * which in some containers does so seconds later: a zombie holds no pipes and no longer runs, so
 * it counts as dead here. A process we may not signal (EPERM) exists.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  if (process.platform !== 'linux') return true
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}
