import type { Json } from '../config/types.js'
import { outcomeOf } from '../mcp/outcome.js'
import type { CallOutcome, McpSession, RawToolCall, SessionHappenings } from '../mcp/types.js'
import type { Observation, ObservedCalls } from '../results/types.js'
import { validateArgs } from '../scoring/args-schema.js'
import { observeInputs, observeMisplacedInputRequired } from './observed-inputs.js'
import { observeToolCall } from './observed.js'

/**
 * What watching a session yields: the same session, and what its tool calls showed (the
 * tool-result checks, and the server-input checks on what the server asked during each call).
 * Findings outside the tool calls (resource reads, prompts, lists) are the session's own:
 * `sessionFindings()`, made from what the session saw (sessionFindingsOf).
 */
export interface WatchedSession {
  session: McpSession
  observed(): ObservedCalls
  /** The findings outside the tool calls: sessionFindingsOf the session watched. */
  sessionFindings(): Observation[]
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
    // Their findings are the session's (sessionFindingsOf); what they asked counts here.
    readResource: async (uri, signal) => noteAsked(await session.readResource(uri, signal)),
    getPrompt: async (name, args, signal) => noteAsked(await session.getPrompt(name, args, signal))
  }
  return { session: wrapped, observed: () => observed, sessionFindings: () => sessionFindingsOf(session), check }
}

/** How many findings on the server input of resource reads and prompts a session yields. */
const READ_FINDINGS = 20

/**
 * Conformance findings about server input seen outside the tool calls (an input_required answer
 * to a method that may not send one, e.g. a list at open; requests outside any call; what the
 * server asked during resource reads and prompts, the first 20 findings of those); empty when none.
 */
export function sessionFindingsOf(session: Pick<McpSession, 'sessionHappenings'>): Observation[] {
  return findingsOf(session.sessionHappenings())
}

/**
 * The findings of a session's happenings. A borrowed session's share (`loan`): the findings of
 * its server's start, then those new since the borrowing (one already made before is an earlier
 * run's).
 */
function findingsOf(happenings: SessionHappenings): Observation[] {
  const { loan, ...own } = happenings
  if (loan) {
    const before = new Set(findingsOf(loan.at_borrow).map(findingKey))
    return [...findingsOf(loan.at_start), ...findingsOf(own).filter((f) => !before.has(findingKey(f)))]
  }
  const misplaced = happenings.misplaced_input_required.map(observeMisplacedInputRequired)
  const outside = observeInputs('(outside a call)', {
    rounds: [],
    frames: { calls: [], server_requests: happenings.outside_server_requests },
    declared: happenings.declared,
    max_rounds: happenings.max_rounds,
    failure: null
  })
  const reads: Observation[] = []
  for (const { label, input } of happenings.reads) {
    for (const finding of observeInputs(label, input)) {
      if (reads.length < READ_FINDINGS && !reads.some((f) => f.check === finding.check && f.message === finding.message)) reads.push(finding)
    }
  }
  return dedupe([...misplaced, ...outside, ...reads])
}

const findingKey = (finding: Observation) => `${finding.check}\u0000${finding.message}`

function dedupe(findings: Observation[]): Observation[] {
  const seen = new Set<string>()
  return findings.filter((f) => {
    const key = findingKey(f)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
