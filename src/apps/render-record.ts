import type { AppRender } from '../results/apps.js'
import type { RenderRequest } from './types.js'

/**
 * A render's record with nothing seen yet: no screenshot, no findings, no requests, with the
 * status and reason given. The start of every render's record, and the whole record of one that
 * was not done (no browser, a cancel, a failure before the page).
 */
export function emptyRender(
  request: Pick<RenderRequest, 'id' | 'tool' | 'call_index'>,
  status: AppRender['status'],
  reason: string | null,
  viewport: AppRender['viewport'] = { width: 0, height: 0 }
): AppRender {
  return {
    id: request.id,
    tool: request.tool.name,
    call_index: request.call_index,
    resource_uri: request.tool.ui?.resource_uri ?? '',
    status,
    reason,
    screenshot: null,
    screenshot_sha256: null,
    viewport: { ...viewport },
    csp: null,
    permissions: null,
    initialized_ms: null,
    duration_ms: 0,
    findings: [],
    console_errors: [],
    blocked_requests: [],
    tool_calls: [],
    resource_reads: [],
    host_requests: [],
    actions: [],
    assertions: [],
    visual_diff: null
  }
}
