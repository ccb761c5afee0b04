import { isAbsolute, resolve } from 'node:path'
import { FileLimits, readBoundedFile } from '../../util/read-file.js'

/**
 * The server config as the user wrote it, for files that will be committed: every `${NAME}`
 * placeholder stays a placeholder (never its value), and a literal value that may be a secret
 * (any env or header value but a plain setting, an argument named like a credential or
 * token-shaped, a password in a URL) becomes a new placeholder, whose value the workflow then
 * reads from a repository secret.
 */
export interface WrittenConfig {
  /** The config to write (the `mcpServers` wrapper kept when there was one). */
  json: Record<string, unknown>
  /** Placeholders this introduced in place of literal values: the name and where. */
  introduced: { name: string; where: string }[]
  /** The literal values it took out (never to appear in a written file). */
  removed: string[]
  /** Absolute paths in command, args or cwd: they will not exist on a runner. */
  absolutePaths: string[]
  /** Whether the config was given as a file path (else inline JSON). */
  fromFile: boolean
  /** A URL on this machine (localhost): a runner has no server there unless a step starts one. */
  localUrl: boolean
}

const PLACEHOLDER = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)\}/g
/** Names resolved when the server starts, not from the step's env. */
const RESERVED = new Set(['RUN_DIR'])
/** Set on every runner: never overridden from a secret. */
const RUNNER_VARIABLES = new Set(['HOME', 'PATH', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'PWD', 'TMPDIR', 'LANG', 'CI'])

const SECRET_NAME = /token|secret|passw(or)?d|passwd|pwd|api[-_]?key|access[-_]?key|private[-_]?key|^key$|[-_]key$|credential|auth|cookie|session|signature|bearer/i

/** A literal that looks like a credential whatever it is called. */
export function looksSecret(value: string): boolean {
  if (/^(Bearer|Basic|Token)\s+\S+/i.test(value)) return true
  if (/^(sk|pk|rk)[-_][A-Za-z0-9_-]{8,}|^gh[pousr]_[A-Za-z0-9]{16,}|^github_pat_|^xox[abprs]-|^AKIA[0-9A-Z]{12,}|^glpat-|^AIza[0-9A-Za-z_-]{20,}|^eyJ[\w-]+\.[\w-]+\./.test(value)) return true
  // Long, token-shaped: letters and digits, no spaces, not a path or a file name.
  return value.length >= 24 && /^[A-Za-z0-9_\-+=]+$/.test(value) && /[0-9]/.test(value) && /[A-Za-z]/.test(value)
}

/** Headers that describe the request, never a credential. */
const PLAIN_HEADERS = new Set(['accept', 'content-type', 'user-agent', 'accept-language'])

/** A flag or a small number (`ECHO_SECRET=1`, `AUTH_ENABLED=true`): a setting, not a credential. */
function isSetting(value: string): boolean {
  return value.length < 4 || /^(true|false|yes|no|on|off|none|null|[0-9]{1,6})$/i.test(value)
}

/** The placeholders a written string holds (escaped ones and RUN_DIR left out). */
export function placeholdersIn(text: string): string[] {
  const names: string[] = []
  for (const m of text.matchAll(PLACEHOLDER)) if (!m[1] && !RESERVED.has(m[2])) names.push(m[2])
  return names
}

/** Placeholders the step must set from repository secrets (the runner's own variables left out). */
export function secretNames(json: unknown): string[] {
  const names = new Set<string>()
  const walk = (v: unknown) => {
    if (typeof v === 'string') {
      for (const n of placeholdersIn(v)) if (!RUNNER_VARIABLES.has(n) && !n.startsWith('GITHUB_') && !n.startsWith('RUNNER_')) names.add(n)
    } else if (Array.isArray(v)) v.forEach(walk)
    else if (v && typeof v === 'object') Object.values(v).forEach(walk)
  }
  walk(json)
  return [...names]
}

/** Read the `--server-config` value as written (call after parseServerConfig accepted it). */
export function readWrittenConfig(value: string, baseDir: string): WrittenConfig {
  const trimmed = value.trim()
  const fromFile = !trimmed.startsWith('{')
  const text = fromFile ? readBoundedFile(isAbsolute(trimmed) ? trimmed : resolve(baseDir, trimmed), FileLimits.suite) : trimmed
  const data = JSON.parse(text) as Record<string, unknown>
  const used = new Set<string>()
  const collect = (v: unknown) => {
    if (typeof v === 'string') {
      for (const m of v.matchAll(PLACEHOLDER)) used.add(m[2])
    } else if (Array.isArray(v)) v.forEach(collect)
    else if (v && typeof v === 'object') Object.values(v).forEach(collect)
  }
  collect(data)
  const out: WrittenConfig = { json: data, introduced: [], removed: [], absolutePaths: [], fromFile, localUrl: false }
  const name = (hint: string) => {
    let base = hint.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').toUpperCase() || 'SECRET'
    if (/^[0-9]/.test(base)) base = `_${base}`
    if (base.startsWith('GITHUB_') || base.startsWith('RUNNER_') || RUNNER_VARIABLES.has(base)) base = `MCP_${base}`
    let candidate = base
    for (let n = 2; used.has(candidate); n++) candidate = `${base}_${n}`
    used.add(candidate)
    return candidate
  }
  const replace = (literal: string, hint: string, where: string, ...alsoAs: string[]) => {
    const placeholder = name(hint)
    out.introduced.push({ name: placeholder, where })
    for (const form of [literal, ...alsoAs]) if (form !== '') out.removed.push(form)
    return `\${${placeholder}}`
  }
  const hasPlaceholder = (s: string) => /\$\{/.test(s)

  /** A password in a URL (`scheme://user:password@host`) becomes a placeholder. */
  const urlPassword = (s: string, hint: string, where: string) =>
    s.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)([^@\s]+)(@)/i, (whole, head: string, password: string, at: string) =>
      hasPlaceholder(password) ? whole : `${head}${replace(password, `${hint}_PASSWORD`, where)}${at}`
    )
  /** `Bearer abc` keeps its scheme: `Bearer ${NAME}`. */
  const secretValue = (s: string, hint: string, where: string) => {
    const scheme = /^(Bearer|Basic|Token)(\s+)(\S.*)$/i.exec(s)
    return scheme ? `${scheme[1]}${scheme[2]}${replace(scheme[3], hint, where)}` : replace(s, hint, where)
  }

  const server = (s: Record<string, unknown>, prefix: string) => {
    if (s.mcpServers && typeof s.mcpServers === 'object' && !Array.isArray(s.mcpServers)) {
      const inner = s.mcpServers as Record<string, Record<string, unknown>>
      for (const [k, v] of Object.entries(inner)) server(v, `${prefix}mcpServers.${k}.`)
      return
    }
    if (typeof s.command === 'string' && isAbsolute(s.command)) out.absolutePaths.push(s.command)
    if (typeof s.cwd === 'string' && isAbsolute(s.cwd)) out.absolutePaths.push(s.cwd)
    if (Array.isArray(s.args)) {
      s.args = (s.args as string[]).map((arg, i) => {
        const where = `${prefix}args[${i}]`
        if (isAbsolute(arg)) out.absolutePaths.push(arg)
        if (hasPlaceholder(arg)) return arg
        const flag = /^(--?([A-Za-z0-9_-]+)=)(.+)$/.exec(arg)
        if (flag && SECRET_NAME.test(flag[2]) && !isSetting(flag[3])) return `${flag[1]}${replace(flag[3], flag[2], where)}`
        const previous = i > 0 ? (s.args as string[])[i - 1] : ''
        const bareFlag = /^--?([A-Za-z0-9_-]+)$/.exec(previous)
        if (bareFlag && SECRET_NAME.test(bareFlag[1]) && !arg.startsWith('-')) return replace(arg, bareFlag[1], where)
        if (looksSecret(arg)) return replace(arg, 'SERVER_TOKEN', where)
        return urlPassword(arg, 'SERVER', where)
      })
    }
    for (const field of ['env', 'headers'] as const) {
      const values = s[field]
      if (!values || typeof values !== 'object' || Array.isArray(values)) continue
      const written = values as Record<string, unknown>
      for (const [k, v] of Object.entries(written)) {
        if (typeof v !== 'string' || hasPlaceholder(v) || v === '') continue
        const where = `${prefix}${field}.${k}`
        const hint = field === 'headers' && k.toLowerCase() === 'authorization' ? 'MCP_TOKEN' : k
        // The evaluation redacts every env and header value, so a committed file holds none but plain
        // settings: flags, small numbers, one word (LOG_LEVEL=debug), descriptive headers.
        const setting = isSetting(v) || (!SECRET_NAME.test(k) && /^[A-Za-z]{1,16}$/.test(v)) || (field === 'headers' && PLAIN_HEADERS.has(k.toLowerCase()))
        if (!setting || looksSecret(v)) written[k] = secretValue(v, hint, where)
        else written[k] = urlPassword(v, k, where)
      }
    }
    if (typeof s.auth === 'string' && s.auth !== '' && !hasPlaceholder(s.auth)) s.auth = secretValue(s.auth, 'MCP_AUTH_TOKEN', `${prefix}auth`)
    if (typeof s.url === 'string' && /^[a-z]+:\/\/(?:[^@/]*@)?(localhost|127\.[0-9.]+|\[::1\]|0\.0\.0\.0)(?=[:/]|$)/i.test(s.url)) out.localUrl = true
    if (typeof s.url === 'string' && !hasPlaceholder(s.url)) {
      let url = urlPassword(s.url, 'MCP_URL', `${prefix}url`)
      url = url.replace(/([?&])([^=&#]+)=([^&#]*)/g, (whole, sep: string, param: string, v: string) =>
        SECRET_NAME.test(param) && v !== '' && !hasPlaceholder(v) ? `${sep}${param}=${replace(v, param, `${prefix}url`, decodeURIComponentSafe(v))}` : whole
      )
      s.url = url
    }
  }
  server(out.json, '')
  return out
}

function decodeURIComponentSafe(v: string): string {
  try {
    return decodeURIComponent(v)
  } catch {
    return v
  }
}
