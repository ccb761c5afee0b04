import { createHash } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PNG } from 'pngjs'

/** A render's screenshot: whether it is one flat colour, where it is kept, its hash. */

/** Channels may differ this much from the first pixel and still count as the same colour (compression, dithering). */
const TOLERANCE = 2

export function flatness(png: Buffer): { flat: boolean; colour: string } {
  const image = PNG.sync.read(png)
  const d = image.data
  const [r, g, b, a] = [d[0], d[1], d[2], d[3]]
  let flat = true
  for (let i = 4; i < d.length; i += 4) {
    if (Math.abs(d[i] - r) > TOLERANCE || Math.abs(d[i + 1] - g) > TOLERANCE || Math.abs(d[i + 2] - b) > TOLERANCE || Math.abs(d[i + 3] - a) > TOLERANCE) {
      flat = false
      break
    }
  }
  const hex = (n: number) => n.toString(16).padStart(2, '0')
  return { flat, colour: `#${hex(r)}${hex(g)}${hex(b)}${a === 255 ? '' : hex(a)}` }
}

/** `apps/<id>.png`: the id made safe as a file name (anything but letters, digits, `.`, `_`, `-` becomes `_`). */
export function screenshotPath(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_').slice(0, 200) || 'render'
  return `apps/${safe}.png`
}

export async function saveScreenshot(outputDir: string, id: string, png: Buffer): Promise<{ path: string; sha256: string }> {
  const path = screenshotPath(id)
  await mkdir(join(outputDir, 'apps'), { recursive: true })
  await writeFile(join(outputDir, path), png)
  return { path, sha256: createHash('sha256').update(png).digest('hex') }
}
