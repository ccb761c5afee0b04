import type { Json } from '../config/types.js'
import { outcomeOf, type McpSession, type RawToolCall } from '../mcp/session.js'
import type { ObservedCalls } from '../results/types.js'
import { validateArgs } from '../scoring/args-schema.js'
import { observeToolCall } from './observed.js'

/** What watching a session yields: the same session, and what its tool calls showed. */
export interface WatchedSession {
  session: McpSession
  observed(): ObservedCalls
  /** Check one raw call made outside the wrapped callTool (tool tests call callToolRaw). */
  check(call: RawToolCall): ReturnType<typeof observeToolCall>
}

/**
 * Wraps a session so that every tool result it returns is checked for conformance (the
 * session is wrapped, not edited): the same interface in and out, the findings kept aside.
 */
export function watchSession(session: McpSession): WatchedSession {
  const observed: ObservedCalls = { calls: 0, findings: [] }
  const tools = new Map(session.tools.map((t) => [t.name, t]))
  const check = (call: RawToolCall) => {
    const tool = tools.get(call.name)
    const args = validateArgs(tool?.inputSchema, call.args as Record<string, Json>)
    const findings = observeToolCall(call, tool, { era: session.era, argsValid: args ? args.valid : null })
    observed.calls++
    observed.findings.push(...findings)
    return findings
  }
  const wrapped: McpSession = {
    ...session,
    callTool: async (name, args, signal) => {
      const call = await session.callToolRaw(name, args, signal)
      check(call)
      return outcomeOf(call)
    }
  }
  return { session: wrapped, observed: () => observed, check }
}
