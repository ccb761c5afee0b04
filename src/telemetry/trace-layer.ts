import type { RunLayer } from '../execute/run-layer.js'

/**
 * A run's trace as a run layer, outermost: a tool call's span covers what the agent waited for,
 * faults and attacks included, and every MCP request carries `traceparent`. Records `trace_id`.
 * The run's own span, its LLM calls and its judge call are the lifecycle's (src/execute/run-matrix.ts):
 * they start before the layers are prepared and end after the record is built.
 */
export const traceLayer: RunLayer = {
  name: 'tracing',
  prepare(_spec, { trace }) {
    return {
      open: trace ? { traceMeta: () => trace.meta() } : {},
      wrap: (session) => (trace ? trace.session(session) : session),
      record: () => ({ fields: { trace_id: trace?.traceId ?? null }, passed: true })
    }
  }
}
