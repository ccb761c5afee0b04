import type { Json } from '../config/types.js'
import { outcomeOf, type CallOutcome, type McpSession, type RawToolCall } from '../mcp/session.js'
import type { ObservedCalls } from '../results/types.js'
import { validateArgs } from '../scoring/args-schema.js'
import { observeInputs } from './observed-inputs.js'
import { observeToolCall } from './observed.js'

/**
 * What watching a session yields: the same session, and what its tool calls showed (the
 * tool-result checks, and the server-input checks on what the server asked during each call).
 * Findings outside the tool calls (resource reads, prompts, lists) are the session's own:
 * `session.sessionFindings()`.
 */
export interface WatchedSession {
  session: McpSession
  observed(): ObservedCalls
  /** Check one raw call made outside the wrapped callTool (tool tests call callToolRaw); counted in observed(), `asked` too. */
  check(call: RawToolCall): ReturnType<typeof observeToolCall>
}

/** Whether the server asked the client for input during this call (an input round, or a request to us). */
export function askedDuring(call: RawToolCall): boolean {
  return (call.input?.rounds.length ?? 0) > 0 || (call.input?.frames.server_requests.length ?? 0) > 0
}

/**
 * Wraps a session so that every tool result it returns is checked for conformance (the
 * session is wrapped, not edited): the same interface in and out, the findings kept aside.
 * `asked` counts the calls (tool calls, resource reads, prompts) during which the server asked.
 */
export function watchSession(session: McpSession): WatchedSession {
  const observed: ObservedCalls = { calls: 0, findings: [], asked: 0 }
  const noteAsked = (outcome: CallOutcome) => {
    if (outcome.input_rounds?.length) observed.asked = (observed.asked ?? 0) + 1
    return outcome
  }
  const tools = new Map(session.tools.map((t) => [t.name, t]))
  const check = (call: RawToolCall) => {
    const tool = tools.get(call.name)
    const args = validateArgs(tool?.inputSchema, call.args as Record<string, Json>)
    const findings = observeToolCall(call, tool, { era: session.era, argsValid: args ? args.valid : null })
    // What the server asked during the call (MRTR rounds, legacy requests), when it asked anything.
    if (call.input) findings.push(...observeInputs(typeof call.name === 'string' ? call.name : String(call.name), call.input))
    observed.calls++
    if (askedDuring(call)) observed.asked = (observed.asked ?? 0) + 1
    observed.findings.push(...findings)
    return findings
  }
  const wrapped: McpSession = {
    ...session,
    callTool: async (name, args, signal) => {
      const call = await session.callToolRaw(name, args, signal)
      check(call)
      return outcomeOf(call)
    },
    // Their findings are the session's (sessionFindings); what they asked counts here.
    readResource: async (uri, signal) => noteAsked(await session.readResource(uri, signal)),
    getPrompt: async (name, args, signal) => noteAsked(await session.getPrompt(name, args, signal))
  }
  return { session: wrapped, observed: () => observed, check }
}
