/**
 * What the wire tap (wire-tap.ts) saw, as plain data: the frames of our calls and of the
 * server's requests to us. The session, the input rounds and conformance read these shapes.
 */

/** A request we sent (a tools/call, resources/read or prompts/get leg), with its answer once one came. */
export interface TappedCall {
  id: unknown
  request: Record<string, unknown>
  sentAt: number
  /** The JSON-RPC response object as received; undefined until it comes. */
  response?: Record<string, unknown>
  receivedAt?: number
  /** The order of this frame among every frame the tap saw (send or receive). */
  seq: number
}

/** A request the server sent us (a legacy server asking mid-call), with the reply we sent back. */
export interface TappedServerRequest {
  request: Record<string, unknown>
  /** Our JSON-RPC response; undefined when we sent none (yet). */
  reply?: Record<string, unknown>
  seq: number
  /** The seq of our reply; undefined when we sent none. */
  replySeq?: number
}

/** Everything one window saw: our requests (every leg of a call) and the server's input requests to us. */
export interface WindowFrames {
  /** In the order sent; unanswered ones too. */
  calls: TappedCall[]
  /** In the order received: elicitation/create, sampling/createMessage and roots/list only (a ping is no input). */
  server_requests: TappedServerRequest[]
  /** Server input requests past the rounds the window keeps (TapWindowOptions.keepServerRounds): counted, not kept. Absent: none. */
  server_requests_dropped?: number
}

/** A response frame with `resultType: "input_required"` to a method that may not answer one. */
export interface MisplacedInputRequired {
  method: string
  request: Record<string, unknown>
  response: Record<string, unknown>
}
