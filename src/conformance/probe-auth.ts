import type { ServerConfig } from '../config/types.js'
import { boundedFetch } from '../util/bounded-fetch.js'
import type { AuthProbes, MetadataFetch, MetadataSource } from './probe-auth-data.js'
import type { ProbeContext } from './probe-context.js'
import { LEGACY_VERSION, envelope } from './types.js'
import { HttpWire, type Exchange, type WireRequest } from './wire.js'
import { bearerChallenge } from './www-authenticate.js'

/**
 * The auth probe (HTTP only: stdio servers take credentials from the environment). The handshake,
 * and a modern server's first declared list, sent without the configured Authorization header:
 * a 401 (or a 403 with a Bearer challenge) means a protected server, and then its challenge, its
 * RFC 9728 document and a made-up token are looked at. The user's token is never sent along, never kept.
 */

/** Sent where a token is due, to see that a token the server never issued gets 401. */
export const MADE_UP_TOKEN = 'mcp-server-evals-not-a-real-token'
const WELL_KNOWN = '/.well-known/oauth-protected-resource'
/** A metadata document is small: more than this is not read. */
const MAX_METADATA_BYTES = 256 * 1024
const metadataFetch = boundedFetch((url: URL, init?: RequestInit) => fetch(url, init), 'server', MAX_METADATA_BYTES)

export async function probeAuth(context: ProbeContext): Promise<AuthProbes | undefined> {
  if (context.config.kind !== 'http' || context.signal?.aborted) return undefined
  const requests: WireRequest[] = [handshakeOf(context.era)]
  if (context.era === 'modern') {
    const list = (['tools', 'resources', 'prompts'] as const).find((c) => context.capabilities[c])
    if (list) requests.push(context.request(`${list}/list`))
  }
  return probeWithoutCredentials(context.config, requests, context.timeout)
}

/**
 * A server that refused server/discover with 401 (the probe calls it unreachable: nothing else
 * can be probed): what its refusal is worth. When no credentials were configured, that refusal
 * is the request without them.
 */
export async function probeRefusedAuth(config: ServerConfig, discover: Exchange, timeout: number): Promise<AuthProbes | undefined> {
  if (config.kind !== 'http' || discover.response.status !== 401) return undefined
  if (credentialsOf(config.headers) === 'configured') return probeWithoutCredentials(config, [handshakeOf('modern')], timeout)
  return gather(config, [discover], timeout)
}

const handshakeOf = (era: 'modern' | 'legacy'): WireRequest =>
  era === 'modern'
    ? { method: 'server/discover', params: { _meta: envelope() } }
    : { method: 'initialize', params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'mcp-server-evals-conformance', version: '1' } } }

const isAuthorization = (name: string) => name.toLowerCase() === 'authorization'
const credentialsOf = (headers: Record<string, string>): AuthProbes['credentials'] => (Object.keys(headers).some(isAuthorization) ? 'configured' : 'none')
const withoutAuthorization = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !isAuthorization(name)))

async function probeWithoutCredentials(config: ServerConfig & { kind: 'http' }, requests: WireRequest[], timeout: number): Promise<AuthProbes> {
  const exchanges = await Promise.all(requests.map((req) => once(config.url, withoutAuthorization(config.headers), req, timeout)))
  return gather(config, exchanges, timeout)
}

/** One request on its own client, closed after (a legacy session it minted is ended). */
async function once(url: string, headers: Record<string, string>, req: WireRequest, timeout: number): Promise<Exchange> {
  const wire = new HttpWire(url, headers)
  try {
    return await wire.request(req, timeout)
  } finally {
    await wire.close()
  }
}

async function gather(config: ServerConfig & { kind: 'http' }, withoutCredentials: Exchange[], timeout: number): Promise<AuthProbes> {
  const secrets = Object.entries(config.headers)
    .filter(([name]) => isAuthorization(name))
    .flatMap(([, value]) => [value, value.replace(/^\S+\s+/, '')])
    .filter((s) => s.length >= 4)
  const base = { url: config.url, credentials: credentialsOf(config.headers), metadata: [] as MetadataFetch[] }
  const refusal = withoutCredentials.find((e) => e.response.status === 401) ?? withoutCredentials.find((e) => e.response.status === 403 && bearerChallenge(e.response.headers?.['www-authenticate']))
  if (!refusal) return redacted({ ...base, withoutCredentials }, secrets)
  const challenge = bearerChallenge(refusal.response.headers?.['www-authenticate'])
  const headers = { ...withoutAuthorization(config.headers), authorization: `Bearer ${MADE_UP_TOKEN}` }
  // The refused request again (a server may leave server/discover open and protect the rest).
  const refused = { method: refusal.method, params: refusal.request.params as Record<string, unknown> | undefined }
  const [invalidToken, metadata] = await Promise.all([once(config.url, headers, refused, timeout), fetchMetadata(config.url, challenge?.params.resource_metadata, timeout)])
  return redacted({ ...base, withoutCredentials, invalidToken, metadata }, secrets)
}

/** The URLs a client tries (2026-07-28 authorization-server-discovery): the challenge's resource_metadata, else the well-known URIs, path first. */
export function metadataUrls(serverUrl: string, resourceMetadata: string | undefined): { url: string; source: MetadataSource }[] {
  if (resourceMetadata !== undefined) return [{ url: resourceMetadata, source: 'resource_metadata' }]
  const target = new URL(serverUrl)
  const path = target.pathname.replace(/\/+$/, '')
  return [...(path ? [{ url: `${target.origin}${WELL_KNOWN}${path}`, source: 'well-known (path)' as const }] : []), { url: `${target.origin}${WELL_KNOWN}`, source: 'well-known (root)' as const }]
}

/** GET each URL in turn, without credentials, until one answers 200. */
async function fetchMetadata(serverUrl: string, resourceMetadata: string | undefined, timeout: number): Promise<MetadataFetch[]> {
  const fetched: MetadataFetch[] = []
  for (const { url, source } of metadataUrls(serverUrl, resourceMetadata)) {
    const one = await getMetadata(url, source, timeout)
    fetched.push(one)
    if (one.status === 200) break
  }
  return fetched
}

async function getMetadata(url: string, source: MetadataSource, timeout: number): Promise<MetadataFetch> {
  let target: URL
  try {
    target = new URL(url)
  } catch {
    return { url, source, failure: 'not a URL' }
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return { url, source, failure: `not fetched: ${target.protocol} is not http(s)` }
  try {
    const res = await metadataFetch(target, { headers: { accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(timeout) })
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel()
      return { url, source, status: res.status, failure: `a redirect (to ${res.headers.get('location') ?? 'nowhere'}), not followed` }
    }
    const text = await res.text()
    let document: unknown
    try {
      document = JSON.parse(text)
    } catch {
      document = undefined
    }
    if (document && typeof document === 'object' && !Array.isArray(document)) return { url, source, status: res.status, document: document as Record<string, unknown> }
    return { url, source, status: res.status, body: text.slice(0, 300) }
  } catch (error) {
    const message = (error as Error).name === 'TimeoutError' ? 'no answer before the timeout' : (error as Error).message
    return { url, source, failure: message }
  }
}

/** The probe's data with every trace of the configured token replaced by `***` (a server may echo it). */
function redacted<T>(value: T, secrets: string[]): T {
  if (secrets.length === 0) return value
  if (typeof value === 'string') return secrets.reduce((text, secret) => text.split(secret).join('***'), value) as T
  if (Array.isArray(value)) return value.map((item) => redacted(item, secrets)) as T
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redacted(v, secrets)])) as T
  return value
}
