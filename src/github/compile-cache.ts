import module from 'node:module'
import { join } from 'node:path'

/** What Node 22.1+ returns from module.enableCompileCache (its status is one of module.constants.compileCacheStatus). */
interface CompileCacheResult {
  status: number
  message?: string
  directory?: string
}
type EnableCompileCache = (directory: string) => CompileCacheResult

/** The compile cache's folder under RUNNER_TEMP. */
export const COMPILE_CACHE_DIR = 'mcp-server-evals-compile-cache'

/**
 * Keep V8's compiled code of the modules loaded from here on (the bundle's chunks) in a folder
 * under RUNNER_TEMP, so that the action's next start in the same job (a second step, a re-run
 * step after a cancel) skips compiling them. Node 22.1+ only: on Node 20, or outside a runner
 * (no RUNNER_TEMP), nothing happens. Node's own switches win: NODE_COMPILE_CACHE (already
 * enabled, elsewhere) and NODE_DISABLE_COMPILE_CACHE (disabled) are left to Node. The folder
 * used, or undefined. A cache that cannot be made is no error: the step only starts slower.
 */
export function enableCompileCache(
  env: NodeJS.ProcessEnv = process.env,
  enable: EnableCompileCache | undefined = (module as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache
): string | undefined {
  if (!enable || !env.RUNNER_TEMP) return undefined
  try {
    return enable(join(env.RUNNER_TEMP, COMPILE_CACHE_DIR)).directory
  } catch {
    return undefined
  }
}
