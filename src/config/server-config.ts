import { existsSync, readFileSync } from 'node:fs'
import { LineCounter, parseDocument } from 'yaml'
import { ConfigError } from './errors.js'
import type { ServerConfig } from './types.js'

/**
 * Parse the `server_config` input: inline JSON, or a path to a JSON file. Accepts eval-action's
 * shapes (stdio `{command, args, env}`, remote `{url, headers}`) and the `mcpServers` wrapper
 * used by MCP client configs when it holds exactly one server.
 */
export function parseServerConfig(value: string, input = 'server_config', baseDir = process.cwd()): ServerConfig {
  const trimmed = value.trim()
  if (trimmed === '') throw new ConfigError('is required', { input })
  let text = trimmed
  let file: string | undefined
  if (!trimmed.startsWith('{')) {
    const path = trimmed.startsWith('/') ? trimmed : `${baseDir}/${trimmed}`
    if (!existsSync(path)) throw new ConfigError(`is neither inline JSON nor an existing file: ${trimmed}`, { input })
    text = readFileSync(path, 'utf8')
    file = trimmed
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    const { line, column } = jsonErrorPosition(text, error as Error)
    throw new ConfigError(`invalid JSON: ${(error as Error).message}`, { input, file: file ?? '<inline>', line, column })
  }
  return validateServerConfig(data, { input, file })
}

function validateServerConfig(data: unknown, where: { input: string; file?: string }): ServerConfig {
  const fail = (message: string, path?: string): never => {
    throw new ConfigError(message, { ...where, path })
  }
  if (!isObject(data)) return fail('must be a JSON object')
  if (isObject(data.mcpServers)) {
    const names = Object.keys(data.mcpServers)
    if (names.length !== 1) return fail(`mcpServers must hold exactly one server (found ${names.length})`, 'mcpServers')
    return validateServerConfig(data.mcpServers[names[0]], where)
  }
  const known = ['command', 'args', 'env', 'cwd', 'url', 'headers', 'auth', 'type', 'transport']
  for (const key of Object.keys(data)) if (!known.includes(key)) fail(`unknown key '${key}' (known: ${known.join(', ')})`, key)

  if (typeof data.url === 'string') {
    if (data.command !== undefined) fail("give either 'command' (stdio) or 'url' (HTTP), not both")
    let url: URL
    try {
      url = new URL(data.url)
    } catch {
      return fail(`not a valid URL: ${data.url}`, 'url')
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('must be an http(s) URL', 'url')
    const headers = stringMap(data.headers, 'headers', fail)
    if (typeof data.auth === 'string' && data.auth !== '' && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) {
      headers.Authorization = data.auth.startsWith('Bearer ') ? data.auth : `Bearer ${data.auth}`
    }
    return { kind: 'http', url: url.toString(), headers }
  }
  if (typeof data.command !== 'string' || data.command.trim() === '') {
    return fail("needs 'command' (a stdio server) or 'url' (a Streamable HTTP server)")
  }
  if (data.args !== undefined && (!Array.isArray(data.args) || !data.args.every((a) => typeof a === 'string'))) {
    fail('must be an array of strings', 'args')
  }
  if (data.cwd !== undefined && typeof data.cwd !== 'string') fail('must be a string', 'cwd')
  return {
    kind: 'stdio',
    command: data.command,
    args: (data.args as string[] | undefined) ?? [],
    env: stringMap(data.env, 'env', fail),
    ...(typeof data.cwd === 'string' ? { cwd: data.cwd } : {})
  }
}

function stringMap(value: unknown, path: string, fail: (m: string, p?: string) => never): Record<string, string> {
  if (value === undefined || value === null) return {}
  if (!isObject(value)) return fail('must be an object of strings', path)
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string') out[k] = v
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v)
    else fail('must be a string', `${path}.${k}`)
  }
  return out
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/**
 * Where a JSON syntax error is. Node names an offset for some errors and nothing for others,
 * so fall back to the YAML parser (JSON is YAML) for a line and column.
 */
function jsonErrorPosition(text: string, error: Error): { line?: number; column?: number } {
  const match = /position (\d+)/.exec(error.message)
  if (match) {
    const lines = text.slice(0, Number(match[1])).split('\n')
    return { line: lines.length, column: lines[lines.length - 1].length + 1 }
  }
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter })
  const first = doc.errors[0]
  if (!first) return {}
  const pos = lineCounter.linePos(first.pos[0])
  return { line: pos.line, column: pos.col }
}

/** The values that must never be printed: env values and header values of the server config. */
export function serverSecrets(config: ServerConfig): string[] {
  const values = config.kind === 'stdio' ? Object.values(config.env) : Object.values(config.headers)
  const secrets = new Set<string>()
  for (const v of values) {
    if (v === '') continue
    secrets.add(v)
    // "Bearer abc" leaks "abc" when printed alone.
    const bearer = /^(?:Bearer|Basic|Token)\s+(.+)$/i.exec(v)
    if (bearer) secrets.add(bearer[1])
  }
  return [...secrets]
}
