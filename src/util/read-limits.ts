/**
 * The limits on what the harness reads from a server or a provider, and the small readers that
 * hold them without ever building what is over the limit: a line splitter that stops buffering
 * at the frame limit, and a scan of JSON nesting that needs no parse and no recursion.
 */

const MiB = 1024 * 1024

/** The largest JSON-RPC message (one line of a stdio server's stdout) read: 64 MiB. */
export const MAX_FRAME_BYTES = 64 * MiB
/** The largest HTTP response body read from a server or a provider, counted after decompression: 64 MiB. */
export const MAX_BODY_BYTES = 64 * MiB
/**
 * How deep JSON from a server may nest (objects and arrays, the JSON-RPC envelope included):
 * deeper frames are refused before anything walks them (JSON.stringify, redaction, the document
 * writer all recurse, and overflow the stack near 10,000 levels).
 */
export const MAX_JSON_DEPTH = 256

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const OPEN_BRACKET = 0x5b
const CLOSE_BRACE = 0x7d
const CLOSE_BRACKET = 0x5d

/**
 * Whether JSON text nests objects and arrays deeper than `max` levels, by one pass over it with
 * no parse and no recursion: brackets inside strings do not count, and a string's contents are
 * skipped to its closing quote at once. Text that is not JSON gets an answer too; parsing it is
 * what tells.
 */
export function nestedDeeperThan(json: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i)
    if (c === QUOTE) i = closingQuote(json, i + 1)
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--
  }
  return false
}

/** The index of the quote that closes the string whose contents start at `from` (the end of the text when none does). */
function closingQuote(json: string, from: number): number {
  for (let quote = json.indexOf('"', from); quote !== -1; quote = json.indexOf('"', quote + 1)) {
    let backslashes = 0
    while (json.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return quote
  }
  return json.length
}

/**
 * Newline-delimited frames from a byte stream, each at most `maxBytes`: a line under way is kept
 * as the chunks it came in (joined once, when its newline arrives), and the moment it passes the
 * limit the splitter stops for good (`overflowed`), keeping nothing of it. The line's newline and
 * a `\r` before it are not part of it.
 */
export class FrameLines {
  private parts: Buffer[] = []
  private length = 0
  private over = false

  constructor(readonly maxBytes: number = MAX_FRAME_BYTES) {}

  /** The line that passed the limit was seen: nothing after it is read. */
  get overflowed(): boolean {
    return this.over
  }

  /** The lines this chunk completes, in order (those before an overflow, when it overflows). */
  push(chunk: Buffer): Buffer[] {
    const lines: Buffer[] = []
    let start = 0
    while (!this.over) {
      const newline = chunk.indexOf(0x0a, start)
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline)
      if (this.length + piece.length > this.maxBytes) {
        this.over = true
        this.parts = []
        this.length = 0
        break
      }
      if (newline === -1) {
        if (piece.length > 0) {
          this.parts.push(piece)
          this.length += piece.length
        }
        break
      }
      const line = this.parts.length > 0 ? Buffer.concat([...this.parts, piece]) : piece
      this.parts = []
      this.length = 0
      lines.push(line.at(-1) === 0x0d ? line.subarray(0, -1) : line)
      start = newline + 1
    }
    return lines
  }

  clear(): void {
    this.parts = []
    this.length = 0
  }
}
