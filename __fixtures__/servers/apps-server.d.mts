/** The list view: show_list's resource (CSP declared, no network). */
export const GOOD_URI: string
/** Connects, then logs BROKEN_CONSOLE with console.error and throws BROKEN_ERROR uncaught. */
export const BROKEN_URI: string
/** Draws text and never sends ui/initialize. */
export const SILENT_URI: string
/** Connects, renders, then fetches UNDECLARED_URL (its CSP declares only DECLARED_DOMAIN). */
export const FETCHER_URI: string
/** Connects and draws nothing. */
export const BLANK_URI: string
/** Connects, renders, calls model_only_tool through the host; `#status` says "refused: …" or "allowed: …". */
export const HIDDEN_CALLER_URI: string
/** The list view again, its resource with no `_meta.ui.csp`. */
export const NOCSP_URI: string
/** `text/html;profile=mcp-app`. */
export const RESOURCE_MIME_TYPE: string
export const DEFAULT_TITLE: string
export const DEFAULT_ITEMS: string[]
export const BROKEN_CONSOLE: string
export const BROKEN_ERROR: string
export const UNDECLARED_URL: string
export const DECLARED_DOMAIN: string

export function createAppsServer(): unknown
export function startAppsHttpServer(): Promise<{ url: string; close(): Promise<void> }>
