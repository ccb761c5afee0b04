import type { Catalog } from '../catalog-types.js'
import type { AuthProbes, MetadataFetch } from '../probe-auth-data.js'
import type { ProbeData } from '../probe-data.js'
import type { CheckResult } from '../types.js'
import type { Exchange } from '../wire.js'
import { bearerChallenge } from '../www-authenticate.js'
import { describeResponse, exchangesIn, failed, passed, skipped, type CheckSpec } from './common.js'
import { resourceMatch } from './auth-resource.js'

/** Checks on a protected server's resource-server side (401, RFC 9728 metadata, 403 insufficient_scope). Called for every era: each check says itself when it does not apply. */

export const AUTH_WWW_AUTHENTICATE: CheckSpec = {
  id: 'auth-www-authenticate',
  severity: 'error',
  spec: 'authorization (2025-11-25, 2026-07-28): a request without a token → 401 with WWW-Authenticate: Bearer (RFC 6750 §3, RFC 9110 §11.6.1), resource_metadata naming the RFC 9728 document (§5.1) unless it is at the well-known URI'
}
export const AUTH_METADATA: CheckSpec = {
  id: 'auth-protected-resource-metadata',
  severity: 'error',
  spec: 'authorization-server-discovery: the RFC 9728 document (resource_metadata, else /.well-known/oauth-protected-resource[/path]) names this server as resource (RFC 9728 §3.3) and at least one authorization_servers entry'
}
export const AUTH_INVALID_TOKEN: CheckSpec = {
  id: 'auth-invalid-token',
  severity: 'error',
  spec: 'authorization "Token Handling": a token the server did not issue → 401 (OAuth 2.1 §5.3; error="invalid_token", RFC 6750 §3.1)'
}
export const AUTH_INSUFFICIENT_SCOPE: CheckSpec = {
  id: 'auth-insufficient-scope',
  severity: 'warning',
  spec: 'authorization "Scope Challenge Handling": insufficient scope → 403 with WWW-Authenticate: Bearer error="insufficient_scope", scope, resource_metadata (SHOULD; RFC 6750 §3.1)'
}

const ALL = [AUTH_WWW_AUTHENTICATE, AUTH_METADATA, AUTH_INVALID_TOKEN, AUTH_INSUFFICIENT_SCOPE]
const HOW_TO_PASS_A_TOKEN = 'give it a token in server_config ("auth": "${TOKEN}", sent as Authorization: Bearer …, or in "headers") so conformance can probe the rest'

export function checkAuth(probe: ProbeData): CheckResult[] {
  if (probe.transport === 'stdio') return ALL.map((c) => skipped(c, 'stdio server: no HTTP authorization (credentials come from the environment)'))
  const auth = probe.auth
  if (!auth) return ALL.map((c) => skipped(c, 'not probed'))
  const refusal = auth.withoutCredentials.find((e) => e.response.status === 401)
  const notProtected = refusal || forbidden(auth) ? undefined : unprotected(auth)
  return [
    notProtected ? skipped(AUTH_WWW_AUTHENTICATE, notProtected) : checkChallenge(probe, auth, refusal),
    notProtected ? skipped(AUTH_METADATA, notProtected) : checkMetadata(auth),
    notProtected ? skipped(AUTH_INVALID_TOKEN, notProtected) : checkInvalidToken(auth),
    checkInsufficientScope(probe, notProtected)
  ]
}

/** Why the checks do not apply: nothing without credentials got 401. */
function unprotected(auth: AuthProbes): string {
  const sent = auth.withoutCredentials.map((e) => `${e.method} → ${describeAnswer(e)}`).join('; ')
  const without = auth.credentials === 'configured' ? 'without the configured Authorization header' : 'without an Authorization header'
  if (auth.withoutCredentials.some(jsonRpcAnswer)) return `the server answered without credentials: not protected (${without}: ${sent})`
  return `no request without credentials got 401, so nothing says the server is protected (${without}: ${sent})`
}

/** A JSON-RPC answer (a result, or an error with a code), not a refusal's body. */
const jsonRpcAnswer = (e: Exchange) => e.response.frame?.result !== undefined || typeof e.response.frame?.error?.code === 'number'
const describeAnswer = (e: Exchange) => (jsonRpcAnswer(e) || e.response.status === undefined ? describeResponse(e) : `HTTP ${e.response.status}`)

/** A request without credentials refused with 403 and a Bearer challenge: protected, with the wrong status. */
const forbidden = (auth: AuthProbes): Exchange | undefined => auth.withoutCredentials.find((e) => e.response.status === 403 && bearerChallenge(e.response.headers?.['www-authenticate']))

const found = (auth: AuthProbes): MetadataFetch | undefined => auth.metadata.find((m) => m.status === 200 && m.document)

function checkChallenge(probe: ProbeData, auth: AuthProbes, refusal: Exchange | undefined): CheckResult {
  const hint = probe.era === 'unreachable' ? (auth.credentials === 'none' ? `; ${HOW_TO_PASS_A_TOKEN}` : '; the configured Authorization header got 401 as well: the token is invalid, expired or not for this server') : ''
  if (!refusal) {
    const refused = forbidden(auth)!
    return failed(AUTH_WWW_AUTHENTICATE, `${refused.method} without credentials got HTTP 403; a missing token is answered 401 with a Bearer challenge (403 is for a token whose scope is insufficient)${hint}`, refused)
  }
  const header = refusal.response.headers?.['www-authenticate']
  if (header === undefined) {
    return failed(AUTH_WWW_AUTHENTICATE, `${refusal.method} without credentials got 401 without a WWW-Authenticate header; a 401 carries one (RFC 9110 §15.5.2): Bearer resource_metadata="…" tells MCP clients where the authorization server is${hint}`, refusal)
  }
  const bearer = bearerChallenge(header)
  if (!bearer) return failed(AUTH_WWW_AUTHENTICATE, `${refusal.method} without credentials got 401 with WWW-Authenticate: ${quote(header)}: no Bearer challenge (MCP clients send OAuth bearer tokens)${hint}`, refusal)
  const notes = [
    bearer.params.resource_metadata === undefined ? 'no resource_metadata: clients look for the document at the well-known URIs (see auth-protected-resource-metadata)' : `resource_metadata ${bearer.params.resource_metadata}`,
    bearer.params.scope === undefined ? 'no scope (SHOULD: it tells clients which scopes to ask for)' : `scope "${bearer.params.scope}"`
  ]
  return passed(AUTH_WWW_AUTHENTICATE, `${refusal.method} without credentials → 401 with a Bearer challenge: ${notes.join('; ')}${hint}`, refusal)
}

function checkMetadata(auth: AuthProbes): CheckResult {
  const document = found(auth)
  const tried = auth.metadata.map((m) => `GET ${m.url} (${m.source}) → ${m.failure ?? `HTTP ${m.status}${m.status === 200 ? ', not a JSON object' : ''}`}`).join('; ')
  if (!document?.document) return failed(AUTH_METADATA, `no Protected Resource Metadata document: ${tried || 'nothing to fetch'}; a protected MCP server serves one (RFC 9728) and names it in resource_metadata or at the well-known URI`)
  const doc = document.document
  const errors: string[] = []
  const warnings: string[] = []
  const match = resourceMatch(doc.resource, auth.url, document.source)
  if (match.kind === 'error') errors.push(match.message)
  else if (match.kind === 'warning') warnings.push(match.message)
  const servers = doc.authorization_servers
  if (!Array.isArray(servers) || servers.length === 0) errors.push(`authorization_servers is ${servers === undefined ? 'missing' : JSON.stringify(servers)}; it must list at least one authorization server`)
  else {
    const bad = servers.filter((s) => typeof s !== 'string' || !URL.canParse(s))
    if (bad.length) errors.push(`authorization_servers has entries that are not URLs: ${bad.map((b) => JSON.stringify(b)).join(', ')}`)
  }
  const where = `${document.url} (${document.source})`
  if (errors.length) return failed(AUTH_METADATA, `${where}: ${[...errors, ...warnings].join('; ')}`)
  if (warnings.length) return { ...failed(AUTH_METADATA, `${where}: ${warnings.join('; ')}`), status: 'warn' }
  return passed(AUTH_METADATA, `${where} names resource ${JSON.stringify(doc.resource)} and ${(servers as string[]).length} authorization server(s): ${(servers as string[]).slice(0, 3).join(', ')}`)
}

function checkInvalidToken(auth: AuthProbes): CheckResult {
  const exchange = auth.invalidToken
  if (!exchange) return skipped(AUTH_INVALID_TOKEN, 'not probed')
  const { status, frame } = exchange.response
  const sent = `${exchange.method} with a made-up bearer token`
  if (status === 401) {
    const bearer = bearerChallenge(exchange.response.headers?.['www-authenticate'])
    const note = bearer?.params.error === 'invalid_token' ? ' with error="invalid_token"' : ' (its challenge SHOULD say error="invalid_token", RFC 6750 §3.1)'
    return passed(AUTH_INVALID_TOKEN, `${sent} → 401${note}`, exchange)
  }
  if (frame?.result || (status !== undefined && status >= 200 && status < 300)) {
    return failed(AUTH_INVALID_TOKEN, `${sent} got ${describeResponse(exchange)}: the server accepted a token it never issued; it must validate tokens and answer 401`, exchange)
  }
  return failed(AUTH_INVALID_TOKEN, `${sent} got ${describeResponse(exchange)}; expected 401`, exchange)
}

/** Every 403 the probes saw, but the Origin probes' (a 403 there is the DNS-rebinding defence) and the auth probe's own. */
function forbiddenExchanges(probe: ProbeData): Exchange[] {
  const { dnsRebinding: _origin, auth: _auth, ...rest } = probe
  return [...exchangesIn(rest, new Set())].filter((e) => e.response.status === 403)
}

function checkInsufficientScope(probe: ProbeData, notProtected: string | undefined): CheckResult {
  const refusals = forbiddenExchanges(probe).map((exchange) => ({ exchange, bearer: bearerChallenge(exchange.response.headers?.['www-authenticate']) }))
  const scoped = refusals.filter((r) => r.bearer?.params.error === 'insufficient_scope')
  const otherBearer = refusals.find((r) => r.bearer && r.bearer.params.error !== 'insufficient_scope')
  if (otherBearer) {
    const error = otherBearer.bearer!.params.error
    return failed(AUTH_INSUFFICIENT_SCOPE, `${otherBearer.exchange.method} got 403 with a Bearer challenge whose error is ${error === undefined ? 'missing' : `"${error}"`}; a 403 for a token is insufficient scope: error="insufficient_scope" with the scope needed`, otherBearer.exchange)
  }
  if (scoped.length) {
    const { exchange, bearer } = scoped[0]
    const missing = (['scope', 'resource_metadata'] as const).filter((p) => bearer!.params[p] === undefined)
    if (missing.includes('scope')) return failed(AUTH_INSUFFICIENT_SCOPE, `${exchange.method} → 403 error="insufficient_scope" without scope: clients cannot tell which scopes to ask for`, exchange)
    return passed(AUTH_INSUFFICIENT_SCOPE, `${scoped.length} request(s) → 403 error="insufficient_scope", scope "${bearer!.params.scope}"${missing.length ? ' (no resource_metadata: SHOULD be there, as on the 401)' : ''}`, exchange)
  }
  const bare = refusals[0]
  if (bare && !notProtected) {
    return failed(AUTH_INSUFFICIENT_SCOPE, `${bare.exchange.method} got 403 without a Bearer challenge from a protected server; if the token's scope is insufficient, say so: WWW-Authenticate: Bearer error="insufficient_scope", scope="…"`, bare.exchange)
  }
  if (notProtected) return skipped(AUTH_INSUFFICIENT_SCOPE, notProtected)
  return skipped(AUTH_INSUFFICIENT_SCOPE, 'no request was refused with 403 (an insufficient scope cannot be provoked without knowing the server’s scopes)')
}

const quote = (text: string) => JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text)

/** These checks' revisions and official-suite mapping. */
export const AUTH_CATALOG: Catalog = Object.fromEntries(
  ALL.map((c) => [
    c.id,
    {
      revision: 'both',
      official: {
        scenarios: [],
        scoring: 'none',
        note: 'the official auth/* scenarios test clients against a mock resource server; none checks a server’s 401, its metadata or its scope errors'
      }
    }
  ])
)
