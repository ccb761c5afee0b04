import { PNG } from 'pngjs'

/** A real PNG of `width` × `height`, `paint` giving each pixel's colour (opaque; white by default). */
export function paintPng(width: number, height: number, paint: (x: number, y: number) => [number, number, number] = () => [255, 255, 255]): Buffer {
  const image = new PNG({ width, height })
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4
      const [r, g, b] = paint(x, y)
      image.data[i] = r
      image.data[i + 1] = g
      image.data[i + 2] = b
      image.data[i + 3] = 255
    }
  }
  return PNG.sync.write(image)
}
