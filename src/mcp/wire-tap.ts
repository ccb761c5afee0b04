import type { Transport } from '@modelcontextprotocol/client'

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
 * and the tool tests need the frames as they came. Only tools/call exchanges are kept, and only
 * until `take` claims them, so a long run holds no history.
 */
export class WireTap {
  private readonly pending = new Map<unknown, TappedCall>()
  private readonly answered: TappedCall[] = []

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

  private sent(message: unknown): void {
    if (!isRecord(message) || message.method !== 'tools/call' || message.id === undefined) return
    this.pending.set(message.id, { id: message.id, request: message, sentAt: performance.now() })
  }

  private received(message: unknown): void {
    if (!isRecord(message) || !('result' in message || 'error' in message)) return
    const call = this.pending.get(message.id)
    if (!call) return
    this.pending.delete(message.id)
    call.response = message
    call.receivedAt = performance.now()
    this.answered.push(call)
  }

  /**
   * The answered tools/call exchanges of tool `name` since the last take, oldest first, removed
   * from the tap. Calls on one session are sequential, so these are the exchanges of one call
   * (more than one when an input_required answer made the SDK retry with a new id).
   */
  take(name: string): TappedCall[] {
    const mine = this.answered.filter((c) => isRecord(c.request.params) && c.request.params.name === name)
    for (const call of mine) this.answered.splice(this.answered.indexOf(call), 1)
    return mine
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
