/** One JSON-RPC request as the telemetry fixture logged it. */
export interface TelemetryRequest {
  /** The JSON-RPC method. */
  method: string
  /** tools/call: the tool's name; null otherwise. */
  tool: string | null
  /** `params._meta.traceparent` as received; null when absent. */
  traceparent: string | null
  /** `params._meta.tracestate` as received; null when absent. */
  tracestate: string | null
}

export function createTelemetryServer(options?: { delayMs?: number }): unknown

export function describeRequest(message: unknown): TelemetryRequest | null

export function startTelemetryHttpServer(options?: { delayMs?: number }): Promise<{
  url: string
  /** Every JSON-RPC request the server got, in order. */
  requests: TelemetryRequest[]
  close(): Promise<void>
}>
