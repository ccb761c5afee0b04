import type { Exchange } from './wire-types.js'

/** What the auth probe gathered over HTTP: a protected server's resource-server side (401, RFC 9728 metadata, 403 insufficient_scope). */
export interface AuthProbes {
  /** The server's URL as configured: the resource a Protected Resource Metadata document must name. */
  url: string
  /** Whether the server config carried an Authorization header (its value is never kept). */
  credentials: 'configured' | 'none'
  /** The handshake (and, modern, a list) sent without the configured Authorization header. */
  withoutCredentials: Exchange[]
  /** The first refused request again, with a made-up bearer token (sent when a request without credentials got 401). */
  invalidToken?: Exchange
  /** The RFC 9728 documents asked for, in order (the challenge's resource_metadata, else the well-known URIs), up to the first found. */
  metadata: MetadataFetch[]
}

/** Where a Protected Resource Metadata URL came from. */
export type MetadataSource = 'resource_metadata' | 'well-known (path)' | 'well-known (root)'

/** One GET of a Protected Resource Metadata URL, without credentials. */
export interface MetadataFetch {
  url: string
  source: MetadataSource
  status?: number
  /** The body, when it is a JSON object. */
  document?: Record<string, unknown>
  /** The start of the body otherwise. */
  body?: string
  /** Why nothing came (network, timeout, a redirect not followed, not http(s)). */
  failure?: string
}
