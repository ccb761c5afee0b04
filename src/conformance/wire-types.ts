/** The conformance wire's messages: what was sent and what came back, as the checks read them. */

export interface JsonRpcError {
  code: number
  message: string
  data?: unknown
}

/** What came back for one request. */
export interface WireResponse {
  /** The JSON-RPC response object as received, or undefined on silence. */
  frame?: { id?: unknown; result?: Record<string, unknown>; error?: JsonRpcError; [key: string]: unknown }
  /** HTTP only. */
  status?: number
  headers?: Record<string, string>
  /** HTTP only: the raw body when it was not JSON-RPC. */
  body?: string
  timedOut?: boolean
  /** The process exited or the connection failed (with the stderr quoted, for a check's message). */
  failure?: string
  /** stdio: the failure without the stderr quoted in it, for where the stderr is shown apart. */
  failureAlone?: string
  /** Why, for the report: ECONNREFUSED, ENOENT, `exited with code 1`, `non-JSON-RPC output on stdout`. */
  cause?: string
  /** stdio, on a failure: the last meaningful lines of the server's stderr. */
  stderr?: string
  /** stdio: what the server wrote to stdout that is not JSON-RPC, before any message that is. */
  stdout?: string
  /**
   * Every other JSON-RPC message that came with this answer, in order: over HTTP the
   * notifications and requests on the response's SSE stream before (and after) the response;
   * over stdio those the server sent while this request was in flight. Absent when there was none.
   */
  messages?: Record<string, unknown>[]
}

export interface Exchange {
  method: string
  request: Record<string, unknown>
  response: WireResponse
  /** Wall time from sending to the answer (or the timeout). */
  ms?: number
}

export interface WireRequest {
  method: string
  params?: Record<string, unknown>
  /** HTTP only: headers this request needs beyond the ones derived from its body (`Mcp-Param-*`, or a version header the body lacks). */
  headers?: Record<string, string | null>
}
