import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client'

/**
 * The AppBridge's transport (it runs in Node): what the view posts reaches `deliver`, what the
 * bridge sends is handed to `post` (a `frame.postMessage` in the page). It also counts the view's
 * requests the bridge has not answered yet, and when the last message went either way, so the host
 * can wait until the view is settled.
 */
export class FrameRelay implements Transport {
  onmessage?: (message: JSONRPCMessage) => void
  onclose?: () => void
  onerror?: (error: Error) => void
  private readonly pending = new Set<string>()
  private closed = false
  lastTraffic = Date.now()

  constructor(private readonly post: (message: JSONRPCMessage) => Promise<void>) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return
    this.lastTraffic = Date.now()
    const m = message as { id?: unknown; method?: unknown }
    if (m.id !== undefined && m.method === undefined) this.pending.delete(String(m.id))
    await this.post(message).catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))))
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.onclose?.()
  }

  /** A message the view posted to its parent. Anything that is not a JSON-RPC object is ignored. */
  deliver(message: unknown): void {
    if (this.closed || !message || typeof message !== 'object' || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') return
    this.lastTraffic = Date.now()
    const m = message as { id?: unknown; method?: unknown }
    if (m.id !== undefined && typeof m.method === 'string') this.pending.add(String(m.id))
    this.onmessage?.(message as JSONRPCMessage)
  }

  /** The view's requests still waiting for the host's answer. */
  get pendingRequests(): number {
    return this.pending.size
  }
}
