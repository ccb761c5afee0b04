// The part of pngjs 7 we use (its package ships no types; @types/pngjs is not a dependency): PNG.sync and an RGBA image.
declare module 'pngjs' {
  export class PNG {
    constructor(options?: { width?: number; height?: number; fill?: boolean })
    width: number
    height: number
    /** RGBA, 4 bytes a pixel, row by row. */
    data: Buffer
    static sync: {
      read(buffer: Buffer, options?: { skipRescale?: boolean }): PNG
      write(png: PNG, options?: { colorType?: number; inputHasAlpha?: boolean }): Buffer
    }
  }
}
