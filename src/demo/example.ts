import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ConfigError } from '../config/errors.js'

const PACKAGE_NAME = 'mcp-server-evals'
export const EXAMPLE_SERVER = 'examples/server/server.mjs'
export const EXAMPLE_CASES = 'examples/eval_cases.yaml'

/** The folder holding this package's package.json, walking up from each start in turn; null when none does. */
export function findPackageRoot(starts: readonly string[]): string | null {
  for (const start of starts) {
    let dir = start
    for (;;) {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }
        if (pkg.name === PACKAGE_NAME) return dir
      } catch {
        // No package.json here, or not JSON: keep walking up.
      }
      const parent = dirname(dir)
      if (parent === dir) break
      dir = parent
    }
  }
  return null
}

/**
 * Where the running code is: this module (src/demo/ under tsx and jest; the bundle, dist/cli/, once
 * built, unless the bundler pinned it to the build machine), then the script that was run.
 */
function starts(): string[] {
  const found: string[] = []
  try {
    found.push(dirname(fileURLToPath(import.meta.url)))
  } catch {
    // Not a file: URL (a bundler rewrote it).
  }
  const script = process.argv[1]
  if (script) {
    try {
      found.push(dirname(realpathSync(script)))
    } catch {
      found.push(dirname(script))
    }
  }
  return found
}

/** The bundled example's server config (run with `node`) and eval cases, as absolute paths. Throws ConfigError when they are not here. */
export function bundledExample(root = findPackageRoot(starts())): { serverConfig: string; evalCases: string } {
  if (root === null) {
    throw new ConfigError(`cannot find the bundled example: no ${PACKAGE_NAME} package.json above this program; pass --server-config and --eval-cases`, { input: '--demo' })
  }
  const server = join(root, EXAMPLE_SERVER)
  const cases = join(root, EXAMPLE_CASES)
  const missing = [server, cases].filter((p) => !existsSync(p))
  if (missing.length > 0) {
    throw new ConfigError(`the bundled example is not here (missing ${missing.join(' and ')}); pass --server-config and --eval-cases`, { input: '--demo' })
  }
  return { serverConfig: JSON.stringify({ command: 'node', args: [server] }), evalCases: cases }
}
