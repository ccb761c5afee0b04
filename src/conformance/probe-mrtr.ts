import { isObject, resultOf } from './checks/common.js'
import { DECLARED_CAPABILITIES, SAMPLE_TEXT, asksForInput, cannedResponses, inputRequestsOf, sampleArguments, tampered } from './checks/mrtr-answers.js'
import { encodeHeaderValue, scanHeaderMarkers } from './checks/param-headers.js'
import { mayCall } from './checks/probes.js'
import type { Tool } from './checks/schemas.js'
import type { ToolTest } from '../config/types.js'
import type { ProbeContext, ProbeSeed } from './probe-context.js'
import type { MrtrCandidate, MrtrFlow, MrtrMethod, MrtrProbes, MrtrVariants } from './probe-mrtr-data.js'
import { META } from './types.js'
import type { Exchange, WireRequest } from './wire.js'
import { count, someOf } from '../util/words.js'

/**
 * The mrtr probe (§7): real calls that may answer input_required (the suite's tool-test calls,
 * read-only tools with sample arguments, the listed prompts and resources), each declaring the
 * client capabilities a server may ask for. Every call that asks is followed on the raw wire,
 * round by round, with canned answers; the first one's first round is then varied once per rule
 * (tampered requestState, no inputResponses, invalid ones, no capabilities, extra keys).
 */

/** Rounds followed per call: a flow still asking after this many retries ends there. */
export const MRTR_MAX_ROUNDS = 5
export const MAX_MRTR_TOOL_CALLS = 6
export const MAX_MRTR_PROMPTS = 3
export const MAX_MRTR_RESOURCES = 3
/** An inputResponses key no server asked for (the extra-params probe). */
export const UNREQUESTED_KEY = 'mcp_server_evals_unrequested'

interface Planned {
  method: MrtrMethod
  name: string
  source: string
  params: Record<string, unknown>
  tool?: Tool
}

export async function probeMrtr(context: ProbeContext): Promise<MrtrProbes | undefined> {
  if (context.era !== 'modern') return undefined
  const { planned, notes } = plan(context)
  const call = (p: Planned, params: Record<string, unknown>, capabilities: Record<string, unknown> = DECLARED_CAPABILITIES) => context.main.request(request(context, p, params, capabilities), context.timeout)
  const firsts = await Promise.all(planned.map((p) => call(p, p.params)))
  const candidates: MrtrCandidate[] = planned.map((p, i) => ({ method: p.method, name: p.name, source: p.source, exchange: firsts[i] }))
  const asking = planned.map((p, i) => ({ p, first: firsts[i] })).filter(({ first }) => asksForInput(resultOf(first)))
  const flows = await Promise.all(asking.map(({ p, first }) => follow(p, first, call)))
  if (flows.length === 0) return { candidates, notes, flows }
  const variants = await vary(asking, flows, call)
  return { candidates, notes, flows, variants }
}

type Call = (p: Planned, params: Record<string, unknown>, capabilities?: Record<string, unknown>) => Promise<Exchange>

/** The retry of `p` after `result` asked: the answers given (or none), requestState echoed unless `state` says otherwise. */
function retryParams(p: Planned, result: Record<string, unknown> | undefined, responses: unknown, state: string | null | undefined = undefined): Record<string, unknown> {
  const echoed = state === undefined ? (typeof result?.requestState === 'string' ? result.requestState : null) : state
  return { ...p.params, ...(responses !== undefined ? { inputResponses: responses } : {}), ...(echoed !== null ? { requestState: echoed } : {}) }
}

async function follow(p: Planned, first: Exchange, call: Call): Promise<MrtrFlow> {
  const legs = [first]
  for (let round = 0; round < MRTR_MAX_ROUNDS; round++) {
    const result = resultOf(legs[legs.length - 1])
    if (!result) break
    if (!asksForInput(result)) break
    legs.push(await call(p, retryParams(p, result, cannedResponses(result))))
  }
  const last = resultOf(legs[legs.length - 1])
  return { method: p.method, name: p.name, source: p.source, legs, end: !last ? 'error' : asksForInput(last) ? 'input_required' : 'complete' }
}

/** The rule probes, on the first flow of a tool call (else of any method); the tampered state on the first flow that has one. */
async function vary(asking: { p: Planned; first: Exchange }[], flows: MrtrFlow[], call: Call): Promise<MrtrVariants> {
  const tool = flows.findIndex((f) => f.method === 'tools/call')
  const subject = tool >= 0 ? tool : 0
  const stateOf = (i: number) => resultOf(asking[i].first)?.requestState
  const order = [subject, ...flows.map((_, i) => i).filter((i) => i !== subject)]
  const withState = order.find((i) => typeof stateOf(i) === 'string')
  const { p, first } = asking[subject]
  const result = resultOf(first)
  const invalid = Object.fromEntries(Object.keys(inputRequestsOf(result)).map((key) => [key, 12345]))
  const [tamperedExchange, missing, invalidExchange, noCapabilities, extraParams] = await Promise.all([
    withState === undefined ? undefined : call(asking[withState].p, retryParams(asking[withState].p, resultOf(asking[withState].first), cannedResponses(resultOf(asking[withState].first)), tampered(stateOf(withState) as string))),
    call(p, retryParams(p, result, undefined)),
    call(p, retryParams(p, result, Object.keys(invalid).length ? invalid : { [UNREQUESTED_KEY]: 12345 })),
    call(p, p.params, {}),
    extraRetry(p, call)
  ])
  return {
    subject,
    ...(withState !== undefined && tamperedExchange ? { tampered: { flow: withState, exchange: tamperedExchange } } : {}),
    missing,
    invalid: invalidExchange,
    noCapabilities,
    extraParams
  }
}

/** A fresh first call (a state of its own, in case the server lets one be used once), then its retry with an unrequested key besides the answers. */
async function extraRetry(p: Planned, call: Call): Promise<MrtrVariants['extraParams']> {
  const first = await call(p, p.params)
  const result = resultOf(first)
  if (!asksForInput(result)) return { first }
  const responses = { ...cannedResponses(result), [UNREQUESTED_KEY]: { action: 'accept', content: { note: SAMPLE_TEXT } } }
  return { first, retry: await call(p, retryParams(p, result, responses)) }
}

/** The calls to make: seeds the mode allows, read-only tools with sample arguments, listed prompts and resources, each capped. */
function plan(context: ProbeContext): { planned: Planned[]; notes: string[] } {
  const notes: string[] = []
  const tools: Planned[] = []
  const covered = new Set<string>()
  if (context.mode === 'none') notes.push('probes: none (no tool is called)')
  else {
    const notReadOnly: string[] = []
    for (const seed of context.seeds) {
      const tool = context.tools.find((t) => t.name === seed.tool)
      if (!tool || covered.has(tool.name)) continue
      if (!mayCall(tool, context.mode)) {
        if (!notReadOnly.includes(tool.name)) notReadOnly.push(tool.name)
        continue
      }
      covered.add(tool.name)
      tools.push({ method: 'tools/call', name: tool.name, source: seed.source, params: { name: tool.name, arguments: seed.args }, tool })
    }
    for (const tool of context.tools) {
      if (covered.has(tool.name)) continue
      if (!isObject(tool.annotations) || tool.annotations.readOnlyHint !== true) {
        if (!notReadOnly.includes(tool.name)) notReadOnly.push(tool.name)
        continue
      }
      covered.add(tool.name)
      tools.push({ method: 'tools/call', name: tool.name, source: 'arguments from its inputSchema', params: { name: tool.name, arguments: sampleArguments(tool.inputSchema) }, tool })
    }
    if (notReadOnly.length) notes.push(`not called without a tool test, not annotated readOnlyHint: true${context.mode === 'safe' ? ' (probes: safe)' : ''}: ${someOf(notReadOnly)}`)
    if (tools.length > MAX_MRTR_TOOL_CALLS) notes.push(`${count(tools.length - MAX_MRTR_TOOL_CALLS, 'more tool')} not called (at most ${MAX_MRTR_TOOL_CALLS} are)`)
  }
  const prompts: Planned[] = context.prompts
    .filter((prompt) => typeof prompt.name === 'string')
    .slice(0, MAX_MRTR_PROMPTS)
    .map((prompt) => ({ method: 'prompts/get', name: prompt.name as string, source: 'listed prompt', params: { name: prompt.name, arguments: promptArguments(prompt) } }))
  const resources: Planned[] = context.resources
    .filter((resource) => typeof resource.uri === 'string')
    .slice(0, MAX_MRTR_RESOURCES)
    .map((resource) => ({ method: 'resources/read', name: resource.uri as string, source: 'listed resource', params: { uri: resource.uri } }))
  return { planned: [...tools.slice(0, MAX_MRTR_TOOL_CALLS), ...prompts, ...resources], notes }
}

/** A sample value for each required argument of a prompt. */
function promptArguments(prompt: Record<string, unknown>): Record<string, string> {
  const declared = Array.isArray(prompt.arguments) ? prompt.arguments.filter(isObject) : []
  return Object.fromEntries(declared.filter((a) => a.required === true && typeof a.name === 'string').map((a) => [a.name as string, SAMPLE_TEXT]))
}

/** The modern request with these client capabilities in its envelope, and (HTTP) the Mcp-Param headers its arguments need. */
function request(context: ProbeContext, p: Planned, params: Record<string, unknown>, capabilities: Record<string, unknown>): WireRequest {
  const built = context.request(p.method, params)
  const meta = isObject(built.params?._meta) ? built.params._meta : {}
  const headers = p.tool && context.transport === 'http' ? paramHeaders(p.tool, params.arguments) : {}
  return { ...built, params: { ...built.params, _meta: { ...meta, [META.clientCapabilities]: capabilities } }, ...(Object.keys(headers).length ? { headers } : {}) }
}

function paramHeaders(tool: Tool, args: unknown): Record<string, string> {
  const scan = scanHeaderMarkers(tool.inputSchema)
  if (!scan.valid) return {}
  const headers: Record<string, string> = {}
  for (const marker of scan.markers) {
    let value: unknown = args
    for (const key of marker.path) value = isObject(value) ? value[key] : undefined
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') headers[`mcp-param-${marker.header.toLowerCase()}`] = encodeHeaderValue(value)
  }
  return headers
}

/** The tool tests' calls as probe seeds: each test's first step that calls a tool, with no `${…}` left for a capture to fill. */
export function seedsOf(tests: readonly ToolTest[]): ProbeSeed[] {
  const seeds: ProbeSeed[] = []
  for (const test of tests) {
    const step = test.steps.find((s) => !s.call)
    if (!step || JSON.stringify(step.args).includes('${')) continue
    seeds.push({ tool: step.tool, args: step.args as Record<string, unknown>, source: `tool test ${test.id}` })
  }
  return seeds
}
