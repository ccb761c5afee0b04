import type { Exchange } from './wire-types.js'

/** What the streams probe gathered: subscriptions/listen, log notifications, what rides on a response stream. */
export interface StreamsProbes {
  /** The subscriptions/listen windows, in parallel; empty when nothing the server declares enables one (`listenSkipped` says why). */
  listens: ListenProbe[]
  listenSkipped?: string
  /** The same request without and then with `io.modelcontextprotocol/logLevel` (one after the other, on the main connection). */
  logLevel?: LogLevelProbe
  /** Why there is no logLevel probe. */
  logLevelSkipped?: string
  /** A few identical requests sent at once (HTTP: concurrent POSTs, each its own stream; stdio: in flight together). */
  concurrent: ConcurrentProbe
}

/** The filter of a subscriptions/listen request (`notifications`). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean
  promptsListChanged?: boolean
  resourcesListChanged?: boolean
  resourceSubscriptions?: string[]
}

export interface ListenProbe {
  /** `declared`: every kind the server's capabilities enable; `narrow`: one other kind alone, so a notification of the first is outside it. */
  role: 'declared' | 'narrow'
  filter: SubscriptionFilter
  /** The listen request; `response.frame` is the answer when one came within the window (an error, a graceful close). */
  exchange: Exchange
  /** Every message on the stream in the order it came, the answer included. */
  stream: Record<string, unknown>[]
  /** `window`: open until the window was over, then closed by us (HTTP: stream aborted; stdio: notifications/cancelled). */
  ended: 'window' | 'answered' | 'ended' | 'failed'
  windowMs: number
}

export interface LogLevelProbe {
  /** What was sent, for messages: `tools/call list_sections`, `tools/list`. */
  label: string
  without: Exchange
  with: Exchange
  level: string
}

export interface ConcurrentProbe {
  method: string
  exchanges: Exchange[]
}
