import pixelmatch from 'pixelmatch'
import { PNG } from 'pngjs'

/**
 * A screenshot against the baseline's screenshot of the same render: the share of pixels that
 * differ (pixelmatch's perceptual colour distance, anti-aliased pixels not counted), whether that
 * is over the threshold, and an image of the difference (the changed pixels red over a faded copy
 * of the current screenshot; null when it did not change). Screenshots of different sizes changed
 * whole. Pure: PNG buffers in, a PNG buffer out. A buffer that is not a PNG throws (the caller
 * records it).
 */

/** pixelmatch's own per-pixel colour threshold (0–1, smaller is more sensitive): its default. */
const PIXEL_THRESHOLD = 0.1

export interface ScreenshotComparison {
  /** 0–1; 1 when the sizes differ. */
  changed_ratio: number
  changed: boolean
  diffPng: Buffer | null
}

export function compareScreenshots(current: Buffer, baseline: Buffer, threshold: number): ScreenshotComparison {
  const now = PNG.sync.read(current)
  const before = PNG.sync.read(baseline)
  if (now.width !== before.width || now.height !== before.height) return { changed_ratio: 1, changed: true, diffPng: null }
  const { width, height } = now
  const pixels = width * height
  if (pixels === 0) return { changed_ratio: 0, changed: false, diffPng: null }
  const diff = new PNG({ width, height })
  const differing = pixelmatch(now.data, before.data, diff.data, width, height, { threshold: PIXEL_THRESHOLD })
  const ratio = differing / pixels
  const changed = ratio > threshold
  return { changed_ratio: ratio, changed, diffPng: changed ? PNG.sync.write(diff) : null }
}
