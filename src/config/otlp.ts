import { ConfigError } from './errors.js'

/** Where spans go: the OTLP/HTTP traces URL, and the headers every export sends (their values are secrets). */
export interface OtlpTarget {
  url: string
  headers: Record<string, string>
}

/** The OTLP settings as the user typed them (input or flag; empty: not given), with the names they were typed under. */
export interface GivenOtlp {
  endpoint: string
  headers: string
  names: { endpoint: string; headers: string }
}

/** The OpenTelemetry SDK's standard variables we read, per signal first (the spec's precedence). */
const OTLP_ENV = {
  tracesEndpoint: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  endpoint: 'OTEL_EXPORTER_OTLP_ENDPOINT',
  tracesHeaders: 'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  headers: 'OTEL_EXPORTER_OTLP_HEADERS'
} as const

/** Where a value came from, for errors: an input or flag, or an environment variable. */
export type OtlpSource = { name: string; env: boolean }

/**
 * The OTLP target: the endpoint from the input (or flag), else OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
 * (used as it is), else OTEL_EXPORTER_OTLP_ENDPOINT (a base: `/v1/traces` is appended); the
 * headers from the input, else OTEL_EXPORTER_OTLP_TRACES_HEADERS, else OTEL_EXPORTER_OTLP_HEADERS.
 * `target` is null when no endpoint is set (the headers alone send nothing). `secrets` holds every
 * header value and any password in the URL, and with an endpoint the values of both header
 * variables, which the SDK's exporter sends as well (merged under the headers chosen here). Throws a ConfigError naming the input, flag or
 * variable for a URL or header list that does not parse; no error repeats a header value.
 */
export function resolveOtlp(given: GivenOtlp, env: NodeJS.ProcessEnv): { target: OtlpTarget | null; secrets: string[] } {
  const fromInput = (name: string): OtlpSource => ({ name, env: false })
  const fromEnv = (name: string): OtlpSource => ({ name, env: true })
  const set = (value: string | undefined) => (value ?? '').trim()
  const secrets = new Set<string>()
  // Headers given here are ours to check and mask even when no endpoint is set.
  const givenHeaders = set(given.headers) === '' ? null : parseOtlpHeaders(set(given.headers), fromInput(given.names.headers))
  if (givenHeaders) for (const value of Object.values(givenHeaders)) addSecret(secrets, value)

  let url: URL | null = null
  if (set(given.endpoint) !== '') url = tracesUrl(set(given.endpoint), fromInput(given.names.endpoint), 'base-unless-traces')
  else if (set(env[OTLP_ENV.tracesEndpoint]) !== '') url = tracesUrl(set(env[OTLP_ENV.tracesEndpoint]), fromEnv(OTLP_ENV.tracesEndpoint), 'as-is')
  else if (set(env[OTLP_ENV.endpoint]) !== '') url = tracesUrl(set(env[OTLP_ENV.endpoint]), fromEnv(OTLP_ENV.endpoint), 'base')
  if (url === null) return { target: null, secrets: [...secrets] }
  for (const part of [url.username, url.password]) if (part) addSecret(secrets, safeDecode(part))

  let headers: Record<string, string> = givenHeaders ?? {}
  if (givenHeaders === null) {
    const variable = set(env[OTLP_ENV.tracesHeaders]) !== '' ? OTLP_ENV.tracesHeaders : set(env[OTLP_ENV.headers]) !== '' ? OTLP_ENV.headers : null
    if (variable) headers = parseOtlpHeaders(set(env[variable]), fromEnv(variable))
    for (const value of Object.values(headers)) addSecret(secrets, value)
  }
  // The SDK's exporter sends the headers of both variables too, merged under ours: theirs are secrets as well.
  for (const variable of [OTLP_ENV.tracesHeaders, OTLP_ENV.headers]) for (const value of looseHeaderValues(set(env[variable]))) addSecret(secrets, value)
  return { target: { url: url.href, headers }, secrets: [...secrets] }
}

/**
 * An endpoint as the traces URL. `as-is`: a per-signal variable, used unchanged (the spec's rule);
 * `base`: OTEL_EXPORTER_OTLP_ENDPOINT, `v1/traces` appended to its path; `base-unless-traces`:
 * the input or flag, a base too unless its path already ends in `/v1/traces`.
 */
export function tracesUrl(text: string, source: OtlpSource, mode: 'as-is' | 'base' | 'base-unless-traces'): URL {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    // Not echoed: an endpoint can carry a token in its query or user part.
    throw located('must be an http(s) URL such as http://localhost:4318 (OTLP/HTTP); it does not parse as a URL', source)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw located(`must be an http(s) URL such as http://localhost:4318 (OTLP/HTTP), not ${url.protocol.replace(/:$/, '')}`, source)
  if (mode === 'as-is' || (mode === 'base-unless-traces' && /\/v1\/traces\/?$/.test(url.pathname))) return url
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/traces`
  return url
}

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/**
 * A header list in the OpenTelemetry format, `key=value,key2=value2`: keys and values trimmed,
 * values percent-decoded, empty entries skipped. Throws a ConfigError naming the source for an
 * entry that is not `key=value`, a key that is not a header name, a key given twice, or a value
 * that does not decode or holds a line break; the message names the entry and key, never the value.
 */
export function parseOtlpHeaders(text: string, source: OtlpSource): Record<string, string> {
  const headers: Record<string, string> = {}
  const seen = new Set<string>()
  text.split(',').forEach((entry, i) => {
    if (entry.trim() === '') return
    const which = `entry ${i + 1}`
    const eq = entry.indexOf('=')
    if (eq < 0) throw located(`${which} is not key=value (the format is key=value,key2=value2)`, source)
    const key = entry.slice(0, eq).trim()
    if (!HEADER_NAME.test(key)) throw located(`${which}: ${key === '' ? 'the key is empty' : `'${key}' is not an HTTP header name`}`, source)
    if (seen.has(key.toLowerCase())) throw located(`${which}: the header '${key}' is given twice`, source)
    seen.add(key.toLowerCase())
    let value: string
    try {
      value = decodeURIComponent(entry.slice(eq + 1).trim())
    } catch {
      throw located(`${which} ('${key}'): the value is not valid percent-encoding (write a literal % as %25)`, source)
    }
    if (/[\r\n\0]/.test(value)) throw located(`${which} ('${key}'): the value holds a line break or NUL`, source)
    headers[key] = value
  })
  return headers
}

/** The values of a `key=value,…` list as the SDK reads it, whether or not it would pass `parseOtlpHeaders`. */
function looseHeaderValues(text: string): string[] {
  return text.split(',').flatMap((entry) => {
    const eq = entry.indexOf('=')
    if (eq < 0) return []
    const raw = entry.slice(eq + 1).trim()
    return [raw, safeDecode(raw)]
  })
}

/** A header value and, for `Bearer abc`, the token alone (it leaks when printed by itself). */
function addSecret(secrets: Set<string>, value: string): void {
  if (value === '') return
  secrets.add(value)
  const credential = /^(?:Bearer|Basic|Token|ApiKey)\s+(.+)$/i.exec(value)
  if (credential) secrets.add(credential[1])
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

function located(detail: string, source: OtlpSource): ConfigError {
  if (source.env) return new ConfigError(`environment variable ${source.name}: ${detail}`)
  return new ConfigError(detail, { input: source.name })
}

