import type { Connection, ProbeContext } from './probe-context.js'
import type { ErasProbes, LegacySideProbes } from './probe-eras-data.js'
import { LegacySession, sessionProbes } from './probe-eras-session.js'
import { MISSING_RESOURCE } from './probe-methods.js'
import { LEGACY_VERSION } from './types.js'
import { isObject } from '../util/objects.js'
import type { Exchange, WireRequest } from './wire.js'

/**
 * The eras probe: which eras a server speaks, and each era's own rules.
 * - Modern servers: the methods 2026-07-28 removed, sent with the modern envelope (§10), and
 *   `initialize` as a 2025-11-25 client sends it: a result makes the server dual-era, and its
 *   2025 side is then held to the 2025-11-25 lifecycle (ping, logging/setLevel, the HTTP session).
 * - Legacy servers: the same 2025-11-25 lifecycle.
 * Connections: over stdio two fresh processes (the removed methods on one, initialize on the other); over
 * HTTP fresh clients (no process), so a session a probe opens never rides on the main connection.
 */

export const REMOVED_METHODS = ['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe'] as const
const CLIENT_INFO = { name: 'mcp-server-evals-conformance', version: '1' }
/** The most verbose level: setting it silences nothing the other probes might read. */
const LOG_LEVEL = 'debug'

const legacyInitialize: WireRequest = { method: 'initialize', params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: CLIENT_INFO } }

export async function probeEras(context: ProbeContext): Promise<ErasProbes | undefined> {
  if (context.signal?.aborted) return undefined
  return context.era === 'modern' ? probeModern(context) : probeLegacyServer(context)
}

/**
 * The removed methods and the 2025 side. Over stdio a process's era is fixed by how it is opened
 * (the SDK's serveStdio keeps the era of the first request), so the 2025 side gets a fresh
 * process that sees initialize first, and the removed methods another that server/discover
 * opened as modern; initialize among them only when the server does not serve 2025 (on a
 * dual-era one it could open a 2025 session there).
 */
async function probeModern(context: ProbeContext): Promise<ErasProbes> {
  const { timeout } = context
  const uri = typeof context.resources[0]?.uri === 'string' ? context.resources[0].uri : MISSING_RESOURCE
  const removedRequests: WireRequest[] = [
    context.request('ping'),
    context.request('logging/setLevel', { level: LOG_LEVEL }),
    context.request('resources/subscribe', { uri }),
    context.request('resources/unsubscribe', { uri })
  ]
  const enveloped = context.request('initialize')
  if (context.transport === 'http') {
    // Each on a client of its own: a dual-era server that opens a session for one must not pin the others.
    const [removed, side] = await Promise.all([
      Promise.all([...removedRequests, enveloped].map((req) => context.fresh((c) => c.request(req, timeout)))),
      withSession(context, async (session) => {
        const opened = await session.open(legacyInitialize.params!)
        if (!resultOf(opened.initialize)) return { legacyInitialize: opened.initialize }
        // ping and logging/setLevel first: the session probes end the session.
        const legacy = await legacySide(context, session, capabilitiesOf(opened.initialize))
        return { legacyInitialize: opened.initialize, legacy: { ...legacy, session: await sessionProbes(session, opened) } }
      })
    ])
    return { removed, ...side }
  }
  const side = context.fresh(async (connection): Promise<ErasProbes> => {
    const init = await connection.request(legacyInitialize, timeout)
    if (!resultOf(init)) return { legacyInitialize: init }
    connection.notify?.('notifications/initialized')
    return { legacyInitialize: init, legacy: await legacySide(context, connection, capabilitiesOf(init)) }
  })
  // A process of their own, pinned modern by server/discover, one request at a time: an error
  // answered with a null id can only be matched to the one request in flight (the main
  // connection carries the other modules' requests meanwhile).
  const removed = await context.fresh(async (connection) => {
    await connection.request(context.request('server/discover'), timeout)
    const answers = await sequentially(removedRequests.map((req) => () => connection.request(req, timeout)))
    if (!(await side).legacy) answers.push(await connection.request(enveloped, timeout))
    return answers
  })
  return { removed, ...(await side) }
}

/** A legacy server: ping and logging/setLevel on the main connection (past initialize), the session on one of its own. */
async function probeLegacyServer(context: ProbeContext): Promise<ErasProbes> {
  // The session probes on a session of their own (they end it), beside ping and logging/setLevel on the main one.
  const [legacy, session] = await Promise.all([
    legacySide(context, context.main, context.capabilities),
    context.transport === 'http' ? withSession(context, async (session) => sessionProbes(session, await session.open(legacyInitialize.params!))) : undefined
  ])
  return { legacy: { ...legacy, ...(session ? { session } : {}) } }
}

async function legacySide(context: ProbeContext, connection: Connection, capabilities: Record<string, unknown>): Promise<LegacySideProbes> {
  const [ping, setLevel] = await Promise.all([
    connection.request({ method: 'ping' }, context.timeout),
    capabilities.logging ? connection.request({ method: 'logging/setLevel', params: { level: LOG_LEVEL } }, context.timeout) : undefined
  ])
  return { ping, ...(setLevel ? { setLevel } : {}) }
}

/** A 2025 session of its own for `use`, ended afterwards if `use` did not end it. */
async function withSession<T>(context: ProbeContext, use: (session: LegacySession) => Promise<T>): Promise<T> {
  const session = new LegacySession(context)
  try {
    return await use(session)
  } finally {
    await session.close()
  }
}

async function sequentially<T>(steps: (() => Promise<T>)[]): Promise<T[]> {
  const done: T[] = []
  for (const step of steps) done.push(await step())
  return done
}

const resultOf = (exchange: Exchange | undefined): Record<string, unknown> | undefined => exchange?.response.frame?.result
const capabilitiesOf = (exchange: Exchange): Record<string, unknown> => {
  const capabilities = resultOf(exchange)?.capabilities
  return isObject(capabilities) ? capabilities : {}
}
