import type { Exchange, WireResponse } from './wire-types.js'

/** What the eras probe gathered: the eras a server speaks: dual-era detection, removed methods, the 2025-era lifecycle. */
export interface ErasProbes {
  /**
   * Modern servers: `initialize` as a 2025-11-25 client sends it (no `_meta`, no version header),
   * on a fresh connection. A result means the server also serves 2025-era sessions (dual-era).
   */
  legacyInitialize?: Exchange
  /** Modern servers: the methods 2026-07-28 removed, each sent with the modern envelope. */
  removed?: Exchange[]
  /** The 2025-era side: a legacy server's, or a dual-era server's (on the connection its initialize opened). */
  legacy?: LegacySideProbes
}

export interface LegacySideProbes {
  /** `ping` on the 2025-era connection. */
  ping: Exchange
  /** `logging/setLevel` (level debug), sent only when initialize declared the `logging` capability. */
  setLevel?: Exchange
  /** HTTP only: the session's lifecycle, on a session of its own. */
  session?: SessionProbes
}

/**
 * A 2025-era session's lifecycle (2025-11-25 transports, session management). The requests a
 * 2025 transport refuses before it reads the body (no session, an ended one, GET, DELETE) are
 * kept as `RawExchange`, out of the exchange tree the wire-wide checks walk: their error frames
 * carry no request id by design (the v1 SDK's `Session not found` has `id: null`).
 */
export interface SessionProbes {
  /** The initialize that opened the session. */
  initialize: Exchange
  /** The Mcp-Session-Id it minted; undefined for a 2025 server without sessions (the rest is then not probed). */
  sessionId?: string
  /** The `notifications/initialized` POST on the session. */
  initialized?: RawExchange
  /** A request on the session (a method it declares, else ping). */
  withSession?: Exchange
  /** The same request without Mcp-Session-Id: 400 expected (SHOULD). */
  withoutSession?: RawExchange
  /** GET on the session (Accept: text/event-stream): an SSE stream or 405. */
  get?: RawExchange
  /** DELETE of the session: 2xx, or 405 when the server does not let clients end sessions. */
  delete?: RawExchange
  /** The same request with the ended session's id: 404 expected (MUST). */
  afterDelete?: RawExchange
}

/** An HTTP request and its answer, in a shape the exchange walkers do not pick up (`sent`/`got`, not `request`/`response`). */
export interface RawExchange {
  method: string
  sent: Record<string, unknown>
  got: WireResponse
}
