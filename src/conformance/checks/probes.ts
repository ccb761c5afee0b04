import type { ListMethod, ProbeData, ProbeMode } from '../probe-data.js'
import type { CheckResult } from '../types.js'
import type { Exchange } from '../wire.js'
import { describeResponse, earlierAnswer, errorCode, exchangesIn, failed, isObject, passed, resultOf, skipped, type CheckSpec } from './common.js'
import type { Tool } from './schemas.js'
import { someOf } from '../../util/words.js'

/** Checks decided by the active probes: calls that break a rule on purpose, and what every exchange showed. */

export const SERVER_REACHABLE: CheckSpec = { id: 'server-reachable', severity: 'error', spec: '§1, §11 the server starts and answers server/discover or initialize' }
export const INVALID_ARGUMENTS: CheckSpec = {
  id: 'invalid-arguments-result',
  severity: 'error',
  spec: '§5 arguments that break the inputSchema are a tool execution error: a result with isError: true, not a JSON-RPC error'
}
export const DNS_REBINDING: CheckSpec = {
  id: 'http-dns-rebinding-protection',
  severity: 'error',
  spec: '§4 a present, invalid Origin → 403 (DNS rebinding protection); local servers bind 127.0.0.1'
}
export const PAGINATION: CheckSpec = { id: 'list-pagination-cache-scope', severity: 'error', spec: '§6 every page of one list carries the same cacheScope' }
export const ERROR_RESPONSE_ID: CheckSpec = {
  id: 'error-response-id',
  severity: 'error',
  spec: 'JSON-RPC 2.0 §5 an error response carries the id of its request (null only when the id could not be read: -32700, -32600)'
}
export const CAPABILITIES_HONEST: CheckSpec = { id: 'discover-capabilities-honest', severity: 'error', spec: '§2 an advertised capability works: its list call answers' }
export const CAPABILITIES_COMPLETE: CheckSpec = {
  id: 'discover-capabilities-complete',
  severity: 'warning',
  spec: '§2 what the server serves is advertised: clients do not list what capabilities leave out'
}

/** How many tools one run calls with broken arguments: enough to see the pattern, bounded in time. */
export const MAX_INVALID_ARGUMENT_CALLS = 10

/** A value of the wrong JSON type for each declared type. */
const WRONG_VALUE: Record<string, unknown> = {
  string: 12345,
  number: 'not a number',
  integer: 'not a number',
  boolean: 'not a boolean',
  object: 'not an object',
  array: 'not an array'
}

export interface InvalidArgumentsCall {
  tool: string
  args: Record<string, unknown>
  /** What is wrong with `args`, for the message: `without the required "query"`. */
  broken: string
}

export interface InvalidArgumentsPlan {
  calls: InvalidArgumentsCall[]
  /** Left out because `probes: safe` only calls tools annotated readOnlyHint: true. */
  notReadOnly: string[]
  /** No required and no typed property: no way to break the schema without guessing. */
  untestable: string[]
  /** Eligible, but over MAX_INVALID_ARGUMENT_CALLS. */
  capped: string[]
}

/** Whether `probes` allows calling this tool: `safe` only calls tools that say they change nothing. */
export function mayCall(tool: Tool, mode: ProbeMode): boolean {
  if (mode === 'none') return false
  return mode === 'all' || (isObject(tool.annotations) && tool.annotations.readOnlyHint === true)
}

/** A local `{"$ref": "#/…"}` resolved within its root; other schemas as they are. */
function resolved(root: unknown, schema: unknown): unknown {
  if (!isObject(schema) || typeof schema.$ref !== 'string' || !schema.$ref.startsWith('#/')) return schema
  let node: unknown = root
  for (const part of schema.$ref.slice(2).split('/')) node = isObject(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined
  return node
}

/** Arguments that break the schema: a required property left out, else a typed one given the wrong type. */
export function brokenArguments(inputSchema: unknown): Omit<InvalidArgumentsCall, 'tool'> | undefined {
  if (!isObject(inputSchema)) return undefined
  const required = Array.isArray(inputSchema.required) ? inputSchema.required.filter((r): r is string => typeof r === 'string') : []
  if (required.length) return { args: {}, broken: `without the required ${required.map((r) => JSON.stringify(r)).join(', ')}` }
  const properties = isObject(inputSchema.properties) ? inputSchema.properties : {}
  for (const [name, schema] of Object.entries(properties)) {
    const type = (resolved(inputSchema, schema) as { type?: unknown } | undefined)?.type
    if (typeof type === 'string' && type in WRONG_VALUE) return { args: { [name]: WRONG_VALUE[type] }, broken: `with "${name}" (${type}) given ${JSON.stringify(WRONG_VALUE[type])}` }
  }
  return undefined
}

/** Which tools the invalid-arguments probe calls, and why the others are left out. */
export function planInvalidArguments(tools: Tool[], mode: ProbeMode): InvalidArgumentsPlan {
  const plan: InvalidArgumentsPlan = { calls: [], notReadOnly: [], untestable: [], capped: [] }
  for (const tool of tools) {
    if (!mayCall(tool, mode)) {
      plan.notReadOnly.push(tool.name)
      continue
    }
    const broken = brokenArguments(tool.inputSchema)
    if (!broken) plan.untestable.push(tool.name)
    else if (plan.calls.length >= MAX_INVALID_ARGUMENT_CALLS) plan.capped.push(tool.name)
    else plan.calls.push({ tool: tool.name, ...broken })
  }
  return plan
}

const list = (names: string[]) => someOf(names)

export function checkInvalidArguments(probe: ProbeData): CheckResult {
  const probed = probe.invalidArguments
  if (probe.probes === 'none') return skipped(INVALID_ARGUMENTS, 'probes: none (no tool is called)')
  if (!probed) return skipped(INVALID_ARGUMENTS, 'not probed')
  const notes = [
    probed.notReadOnly.length ? `not called, not annotated readOnlyHint: true (probes: safe): ${list(probed.notReadOnly)}` : '',
    probed.untestable.length ? `skipped, no required or typed property to break: ${list(probed.untestable)}` : '',
    probed.capped.length ? `not called, over ${MAX_INVALID_ARGUMENT_CALLS} tools: ${list(probed.capped)}` : ''
  ].filter(Boolean)
  const tail = notes.length ? `; ${notes.join('; ')}` : ''
  // The skip's reason is shown grouped with others: "no tool was called — not annotated …", not "…; not called, …".
  if (probed.calls.length === 0) return skipped(INVALID_ARGUMENTS, `no tool was called${notes.length ? ` — ${notes.map((n) => n.replace(/^not called, /, '')).join('; ')}` : ''}`)
  const wrong = probed.calls.filter(({ exchange }) => resultOf(exchange)?.isError !== true)
  if (wrong.length) {
    const what = wrong.map(({ tool, broken, exchange }) => `${tool} ${broken} got ${describeResponse(exchange)}`)
    return failed(INVALID_ARGUMENTS, `${what.join('; ')}; expected a result with isError: true, so the model can read the error and retry${tail}`, wrong[0].exchange)
  }
  return passed(INVALID_ARGUMENTS, `called ${list(probed.calls.map((c) => c.tool))} with broken arguments: isError results${tail}`)
}

export function checkDnsRebinding(probe: ProbeData): CheckResult {
  if (probe.transport === 'stdio') return skipped(DNS_REBINDING, 'stdio server: no HTTP binding')
  const dns = probe.dnsRebinding
  if (!dns) return skipped(DNS_REBINDING, 'not probed')
  if (!dns.local) return skipped(DNS_REBINDING, `${dns.host} is not a loopback address: DNS rebinding targets local servers`)
  const cases: [string, Exchange][] = [
    ['a request with Origin: http://evil.example', dns.badOrigin],
    ['a request with Host and Origin evil.example', dns.badHostAndOrigin]
  ]
  for (const [what, exchange] of cases) {
    if (exchange.response.status !== 403) {
      return failed(DNS_REBINDING, `${what} got ${describeResponse(exchange)}; expected HTTP 403 (a web page the user opens could otherwise drive this local server)`, exchange)
    }
  }
  return passed(DNS_REBINDING, 'a foreign Origin, alone or with a foreign Host, → 403')
}

/** The `nextCursor` of a page, when it names another one. */
const cursorOf = (exchange: Exchange | undefined) => {
  const cursor = resultOf(exchange)?.nextCursor
  return typeof cursor === 'string' && cursor !== '' ? cursor : undefined
}

export function checkPagination(probe: ProbeData, maxPages: number): CheckResult {
  const problems: { exchange: Exchange; problem: string }[] = []
  const paginated: string[] = []
  const notes: string[] = []
  for (const [method, pages] of Object.entries(probe.listPages ?? {}) as [ListMethod, Exchange[]][]) {
    if (pages.length < 2) continue
    paginated.push(`${method} (${pages.length} pages)`)
    const broken = pages.findIndex((p) => !resultOf(p))
    if (broken !== -1) {
      problems.push({ exchange: pages[broken], problem: `${method} page ${broken + 1} (cursor ${JSON.stringify(pages[broken].request.params && (pages[broken].request.params as { cursor?: unknown }).cursor)}) got ${describeResponse(pages[broken])}` })
      continue
    }
    // Missing or invalid scopes are list-cache-fields' finding; here only valid ones are compared.
    const scopes = pages.map((p) => resultOf(p)?.cacheScope)
    const valid = scopes.filter((s) => s === 'public' || s === 'private')
    if (new Set(valid).size > 1) {
      const at = scopes.findIndex((s) => s !== valid[0] && (s === 'public' || s === 'private'))
      problems.push({ exchange: pages[at], problem: `${method}: page 1 says cacheScope ${JSON.stringify(valid[0])}, page ${at + 1} ${JSON.stringify(scopes[at])}` })
    }
    const last = cursorOf(pages[pages.length - 1])
    if (last !== undefined && pages.slice(0, -1).some((p) => cursorOf(p) === last)) problems.push({ exchange: pages[pages.length - 1], problem: `${method}: nextCursor ${JSON.stringify(last)} repeats, so the list never ends` })
    else if (last !== undefined) notes.push(`${method} stopped after ${maxPages} pages`)
  }
  if (problems.length) return failed(PAGINATION, problems.map((p) => p.problem).join('; '), problems[0].exchange)
  if (paginated.length === 0) return skipped(PAGINATION, 'no list returned a nextCursor')
  return passed(PAGINATION, `one cacheScope across every page: ${list(paginated)}${notes.length ? `; ${notes.join('; ')}` : ''}`)
}

/** JSON-RPC lets these answer with a null id: the request could not be parsed, so its id is unknown. */
const ID_UNREADABLE = new Set([-32700, -32600])

/** Over every exchange the probes made, except the DNS-rebinding ones (§4: a 403 body MAY have no id). */
export function checkErrorResponseIds(probe: ProbeData, exclude: Exchange[] = []): CheckResult {
  const skip = new Set(exclude)
  const exchanges = [...exchangesIn({ ...probe, dnsRebinding: undefined }, new Set())].filter((e) => !skip.has(e))
  const problems: Exchange[] = []
  let errors = 0
  for (const exchange of exchanges) {
    const frame = exchange.response.frame
    const sent = exchange.request.id
    if (!frame?.error || sent === undefined) continue
    errors++
    if (frame.id === sent) continue
    // Another request's answer (the server answered it twice): jsonrpc-one-response's finding.
    if (earlierAnswer(exchange) !== undefined) continue
    if ((frame.id === null || frame.id === undefined) && ID_UNREADABLE.has(frame.error.code)) continue
    problems.push(exchange)
  }
  if (problems.length) {
    const what = problems.map((e) => `${e.method} (id ${JSON.stringify(e.request.id)}) → error ${errorCode(e)} with id ${JSON.stringify(e.response.frame?.id) ?? 'missing'}`)
    return failed(ERROR_RESPONSE_ID, `${what.join('; ')}: a client cannot tell which request failed`, problems[0])
  }
  return errors ? passed(ERROR_RESPONSE_ID, `all ${errors} error responses carry their request's id`) : passed(ERROR_RESPONSE_ID, 'no error response seen')
}

/** What a capability's list call got, and whether it listed anything. */
function listOutcome(exchange: Exchange | undefined, key: string): { works: boolean; count: number } {
  const items = resultOf(exchange)?.[key]
  return Array.isArray(items) ? { works: true, count: items.length } : { works: false, count: 0 }
}

export function checkCapabilities(probe: ProbeData): CheckResult[] {
  const capabilities = resultOf(probe.discover)?.capabilities
  if (!isObject(capabilities)) return [CAPABILITIES_HONEST, CAPABILITIES_COMPLETE].map((c) => skipped(c, 'the discover result has no capabilities object'))
  const firstPage = (method: ListMethod) => probe.listPages?.[method]?.[0] ?? probe.otherLists.find((e) => e.method === method)
  const lists: [string, Exchange | undefined, string][] = [
    ['tools', probe.toolsList[0], 'tools'],
    ['prompts', firstPage('prompts/list'), 'prompts'],
    ['resources', firstPage('resources/list'), 'resources']
  ]
  const broken: { exchange: Exchange; problem: string }[] = []
  const hidden: { exchange: Exchange; problem: string }[] = []
  for (const [capability, exchange, key] of lists) {
    if (!exchange) continue
    const { works, count } = listOutcome(exchange, key)
    if (capabilities[capability] !== undefined && !works) broken.push({ exchange, problem: `${capability} is advertised but ${exchange.method} got ${describeResponse(exchange)}` })
    // An empty list hides nothing: only a capability that serves something must be advertised.
    if (capabilities[capability] === undefined && works && count > 0) hidden.push({ exchange, problem: `${exchange.method} lists ${count} ${key} but discover does not advertise ${capability}, so clients never ask` })
  }
  const advertised = Object.keys(capabilities).filter((c) => lists.some(([name]) => name === c))
  return [
    broken.length
      ? failed(CAPABILITIES_HONEST, broken.map((b) => b.problem).join('; '), broken[0].exchange)
      : passed(CAPABILITIES_HONEST, advertised.length ? `the list call of every advertised capability answers (${list(advertised)})` : 'no list capability advertised'),
    hidden.length ? failed(CAPABILITIES_COMPLETE, hidden.map((h) => h.problem).join('; '), hidden[0].exchange) : passed(CAPABILITIES_COMPLETE, 'nothing is served that is not advertised')
  ]
}

/** The report's one check for a server that could not be reached. */
export function checkReachable(probe: ProbeData): CheckResult {
  const unreachable = probe.unreachable
  if (!unreachable) return passed(SERVER_REACHABLE, `server/discover → ${describeResponse(probe.discover)}`)
  return failed(SERVER_REACHABLE, unreachable.reason, unreachable.exchange)
}
