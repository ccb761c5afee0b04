import type { Json, ToolTestStep } from '../config/types.js'
import { askedDuring } from '../conformance/observe-session.js'
import type { McpPrompt, McpResource, McpSession, McpTool, RawToolCall } from '../mcp/session.js'
import type { AssertionCheck, StepResponse } from '../results/types.js'
import { refusalContext, runEvalsV1Assertions, type AssertionContext } from '../scoring/evals-v1-assertions.js'
import { resourceContents } from '../mcp/resource-contents.js'
import { stepResponse } from './response.js'

/** One evals/v1 check's call and its `assert[]`, as the runner records it. */
export interface EvalsV1StepOutcome {
  response: StepResponse
  latency_ms: number
  checks: AssertionCheck[]
  /** The tools/call as it went, for the observed conformance checks; absent for a read or a list. */
  call?: RawToolCall
  /** The server asked the client for input during the call (a resource read's MRTR rounds). */
  asked: boolean
}

/**
 * An evals/v1 check (a step with `call` or `expect.asserts`): the call, then exactly its
 * assertions on the raw answer (runEvalsV1Assertions), `is_error` not implied; a JSON-RPC error
 * no assertion expected adds a failing `call` check. The call is a tools/call, a resources/read
 * (its `{contents}`), or a list: the tools, resources or prompts the server listed as the session
 * opened, in MCP's spelling. A local failure (the server died, the
 * attempt timed out) throws, as a tools/call does, and the attempt is an error.
 */
export async function runEvalsV1Step(step: ToolTestStep, args: Record<string, Json>, session: McpSession, signal: AbortSignal): Promise<EvalsV1StepOutcome> {
  const readResource = (uri: string) => resourceContents(session, uri, signal)
  const rules = step.expect.asserts ?? []
  const call = step.call
  if (call?.kind === 'list') {
    const root = listed(session, call.method)
    const checks = await runEvalsV1Assertions(rules, { root, readResource })
    // Listed as the session opened: the latency is that listing's (tools, resources and prompts at once).
    return { response: { kind: 'value', value: root }, latency_ms: session.timings.list_ms, checks, asked: false }
  }
  if (call?.kind === 'resource') {
    const started = performance.now()
    const outcome = await session.readResource(call.uri, signal)
    const latency_ms = Math.round(performance.now() - started)
    const asked = (outcome.input_rounds?.length ?? 0) > 0
    const refusal = outcome.protocol_error
    if (refusal) {
      const data = (refusal.data ?? null) as Json
      const ctx: AssertionContext = { ...refusalContext(refusal), readResource }
      return { response: { kind: 'error', code: refusal.code, message: refusal.message, data }, latency_ms, checks: await runEvalsV1Assertions(rules, ctx), asked }
    }
    // The read could not go on for want of an answer to the server's question: no verdict.
    if (outcome.isError) throw new Error(`reading resource '${call.uri}' failed: ${outcome.text}`)
    const value = (outcome.result ?? { contents: [{ uri: call.uri, text: outcome.text }] }) as Json
    return { response: { kind: 'value', value }, latency_ms, checks: await runEvalsV1Assertions(rules, { root: value, readResource }), asked }
  }
  const raw = await session.callToolRaw(step.tool, args, signal)
  const tool = session.tools.find((t) => t.name === step.tool)
  const outputSchema = tool?.outputSchema as Json | undefined
  const ctx: AssertionContext =
    raw.response.kind === 'error'
      ? { ...refusalContext(raw.response.error), outputSchema, readResource }
      : { root: raw.response.result as Json, outputSchema, readResource }
  return { response: stepResponse(raw), latency_ms: raw.latency_ms, checks: await runEvalsV1Assertions(rules, ctx), call: raw, asked: askedDuring(raw) }
}

/** What a list call returns, as the server listed it (MCP's spelling: inputSchema, mimeType, _meta.ui). */
function listed(session: Pick<McpSession, 'tools' | 'resources' | 'prompts'>, method: 'tools/list' | 'resources/list' | 'prompts/list'): Json {
  if (method === 'tools/list') return session.tools.map(listedTool)
  if (method === 'resources/list') return session.resources.map(listedResource)
  return session.prompts.map(listedPrompt)
}

function listedTool(tool: McpTool): Json {
  const ui = tool.ui ? { _meta: { ui: defined({ resourceUri: tool.ui.resource_uri ?? undefined, visibility: tool.ui.visibility ?? undefined }) } } : {}
  return defined({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Json,
    outputSchema: tool.outputSchema as Json | undefined,
    annotations: tool.annotations as Json | undefined,
    execution: tool.execution as Json | undefined,
    ...ui
  })
}

const listedResource = (resource: McpResource): Json => defined({ uri: resource.uri, name: resource.name, description: resource.description, mimeType: resource.mime_type })

const listedPrompt = (prompt: McpPrompt): Json => defined({ name: prompt.name, description: prompt.description, arguments: prompt.arguments as Json | undefined })

/** The members that have a value (JSON has no undefined). */
function defined(members: Record<string, Json | undefined>): { [key: string]: Json } {
  return Object.fromEntries(Object.entries(members).filter(([, v]) => v !== undefined)) as { [key: string]: Json }
}
