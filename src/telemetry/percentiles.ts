import type { Distribution } from '../results/types.js'

/** A distribution of nothing. */
const NO_SAMPLES: Distribution = { samples: 0, p50: null, p95: null, max: null }

/**
 * p50, p95 and the maximum of raw samples, by the nearest-rank method: sorted ascending, the p-th
 * percentile is the sample at rank ⌈p/100 · n⌉ (1-based). Always one of the samples, never an
 * interpolation, so a p95 of 20 calls is the 19th fastest (the second slowest), and under 20 calls
 * it is the slowest. All null when there is no sample.
 */
export function distribution(samples: readonly number[]): Distribution {
  if (samples.length === 0) return { ...NO_SAMPLES }
  const sorted = [...samples].sort((a, b) => a - b)
  return { samples: sorted.length, p50: nearestRank(sorted, 50), p95: nearestRank(sorted, 95), max: sorted[sorted.length - 1] }
}

/** The p-th percentile of samples sorted ascending (at least one). */
export function nearestRank(sorted: readonly number[], p: number): number {
  // p · n first: an integer, so 95 · 60 / 100 is exactly 57 (0.95 · 60 is not).
  const rank = Math.max(1, Math.ceil((p * sorted.length) / 100))
  return sorted[rank - 1]
}
