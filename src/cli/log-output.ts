import { inertText } from '../util/log-text.js'
import type { Output } from './live-progress.js'

/**
 * The CLI's one way to its streams: it runs inside workflows too, where the runner reads its
 * stdout and stderr for workflow commands. Every line written is made inert and cut to
 * LOG_LINE_MAX (util/log-text.ts). A write is taken to start a line: the CLI writes whole lines,
 * and the status line of a terminal after a `\r`.
 */
export function inertOutput(out: Output & { isTTY?: boolean }): Output & { isTTY?: boolean } {
  return {
    write: (text: string) => out.write(inertText(text)),
    get isTTY() {
      return out.isTTY
    },
    get columns() {
      return out.columns
    }
  }
}
