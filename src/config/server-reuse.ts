import { ConfigError, isFlag } from './errors.js'
import type { ServerReuse } from './options.js'
import { usesRunDir } from './run-dir.js'
import type { ServerConfig } from './types.js'

/**
 * `server_reuse: worker` where it cannot mean anything is a configuration error, found before
 * any server starts, rather than a setting quietly ignored: an HTTP server has no process of
 * ours to reuse (every run already opens its own session on the one server), and a server_config
 * with `${RUN_DIR}` starts each run's server in a directory of its own, which a process shared
 * between runs cannot be. `serverConfigInput` is what the user typed server_config as: the error
 * names `--server-reuse` on the CLI and `server_reuse` in the action.
 */
export function checkServerReuse(reuse: ServerReuse, server: ServerConfig, serverConfigInput: string): void {
  if (reuse === 'run') return
  const input = isFlag(serverConfigInput) ? '--server-reuse' : 'server_reuse'
  const config = isFlag(serverConfigInput) ? serverConfigInput : `the ${serverConfigInput} input`
  if (server.kind === 'http') {
    throw new ConfigError(`is 'worker', but ${config} names an HTTP server (url): there is no server process to reuse, each run opens its own session on it; use 'run'`, { input })
  }
  if (usesRunDir(server)) {
    throw new ConfigError(`is 'worker', but ${config} uses \${RUN_DIR}, which gives each run's server a directory of its own: a process shared by several runs cannot have one; remove \${RUN_DIR} or use 'run'`, { input })
  }
}
