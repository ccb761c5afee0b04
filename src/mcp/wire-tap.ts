import type { Transport } from '@modelcontextprotocol/client'
import { isObject } from '../util/objects.js'

/** A tools/call as it went over the wire, with its answer once one came. */
export interface TappedCall {
  id: unknown
  request: Record<string, unknown>
  sentAt: number
  /** The JSON-RPC response object as received; undefined until it comes. */
  response?: Record<string, unknown>
  receivedAt?: number
}

/**
 * Watches a transport's frames without changing them: the SDK parses, strips (`resultType`) and
 * rejects (invalid content blocks) what a server sends, and the conformance checks on real calls
 * and the tool tests need the frames as they came. Only the tools/call exchanges of an open
 * window are kept, and only until the window closes, so a long run holds no history.
 */
export class WireTap {
  private readonly calls = new Map<unknown, TappedCall>()
  private readonly windows = new Set<unknown[]>()

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
   * Open a window around one call: every tools/call request sent until `close` belongs to it (more
   * than one when an input_required answer makes the SDK retry with a new id). Calls on one
   * session are sequential, so a window never holds another call's request.
   */
  open(): { close(): TappedCall[] } {
    const ids: unknown[] = []
    this.windows.add(ids)
    return {
      close: () => {
        this.windows.delete(ids)
        // Unanswered ones are forgotten too: an answer that comes after its call gave up is not the next call's.
        const mine = ids.flatMap((id) => this.calls.get(id) ?? [])
        for (const id of ids) this.calls.delete(id)
        return mine.filter((call) => call.response !== undefined)
      }
    }
  }

  private sent(message: unknown): void {
    if (this.windows.size === 0 || !isObject(message) || message.method !== 'tools/call' || message.id === undefined) return
    this.calls.set(message.id, { id: message.id, request: message, sentAt: performance.now() })
    for (const ids of this.windows) ids.push(message.id)
  }

  private received(message: unknown): void {
    if (!isObject(message) || !('result' in message || 'error' in message)) return
    const call = this.calls.get(message.id)
    if (!call || call.response) return
    call.response = message
    call.receivedAt = performance.now()
  }
}

