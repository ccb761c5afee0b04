/**
 * A document with every timing set to one value: durations and latencies (`*_ms`, `*_s`, and the
 * percentile objects under such keys), timestamps (`started_at`, a cancellation's `at`) and the
 * trace and span ids, which are new on every run. Null stays null, so "no figure" still differs
 * from "a figure". What is left is what two runs of the same suite must agree on.
 */
export function withoutTimings<T>(value: T): T {
  return walk(value, false) as T
}

const TIMING_KEY = /(_ms|_s)$|^(started_at|at|trace_id|span_id)$/

function walk(value: unknown, timing: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => walk(v, timing))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, timing || TIMING_KEY.test(k))]))
  if (!timing || value === null) return value
  return typeof value === 'number' ? 0 : typeof value === 'string' ? 'timing' : value
}
