import { ExportResultCode } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import type { SpanExporter } from '@opentelemetry/sdk-trace-base'
import type { OtlpTarget } from '../config/otlp.js'
import { redactText } from '../util/redact.js'

/**
 * How long one export may take, its retries (429, 502–504, a refused connection) included: less
 * than the tracing's shutdown bound, so the last export ends (sent, or failed with its reason)
 * before the evaluation stops waiting for it.
 */
const EXPORT_TIMEOUT_MS = 2500

/** The SDK's OTLP/HTTP exporter (JSON over HTTP POST) to `destination`. */
export function otlpExporter(destination: OtlpTarget): SpanExporter {
  return new OTLPTraceExporter({ url: destination.url, headers: { ...destination.headers }, timeoutMillis: EXPORT_TIMEOUT_MS })
}

/**
 * `exporter`, except that an export that failed (or threw) is also told to `onFailure`, with the
 * error when there is one, instead of only to the SDK's diagnostic log (which is silent).
 */
export function reportingFailures(exporter: SpanExporter, onFailure: (error: unknown) => void): SpanExporter {
  return {
    export(spans, done) {
      try {
        exporter.export(spans, (result) => {
          if (result.code !== ExportResultCode.SUCCESS) onFailure(result.error)
          done(result)
        })
      } catch (error) {
        onFailure(error)
        done({ code: ExportResultCode.FAILED, error: error instanceof Error ? error : new Error(String(error)) })
      }
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve()
  }
}

/**
 * Why an export failed, for the one warning: the HTTP status the receiver answered, or the
 * network error. Names the endpoint without credentials or query, and never a header value.
 */
export function describeExportFailure(error: unknown, destination: OtlpTarget): string {
  const status = (error as { code?: unknown } | undefined)?.code
  const message = (error instanceof Error ? error.message : error === undefined ? 'no reason given' : String(error)).replace(/^Error: /, '')
  const reason = typeof status === 'number' ? `HTTP ${status}${message && message !== 'undefined' ? ` ${message}` : ''}` : message
  return `${redactText(reason, Object.values(destination.headers))} from ${shownEndpoint(destination.url)}`
}

/** The endpoint as a warning shows it: scheme, host and path, no user, password or query. */
export function shownEndpoint(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`
  } catch {
    return 'the OTLP endpoint'
  }
}
