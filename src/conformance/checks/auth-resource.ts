import type { MetadataSource } from '../probe-auth-data.js'

/**
 * Whether a Protected Resource Metadata document's `resource` names this server. RFC 9728 §3.3:
 * identical to the resource identifier the metadata URL was built from (the server's URL; the
 * origin, for the root well-known URI), no fragment. Compared as the canonical URI of the
 * 2026-07-28 authorization spec: scheme and host case-insensitive, the default port and a
 * trailing slash not significant. A same-origin prefix of the server's URL is what the
 * TypeScript SDK's client accepts, and what a strict client refuses: a warning.
 */
export type ResourceMatch = { kind: 'ok' } | { kind: 'warning' | 'error'; message: string }

export function resourceMatch(resource: unknown, serverUrl: string, source: MetadataSource): ResourceMatch {
  if (typeof resource !== 'string') return { kind: 'error', message: `resource is ${resource === undefined ? 'missing' : JSON.stringify(resource)}; it must be this server's URL (${serverUrl})` }
  let named: URL
  try {
    named = new URL(resource)
  } catch {
    return { kind: 'error', message: `resource ${JSON.stringify(resource)} is not an absolute URL; it must be this server's URL (${serverUrl})` }
  }
  if (named.hash) return { kind: 'error', message: `resource ${JSON.stringify(resource)} has a fragment, which a resource identifier must not (RFC 9728 §1.2)` }
  const server = new URL(serverUrl)
  const path = (u: URL) => u.pathname.replace(/\/+$/, '')
  const canonical = (u: URL) => `${u.protocol}//${u.host}${path(u)}${u.search}`
  if (canonical(named) === canonical(server)) return { kind: 'ok' }
  if (source === 'well-known (root)' && canonical(named) === server.origin) return { kind: 'ok' }
  const prefix = path(named)
  if (named.origin === server.origin && (prefix === '' || path(server).startsWith(`${prefix}/`))) {
    return {
      kind: 'warning',
      message: `resource ${JSON.stringify(resource)} is a prefix of this server's URL (${serverUrl}), not the URL itself: RFC 9728 §3.3 wants it identical, and a client that follows it refuses the document (the TypeScript SDK accepts a prefix)`
    }
  }
  return { kind: 'error', message: `resource ${JSON.stringify(resource)} is not this server's URL (${serverUrl}): a client must not use the document (RFC 9728 §3.3), so it finds no authorization server` }
}
