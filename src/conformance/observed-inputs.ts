import type { InputKind } from '../config/types.js'
import { inputKindOf, inputRequiredResult, isUrlElicitation, untypedInputRequired } from '../mcp/input-rounds.js'
import type { CallInput } from '../mcp/types.js'
import type { MisplacedInputRequired } from '../mcp/frames.js'
import type { Observation } from '../results/types.js'
import { isObject } from '../util/objects.js'
import { ellipsize, trimEvidence } from '../util/text.js'
import type { CheckSpec } from './checks/common.js'

/**
 * Conformance observed on what a server asked the client during real calls (MCP 2026-07-28 §7:
 * MRTR `input_required`, and legacy server→client requests): where input_required may appear and
 * what it must hold, capabilities the client never declared, and calls that ask more than
 * max_input_rounds times. Pure: no I/O, never throws; what the server sent is data to describe.
 */

export const OBSERVED_INPUT_REQUIRED: CheckSpec = {
  id: 'observed-input-required',
  severity: 'error',
  spec: '§7 input_required only on tools/call, prompts/get, resources/read; inputRequests well formed; no ttlMs/cacheScope'
}
export const OBSERVED_UNDECLARED_CAPABILITY: CheckSpec = {
  id: 'observed-undeclared-capability',
  severity: 'error',
  spec: '§7 a server MUST NOT ask for a capability the client did not declare (-32021), nor for url-mode elicitation from a client that declared form only'
}
export const OBSERVED_INPUT_ROUNDS: CheckSpec = { id: 'observed-input-rounds', severity: 'warning', spec: 'more input rounds than max_input_rounds' }

/** The input checks, in the order the report lists them (after the tool-result checks). */
export const OBSERVED_INPUT_CHECKS: readonly CheckSpec[] = [OBSERVED_INPUT_REQUIRED, OBSERVED_UNDECLARED_CAPABILITY, OBSERVED_INPUT_ROUNDS]

const EVIDENCE_CHARS = 600
const VALUE_CHARS = 60
const ALLOWED = 'elicitation/create, sampling/createMessage or roots/list'

/** The findings on one call's server input; `label` names the call (a tool's name, `resources/read <uri>`). */
export function observeInputs(label: string, input: CallInput): Observation[] {
  try {
    return observe(label, input)
  } catch {
    // Only a bug of ours lands here; a broken check must not break the run that made the call.
    return []
  }
}

function observe(label: string, input: CallInput): Observation[] {
  const findings: Observation[] = []
  const add = (spec: CheckSpec, message: string, request: unknown, response: unknown) => {
    const text = `${label}: ${message}`
    if (findings.some((f) => f.check === spec.id && f.message === text)) return
    findings.push({ check: spec.id, severity: spec.severity === 'warning' ? 'warning' : 'error', tool: label, message: text, evidence: evidence(request, response) })
  }
  const declared = new Set<InputKind>(input.declared)
  let lastAsked: { request: unknown; response: unknown } | undefined

  for (const leg of input.frames.calls) {
    const untyped = untypedInputRequired(leg.response)
    const result = inputRequiredResult(leg.response) ?? untyped
    if (!result) continue
    lastAsked = { request: leg.request, response: leg.response }
    const problems = inputRequiredProblems(result)
    if (untyped) {
      const asked = 'inputRequests' in untyped ? 'inputRequests' : 'requestState'
      problems.unshift(`has ${asked} but no resultType: "input_required" (resultType is required; a client takes an absent one as complete and never answers)`)
    }
    if (problems.length) add(OBSERVED_INPUT_REQUIRED, `the input_required answer ${problems.join(', ')}`, leg.request, focused(leg.response, result))
    const requests = isObject(result.inputRequests) ? result.inputRequests : {}
    for (const [key, entry] of Object.entries(requests)) {
      const method = isObject(entry) && typeof entry.method === 'string' ? entry.method : ''
      const kind = inputKindOf(method)
      if (kind && !declared.has(kind)) {
        add(OBSERVED_UNDECLARED_CAPABILITY, `input request ${preview(key)} asks for ${method}, but the client did not declare ${kind} (the server should answer -32021)`, leg.request, leg.response)
      } else if (kind && isObject(entry) && isUrlElicitation(method, entry.params)) {
        add(OBSERVED_UNDECLARED_CAPABILITY, `input request ${preview(key)} asks for a url-mode elicitation, but the client declared form mode only (the server should answer -32021)`, leg.request, leg.response)
      }
    }
  }

  for (const tapped of input.frames.server_requests) {
    const method = typeof tapped.request.method === 'string' ? tapped.request.method : ''
    const kind = inputKindOf(method)
    if (kind && !declared.has(kind)) add(OBSERVED_UNDECLARED_CAPABILITY, `the server sent ${method}, but the client did not declare ${kind}`, tapped.request, tapped.reply ?? '(no reply)')
    else if (kind && isUrlElicitation(method, tapped.request.params)) {
      add(OBSERVED_UNDECLARED_CAPABILITY, 'the server sent a url-mode elicitation/create, but the client declared form mode only', tapped.request, tapped.reply ?? '(no reply)')
    }
  }

  const rounds = input.rounds.length
  const dropped = input.frames.server_requests_dropped ?? 0
  if (rounds > input.max_rounds) {
    const unrecorded = dropped ? ` (and ${dropped} more request${dropped === 1 ? '' : 's'}, refused and not recorded)` : ''
    add(
      OBSERVED_INPUT_ROUNDS,
      `the server asked for input ${rounds} times, more than max_input_rounds (${input.max_rounds})${unrecorded}`,
      lastAsked?.request ?? input.frames.server_requests.at(-1)?.request ?? '',
      lastAsked?.response ?? input.frames.server_requests.at(-1)?.reply ?? ''
    )
  }
  return findings
}

/** An input_required answer to a method that may not send one (a list): one finding. */
export function observeMisplacedInputRequired(misplaced: MisplacedInputRequired): Observation {
  const method = String(misplaced.method)
  return {
    check: OBSERVED_INPUT_REQUIRED.id,
    severity: 'error',
    tool: method,
    message: `${method}: answered input_required, which only tools/call, prompts/get and resources/read may`,
    evidence: evidence(misplaced.request, misplaced.response)
  }
}

/**
 * What is wrong with one input_required result (§7, §6): ttlMs or cacheScope on it, an
 * inputRequests that is not a map of `{method, params}` for the three input methods, a
 * requestState that is not a string, or neither of the two. Empty when it is well formed.
 */
export function inputRequiredProblems(result: Record<string, unknown>): string[] {
  const problems: string[] = []
  const cacheKeys = ['ttlMs', 'cacheScope'].filter((key) => key in result)
  if (cacheKeys.length) problems.push(`carries ${cacheKeys.join(' and ')} (never on input_required)`)
  const requests = result.inputRequests
  let entries = 0
  if (requests !== undefined) {
    if (!isObject(requests)) problems.push(`has inputRequests ${kindOf(requests)}, not an object`)
    else {
      for (const [key, entry] of Object.entries(requests)) {
        entries++
        const at = `inputRequests.${preview(key, false)}`
        if (!isObject(entry)) problems.push(`has ${at} ${kindOf(entry)}, not a request`)
        else if (typeof entry.method !== 'string') problems.push(`has ${at} without a method`)
        else if (inputKindOf(entry.method) === null) problems.push(`has ${at} asking for ${preview(entry.method)}, not ${ALLOWED}`)
        else if (entry.params !== undefined && !isObject(entry.params)) problems.push(`has ${at}.params ${kindOf(entry.params)}, not an object`)
      }
    }
  }
  const state = result.requestState
  if (state !== undefined && typeof state !== 'string') problems.push(`has requestState ${kindOf(state)}, not a string`)
  if (entries === 0 && typeof state !== 'string') problems.push('has neither inputRequests nor requestState')
  return problems
}

// ---- evidence and words ------------------------------------------------------------------------

function evidence(request: unknown, response: unknown): Observation['evidence'] {
  return { request: trimEvidence(request, EVIDENCE_CHARS), response: trimEvidence(response, EVIDENCE_CHARS) }
}

/** The response with the fields a finding is about first, so the trimmed evidence still shows them. */
function focused(response: unknown, result: Record<string, unknown>): unknown {
  const { resultType, ttlMs, cacheScope, requestState, inputRequests, ...rest } = result
  const first = Object.fromEntries(Object.entries({ resultType, ttlMs, cacheScope, requestState, inputRequests }).filter(([, v]) => v !== undefined))
  return isObject(response) ? { ...response, result: { ...first, ...rest } } : response
}

function preview(value: string, quoted = true): string {
  const text = ellipsize(value, VALUE_CHARS)
  return quoted ? JSON.stringify(text) : text
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}
