import { count as countOf } from '../../util/words.js'
import type { Catalog } from '../catalog-types.js'
import { inputRequiredProblems } from '../observed-inputs.js'
import type { ProbeData } from '../probe-data.js'
import type { MrtrFlow, MrtrProbes } from '../probe-mrtr-data.js'
import type { CheckResult } from '../types.js'
import type { Exchange } from '../wire.js'
import { someOf } from '../../util/words.js'
import { describeResponse, failed, isObject, passed, resultOf, skipped, type CheckSpec } from './common.js'
import { asksForInput, inputRequestsOf } from './mrtr-answers.js'

/** Checks on multi round-trip requests (§7): input_required rounds followed on real calls, and one probe per rule. */

export const MRTR_RESULT_TYPE: CheckSpec = {
  id: 'mrtr-result-type',
  severity: 'error',
  spec: '§7 an InputRequiredResult carries resultType: "input_required" (MUST) and inputRequests or requestState, well formed'
}
export const MRTR_RETRY: CheckSpec = {
  id: 'mrtr-retry-completes',
  severity: 'error',
  spec: '§7 the retry (a new id, inputResponses, requestState echoed byte for byte) completes the request'
}
export const MRTR_MULTI_ROUND: CheckSpec = { id: 'mrtr-multi-round', severity: 'error', spec: '§7 a retry may be answered input_required again; answered in turn, the rounds end in a complete result' }
export const MRTR_MULTIPLE: CheckSpec = {
  id: 'mrtr-multiple-input-requests',
  severity: 'error',
  spec: '§7 one InputRequiredResult may carry several inputRequests (keys unique); answered together, the retry completes'
}
export const MRTR_MISSING: CheckSpec = {
  id: 'mrtr-missing-input-response',
  severity: 'error',
  spec: '§7 error handling: a retry without the requested inputResponses is asked again (SHOULD) or refused, never completed as if answered'
}
export const MRTR_VALIDATE: CheckSpec = { id: 'mrtr-validate-input', severity: 'warning', spec: '§7 error handling: servers SHOULD validate inputResponses (a JSON-RPC error, or asked again)' }
export const MRTR_TAMPERED: CheckSpec = {
  id: 'mrtr-tampered-state',
  severity: 'error',
  spec: '§7 requestState is attacker-controlled: integrity-protected (HMAC, AEAD), state that fails verification rejected (MUST)'
}
export const MRTR_CAPABILITY: CheckSpec = {
  id: 'mrtr-capability-check',
  severity: 'error',
  spec: '§7, §3 no inputRequests for undeclared client capabilities (MUST NOT); a request that needs one gets -32021 with data.requiredCapabilities (HTTP 400)'
}
export const MRTR_EXTRA: CheckSpec = { id: 'mrtr-ignore-extra-params', severity: 'warning', spec: '§7 error handling: unexpected keys in inputResponses are ignored (SHOULD)' }
export const MRTR_NON_TOOL: CheckSpec = {
  id: 'mrtr-non-tool-requests',
  severity: 'error',
  spec: '§7 prompts/get and resources/read may answer input_required; their retry completes with the prompt or the contents'
}

export const MRTR_CHECKS: readonly CheckSpec[] = [MRTR_RESULT_TYPE, MRTR_RETRY, MRTR_MULTI_ROUND, MRTR_MULTIPLE, MRTR_MISSING, MRTR_VALIDATE, MRTR_TAMPERED, MRTR_CAPABILITY, MRTR_EXTRA, MRTR_NON_TOOL]

/** Checks on multi round-trip requests (input_required rounds) on real calls. Called for every era: each check says itself when it does not apply. */
export function checkMrtr(probe: ProbeData): CheckResult[] {
  if (probe.era !== 'modern') return MRTR_CHECKS.map((c) => skipped(c, 'legacy server: applies from 2026-07-28'))
  const mrtr = probe.mrtr
  if (!mrtr) return MRTR_CHECKS.map((c) => skipped(c, 'not probed'))
  if (mrtr.flows.length === 0) {
    const why = noAsk(mrtr, probe.probes)
    return MRTR_CHECKS.map((c) => skipped(c, why))
  }
  return [resultType(mrtr), retry(mrtr), multiRound(mrtr), multiple(mrtr), missing(mrtr), validate(mrtr), tamperedState(mrtr), capability(mrtr, probe.transport), extra(mrtr), nonTool(mrtr)]
}

/** Why no check applies: what was called, and how to get a call that asks. */
function noAsk(mrtr: MrtrProbes, mode: ProbeData['probes']): string {
  const calls = (method: string, noun: string) => countOf(mrtr.candidates.filter((c) => c.method === method).length, noun)
  const called = `${calls('tools/call', 'tool')}, ${calls('prompts/get', 'prompt')} and ${calls('resources/read', 'resource')} called`
  const notes = mrtr.notes.length ? `; ${mrtr.notes.join('; ')}` : ''
  // The skip line groups checks by this reason: the advice is short, the details are in the fold.
  const how = mode === 'none' ? 'run with probes: safe or all, and add a tool test that calls a tool that asks for input' : 'add a tool test that calls a tool that asks for input'
  return `no call answered input_required (${called}${notes}): ${how}`
}

const label = (flow: { method: string; name: string }) => (flow.method === 'tools/call' ? `tool ${flow.name}` : `${flow.method} ${flow.name}`)

/** `input_required (elicitation/create, sampling/createMessage)`, or what describeResponse says. */
function describe(exchange: Exchange | undefined): string {
  if (!exchange) return 'nothing'
  const result = resultOf(exchange)
  if (asksForInput(result)) {
    const methods = Object.values(inputRequestsOf(result)).map((r) => String(r.method))
    return `input_required${methods.length ? ` (${someOf(methods)})` : ' (requestState only)'}`
  }
  return describeResponse(exchange)
}

/** A complete result that is not a refusal (isError: true): the server went on as if it had what it needed. */
const completed = (exchange: Exchange | undefined) => {
  const result = resultOf(exchange)
  return !!result && !asksForInput(result) && result.isError !== true
}
const refusedOrAsked = (exchange: Exchange | undefined) => !!exchange?.response.frame?.error || asksForInput(resultOf(exchange)) || resultOf(exchange)?.isError === true

function allExchanges(mrtr: MrtrProbes): Exchange[] {
  const v = mrtr.variants
  const variants = v ? [v.tampered?.exchange, v.missing, v.invalid, v.noCapabilities, v.extraParams.first, v.extraParams.retry] : []
  return [...mrtr.candidates.map((c) => c.exchange), ...mrtr.flows.flatMap((f) => f.legs), ...variants].filter((e): e is Exchange => !!e)
}

function resultType(mrtr: MrtrProbes): CheckResult {
  const untyped: { exchange: Exchange; at: string }[] = []
  const problems: { exchange: Exchange; problem: string }[] = []
  let seen = 0
  for (const exchange of new Set(allExchanges(mrtr))) {
    const result = resultOf(exchange)
    if (!asksForInput(result) || !result) continue
    seen++
    const params = isObject(exchange.request.params) ? exchange.request.params : {}
    const at = `${exchange.method} ${String(params.name ?? params.uri ?? '')}`
    if (result.resultType !== 'input_required' && !untyped.some((u) => u.at === at)) untyped.push({ exchange, at })
    for (const problem of inputRequiredProblems(result)) problems.push({ exchange, problem: `${at}: the input_required answer ${problem}` })
  }
  if (untyped.length) {
    problems.unshift({
      exchange: untyped[0].exchange,
      problem: `answered inputRequests or requestState without resultType: "input_required" (a client takes an absent resultType as complete and never answers): ${someOf(untyped.map((u) => u.at))}`
    })
  }
  if (problems.length) return failed(MRTR_RESULT_TYPE, [...new Set(problems.map((p) => p.problem))].join('; '), problems[0].exchange)
  return passed(MRTR_RESULT_TYPE, `resultType "input_required" on all ${seen} answers that asked for input`)
}

function retry(mrtr: MrtrProbes): CheckResult {
  const ends = mrtr.flows.map((flow) => `${label(flow)}: ${endOf(flow)}`)
  const done = mrtr.flows.filter((f) => f.end === 'complete')
  if (done.length > 0) return passed(MRTR_RETRY, `answered with canned inputs and requestState echoed, ${done.length} of ${mrtr.flows.length} calls completed (${ends.join('; ')})`)
  const flow = mrtr.flows[0]
  return failed(MRTR_RETRY, `no call that asked for input completed once answered (canned answers, requestState echoed byte for byte, a new id each retry): ${ends.join('; ')}`, flow.legs[flow.legs.length - 1])
}

function endOf(flow: MrtrFlow): string {
  const retries = flow.legs.length - 1
  const last = flow.legs[flow.legs.length - 1]
  if (flow.end === 'complete') return `completed after ${retries} ${retries === 1 ? 'retry' : 'retries'}`
  if (flow.end === 'input_required') return `still input_required after ${retries} answered rounds`
  return `retry ${retries} got ${describe(last)}`
}

const askingLegs = (flow: MrtrFlow) => flow.legs.filter((leg) => asksForInput(resultOf(leg)))

function multiRound(mrtr: MrtrProbes): CheckResult {
  const flows = mrtr.flows.filter((f) => askingLegs(f).length >= 2)
  if (flows.length === 0) return skipped(MRTR_MULTI_ROUND, 'no call asked for input more than once (each asked one round)')
  const bad = flows.filter((f) => f.end !== 'complete')
  if (bad.length) return failed(MRTR_MULTI_ROUND, bad.map((f) => `${label(f)}: ${endOf(f)}`).join('; '), bad[0].legs[bad[0].legs.length - 1])
  return passed(MRTR_MULTI_ROUND, flows.map((f) => `${label(f)}: ${askingLegs(f).length} rounds, then complete`).join('; '))
}

function multiple(mrtr: MrtrProbes): CheckResult {
  const flows = mrtr.flows.filter((f) => askingLegs(f).some((leg) => Object.keys(inputRequestsOf(resultOf(leg))).length >= 2))
  if (flows.length === 0) return skipped(MRTR_MULTIPLE, 'no input_required answer carried more than one input request')
  const bad = flows.filter((f) => f.end !== 'complete')
  if (bad.length) return failed(MRTR_MULTIPLE, `every input request answered at once: ${bad.map((f) => `${label(f)}: ${endOf(f)}`).join('; ')}`, bad[0].legs[bad[0].legs.length - 1])
  return passed(MRTR_MULTIPLE, `${flows.map(label).join(', ')}: several input requests answered in one retry, then complete`)
}

/** The flow the variants vary, and its label. */
function subjectOf(mrtr: MrtrProbes): { flow: MrtrFlow; name: string; asked: boolean } | undefined {
  if (!mrtr.variants) return undefined
  const flow = mrtr.flows[mrtr.variants.subject]
  return { flow, name: label(flow), asked: Object.keys(inputRequestsOf(resultOf(flow.legs[0]))).length > 0 }
}

function missing(mrtr: MrtrProbes): CheckResult {
  const subject = subjectOf(mrtr)
  if (!subject || !mrtr.variants) return skipped(MRTR_MISSING, 'not probed')
  if (!subject.asked) return skipped(MRTR_MISSING, `${subject.name} asked with requestState only: no inputRequests to leave out`)
  const exchange = mrtr.variants.missing
  const sent = `${subject.name} retried without inputResponses${typeof resultOf(subject.flow.legs[0])?.requestState === 'string' ? ' (requestState echoed)' : ''}`
  if (asksForInput(resultOf(exchange))) return passed(MRTR_MISSING, `${sent}: asked again`, exchange)
  if (refusedOrAsked(exchange)) return passed(MRTR_MISSING, `${sent}: got ${describe(exchange)} (refused; the spec prefers a new input_required asking again: SHOULD)`, exchange)
  if (completed(exchange)) return failed(MRTR_MISSING, `${sent}: got a complete result, as if the input had been given; expected a new input_required asking again (or an error)`, exchange)
  return failed(MRTR_MISSING, `${sent}: got ${describe(exchange)}; expected a new input_required asking again (or an error)`, exchange)
}

function validate(mrtr: MrtrProbes): CheckResult {
  const subject = subjectOf(mrtr)
  if (!subject || !mrtr.variants) return skipped(MRTR_VALIDATE, 'not probed')
  if (!subject.asked) return skipped(MRTR_VALIDATE, `${subject.name} asked with requestState only: no input response to send in a wrong shape`)
  const exchange = mrtr.variants.invalid
  const sent = `${subject.name} retried with every inputResponses value the number 12345 (not a result of its request)`
  if (refusedOrAsked(exchange)) return passed(MRTR_VALIDATE, `${sent}: got ${describe(exchange)}`, exchange)
  return failed(MRTR_VALIDATE, `${sent}: got ${describe(exchange)}; expected a JSON-RPC error (or a new input_required)`, exchange)
}

function tamperedState(mrtr: MrtrProbes): CheckResult {
  const tampered = mrtr.variants?.tampered
  if (!tampered) return skipped(MRTR_TAMPERED, 'no input_required answer carried a requestState')
  const name = label(mrtr.flows[tampered.flow])
  const sent = `${name} retried with the right inputResponses and its requestState with one character changed`
  const { exchange } = tampered
  if (exchange.response.frame?.error) return passed(MRTR_TAMPERED, `${sent}: rejected with ${describe(exchange)}`, exchange)
  if (asksForInput(resultOf(exchange))) return passed(MRTR_TAMPERED, `${sent}: the state was not taken (asked again)`, exchange)
  if (resultOf(exchange)?.isError === true) return passed(MRTR_TAMPERED, `${sent}: refused (isError: true)`, exchange)
  if (completed(exchange)) {
    return failed(MRTR_TAMPERED, `${sent}: got a complete result; state that fails verification MUST be rejected (protect it with an HMAC or AEAD; only state whose tampering can do nothing worse than fail the request may go unprotected)`, exchange)
  }
  return failed(MRTR_TAMPERED, `${sent}: got ${describe(exchange)}; expected a JSON-RPC error`, exchange)
}

const CAPABILITY_OF: Record<string, string> = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' }

function capability(mrtr: MrtrProbes, transport: 'stdio' | 'http'): CheckResult {
  const subject = subjectOf(mrtr)
  if (!subject || !mrtr.variants) return skipped(MRTR_CAPABILITY, 'not probed')
  const exchange = mrtr.variants.noCapabilities
  const sent = `${subject.name} called again declaring no client capabilities`
  const error = exchange.response.frame?.error
  const result = resultOf(exchange)
  if (error?.code === -32021) {
    const data = isObject(error.data) ? error.data : undefined
    if (!isObject(data?.requiredCapabilities)) return failed(MRTR_CAPABILITY, `${sent}: -32021 without data.requiredCapabilities (the capabilities it needs, e.g. {"elicitation": {}})`, exchange)
    if (transport === 'http' && exchange.response.status !== 400) return failed(MRTR_CAPABILITY, `${sent}: -32021 with HTTP ${exchange.response.status}; over HTTP it MUST be 400 Bad Request`, exchange)
    return passed(MRTR_CAPABILITY, `${sent}: -32021, requiredCapabilities ${Object.keys(data.requiredCapabilities as object).join(', ') || '(none named)'}`, exchange)
  }
  if (asksForInput(result)) {
    const asked = [...new Set(Object.values(inputRequestsOf(result)).map((r) => String(r.method)))]
    if (asked.length === 0) return passed(MRTR_CAPABILITY, `${sent}: input_required with requestState only (nothing undeclared asked)`, exchange)
    const needs = asked.map((m) => `${m}${CAPABILITY_OF[m] ? ` (${CAPABILITY_OF[m]})` : ''}`)
    return failed(MRTR_CAPABILITY, `${sent}: asked for ${needs.join(', ')} anyway; expected -32021 with data.requiredCapabilities`, exchange)
  }
  if (result) return passed(MRTR_CAPABILITY, `${sent}: ${describe(exchange)} without asking for input`, exchange)
  return failed(MRTR_CAPABILITY, `${sent}: got ${describe(exchange)}; expected -32021 (MissingRequiredClientCapability) with data.requiredCapabilities`, exchange)
}

function extra(mrtr: MrtrProbes): CheckResult {
  const subject = subjectOf(mrtr)
  if (!subject || !mrtr.variants) return skipped(MRTR_EXTRA, 'not probed')
  const { first, retry: exchange } = mrtr.variants.extraParams
  if (!exchange) return skipped(MRTR_EXTRA, `${subject.name} called again got ${describe(first)}, not input_required: no retry to add keys to`)
  const plain = subject.flow.legs[1]
  const sent = `${subject.name} retried with the canned inputResponses plus an unrequested key`
  if (resultOf(exchange)) return passed(MRTR_EXTRA, `${sent}: ${describe(exchange)}, as without it`, exchange)
  if (!resultOf(plain)) return skipped(MRTR_EXTRA, `${sent}: got ${describe(exchange)}, as the plain retry did (${describe(plain)}): nothing to compare`)
  return failed(MRTR_EXTRA, `${sent}: got ${describe(exchange)}, where the same retry without it got ${describe(plain)}`, exchange)
}

function nonTool(mrtr: MrtrProbes): CheckResult {
  const flows = mrtr.flows.filter((f) => f.method !== 'tools/call')
  if (flows.length === 0) {
    const called = mrtr.candidates.filter((c) => c.method !== 'tools/call').length
    return skipped(MRTR_NON_TOOL, called ? `none of the ${called} prompts/get and resources/read calls asked for input` : 'no prompt or resource listed')
  }
  const key = (f: MrtrFlow) => (f.method === 'prompts/get' ? 'messages' : 'contents')
  const bad = flows.filter((f) => f.end !== 'complete' || !Array.isArray(resultOf(f.legs[f.legs.length - 1])?.[key(f)]))
  if (bad.length) {
    const why = bad.map((f) => (f.end === 'complete' ? `${label(f)}: completed without ${key(f)}` : `${label(f)}: ${endOf(f)}`))
    return failed(MRTR_NON_TOOL, why.join('; '), bad[0].legs[bad[0].legs.length - 1])
  }
  return passed(MRTR_NON_TOOL, flows.map((f) => `${label(f)}: ${endOf(f)}`).join('; '))
}

const OFFICIAL_NOTE = 'the official scenario calls its own fixture tool (test_input_required_result_*); here the server’s own calls are followed'

/** These checks' revisions and official-suite mapping. */
export const MRTR_CATALOG: Catalog = {
  'mrtr-result-type': {
    revision: '2026-07-28',
    official: { scenarios: ['input-required-result-result-type:sep-2322-result-type-included'], scoring: 'differs', note: `${OFFICIAL_NOTE}; an answer with inputRequests or requestState and no resultType fails here wherever it appears` }
  },
  'mrtr-retry-completes': {
    revision: '2026-07-28',
    official: {
      scenarios: ['input-required-result-basic-elicitation', 'input-required-result-basic-sampling', 'input-required-result-basic-list-roots', 'input-required-result-request-state'],
      scoring: 'differs',
      note: `${OFFICIAL_NOTE}; it passes when one call completes (canned answers may not satisfy every tool)`
    }
  },
  'mrtr-multi-round': {
    revision: '2026-07-28',
    official: { scenarios: ['input-required-result-multi-round'], scoring: 'differs', note: `${OFFICIAL_NOTE}; a new requestState each round is not required (the spec does not require it)` }
  },
  'mrtr-multiple-input-requests': {
    revision: '2026-07-28',
    official: { scenarios: ['input-required-result-multiple-input-requests'], scoring: 'differs', note: `${OFFICIAL_NOTE}; any two input requests count, not necessarily one of each method` }
  },
  'mrtr-missing-input-response': {
    revision: '2026-07-28',
    official: { scenarios: ['input-required-result-missing-input-response:sep-2322-missing-response-rerequests'], scoring: 'differs', note: 'the official suite warns on an error; here a complete result fails, an error passes with a note (re-requesting is a SHOULD)' }
  },
  'mrtr-validate-input': {
    revision: '2026-07-28',
    official: { scenarios: ['input-required-result-validate-input:sep-2322-validate-input-responses'], scoring: 'scored', note: OFFICIAL_NOTE }
  },
  'mrtr-tampered-state': {
    revision: '2026-07-28',
    official: { scenarios: ['input-required-result-tampered-state:sep-2322-reject-tampered-state'], scoring: 'differs', note: `${OFFICIAL_NOTE}; a new input_required (the state not taken) or isError passes here, the official suite wants a JSON-RPC error` }
  },
  'mrtr-capability-check': {
    revision: '2026-07-28',
    official: {
      scenarios: ['input-required-result-capability-check:sep-2322-respect-client-capabilities'],
      scoring: 'differs',
      note: 'the official suite declares sampling only and wants no elicitation request; here no capability is declared, and -32021 needs data.requiredCapabilities and HTTP 400 (§3)'
    }
  },
  'mrtr-ignore-extra-params': {
    revision: '2026-07-28',
    official: { scenarios: ['input-required-result-ignore-extra-params:sep-2322-ignore-unexpected-params'], scoring: 'scored', note: OFFICIAL_NOTE }
  },
  'mrtr-non-tool-requests': {
    revision: '2026-07-28',
    official: { scenarios: ['input-required-result-non-tool-request'], scoring: 'differs', note: `${OFFICIAL_NOTE}; resources/read rounds count too (the official scenario tries prompts/get only)` }
  }
}
