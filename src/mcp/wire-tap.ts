import type { Transport } from '@modelcontextprotocol/client'
import { isObject, keepLast } from '../util/objects.js'
import type { MisplacedInputRequired, TappedCall, TappedServerRequest, WindowFrames } from './frames.js'
import { inputKindOf, inputRequiredResult } from './input-rounds.js'
import type { ServerFrameSink } from './types.js'

/** The methods whose result may be `input_required` (MCP 2026-07-28 §7): the calls a window records. */
const INPUT_CAPABLE_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get'])

/** How much of a call one window keeps. */
export interface TapWindowOptions {
  /**
   * How many legacy rounds of server requests are kept (a new round starts with a request that
   * comes after we replied to every earlier one); the requests of later rounds are only counted.
   * Absent: all.
   */
  keepServerRounds?: number
}

/** One open window: `close` gives the answered calls, `closeFrames` everything (what the session reads: every leg, answered or not, and the server's requests). */
export interface TapWindow {
  close(): TappedCall[]
  closeFrames(): WindowFrames
  /**
   * The legacy round (1-based) of the server request with this JSON-RPC id, while it awaits our
   * reply (what a handler asks as it starts); undefined for any other id.
   */
  serverRound(id: unknown): number | undefined
}

/** One open window's state. */
interface OpenWindow {
  ids: unknown[]
  serverRequests: TappedServerRequest[]
  keepServerRounds: number
  /** Legacy rounds so far, and the round of each server request still awaiting our reply, by id. */
  rounds: number
  awaiting: Map<unknown, number>
  dropped: number
}

/** How many requests outside windows the tap remembers the method of, waiting for their answer. */
const PENDING_LIMIT = 256
/** How many misplaced input_required answers, and server requests outside windows, are kept. */
const KEPT_LIMIT = 20

/**
 * Watches a transport's frames without changing them: the SDK parses, strips (`resultType`) and
 * rejects (invalid content blocks) what a server sends, and the conformance checks on real calls,
 * the tool tests and the input rounds need the frames as they came. Within an open window it keeps
 * every tools/call, resources/read and prompts/get leg with its answer, and every request the
 * server sends with our reply, only until the window closes, so a long run holds no history.
 * Outside windows it keeps only a few frames: answers that carry `input_required` where no method
 * may (a list), and the server's input requests (a legacy server asking for roots as it starts).
 * Server requests that ask no input (a ping) are not kept anywhere.
 */
export class WireTap {
  private readonly calls = new Map<unknown, TappedCall>()
  private readonly windows = new Set<OpenWindow>()
  /** Our requests outside windows (or of other methods), by id, until answered. */
  private readonly pending = new Map<unknown, Record<string, unknown>>()
  /** Server requests awaiting our reply, by id. */
  private readonly awaitingReply = new Map<unknown, TappedServerRequest>()
  private readonly misplaced: MisplacedInputRequired[] = []
  /** Tools a tools/list answer marked `execution.taskSupport: "required"` (the SDK's 2026-era reading drops the key). */
  private readonly taskOnly = new Set<string>()
  private readonly outside: TappedServerRequest[] = []
  private seq = 0

  /** `onServerFrame` is shown every message the server sends (OpenOptions.serverFrames). */
  constructor(private readonly options: { onServerFrame?: ServerFrameSink } = {}) {}

  /** The same transport, observed: `send` and `onmessage` pass through this tap. */
  wrap<T extends Transport>(transport: T): T {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const tap = this
    return new Proxy(transport, {
      get(target, prop, receiver) {
        if (prop === 'send') {
          return (message: unknown, options?: unknown) => {
            tap.sent(message)
            return (target.send as (m: unknown, o?: unknown) => Promise<void>).call(target, message, options)
          }
        }
        const value = Reflect.get(target, prop, receiver) as unknown
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
      },
      set(target, prop, value, receiver) {
        if (prop === 'onmessage' && typeof value === 'function') {
          const handler = value as (message: unknown, extra?: unknown) => void
          return Reflect.set(
            target,
            prop,
            (message: unknown, extra?: unknown) => {
              tap.received(message)
              handler(message, extra)
            },
            receiver
          )
        }
        return Reflect.set(target, prop, value, receiver)
      }
    })
  }

  /**
   * Open a window around one call: every tools/call, resources/read and prompts/get request sent
   * until it closes belongs to it (more than one when an input_required answer makes the SDK retry
   * with a new id), and so does every request the server sends meanwhile. Calls on one session are
   * sequential, so a window never holds another call's frames.
   */
  open(options: TapWindowOptions = {}): TapWindow {
    const window: OpenWindow = { ids: [], serverRequests: [], keepServerRounds: options.keepServerRounds ?? Infinity, rounds: 0, awaiting: new Map(), dropped: 0 }
    this.windows.add(window)
    const end = (): WindowFrames => {
      this.windows.delete(window)
      // Unanswered ones are forgotten too: an answer that comes after its call gave up is not the next call's.
      const calls = window.ids.flatMap((id) => this.calls.get(id) ?? [])
      for (const id of window.ids) this.calls.delete(id)
      for (const request of window.serverRequests) if (this.awaitingReply.get(request.request.id) === request) this.awaitingReply.delete(request.request.id)
      return { calls, server_requests: window.serverRequests, ...(window.dropped ? { server_requests_dropped: window.dropped } : {}) }
    }
    return {
      close: () => end().calls.filter((call) => call.response !== undefined),
      closeFrames: end,
      serverRound: (id) => window.awaiting.get(id)
    }
  }

  /** Answers with `input_required` to a method that may not send one, seen so far (at most 20). */
  misplacedInputRequired(): MisplacedInputRequired[] {
    return [...this.misplaced]
  }

  /** The tools that only run as a task, as the server listed them on the wire. */
  taskOnlyTools(): ReadonlySet<string> {
    return this.taskOnly
  }

  /** Requests the server sent outside any window (at most the last 20), with our replies. */
  outsideServerRequests(): TappedServerRequest[] {
    return [...this.outside]
  }

  private sent(message: unknown): void {
    if (!isObject(message)) return
    const seq = ++this.seq
    if (typeof message.method === 'string') {
      if (message.id === undefined) return
      if (this.windows.size > 0 && INPUT_CAPABLE_METHODS.has(message.method)) {
        this.calls.set(message.id, { id: message.id, request: message, sentAt: performance.now(), seq })
        for (const window of this.windows) window.ids.push(message.id)
        return
      }
      this.pending.set(message.id, message)
      if (this.pending.size > PENDING_LIMIT) this.pending.delete(this.pending.keys().next().value)
      return
    }
    // Our reply to a server request.
    if (!('result' in message || 'error' in message)) return
    for (const window of this.windows) window.awaiting.delete(message.id)
    const request = this.awaitingReply.get(message.id)
    if (!request) return
    this.awaitingReply.delete(message.id)
    request.reply = message
    request.replySeq = seq
  }

  /** The frame sink sees every message first, with the request it answers (before the maps below forget it). */
  private showFrame(message: Record<string, unknown>): void {
    const sink = this.options.onServerFrame
    if (!sink) return
    const answers = typeof message.method !== 'string' && message.id !== undefined
    const request = answers ? (this.calls.get(message.id)?.request ?? this.pending.get(message.id)) : undefined
    try {
      sink(message, request)
    } catch {
      // A sink that throws must not break the session: it only watches.
    }
  }

  private received(message: unknown): void {
    if (!isObject(message)) return
    this.showFrame(message)
    const seq = ++this.seq
    if (typeof message.method === 'string') {
      // Notifications, and requests that ask no input (a ping): nothing to record.
      if (message.id === undefined || inputKindOf(message.method) === null) return
      const request: TappedServerRequest = { request: message, seq }
      // A modern-era client drops server requests unanswered: the map must not grow with them.
      this.awaitingReply.set(message.id, request)
      if (this.awaitingReply.size > PENDING_LIMIT) this.awaitingReply.delete(this.awaitingReply.keys().next().value)
      if (this.windows.size > 0) for (const window of this.windows) windowReceived(window, message.id, request)
      else keepLast(this.outside, request, KEPT_LIMIT)
      return
    }
    if (!('result' in message || 'error' in message)) return
    const call = this.calls.get(message.id)
    if (call) {
      if (call.response) return
      call.response = message
      call.receivedAt = performance.now()
      return
    }
    const request = this.pending.get(message.id)
    if (!request) return
    this.pending.delete(message.id)
    const method = String(request.method)
    if (method === 'tools/list') noteTaskOnly(message.result, this.taskOnly)
    if (inputRequiredResult(message) && !INPUT_CAPABLE_METHODS.has(method)) {
      keepLast(this.misplaced, { method, request, response: message }, KEPT_LIMIT)
    }
  }
}

/** The names of a tools/list result's tools whose execution.taskSupport is "required", added to `into`. */
function noteTaskOnly(result: unknown, into: Set<string>): void {
  const tools = isObject(result) && Array.isArray(result.tools) ? result.tools : []
  for (const tool of tools) {
    if (isObject(tool) && typeof tool.name === 'string' && isObject(tool.execution) && tool.execution.taskSupport === 'required') into.add(tool.name)
  }
}

/**
 * A server request inside a window: a new legacy round when we had replied to every earlier one
 * (the grouping src/mcp/input-rounds.ts reads back), kept while its round is one the window keeps.
 */
function windowReceived(window: OpenWindow, id: unknown, request: TappedServerRequest): void {
  if (window.awaiting.size === 0) window.rounds++
  window.awaiting.set(id, window.rounds)
  // A server that never waits for our replies must not grow the map: its rounds are long past the cap.
  if (window.awaiting.size > PENDING_LIMIT) window.awaiting.delete(window.awaiting.keys().next().value)
  if (window.rounds <= window.keepServerRounds) window.serverRequests.push(request)
  else window.dropped++
}
