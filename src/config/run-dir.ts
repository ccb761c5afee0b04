import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { ServerConfig } from './types.js'

/** Where run directories are made (and kept, for a failed run with keep_run_dirs): under the runner's temp directory. */
export function runDirsBase(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.RUNNER_TEMP || tmpdir(), 'mcp-server-evals-run-dirs')
}

/** `$${RUN_DIR}` (a literal) or `${RUN_DIR}` (the run's directory). */
const RUN_DIR_PLACEHOLDER = /\$(\$?)\{RUN_DIR\}/g

/** Whether a value written in server_config (or a root) holds `${RUN_DIR}` (an escaped `$${RUN_DIR}` does not count). */
export function mentionsRunDir(value: string): boolean {
  return [...value.matchAll(RUN_DIR_PLACEHOLDER)].some((m) => m[1] === '')
}

/** `${RUN_DIR}` replaced by `dir`, `$${RUN_DIR}` by a literal `${RUN_DIR}`. */
export function withRunDir(value: string, dir: string): string {
  return value.replace(RUN_DIR_PLACEHOLDER, (whole: string, escape: string) => (escape ? whole.slice(1) : dir))
}

/** Whether the server needs a directory of its own per run: `${RUN_DIR}` in its args, env, cwd or roots. */
export function usesRunDir(config: ServerConfig): boolean {
  const roots = config.roots ?? []
  if (config.kind === 'http') return roots.some(mentionsRunDir)
  return [...config.args, ...Object.values(config.env), config.cwd ?? '', ...roots].some(mentionsRunDir)
}

/** A root with `${RUN_DIR}` resolved: the directory as a URI path (`#`, `?`, `%` and spaces percent-encoded), so the root names it. */
function rootWithRunDir(root: string, dir: string): string {
  return withRunDir(root, dir === '' ? '' : pathToFileURL(dir).pathname)
}

/**
 * The config one server process is started with: `${RUN_DIR}` resolved to `dir` in args, env, cwd
 * and roots (the escape `$${RUN_DIR}` becomes its literal). A config without it comes back as it is.
 */
export function resolveRunDir(config: ServerConfig, dir: string): ServerConfig {
  const roots = config.roots ? { roots: config.roots.map((root) => rootWithRunDir(root, dir)) } : {}
  if (config.kind === 'http') return { ...config, ...roots }
  return {
    ...config,
    args: config.args.map((arg) => withRunDir(arg, dir)),
    env: Object.fromEntries(Object.entries(config.env).map(([key, value]) => [key, withRunDir(value, dir)])),
    ...(config.cwd !== undefined ? { cwd: withRunDir(config.cwd, dir) } : {}),
    ...roots
  }
}

/** Roots with `${RUN_DIR}` resolved (a case's own, or server_config's). */
export function rootsWithRunDir(roots: readonly string[], dir: string | null): string[] {
  return dir === null ? [...roots] : roots.map((root) => rootWithRunDir(root, dir))
}

/**
 * The directories below a run's `dir` its server needs before it starts: a cwd and the roots
 * (`file://${RUN_DIR}/data`) written with `${RUN_DIR}`, resolved. Others are not the run's to make.
 */
export function runDirSubdirs(dir: string, cwd: string | undefined, roots: readonly string[]): string[] {
  const paths = [...(cwd !== undefined && mentionsRunDir(cwd) ? [withRunDir(cwd, dir)] : [])]
  for (const root of roots.filter(mentionsRunDir)) {
    try {
      paths.push(fileURLToPath(rootWithRunDir(root, dir)))
    } catch {
      // Not a local file URI: the config check has refused it already.
    }
  }
  return [...new Set(paths)]
}
