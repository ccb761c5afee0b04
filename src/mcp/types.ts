import type { InputKind } from '../config/types.js'
import type { CallAnnotations, InputRound } from '../results/types.js'
import type { McpMedia } from './content.js'
import type { MisplacedInputRequired, TappedServerRequest, WindowFrames } from './frames.js'

/**
 * The shapes a session speaks in: what it lists, what a call answers (raw and as the model sees
 * it), what the client answers when the server asks, and the session and factory interfaces every
 * wrapper keeps.
 */

export interface McpTool {
  name: string
  description?: string
  inputSchema: Record<string, unknown>
  outputSchema?: Record<string, unknown>
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean }
  /** `taskSupport: "required"`: the tool only runs as a task, which this client does not start. */
  execution?: { taskSupport?: string }
  /** MCP Apps: the UI resource the tool links, and who may call it; absent when its `_meta` says nothing of a UI. */
  ui?: McpToolUi
}

/**
 * A tool's MCP Apps metadata (`_meta.ui`): `resource_uri` from `resourceUri` (or the deprecated
 * `_meta["ui/resourceUri"]`), null when it links none; `visibility` as listed (`["model", "app"]`,
 * `["app"]`…), null when not given (the spec's default: both).
 */
export interface McpToolUi {
  resource_uri: string | null
  visibility: string[] | null
}

/** What the server answered to one tools/call, as it came over the wire (before the SDK parsed it). */
export type RawCallResponse = { kind: 'result'; result: Record<string, unknown> } | { kind: 'error'; error: { code: number; message: string; data?: unknown } }

/** One tools/call and its raw answer. */
export interface RawToolCall {
  name: string
  args: Record<string, unknown>
  /** The JSON-RPC request as sent (the last one, when an input_required answer made the SDK retry). */
  request: Record<string, unknown>
  response: RawCallResponse
  latency_ms: number
  /** What the server asked the client during this call; absent when it asked nothing. */
  input?: CallInput
}

/** The server input of one call: the rounds, the frames they were read from, and what the client allowed. */
export interface CallInput {
  rounds: InputRound[]
  /** Every leg of the call and every server request, as they went over the wire (for the observed checks). */
  frames: WindowFrames
  /** The capabilities this client declared. */
  declared: InputKind[]
  /** max_input_rounds: the SDK's inputRequired.maxRounds. */
  max_rounds: number
  /**
   * Set when the call could not go on for want of an answer (more rounds than max_rounds, a request
   * for a capability not declared, an answer that failed), or asked more than max_rounds times (a
   * legacy server, whose later requests were refused): the text the model is shown, as an isError
   * outcome. Null otherwise.
   */
  failure: string | null
}
export interface McpResource {
  name: string
  uri: string
  description?: string
  /** Its `mimeType` in resources/list (`text/html;profile=mcp-app` for an MCP Apps UI). */
  mime_type?: string
}
export interface McpPrompt {
  name: string
  description?: string
  arguments?: { name: string; description?: string; required?: boolean }[]
}
export interface CallOutcome {
  text: string
  isError: boolean
  /**
   * The raw result as the server sent it (tools/call: the CallToolResult, resources/read:
   * `{contents}`), for the evals/v1 assertions that read it; absent where a wrapper replaced the
   * answer (a fault, an attack) or the call failed.
   */
  result?: Record<string, unknown>
  /**
   * The JSON-RPC error the server answered with (`isError` is true and `text` says it as the model
   * sees it), for the evals/v1 assertions, which count it as an execution error; filled by
   * tools/call (src/mcp/outcome.ts) and resources/read, absent otherwise (and where a fault
   * replaced the answer).
   */
  protocol_error?: { code: number; message: string; data?: unknown }
  /** What the run layers' wrappers noted on this call (a fault, an attack, its span); absent when none did. */
  annotations?: CallAnnotations
  /** What the server asked the client during this call (MRTR rounds or legacy server requests); absent when nothing. */
  input_rounds?: InputRound[]
  /**
   * The image and audio blocks of a tools/call result, in order (their placeholders are in
   * `text`); absent when none. A wrapper that returns the real answer passes them on; one that
   * replaces the answer's text leaves them out.
   */
  media?: McpMedia[]
}

/** One answer to a server's question: a result, or a JSON-RPC error (a legacy request we do not answer). */
export type InputAnswer =
  | { result: Record<string, unknown>; answered_by: string; problem: string | null }
  | { error: { code: number; message: string }; answered_by: string; problem: string | null }

/**
 * What the client can answer when the server asks (issue 13): the capabilities it declares,
 * and how it answers. One object per run, from src/agent/input-answers.ts.
 */
export interface ClientInputs {
  /** Declared exactly: elicitation (form), sampling, roots. */
  capabilities: { elicitation?: Record<string, never>; sampling?: Record<string, never>; roots?: Record<string, never> }
  /**
   * max_input_rounds: the SDK's inputRequired.maxRounds (more MRTR rounds fail the call); a legacy
   * server's requests past this many rounds are refused, unanswered by `answer`, and fail the call too.
   */
  maxRounds: number
  /**
   * Answers one request, an MRTR input request or a legacy server request alike. Never throws.
   * `signal` ends when the request is cancelled, when its call ends, or at the call's deadline.
   */
  answer(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<InputAnswer>
}

/** One connection to the server under test: a fresh process (stdio) or its own session (HTTP). */
export interface McpSession {
  readonly era: 'modern' | 'legacy'
  readonly protocolVersion: string | undefined
  readonly tools: McpTool[]
  readonly resources: McpResource[]
  readonly prompts: McpPrompt[]
  /** How long opening took: spawn or connect plus the handshake, and listing. */
  readonly timings: { connect_ms: number; list_ms: number }
  callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallOutcome>
  /** The same call, answered raw: a JSON-RPC error is a response, not a throw; a local failure throws ServerError. */
  callToolRaw(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<RawToolCall>
  readResource(uri: string, signal: AbortSignal): Promise<CallOutcome>
  getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<CallOutcome>
  /**
   * False once the connection is gone (the server exited, the session closed): a session reused
   * across runs (src/mcp/session-reuse.ts) is checked before it is lent again. Absent on test doubles.
   */
  readonly connected?: boolean
  /** The last lines the server wrote to stderr (stdio only). */
  stderrTail(): string
  /**
   * What the server did about input outside the tool calls (an input_required answer to a method
   * that may not send one, e.g. a list at open; its requests outside any call; what it asked
   * during resource reads and prompts), as a snapshot: src/conformance/observe-session.ts turns it
   * into findings (sessionFindingsOf).
   */
  sessionHappenings(): SessionHappenings
  /**
   * What the server asked outside any call (a legacy server listing the roots as it starts, as
   * server-filesystem does), at most the last 20 requests.
   */
  sessionRounds(): InputRound[]
  /**
   * Resolves when nothing a run layer started on the session is still in flight (an MCP App's
   * render after a call, whose view makes requests of its own): the agent waits for it before its
   * next call is timed, and the run before the session closes. Absent: always idle.
   */
  idle?(): Promise<void>
  close(): Promise<void>
}

/**
 * The server input a session saw outside its tool calls, as it went over the wire: the raw
 * material of the observed conformance checks on a session (the findings are the conformance
 * layer's to make). Later frames do not change a snapshot.
 */
export interface SessionHappenings {
  /** The capabilities this client declared. */
  declared: InputKind[]
  /** max_input_rounds: the SDK's inputRequired.maxRounds. */
  max_rounds: number
  /** Answers with `input_required` to a method that may not send one (a list), at most the last 20. */
  misplaced_input_required: MisplacedInputRequired[]
  /** Requests the server sent outside any call (at most the last 20), with our replies as they stood. */
  outside_server_requests: TappedServerRequest[]
  /** The server input of each resource read and prompt during which the server asked, in order; `label` names it (`resources/read <uri>`). */
  reads: { label: string; input: CallInput }[]
  /**
   * Set on a session borrowed across runs (src/mcp/session-reuse.ts): the session's happenings as
   * its server started, and as this run borrowed it. The run's share is what the server did as it
   * started and what was found new since it borrowed the session.
   */
  loan?: { at_start: SessionHappenings; at_borrow: SessionHappenings }
}

export interface SessionFactory {
  /** How the sessions reach the server; absent: stdio (test doubles). */
  readonly transport?: 'stdio' | 'http'
  open(signal: AbortSignal, options?: OpenOptions): Promise<McpSession>
}

/** A fetch with the signature the SDK's HTTP transport takes. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>

/** What one session needs beyond the server config. */
export interface OpenOptions {
  /**
   * HTTP only: wraps the transport's fetch, so faults at the HTTP level (a 503, a 401, a
   * response cut mid-stream) reach the SDK exactly as a real failure would. Ignored on stdio.
   */
  wrapFetch?: (fetch: FetchLike) => FetchLike
  /**
   * The W3C trace context every request carries in `params._meta` (`traceparent`, `tracestate`),
   * read as each request is sent (src/mcp/trace-meta.ts). Absent: nothing is added.
   */
  traceMeta?: () => Record<string, string>
  /**
   * What the client declares and answers when the server asks (MRTR `input_required`, legacy
   * `elicitation/create`, `sampling/createMessage`, `roots/list`). Absent: nothing is declared.
   */
  inputs?: ClientInputs
  /**
   * This run's `${RUN_DIR}` (stdio args, env, cwd; roots). Absent while the config uses it: the
   * session makes a directory of its own and removes it when it closes (tool tests, `init`).
   */
  runDir?: string
  /**
   * Shown every message the server sends, as it came, with the request it answers (undefined for
   * a notification, a server request, or an answer to nothing we asked): the conformance layer
   * checks them against the revision's schema (wire-schema-valid). Must not throw; absent: none.
   */
  serverFrames?: ServerFrameSink
}

/** See OpenOptions.serverFrames. */
export type ServerFrameSink = (message: Record<string, unknown>, request: Record<string, unknown> | undefined) => void
