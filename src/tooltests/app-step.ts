import type { AppTest, Json } from '../config/types.js'
import type { AppRenderer } from '../execute/app-host.js'
import { renderNotDone } from '../execute/app-host.js'
import type { McpSession, McpTool, RawToolCall } from '../mcp/session.js'
import type { AppRender } from '../results/apps.js'

/** What an app test step renders: the call it made and the session it made it on. */
export interface AppStepInput {
  testId: string
  attempt: number
  /** The step's 1-based index: the render's call_index. */
  index: number
  toolName: string
  app: AppTest
  args: Record<string, Json>
  call: RawToolCall
  session: McpSession
  /** Absent: no browser host was lent to the tool tests (the render is skipped, saying so). */
  renderer: AppRenderer | undefined
  /** The job's cancel: a render has its own timeout (render_timeout_ms), not the attempt's. */
  cancel: AbortSignal | undefined
}

/** The render id of a tool test step's app: names its screenshot, the same in every run of the suite. */
export function toolTestRenderId(testId: string, attempt: number, index: number): string {
  return `tool-test.${testId}.${attempt}.step-${index}`
}

/**
 * An app test (a step's `app:`): the view the called tool links, rendered with the call's
 * arguments and raw result on the test's own session (the view's tools/call go to the same
 * server). A tool that links no ui:// resource, or a call that got no result, is the render's
 * error (and fails the step); no browser is a `skipped` render.
 */
export async function renderStepApp(input: AppStepInput): Promise<AppRender> {
  const { session, call } = input
  const tool: McpTool = session.tools.find((t) => t.name === input.toolName) ?? { name: input.toolName, inputSchema: {} }
  const request = { id: toolTestRenderId(input.testId, input.attempt, input.index), tool, call_index: input.index }
  const uri = tool.ui?.resource_uri
  if (!uri) {
    const listed = session.tools.some((t) => t.name === input.toolName)
    return renderNotDone(request, 'error', listed ? `tool '${tool.name}' links no ui:// resource (its _meta.ui.resourceUri)` : `tool '${tool.name}' is not in the server's tools/list, so it links no ui:// resource`)
  }
  if (call.response.kind === 'error') {
    return renderNotDone(request, 'error', `the call answered JSON-RPC error ${call.response.error.code} (${call.response.error.message}): there is no result to show the view`)
  }
  if (!input.renderer) return renderNotDone(request, 'skipped', 'no browser host was given to the tool tests')
  return input.renderer.render({ ...request, args: input.args, result: call.response.result, session, test: input.app, signal: input.cancel ?? new AbortController().signal })
}
