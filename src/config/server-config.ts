import { existsSync } from 'node:fs'
import { LineCounter, parseDocument } from 'yaml'
import { Inputs } from '../constants.js'
import { ConfigError } from './errors.js'
import { FileLimits, readBoundedFile } from '../util/read-file.js'
import { urlCredentials } from '../util/redact.js'
import { nearest } from '../util/suggest.js'
import type { ServerConfig } from './types.js'
import { isObject } from '../util/objects.js'
import { rootProblem } from './inputs.js'
import { mentionsRunDir } from './run-dir.js'

export interface ServerConfigOptions {
  /** The input's name, for messages. */
  input?: string
  /** Where a relative path to a JSON file is resolved. */
  baseDir?: string
  /** Where `${NAME}` placeholders are looked up. */
  env?: NodeJS.ProcessEnv
}

/**
 * Parse the `server_config` input: inline JSON, or a path to a JSON file. Accepts eval-action's
 * shapes (stdio `{command, args, env}`, remote `{url, headers}`) and the `mcpServers` wrapper
 * used by MCP client configs when it holds exactly one server. `${NAME}` in a string value (not
 * a key) is replaced by the environment variable NAME; `$${NAME}` is a literal `${NAME}`.
 */
export function parseServerConfig(value: string, options: ServerConfigOptions = {}): ServerConfig {
  const { input = Inputs.ServerConfig, baseDir = process.cwd(), env = process.env } = options
  const trimmed = value.trim()
  if (trimmed === '') throw new ConfigError('is required', { input })
  let text = trimmed
  let file: string | undefined
  if (!trimmed.startsWith('{')) {
    const path = trimmed.startsWith('/') ? trimmed : `${baseDir}/${trimmed}`
    if (!existsSync(path)) throw new ConfigError(`is neither inline JSON nor an existing file: ${trimmed}`, { input })
    file = trimmed
    try {
      // A regular file under FileLimits.suite: a device, a FIFO or a huge file is refused before it is parsed.
      text = readBoundedFile(path, FileLimits.suite)
    } catch (error) {
      throw new ConfigError(`cannot read the file: ${(error as Error).message}`, { input, file })
    }
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    const { line, column } = jsonErrorPosition(text, error as Error)
    throw new ConfigError(`invalid JSON: ${(error as Error).message}`, { input, file: file ?? '<inline>', line, column })
  }
  return validateServerConfig(data, { input, file }, env, '')
}

/** `$${NAME}` (an escape) or `${NAME}`. */
const PLACEHOLDER = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)\}/g
/** Never read from the environment: resolved later, per run, where the path takes it (see RESOLVED_PER_RUN). */
const RESERVED = new Set(['RUN_DIR'])
/** The values `${RUN_DIR}` is resolved in per run (args, env, cwd, roots): there it is left as written, its escape too. */
const RESOLVED_PER_RUN = /^(args\[|env\.|cwd$|roots\[)/

/** Substitutes placeholders from `env`, and remembers whether it did and what it put in. */
class Expander {
  readonly values = new Set<string>()
  substituted = false

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly fail: (message: string, path?: string) => never
  ) {}

  /** `secret`: whether what it substitutes is kept from every output (a command or a directory is not a credential). */
  expand(value: string, path: string, secret = true): string {
    return value.replace(PLACEHOLDER, (whole: string, escape: string, name: string) => {
      // Elsewhere (refuseRunDir refuses the placeholder itself) nothing resolves it later: its escape is a literal now.
      if (RESERVED.has(name)) return escape && !RESOLVED_PER_RUN.test(path) ? whole.slice(1) : whole
      if (escape) return whole.slice(1)
      const found = this.env[name]
      if (found === undefined) {
        const near = nearest(name, Object.keys(this.env).filter((k) => this.env[k] !== undefined))
        const hint = near ? `; did you mean ${near}?` : ''
        return this.fail(
          `environment variable ${name} is not set (placeholder \${${name}}${hint}); set it in the step's env: (\`${name}: \${{ secrets.${name} }}\`) or in the shell, or write $\${${name}} for a literal \${${name}}`,
          path
        )
      }
      this.substituted = true
      if (found !== '' && secret) this.values.add(found)
      return found
    })
  }
}

/**
 * Validate a server config already parsed (server_config's JSON, the server_url input as `{url}`, an
 * evals/v1 suite's `server:` block): placeholders expanded from `env`, secrets remembered. Errors name
 * `where` and the path under `prefix`.
 */
export function validateServerConfig(data: unknown, where: { input?: string; file?: string }, env: NodeJS.ProcessEnv, prefix: string): ServerConfig {
  const fail = (message: string, path?: string): never => {
    throw new ConfigError(message, { ...where, path: path === undefined ? prefix.replace(/\.$/, '') || undefined : prefix + path })
  }
  if (!isObject(data)) return fail('must be a JSON object')
  if (isObject(data.mcpServers)) {
    // One wrapper, as MCP clients write it: a wrapper inside a wrapper is no server (and no stack to recurse on).
    if (prefix !== '') return fail('mcpServers inside mcpServers: the server is the object under one name', 'mcpServers')
    const names = Object.keys(data.mcpServers)
    if (names.length !== 1) return fail(`mcpServers must hold exactly one server (found ${names.length})`, 'mcpServers')
    return validateServerConfig(data.mcpServers[names[0]], where, env, `${prefix}mcpServers.${names[0]}.`)
  }
  const known = ['command', 'args', 'env', 'cwd', 'url', 'headers', 'auth', 'type', 'transport', 'roots']
  for (const key of Object.keys(data)) if (!known.includes(key)) fail(`unknown key '${key}' (known: ${known.join(', ')})`, key)
  // Read by no one, but kept in what init writes back: a name, never a structure to walk.
  for (const key of ['type', 'transport', 'auth']) if (data[key] !== undefined && data[key] !== null && typeof data[key] !== 'string') fail('must be a string', key)
  const expander = new Expander(env, fail)
  const expand = (value: string, path: string, secret = true) => expander.expand(value, path, secret)
  const expandMap = (map: Record<string, string>, path: string) => {
    for (const [k, v] of Object.entries(map)) map[k] = expand(v, `${path}.${k}`)
    return map
  }
  const expansion = () => (expander.substituted ? { expanded: [...expander.values] } : {})
  // Paths, not credentials: expanded like cwd, and shown.
  const roots = data.roots === undefined ? undefined : rootsOf(data.roots, fail).map((uri, i) => checkedRoot(expand(uri, `roots[${i}]`, false), `roots[${i}]`, fail))
  const withRoots = roots === undefined ? {} : { roots }

  if (typeof data.url === 'string') {
    if (data.command !== undefined) fail("give either 'command' (stdio) or 'url' (HTTP), not both")
    refuseRunDir(data.url, 'url', 'http', fail)
    if (isObject(data.headers)) for (const [k, v] of Object.entries(data.headers)) if (typeof v === 'string') refuseRunDir(v, `headers.${k}`, 'http', fail)
    if (typeof data.auth === 'string') refuseRunDir(data.auth, 'auth', 'http', fail)
    const written = data.url
    const expandedUrl = expand(written, 'url')
    // A URL with a secret in it is shown as written, never expanded.
    const shown = expandedUrl === written ? written : `${written} (after expanding its placeholders)`
    let url: URL
    try {
      url = new URL(expandedUrl)
    } catch {
      return fail(`not a valid URL: ${shown}`, 'url')
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('must be an http(s) URL', 'url')
    const headers = expandMap(stringMap(data.headers, 'headers', fail), 'headers')
    const auth = typeof data.auth === 'string' ? expand(data.auth, 'auth') : ''
    if (auth !== '' && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) {
      headers.Authorization = auth.startsWith('Bearer ') ? auth : `Bearer ${auth}`
    }
    if (expandedUrl !== written) {
      // The URL parser re-encodes what it holds (spaces, `{`, `|`, a host's case), so a secret in
      // it can come out in a form no other rule knows: every part the placeholders produced is
      // a secret as the parser writes it, and so is the whole URL.
      expander.values.add(url.href)
      for (const part of [url.username, url.password, url.hostname, url.pathname, url.search, url.hash]) {
        if (part !== '' && !written.includes(part)) expander.values.add(part)
      }
    }
    const urlWritten = expander.substituted ? { template: { url: written } } : {}
    return { kind: 'http', url: url.toString(), headers, ...expansion(), ...urlWritten, ...withRoots }
  }
  if (typeof data.command !== 'string' || data.command.trim() === '') {
    return fail("needs 'command' (a stdio server) or 'url' (a Streamable HTTP server)")
  }
  if (data.args !== undefined && (!Array.isArray(data.args) || !data.args.every((a) => typeof a === 'string'))) {
    fail('must be an array of strings', 'args')
  }
  if (data.cwd !== undefined && typeof data.cwd !== 'string') fail('must be a string', 'cwd')
  refuseRunDir(data.command, 'command', 'stdio', fail)
  const template = {
    command: data.command,
    args: (data.args as string[] | undefined) ?? [],
    ...(typeof data.cwd === 'string' ? { cwd: data.cwd } : {})
  }
  const command = expand(template.command, 'command', false)
  if (command.trim() === '') fail('is empty after expanding its placeholders', 'command')
  const args = template.args.map((a, i) => expand(a, `args[${i}]`))
  const cwd = template.cwd === undefined ? undefined : expand(template.cwd, 'cwd', false)
  const serverEnv = expandMap(stringMap(data.env, 'env', fail), 'env')
  return {
    kind: 'stdio',
    command,
    args,
    env: serverEnv,
    ...(cwd !== undefined ? { cwd } : {}),
    ...expansion(),
    ...(expander.substituted ? { template } : {}),
    ...withRoots
  }
}

/**
 * `${RUN_DIR}` is a directory on this machine made per run for a stdio server process: where it
 * would mean nothing (the command that starts it; an HTTP server's url, headers, auth) it is an error.
 */
function refuseRunDir(value: string, path: string, kind: 'stdio' | 'http', fail: (m: string, p?: string) => never): void {
  if (!mentionsRunDir(value)) return
  const field = path.split('.')[0]
  const why = kind === 'http' ? '; an HTTP server runs elsewhere: it' : '; it'
  fail(`\${RUN_DIR} is a per-run directory for a stdio server's args, env, cwd and roots${why} cannot be used in ${field}`, path)
}

/** `roots`: the client's roots for every case that lists none, a non-empty array of file:// URI strings. */
function rootsOf(value: unknown, fail: (m: string, p?: string) => never): string[] {
  if (!Array.isArray(value) || value.length === 0) return fail('must be a non-empty array of file:// URIs', 'roots')
  return value.map((uri, i) => (typeof uri === 'string' ? uri : fail('must be a string (a file:// URI)', `roots[${i}]`)))
}

function checkedRoot(uri: string, path: string, fail: (m: string, p?: string) => never): string {
  const problem = rootProblem(uri)
  return problem ? fail(problem, path) : uri
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

/**
 * The values that must never be printed: env values and header values of the server config, and
 * every value a `${NAME}` placeholder put in, wherever it landed (args, command, url…).
 */
export function serverSecrets(config: ServerConfig): string[] {
  // A credential written into the URL itself (`user:pass@`, `?api_key=`) as well as the placeholders' values.
  const inUrl = config.kind === 'http' ? urlCredentials(config.url).secrets : []
  const values = [...(config.expanded ?? []), ...inUrl, ...(config.kind === 'stdio' ? Object.values(config.env) : Object.values(config.headers))]
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

/** The config with its hashed values as written (placeholders unexpanded), for hashes that must not change with a secret. */
export function serverTemplate(config: ServerConfig): ServerConfig {
  return config.template ? ({ ...config, ...config.template } as ServerConfig) : config
}
