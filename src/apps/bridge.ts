import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/client'
import type { AppHostRequest, AppResourceRead, AppToolCall } from '../results/types.js'
import type { Json } from '../util/json.js'
import { redactDeep, redactText } from '../util/redact.js'
import { TOOL_NAME, TOOL_VERSION } from '../version.js'
import type { ViewResource } from './resource.js'
import type { RenderRequest } from './types.js'

/**
 * The host side of the MCP Apps protocol for one render: the official AppBridge, given no MCP
 * client so that nothing reaches the server unchecked. The view's tools/call is forwarded on the
 * run's session only for a tool that exists and is visible to the app (`ui.visibility` null or
 * holding "app"); resources/read likewise; everything else the view asks is answered as a host
 * does (links never opened) and recorded.
 */

export interface BridgeLog {
  readonly start: number
  tool_calls: AppToolCall[]
  resource_reads: AppResourceRead[]
  host_requests: AppHostRequest[]
}

export interface BridgeSetup {
  request: RenderRequest
  resource: ViewResource
  log: BridgeLog
  secrets: readonly string[]
  viewport: { width: number; height: number }
  onSize(height: number | undefined): void
  onInitialized(): void
}

const MAX_RESULT = 2000
const MAX_PARAM_STRING = 500

export function createBridge(setup: BridgeSetup): AppBridge {
  const { request, log, secrets } = setup
  const csp = setup.resource.csp
  const bridge = new AppBridge(
    null,
    { name: TOOL_NAME, version: TOOL_VERSION },
    {
      openLinks: {},
      serverTools: {},
      serverResources: {},
      logging: {},
      message: { text: {} },
      updateModelContext: { text: {} },
      sandbox: {
        ...(csp ? { csp: { connectDomains: csp.connect_domains, resourceDomains: csp.resource_domains, frameDomains: csp.frame_domains, baseUriDomains: csp.base_uri_domains } } : {}),
        ...(setup.resource.permissions ? { permissions: setup.resource.permissions as Record<string, object> } : {})
      }
    },
    {
      hostContext: {
        theme: 'light',
        displayMode: 'inline',
        availableDisplayModes: ['inline'],
        containerDimensions: { width: setup.viewport.width, maxHeight: setup.viewport.height },
        locale: 'en-US',
        timeZone: 'UTC',
        platform: 'web',
        deviceCapabilities: { touch: false, hover: true },
        toolInfo: { tool: { name: request.tool.name, inputSchema: { type: 'object' } } }
      }
    }
  )
  const at = () => Date.now() - log.start
  const record = (method: string, params: unknown) => log.host_requests.push({ method, at_ms: at(), params: cutStrings(redactDeep((params ?? {}) as Json, secrets)) })

  bridge.oncalltool = async (params) => {
    const name = params.name
    const args = (params.arguments ?? {}) as Record<string, Json>
    const call: AppToolCall = { name, args: redactDeep(args, secrets), at_ms: at(), latency_ms: 0, refused: null, is_error: false, result: '' }
    log.tool_calls.push(call)
    const tool = request.session.tools.find((t) => t.name === name)
    const visibility = tool?.ui?.visibility ?? null
    if (!tool || (visibility !== null && !visibility.includes('app'))) {
      call.refused = !tool ? `the server lists no tool ${name}` : `${name} is not visible to the app (visibility ${JSON.stringify(visibility)})`
      call.is_error = true
      call.result = call.refused
      throw new Error(`the host refused tools/call ${name}: ${call.refused}`)
    }
    const started = Date.now()
    try {
      const raw = await request.session.callToolRaw(name, args, request.signal)
      call.latency_ms = Date.now() - started
      if (raw.response.kind === 'error') {
        call.is_error = true
        call.result = cutText(redactText(`JSON-RPC error ${raw.response.error.code}: ${raw.response.error.message}`, secrets))
        throw new Error(raw.response.error.message)
      }
      const result = raw.response.result
      call.is_error = result.isError === true
      call.result = cutText(redactText(resultText(result), secrets))
      return result as CallToolResult
    } catch (error) {
      if (call.latency_ms === 0) {
        call.latency_ms = Date.now() - started
        call.is_error = true
        call.result = cutText(redactText(error instanceof Error ? error.message : String(error), secrets))
      }
      throw error
    }
  }

  bridge.onreadresource = async (params) => {
    const read: AppResourceRead = { uri: redactText(params.uri, secrets), at_ms: at(), error: null }
    log.resource_reads.push(read)
    try {
      const outcome = await request.session.readResource(params.uri, request.signal)
      if (outcome.isError || !outcome.result) throw new Error(outcome.text || `resources/read ${params.uri} failed`)
      return outcome.result as ReadResourceResult
    } catch (error) {
      read.error = cutText(redactText(error instanceof Error ? error.message : String(error), secrets), MAX_PARAM_STRING)
      throw error
    }
  }

  bridge.onmessage = async (params) => {
    record('ui/message', params)
    return {}
  }
  bridge.onopenlink = async (params) => {
    record('ui/open-link', params)
    return {}
  }
  bridge.onupdatemodelcontext = async (params) => {
    record('ui/update-model-context', params)
    return {}
  }
  bridge.onrequestdisplaymode = async (params) => {
    record('ui/request-display-mode', params)
    return { mode: 'inline' }
  }
  bridge.onsizechange = (params) => {
    record('ui/notifications/size-changed', params)
    setup.onSize(params.height)
  }
  bridge.onloggingmessage = (params) => record('notifications/message', params)
  bridge.onrequestteardown = (params) => record('ui/notifications/request-teardown', params ?? {})
  bridge.oninitialized = () => {
    setup.onInitialized()
    void (async () => {
      await bridge.sendToolInput({ arguments: request.args as Record<string, unknown> })
      await bridge.sendToolResult(request.result as CallToolResult)
    })().catch(() => undefined)
  }
  return bridge
}

/** A result's text blocks joined, or its JSON when it has none. */
function resultText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as { type?: unknown; text?: unknown }[]) : []
  const texts = content.filter((c) => c?.type === 'text' && typeof c.text === 'string').map((c) => c.text as string)
  return texts.length ? texts.join('\n') : JSON.stringify(result.structuredContent ?? result)
}

function cutText(text: string, max = MAX_RESULT): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

function cutStrings(value: Json): Json {
  if (typeof value === 'string') return cutText(value, MAX_PARAM_STRING)
  if (Array.isArray(value)) return value.slice(0, 50).map(cutStrings)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutStrings(v)]))
  return value
}
