import type { ServerConfig } from '../config/types.js'
import type { Tool } from './checks/schemas.js'
import type { ProbeMode } from './probe-data.js'
import type { Exchange, HttpWire, WireRequest } from './wire.js'

/**
 * What every probe module is given: the server, connections to it, and what the first steps of
 * the probe already learned (discover, the lists). Each module (probe-eras, probe-mrtr,
 * probe-streams, probe-tasks, probe-auth) gathers its own part of ProbeData from it; the checks
 * stay pure functions of ProbeData.
 */

/** One connection: a stdio process or an HTTP endpoint. */
export interface Connection {
  request(req: WireRequest, timeoutMs: number): Promise<Exchange>
  /** stdio: a request held open as a stream, its timeout becoming `afterFirstMs` after the first message it gets (a listen's window). */
  listen?(req: WireRequest, timeoutMs: number, afterFirstMs: number): Promise<Exchange>
  notify?(method: string, params?: Record<string, unknown>): void
  close(): Promise<void>
}

export type RequestBuilder = (method: string, params?: Record<string, unknown>) => WireRequest

/** A tool call the suite's tool tests make (real arguments): the probes that need a real call (MRTR) start from these. */
export interface ProbeSeed {
  tool: string
  args: Record<string, unknown>
  /** Where it came from, for messages: `tool test get-forecast`. */
  source: string
}

export interface ProbeContext {
  config: ServerConfig
  transport: 'stdio' | 'http'
  /** The era of the main connection: modern (after server/discover) or legacy (after initialize). */
  era: 'modern' | 'legacy'
  mode: ProbeMode
  /** Per-request timeout. */
  timeout: number
  /** Once aborted, `open` gives connections that fail at once. */
  signal?: AbortSignal
  /** A new connection: a fresh stdio process (with its own ${RUN_DIR}) or a new HTTP client. The caller closes it. */
  open(): Connection
  /** `use` on a fresh connection, closed afterwards. */
  fresh<T>(use: (connection: Connection) => Promise<T>): Promise<T>
  /** The probe's main connection (modern: past server/discover; legacy: past initialize). Shared: send requests, do not close it. */
  main: Connection
  /** Over HTTP: the main connection as the HTTP client it is (raw methods, header overrides). */
  http?: HttpWire
  /** Builds a request for the main connection's era (modern: with the `_meta` envelope). */
  request: RequestBuilder
  /** Modern: the discover result; legacy: the initialize result. */
  handshake: Record<string, unknown> | undefined
  /** The server's capabilities as the handshake declared them ({} when none). */
  capabilities: Record<string, unknown>
  tools: Tool[]
  prompts: Record<string, unknown>[]
  resources: Record<string, unknown>[]
  /** The tool tests' calls, for the probes that need a real call; empty without a suite. */
  seeds: ProbeSeed[]
}
