import { describe, expect, test } from '@jest/globals'
import { distribution } from '../src/telemetry/percentiles.js'

const oneToTwenty = Array.from({ length: 20 }, (_, i) => i + 1)

describe('distribution: exact nearest-rank percentiles', () => {
  test.each([
    ['no sample', [], { samples: 0, p50: null, p95: null, max: null }],
    ['1 sample', [42], { samples: 1, p50: 42, p95: 42, max: 42 }],
    // Rank ⌈0.5 · 2⌉ = 1 and ⌈0.95 · 2⌉ = 2: never an interpolation between the two.
    ['2 samples', [10, 30], { samples: 2, p50: 10, p95: 30, max: 30 }],
    // Rank 10 and rank 19 of 20.
    ['20 samples', oneToTwenty, { samples: 20, p50: 10, p95: 19, max: 20 }],
    ['20 samples, unsorted', [...oneToTwenty].reverse(), { samples: 20, p50: 10, p95: 19, max: 20 }],
    ['21 samples: p95 is rank 20', [...oneToTwenty, 21], { samples: 21, p50: 11, p95: 20, max: 21 }],
    ['ties', [5, 5, 5, 9], { samples: 4, p50: 5, p95: 9, max: 9 }],
    ['all tied', [7, 7, 7], { samples: 3, p50: 7, p95: 7, max: 7 }],
    ['one outlier in 100 reaches p95 only past rank 95', [...Array(95).fill(1), ...Array(5).fill(1000)], { samples: 100, p50: 1, p95: 1, max: 1000 }],
    ['sorted numerically, not as text', [100, 9, 20], { samples: 3, p50: 20, p95: 100, max: 100 }],
    ['fractions (seconds)', [1.5, 0.25, 3.75], { samples: 3, p50: 1.5, p95: 3.75, max: 3.75 }]
  ])('%s', (_name, samples, expected) => {
    expect(distribution(samples)).toEqual(expected)
  })

  test('the input is left as it was', () => {
    const samples = [3, 1, 2]
    distribution(samples)
    expect(samples).toEqual([3, 1, 2])
  })
})
