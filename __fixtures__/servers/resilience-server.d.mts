export interface ResilienceRequest {
  /** The HTTP method. */
  method: string
  /** The JSON-RPC id of the body's (first) message; null for none. */
  id: string | number | null
  /** The JSON-RPC method of the body's (first) message; null for none. */
  rpc: string | null
  /** tools/call: the tool's name. */
  tool: string | null
}

export function createResilienceServer(bookings?: { count: number }): unknown

export function startResilienceHttpServer(options?: { responseMode?: 'auto' | 'json' | 'sse' }): Promise<{
  url: string
  requests: ResilienceRequest[]
  /** How many times book_slot really ran on this server. */
  bookings: { count: number }
  close(): Promise<void>
}>
