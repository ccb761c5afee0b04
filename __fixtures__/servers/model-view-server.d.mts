/** read_log's size when none is asked for (300,000 characters). */
export const DEFAULT_LOG_SIZE: number
/** The 2×2 PNG screenshot answers with, base64. */
export const PNG_BASE64: string
/** The image/svg+xml block screenshot {kind: 'svg'} adds, base64. */
export const SVG_BASE64: string
/** The audio/wav block record_audio answers with, base64. */
export const WAV_BASE64: string
/** What search_libraries answers to the query 'fail', with isError false. */
export const SEARCH_FAILURE: string
/** The MCP Apps view show_dashboard and refresh_dashboard link (listed as a resource). */
export const DASHBOARD_URI: string
/** The view show_chart links with the deprecated `_meta['ui/resourceUri']` (not listed). */
export const CHART_URI: string
/** `text/html;profile=mcp-app`. */
export const APP_MIME_TYPE: string
/** The dashboard resource's HTML. */
export const DASHBOARD_HTML: string

/** The text read_log answers with: exactly `size` characters, `LOG-HEAD` first and `LOG-TAIL` last. */
export function logText(size?: number): string

export function createModelViewServer(options: { stateFile: string }): unknown
