import { describe, expect, test } from '@jest/globals'
import { niceCeiling, scaleBars } from '../src/report/html/viewer/chart-scale.js'

describe("the HTML report's bar chart scale", () => {
  test('the axis ends at a round number at or above the largest value', () => {
    expect(niceCeiling(1240)).toBe(2000)
    expect(niceCeiling(1000)).toBe(1000)
    expect(niceCeiling(0.3)).toBe(0.5)
    expect(niceCeiling(0.0042)).toBe(0.005)
    expect(niceCeiling(2.1)).toBe(2.5)
    expect(niceCeiling(0)).toBe(1)
    expect(niceCeiling(Number.NaN)).toBe(1)
  })

  test('bars are proportional to the axis, tiny ones stay visible, missing ones draw nothing', () => {
    const { top, bars } = scaleBars([50, 100, 0.01, null, 0], 200)
    expect(top).toBe(100)
    expect(bars.map((b) => b.length)).toEqual([100, 200, 1, 0, 0])
    expect(bars[3].value).toBeNull()
    expect(bars[4].value).toBe(0)
  })

  test('nothing measured: an axis of 1 and no bar', () => {
    expect(scaleBars([null, null], 100)).toEqual({ top: 1, bars: [{ value: null, length: 0 }, { value: null, length: 0 }] })
  })
})
