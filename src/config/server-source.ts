import { resolve } from 'node:path'
import { ConfigError, ConfigErrors, isFlag } from './errors.js'
import type { V1ServerBlock } from './evals-v1-suite.js'
import { parseServerConfig, validateServerConfig } from './server-config.js'
import type { ServerConfig } from './types.js'
import type { YamlPath } from './yaml-document.js'
import { commandFound, commandNotFound } from '../util/command-lookup.js'

// Which server is evaluated: the server_url input (or --server-url) over everything, then
// server_config, then an evals/v1 suite's `server:` block. Each is validated as server_config is
// (`${NAME}` from the environment, the values it puts in kept secret), and its errors name it.

export interface ServerSourceNames {
  serverUrl: string
  serverConfig: string
}

/**
 * The server to evaluate. `suite`: the evals/v1 suite's server block (null: it has none), or
 * undefined for an eval_cases suite, which has no server key: there server_config is required
 * unless server_url is given. Throws ConfigError naming where the server came from.
 */
export function resolveServer(
  given: { serverUrl: string; serverConfig: string },
  suite: { block: V1ServerBlock | null; file: string } | undefined,
  env: NodeJS.ProcessEnv,
  names: ServerSourceNames
): ServerConfig {
  const url = given.serverUrl.trim()
  if (url !== '') return serverFromUrl(url, env, names.serverUrl)
  if (given.serverConfig.trim() !== '' || suite === undefined) {
    // As before for eval_cases: an empty server_config is "is required".
    const server = parseServerConfig(given.serverConfig, { env, input: names.serverConfig })
    checkCommand(server, env, { input: names.serverConfig })
    return server
  }
  if (suite.block === null) {
    const urlName = isFlag(names.serverUrl) ? names.serverUrl : `the ${names.serverUrl} input`
    const configName = isFlag(names.serverConfig) ? names.serverConfig : `the ${names.serverConfig} input`
    throw new ConfigError(`no server to evaluate: give ${configName} (JSON: {"url"} or {"command","args","env"}), ${urlName}, or a server: key in the suite (url, or command with args and env)`, { file: suite.file })
  }
  const server = serverFromSuite(suite.block, env)
  checkCommand(server, env, suite.block.locate(['server', 'command']))
  return server
}

/**
 * A stdio server's command must be there before anything starts: a missing one is a
 * configuration error naming the command and where it was given, not a spawn ENOENT per run.
 * A command or cwd still holding a per-run placeholder is looked up by the spawn.
 */
function checkCommand(server: ServerConfig, env: NodeJS.ProcessEnv, where: ConfigError['where']): void {
  if (server.kind !== 'stdio' || server.command.includes('${') || server.cwd?.includes('${')) return
  // The spawn's PATH: the server's own env, else this process's (what the SDK's default environment passes on).
  const place = { path: server.env.PATH ?? env.PATH ?? process.env.PATH ?? '', cwd: resolve(server.cwd ?? '.') }
  if (!commandFound(server.command, place)) {
    const fix = server.command.includes('/') ? 'give its path from the working directory, or an absolute one' : 'install it, or give its full path'
    throw new ConfigError(`the server command ${commandNotFound(server.command)}: ${fix}`, where)
  }
}

/** server_url as a Streamable HTTP server_config `{url}`: `${NAME}` expanded, its values secret. */
function serverFromUrl(url: string, env: NodeJS.ProcessEnv, input: string): ServerConfig {
  try {
    return validateServerConfig({ url }, { input }, env, '')
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    // One value: the path `url` would say nothing the input's name does not.
    throw new ConfigError(error.detail, { input })
  }
}

/** The suite's server block, its errors located in the suite (file, line, column, `server.…`). */
function serverFromSuite(block: V1ServerBlock, env: NodeJS.ProcessEnv): ServerConfig {
  try {
    return validateServerConfig(block.data, {}, env, 'server.')
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    const relocate = (e: ConfigError) => new ConfigError(e.detail, block.locate(yamlPathOf(e.where.path ?? 'server')))
    throw error instanceof ConfigErrors ? new ConfigErrors(error.errors.map(relocate)) : relocate(error)
  }
}

/** `server.args[1]` → ['server', 'args', 1]. */
function yamlPathOf(dotted: string): YamlPath {
  return dotted
    .split('.')
    .flatMap((part) => [...part.matchAll(/([^[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : m[1])))
}
