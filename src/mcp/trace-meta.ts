import type { Transport } from '@modelcontextprotocol/client'
import { isObject } from '../util/objects.js'

/**
 * The request a dual-era server may pin its era by: on stdio the first message decides, and an
 * `initialize` that carries `_meta` could read as a modern one. It is sent as the SDK built it.
 */
const ERA_OPENING = 'initialize'

/**
 * The same transport, but every outgoing JSON-RPC request (a message with an `id` and a `method`)
 * carries `traceMeta()` in `params._meta`: `traceparent` (and `tracestate`), the keys the
 * 2026-07-28 spec reserves for W3C trace context, so a server that traces joins the run's trace.
 * Legacy servers get the same keys after their `initialize` (harmless to them). The message is
 * copied, never changed in place; the envelope keys the SDK put in `_meta` stay. Notifications
 * and responses pass as they are. Read at each send, so a request carries the span current then.
 */
export function withTraceMeta<T extends Transport>(transport: T, traceMeta: () => Record<string, string>): T {
  return new Proxy(transport, {
    get(target, prop) {
      if (prop === 'send') {
        return (message: unknown, options?: unknown) => (target.send as (m: unknown, o?: unknown) => Promise<void>).call(target, withMeta(message, traceMeta), options)
      }
      const value = Reflect.get(target, prop) as unknown
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
    // On the target itself (not the proxy as receiver): a setter such as `onmessage` may use private fields.
    set(target, prop, value) {
      return Reflect.set(target, prop, value)
    }
  })
}

/** A request with `meta` merged into its `params._meta` (a copy); anything else unchanged. */
export function withMeta(message: unknown, meta: () => Record<string, string>): unknown {
  if (!isObject(message) || typeof message.method !== 'string' || message.id === undefined || message.method === ERA_OPENING) return message
  const params = isObject(message.params) ? message.params : {}
  const envelope = isObject(params._meta) ? params._meta : {}
  return { ...message, params: { ...params, _meta: { ...envelope, ...meta() } } }
}
