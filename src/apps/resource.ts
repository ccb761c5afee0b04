import type { Json } from '../util/json.js'
import type { AppRender } from '../results/types.js'

/**
 * A view's resource as resources/read answered it: its HTML, and the `_meta.ui` a host builds the
 * sandbox from (`csp`, `permissions`). Pure; the CSP header follows the MCP Apps spec's rules for
 * hosts: each declared list opens its directives, empty or absent means none (no network, no
 * nested frames; base-uri 'self'), inline scripts and styles are allowed (views are single HTML documents).
 */

export type ViewCsp = NonNullable<AppRender['csp']>

export interface ViewResource {
  html: string
  csp: ViewCsp | null
  permissions: Json | null
}

/** The HTML content of a resources/read result and its `_meta.ui`, or why there is none. */
export function viewResourceOf(uri: string, result: Record<string, unknown> | undefined): ViewResource | { error: string } {
  const contents = Array.isArray(result?.contents) ? (result.contents as Record<string, unknown>[]) : []
  if (contents.length === 0) return { error: `resources/read ${uri} answered no contents` }
  const item = contents.find((c) => typeof c?.mimeType === 'string' && /^text\/html/i.test(c.mimeType)) ?? contents[0]
  let html: string | null = null
  if (typeof item.text === 'string') html = item.text
  else if (typeof item.blob === 'string') html = Buffer.from(item.blob, 'base64').toString('utf8')
  if (html === null) return { error: `resources/read ${uri} answered no text or blob content` }
  if (typeof item.mimeType === 'string' && !/^text\/html/i.test(item.mimeType)) return { error: `resources/read ${uri} answered ${item.mimeType}, not HTML (text/html;profile=mcp-app)` }
  const ui = objectAt(objectAt(item, '_meta'), 'ui')
  const rawCsp = objectAt(ui, 'csp')
  const csp: ViewCsp | null = rawCsp
    ? {
        connect_domains: strings(rawCsp.connectDomains),
        resource_domains: strings(rawCsp.resourceDomains),
        frame_domains: strings(rawCsp.frameDomains),
        base_uri_domains: strings(rawCsp.baseUriDomains)
      }
    : null
  const permissions = objectAt(ui, 'permissions')
  return { html, csp, permissions: permissions ? (permissions as Json) : null }
}

/** The Content-Security-Policy header the view is served with. */
export function cspHeaderOf(csp: ViewCsp | null): string {
  const connect = safe(csp?.connect_domains)
  const resource = safe(csp?.resource_domains)
  const frame = safe(csp?.frame_domains)
  const base = safe(csp?.base_uri_domains)
  const list = (items: string[], fallback: string) => (items.length ? items.join(' ') : fallback)
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resource.join(' ')}`.trim(),
    `style-src 'self' 'unsafe-inline' ${resource.join(' ')}`.trim(),
    `img-src 'self' data: blob: ${resource.join(' ')}`.trim(),
    `font-src 'self' data: ${resource.join(' ')}`.trim(),
    `media-src 'self' data: blob: ${resource.join(' ')}`.trim(),
    `connect-src ${list(connect, "'none'")}`,
    `frame-src ${list(frame, "'none'")}`,
    "object-src 'none'",
    `base-uri ${list(base, "'self'")}`
  ].join('; ')
}

/** Declared origins only: a token that could end the directive or add a keyword is dropped. */
function safe(items: string[] | undefined): string[] {
  return (items ?? []).filter((d) => /^[a-z][a-z0-9+.-]*:\/\/[^\s;,']+$|^[a-z][a-z0-9+.-]*:$/i.test(d) || /^(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(d))
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

function objectAt(value: unknown, key: string): Record<string, unknown> | null {
  if (!value || typeof value !== 'object') return null
  const inner = (value as Record<string, unknown>)[key]
  return inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : null
}
