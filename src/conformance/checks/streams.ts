import type { Catalog } from '../catalog-types.js'
import type { ProbeData } from '../probe-data.js'
import type { ListenProbe, StreamsProbes, SubscriptionFilter } from '../probe-streams-data.js'
import { someOf } from '../../util/words.js'
import type { CheckResult } from '../types.js'
import type { Exchange } from '../wire.js'
import { describeResponse, exchangesIn, failed, isObject, passed, resultOf, skipped, type CheckSpec } from './common.js'

/** Checks on subscriptions/listen, log notifications, what rides on a response stream. Called for every era: each check says itself when it does not apply. */

export const LISTEN_ACKNOWLEDGED: CheckSpec = {
  id: 'subscriptions-listen-acknowledged',
  severity: 'error',
  spec: '2026-07-28 subscriptions: notifications/subscriptions/acknowledged MUST come first, carrying the listen request\u2019s id as io.modelcontextprotocol/subscriptionId and, in notifications, the subset of the filter the server honours'
}
export const LISTEN_SUBSCRIPTION_ID: CheckSpec = {
  id: 'subscriptions-listen-subscription-id',
  severity: 'error',
  spec: '§3, 2026-07-28 subscriptions: every notification on a listen stream (and its closing result) carries io.modelcontextprotocol/subscriptionId, the listen request\u2019s id'
}
export const LISTEN_FILTER: CheckSpec = {
  id: 'subscriptions-listen-filter',
  severity: 'error',
  spec: '2026-07-28 subscriptions: the server MUST NOT send notification types the client did not request; notifications/message and progress never ride on a listen stream'
}
export const LIST_CHANGED: CheckSpec = {
  id: 'subscriptions-list-changed',
  severity: 'warning',
  spec: '2026-07-28 tools, prompts, resources: a change notification (list_changed, resources/updated) SHOULD be sent on a subscriptions/listen stream that asked for it, and rides on no other stream'
}
export const NO_LOG_WITHOUT_LEVEL: CheckSpec = {
  id: 'no-log-without-log-level',
  severity: 'error',
  spec: '§3, 2026-07-28 logging: the server MUST NOT emit notifications/message for a request without io.modelcontextprotocol/logLevel in _meta'
}
export const LOG_DECLARED: CheckSpec = {
  id: 'log-notifications-declared',
  severity: 'error',
  spec: '2026-07-28 logging: a server that emits notifications/message MUST declare the logging capability'
}
export const NO_SERVER_REQUESTS: CheckSpec = {
  id: 'no-server-requests',
  severity: 'error',
  spec: '§1, §7, 2026-07-28 transports: the server MUST NOT send JSON-RPC requests (HTTP: on a response stream; stdio: to stdout); server-to-client interactions ride in an input_required result'
}
export const CONCURRENT_REQUESTS: CheckSpec = {
  id: 'concurrent-requests',
  severity: 'warning',
  spec: '2026-07-28 transports: requests are independent; each in-flight request gets its own answer (HTTP: its own POST and response stream; stdio: correlated by id)'
}

const SUB_ID = 'io.modelcontextprotocol/subscriptionId'
const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel'
const ACK = 'notifications/subscriptions/acknowledged'
const LOG = 'notifications/message'
/** Change notifications, by the filter field that asks for them. */
const CHANGE_KINDS: Record<string, keyof SubscriptionFilter> = {
  'notifications/tools/list_changed': 'toolsListChanged',
  'notifications/prompts/list_changed': 'promptsListChanged',
  'notifications/resources/list_changed': 'resourcesListChanged',
  'notifications/resources/updated': 'resourceSubscriptions'
}
const LEGACY = 'legacy server: applies from 2026-07-28'

type Message = Record<string, unknown>
const methodOf = (m: Message) => (typeof m.method === 'string' ? m.method : undefined)
const tagOf = (m: Message): unknown => {
  const params = m.params
  return isObject(params) && isObject(params._meta) ? params._meta[SUB_ID] : undefined
}
const isRequest = (m: Message) => methodOf(m) !== undefined && 'id' in m
const idOf = (listen: ListenProbe) => listen.exchange.request.id
/** Server text in a message: as data, and short. */
const clip = (text: string) => (text.length > 80 ? `${text.slice(0, 80)}…` : text)
const show = (value: unknown) => clip(JSON.stringify(value) ?? 'nothing')
const nameOf = (m: Message) => clip(methodOf(m) ?? '(no method)')
const filterText = (filter: SubscriptionFilter) => JSON.stringify(filter)
const asked = (filter: SubscriptionFilter, key: keyof SubscriptionFilter) => (key === 'resourceSubscriptions' ? (filter.resourceSubscriptions?.length ?? 0) > 0 : filter[key] === true)

/**
 * The notifications of this subscription. HTTP: everything on its stream but the answer. stdio
 * (one channel for all): those tagged with its id, and subscription kinds (acknowledgements,
 * change notifications) whatever their tag, which belong to no request.
 */
function ownNotifications(listen: ListenProbe, transport: ProbeData['transport']): Message[] {
  return listen.stream.filter((m) => {
    const method = methodOf(m)
    if (!method || isRequest(m)) return false
    return transport === 'http' || tagOf(m) === idOf(listen) || method === ACK || method in CHANGE_KINDS
  })
}

const closingAnswer = (listen: ListenProbe) => listen.exchange.response.frame

/** Why this listen did not open (no acknowledgement first, as it should), or undefined when it did. */
function notOpened(listen: ListenProbe, probe: ProbeData): string | undefined {
  const own = ownNotifications(listen, probe.transport)
  const answer = closingAnswer(listen)
  const sent = `subscriptions/listen ${filterText(listen.filter)}`
  if (answer?.error && own.length === 0) {
    const declared = answer.error.code === -32601 ? ' though the server declares what it delivers (listChanged or resources.subscribe)' : ''
    return `${sent} got ${describeResponse(listen.exchange)}${declared}`
  }
  if (own.length === 0) {
    if (answer) return `${sent} was answered at once (${describeResponse(listen.exchange)}) without an acknowledgement`
    const status = listen.exchange.response.status
    if (status !== undefined && (status < 200 || status >= 300)) return `${sent} got ${describeResponse(listen.exchange)}`
    return `${sent} got no acknowledgement within ${listen.windowMs} ms${listen.exchange.response.failure ? ` (${listen.exchange.response.failure})` : ''}`
  }
  const first = own[0]
  if (methodOf(first) !== ACK) return `the first message of ${sent} was ${nameOf(first)}, not ${ACK}`
  return undefined
}

/** What is wrong with an acknowledgement that came first: its id, its notifications against the filter. */
function ackProblem(listen: ListenProbe, ack: Message): string | undefined {
  const tag = tagOf(ack)
  if (tag !== idOf(listen)) return `the acknowledgement of subscriptions/listen (id ${show(idOf(listen))}) carries ${SUB_ID} ${show(tag)}, expected ${show(idOf(listen))}`
  const honoured = isObject(ack.params) ? ack.params.notifications : undefined
  if (!isObject(honoured)) return `the acknowledgement of subscriptions/listen ${filterText(listen.filter)} has no notifications object (got ${show(honoured)})`
  const extra = Object.entries(honoured).flatMap(([key, value]) => {
    if (key === 'resourceSubscriptions') return Array.isArray(value) ? value.filter((uri) => !listen.filter.resourceSubscriptions?.includes(uri as string)).map((uri) => `resourceSubscriptions ${show(uri)}`) : []
    return value === true && listen.filter[key as keyof SubscriptionFilter] !== true ? [key] : []
  })
  if (extra.length) return `the acknowledgement of subscriptions/listen ${filterText(listen.filter)} honours what was not asked for: ${someOf(extra)}`
  return undefined
}

/** The slowest answer to tools/list on the main connection: a window shorter than twice that proves nothing by its silence. */
const slowest = (probe: ProbeData) => Math.max(0, ...probe.toolsList.map((e) => e?.ms ?? 0))

function checkAcknowledged(probe: ProbeData, streams: StreamsProbes): CheckResult {
  if (streams.listens.length === 0) return skipped(LISTEN_ACKNOWLEDGED, streams.listenSkipped ?? 'not probed')
  const silent = streams.listens.find((l) => l.stream.length === 0 && l.ended === 'window')
  if (silent && slowest(probe) * 2 > silent.windowMs) {
    return skipped(LISTEN_ACKNOWLEDGED, `nothing came in the ${silent.windowMs} ms listen window, but the server answers slowly (tools/list took ${slowest(probe)} ms): the window proves nothing`)
  }
  for (const listen of streams.listens) {
    const problem = notOpened(listen, probe) ?? ackProblem(listen, ownNotifications(listen, probe.transport)[0])
    if (problem) return { ...failed(LISTEN_ACKNOWLEDGED, problem, listen.exchange), methods: ['subscriptions/listen'] }
  }
  const acks = streams.listens.map((l) => `${filterText(l.filter)} → ${show((ownNotifications(l, probe.transport)[0].params as Message).notifications)}`)
  return passed(LISTEN_ACKNOWLEDGED, `every listen was acknowledged first, with its own id (requested → honoured: ${acks.join('; ')})`, streams.listens[0].exchange)
}

/** The listens that got anything of their own (notifications, or a closing result) to look at. */
const withTraffic = (probe: ProbeData, streams: StreamsProbes) =>
  streams.listens.filter((l) => ownNotifications(l, probe.transport).length > 0 || resultOf(l.exchange) !== undefined)

/** The listens a check can judge, or its skip: none was opened, or none carried anything. */
function listensFor(spec: CheckSpec, probe: ProbeData, streams: StreamsProbes): ReturnType<typeof withTraffic> | CheckResult {
  if (streams.listens.length === 0) return skipped(spec, streams.listenSkipped ?? 'not probed')
  const listens = withTraffic(probe, streams)
  return listens.length ? listens : skipped(spec, `no listen stream carried anything to look at (see ${LISTEN_ACKNOWLEDGED.id})`)
}

function checkSubscriptionIds(probe: ProbeData, streams: StreamsProbes): CheckResult {
  const listens = listensFor(LISTEN_SUBSCRIPTION_ID, probe, streams)
  if (!Array.isArray(listens)) return listens
  let count = 0
  for (const listen of listens) {
    const id = idOf(listen)
    const own = ownNotifications(listen, probe.transport)
    count += own.length
    const wrong = own.find((m) => tagOf(m) !== id)
    if (wrong) {
      const tag = tagOf(wrong)
      const got = tag === undefined ? `no ${SUB_ID}` : `${SUB_ID} ${show(tag)}`
      const on = probe.transport === 'http' ? 'on the stream of' : 'while stdout was shared with'
      return { ...failed(LISTEN_SUBSCRIPTION_ID, `${nameOf(wrong)} ${on} subscriptions/listen (id ${show(id)}) carries ${got}; every notification of a subscription carries its id ${show(id)}`, listen.exchange), methods: ['subscriptions/listen'] }
    }
    const result = resultOf(listen.exchange)
    const closing = result && isObject(result._meta) ? result._meta[SUB_ID] : undefined
    if (result && closing !== id) return { ...failed(LISTEN_SUBSCRIPTION_ID, `the result closing subscriptions/listen (id ${show(id)}) carries ${SUB_ID} ${show(closing)} in _meta, expected ${show(id)}`, listen.exchange), methods: ['subscriptions/listen'] }
  }
  return passed(LISTEN_SUBSCRIPTION_ID, `all ${count} notification(s) on ${listens.length} listen stream(s) carried their subscription\u2019s id`, listens[0].exchange)
}

/** Why this notification is outside its listen's filter, or undefined. */
function outsideFilter(m: Message, filter: SubscriptionFilter): string | undefined {
  const method = methodOf(m)!
  const name = nameOf(m)
  if (method === ACK) return undefined
  const key = CHANGE_KINDS[method]
  if (key) return asked(filter, key) ? undefined : `${name} (not asked for)`
  if (method === LOG || method === 'notifications/progress') return `${name} (request-scoped, never on a listen stream)`
  return `${name} (not a type a listen filter asks for)`
}

function checkFilter(probe: ProbeData, streams: StreamsProbes): CheckResult {
  const listens = listensFor(LISTEN_FILTER, probe, streams)
  if (!Array.isArray(listens)) return listens
  let after = 0
  for (const listen of listens) {
    // stdio: an untagged one cannot be told apart from another subscription's (subscriptions-listen-subscription-id says so).
    const own = ownNotifications(listen, probe.transport).filter((m) => probe.transport === 'http' || tagOf(m) === idOf(listen))
    after += own.filter((m) => methodOf(m) !== ACK).length
    const outside = own.map((m) => outsideFilter(m, listen.filter)).filter((o): o is string => o !== undefined)
    if (outside.length) return { ...failed(LISTEN_FILTER, `subscriptions/listen ${filterText(listen.filter)} got ${someOf([...new Set(outside)])}`, listen.exchange), methods: ['subscriptions/listen'] }
  }
  const seen = after ? `${after} notification(s) after the acknowledgements, each of a kind asked for` : 'only the acknowledgements came'
  return passed(LISTEN_FILTER, `nothing outside the filters in the ${listens[0].windowMs} ms windows (${listens.map((l) => filterText(l.filter)).join(', ')}): ${seen}`, listens[0].exchange)
}

/** Every exchange of the probe with the messages that came with it, the listens apart. */
function otherExchanges(probe: ProbeData, streams: StreamsProbes | undefined): Exchange[] {
  const listens = new Set(streams?.listens.map((l) => l.exchange))
  return [...exchangesIn(probe, new Set())].filter((e) => !listens.has(e))
}

const where = (probe: ProbeData, e: Exchange) => (probe.transport === 'http' ? `on the response stream of ${e.method}` : `while ${e.method} was in flight (not tagged for a listen)`)

function checkListChanged(probe: ProbeData, streams: StreamsProbes): CheckResult {
  const misplaced = otherExchanges(probe, streams).flatMap((e) => (e.response.messages ?? []).filter((m) => (methodOf(m) ?? '') in CHANGE_KINDS).map((m) => ({ e, m })))
  if (misplaced.length) {
    const shown = [...new Set(misplaced.map(({ e, m }) => `${nameOf(m)} ${where(probe, e)}`))]
    return { ...failed(LIST_CHANGED, `${someOf(shown, 3, '; ')}: change notifications ride only on a subscriptions/listen stream that asked for them`, misplaced[0].e), methods: [...new Set(misplaced.map(({ e }) => e.method))] }
  }
  const delivered = streams.listens.flatMap((l) => ownNotifications(l, probe.transport).filter((m) => tagOf(m) === idOf(l) && CHANGE_KINDS[methodOf(m)!] !== undefined && asked(l.filter, CHANGE_KINDS[methodOf(m)!])).map((m) => ({ l, m })))
  if (delivered.length) return passed(LIST_CHANGED, `${someOf([...new Set(delivered.map(({ m }) => methodOf(m)!))])} delivered on the listen stream that asked for it, and on no other stream`, delivered[0].l.exchange)
  // Nothing triggers a change: what was checked is that none rode elsewhere; never a guessed failure.
  const window = streams.listens.length ? `no change happened during the ${streams.listens[0].windowMs} ms listen windows (nothing here triggers one)` : `no listen was opened (${streams.listenSkipped ?? 'not probed'})`
  return passed(LIST_CHANGED, `no change notification rode on any other stream; ${window}`)
}

const hasLogLevel = (e: Exchange) => {
  const params = e.request.params
  return isObject(params) && isObject(params._meta) && params._meta[LOG_LEVEL_KEY] !== undefined
}
const logsOf = (e: Exchange) => (e.response.messages ?? []).filter((m) => methodOf(m) === LOG)

/** What the active probe showed: whether the server logs at all when asked. */
function logNote(streams: StreamsProbes): string {
  const probe = streams.logLevel
  if (!probe) return ''
  const asked = `${probe.label} with logLevel ${probe.level}`
  const got = logsOf(probe.with).length
  if (got) return `; the server does log when asked: ${asked} got ${got} log notification(s), without it none`
  const answer = probe.with.response.frame ? '' : ` (${describeResponse(probe.with)})`
  return `; ${asked} got no log notification either${answer}, so it may not log at all`
}

function checkNoLogWithoutLevel(probe: ProbeData, streams: StreamsProbes): CheckResult {
  const unasked = otherExchanges(probe, undefined).filter((e) => !hasLogLevel(e))
  const offenders = unasked.filter((e) => logsOf(e).length > 0)
  if (offenders.length) {
    const counts = new Map<string, number>()
    for (const e of offenders) counts.set(e.method, (counts.get(e.method) ?? 0) + logsOf(e).length)
    const shown = [...counts].map(([method, n]) => `${method} (${n})`)
    return { ...failed(NO_LOG_WITHOUT_LEVEL, `notifications/message came with requests that carried no ${LOG_LEVEL_KEY}: ${someOf(shown)}`, offenders[0]), methods: [...new Set(offenders.map((e) => e.method))] }
  }
  return passed(NO_LOG_WITHOUT_LEVEL, `no notifications/message with any of the ${unasked.length} requests without a logLevel${logNote(streams)}`, streams.logLevel?.without)
}

function checkLogDeclared(probe: ProbeData, streams: StreamsProbes): CheckResult {
  const logging = otherExchanges(probe, undefined).filter((e) => logsOf(e).length > 0)
  if (logging.length === 0) return passed(LOG_DECLARED, `the server sent no notifications/message${streams.logLevel ? ` (not even to ${streams.logLevel.label} with logLevel ${streams.logLevel.level})` : ''}, so it needs no logging capability`)
  const capabilities = resultOf(probe.discover)?.capabilities
  if (isObject(capabilities) && capabilities.logging !== undefined) return passed(LOG_DECLARED, `the server logs (${someOf([...new Set(logging.map((e) => e.method))])}) and declares the logging capability`, logging[0])
  return { ...failed(LOG_DECLARED, `notifications/message came with ${someOf([...new Set(logging.map((e) => e.method))])}, but server/discover declares no logging capability`, logging[0]), methods: [...new Set(logging.map((e) => e.method))] }
}

function checkNoServerRequests(probe: ProbeData): CheckResult {
  if (probe.era !== 'modern') return skipped(NO_SERVER_REQUESTS, LEGACY)
  const exchanges = [...exchangesIn(probe, new Set())]
  const found = exchanges.flatMap((e) => (e.response.messages ?? []).filter(isRequest).map((m) => ({ e, m })))
  if (found.length) {
    const shown = [...new Set(found.map(({ e, m }) => `${nameOf(m)} (id ${show(m.id)}) ${probe.transport === 'http' ? `on the response stream of ${e.method}` : `while ${e.method} was in flight`}`))]
    return { ...failed(NO_SERVER_REQUESTS, `the server sent JSON-RPC requests to the client: ${someOf(shown, 3, '; ')}; a 2026-07-28 server asks for input in an input_required result instead`, found[0].e), methods: [...new Set(found.map(({ e }) => e.method))] }
  }
  // A stdio notification goes with every request in flight (wire.ts): one object, counted once.
  const others = new Set(exchanges.flatMap((e) => e.response.messages ?? [])).size
  return passed(NO_SERVER_REQUESTS, `no JSON-RPC request from the server with any of the ${exchanges.length} exchanges (${others} other message(s) seen on their streams)`)
}

function checkConcurrent(probe: ProbeData, streams: StreamsProbes | undefined): CheckResult {
  const concurrent = streams?.concurrent
  if (!concurrent) return skipped(CONCURRENT_REQUESTS, 'not probed')
  const { method, exchanges } = concurrent
  const problems = exchanges.flatMap((e, i) => {
    const status = e.response.status
    const frame = e.response.frame
    if (status !== undefined && (status < 200 || status >= 300)) return [`request ${i + 1}: ${describeResponse(e)}`]
    if (!frame) return [`request ${i + 1}: ${describeResponse(e)}`]
    if (frame.id !== e.request.id) return [`request ${i + 1} (id ${show(e.request.id)}): an answer with id ${show(frame.id)}`]
    return []
  })
  const sent = `${exchanges.length} ${method} requests sent at once${probe.transport === 'http' ? ' (concurrent POSTs)' : ' (in flight together)'}`
  if (problems.length) return failed(CONCURRENT_REQUESTS, `${sent}: ${someOf(problems, 3, '; ')}; each should get its own answer`, exchanges.find((e) => !e.response.frame || (e.response.status ?? 200) >= 300) ?? exchanges[0])
  const sse = exchanges.filter((e) => (e.response.headers?.['content-type'] ?? '').includes('text/event-stream')).length
  return passed(CONCURRENT_REQUESTS, `${sent}: each got its own answer${probe.transport === 'http' ? ` (${sse} as an SSE stream, ${exchanges.length - sse} as JSON)` : ''}`, exchanges[0])
}

export function checkStreams(probe: ProbeData): CheckResult[] {
  const streams = probe.streams
  const modern = probe.era === 'modern' && streams !== undefined
  const modernOnly = (check: CheckSpec, run: (s: StreamsProbes) => CheckResult) => (modern ? run(streams) : skipped(check, probe.era === 'modern' ? 'not probed' : LEGACY))
  return [
    modernOnly(LISTEN_ACKNOWLEDGED, (s) => checkAcknowledged(probe, s)),
    modernOnly(LISTEN_SUBSCRIPTION_ID, (s) => checkSubscriptionIds(probe, s)),
    modernOnly(LISTEN_FILTER, (s) => checkFilter(probe, s)),
    modernOnly(LIST_CHANGED, (s) => checkListChanged(probe, s)),
    modernOnly(NO_LOG_WITHOUT_LEVEL, (s) => checkNoLogWithoutLevel(probe, s)),
    modernOnly(LOG_DECLARED, (s) => checkLogDeclared(probe, s)),
    checkNoServerRequests(probe),
    checkConcurrent(probe, streams)
  ]
}

const SERVER_STATELESS = 'server-stateless'

/** These checks' revisions and official-suite mapping. */
export const STREAMS_CATALOG: Catalog = {
  [LISTEN_ACKNOWLEDGED.id]: {
    revision: '2026-07-28',
    official: {
      scenarios: [`${SERVER_STATELESS}:sep-2575-server-sends-subscription-ack`],
      scoring: 'differs',
      note: 'HTTP only, one listen for toolsListChanged whatever is declared; it checks the first frame only. We listen for what the server declares (and a narrow filter), on stdio too, and check the acknowledgement\u2019s id and that it honours no more than was asked'
    }
  },
  [LISTEN_SUBSCRIPTION_ID.id]: {
    revision: '2026-07-28',
    official: {
      scenarios: [`${SERVER_STATELESS}:sep-2575-server-tags-subscription-id`],
      scoring: 'differs',
      note: 'it checks that a subscriptionId is present; we check that it is the listen request\u2019s id, on the closing result too'
    }
  },
  [LISTEN_FILTER.id]: {
    revision: '2026-07-28',
    official: {
      scenarios: [`${SERVER_STATELESS}:sep-2575-server-honors-notification-filter`],
      scoring: 'differs',
      note: 'it needs its fixture tool test_trigger_tool_change to cause a change (and fails as untestable without); we check whatever comes in the window, never triggering a change'
    }
  },
  [LIST_CHANGED.id]: {
    revision: '2026-07-28',
    official: {
      scenarios: [`${SERVER_STATELESS}:sep-2575-server-sends-tools-list-changed-on-subscription`, `${SERVER_STATELESS}:sep-2575-server-sends-prompts-list-changed-on-subscription`],
      scoring: 'differs',
      note: 'it mutates the list through its fixture tools (test_trigger_tool_change) and warns when nothing arrives; we trigger nothing: we pass a change delivered on its listen stream, warn on one sent on any other stream, and skip otherwise'
    }
  },
  [NO_LOG_WITHOUT_LEVEL.id]: {
    revision: '2026-07-28',
    official: {
      scenarios: [`${SERVER_STATELESS}:sep-2575-server-no-log-without-loglevel`],
      scoring: 'differs',
      note: 'it calls its fixture tool test_logging_tool (and fails as untestable without); we look at every exchange of the probe, and send one request with and without a logLevel'
    }
  },
  [LOG_DECLARED.id]: { revision: '2026-07-28', official: { scenarios: [], scoring: 'none' } },
  [NO_SERVER_REQUESTS.id]: {
    revision: '2026-07-28',
    official: {
      scenarios: [`${SERVER_STATELESS}:sep-2575-http-server-no-independent-requests-on-stream`],
      scoring: 'differs',
      note: 'HTTP only, on its fixture tool test_streaming_elicitation (fails as untestable without); we look at every stream of the probe, on stdio too'
    }
  },
  [CONCURRENT_REQUESTS.id]: {
    revision: 'both',
    official: {
      scenarios: ['server-sse-multiple-streams'],
      scoring: 'scored',
      note: 'HTTP only (three concurrent tools/list POSTs); a failure there is a warning here. We send the list the server declares, and on stdio keep three requests in flight'
    }
  }
}
