/**
 * The last lines of a server's stderr worth showing in a one-line failure.
 *
 * A crashing Node server ends its stderr with a stack trace, a closing `}` of the error's
 * properties, a blank line and `Node.js v20.x`: the last three raw lines say nothing (seen:
 * `} |  | Node.js v20.11.0`) while the `Error:` line that explains the crash sits above them.
 */

/** Lines that never explain a failure: stack frames, lone brackets and carets, the Node.js banner. */
const NOISE = [
  /^\s+at\s/, // a stack frame
  /^\s*[{}[\]()^~]+\s*[,;]?\s*$/, // a lone `}` or `^`, a caret line under the failing source
  /^\s*Node\.js v\d+(\.\d+)*\s*$/ // the version banner Node prints after an uncaught error
]

/** The line that names the failure, which must survive the cut. */
const ERROR_LINE = /\w*error:|\bfatal\b/i

/**
 * The last `maxLines` meaningful lines of `text`, joined with newlines: blank and noise lines
 * dropped, and the last `Error:`/`error:`/`fatal` line kept even when later lines would push it
 * out (it then takes the first slot, in its original order).
 */
export function meaningfulTail(text: string, maxLines = 3): string {
  if (maxLines <= 0) return ''
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '' && !NOISE.some((noise) => noise.test(line)))
    .map((line) => line.trim())
  if (lines.length <= maxLines) return lines.join('\n')
  const tail = lines.slice(-maxLines)
  if (tail.some((line) => ERROR_LINE.test(line))) return tail.join('\n')
  let errorAt = lines.length - maxLines - 1
  while (errorAt >= 0 && !ERROR_LINE.test(lines[errorAt])) errorAt--
  if (errorAt < 0) return tail.join('\n')
  const rest = maxLines > 1 ? lines.slice(-(maxLines - 1)) : []
  return [lines[errorAt], ...rest].join('\n')
}
