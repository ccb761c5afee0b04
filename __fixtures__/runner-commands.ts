/**
 * The GitHub Actions runner's reading of a step's output, emulated from its source
 * (github.com/actions/runner at 258d6c8, August 2026), so a test can say which workflow commands
 * a real runner would have run:
 *
 * - src/Runner.Sdk/ProcessInvoker.cs, StartReadStream: stdout and stderr are each read with
 *   StreamReader.ReadLine(), which ends a line at "\n", "\r\n" or a lone "\r". Both streams go
 *   to OutputManager.OnDataReceived (NodeScriptActionHandler.cs wires stdout and stderr alike).
 * - src/Runner.Worker/Handlers/OutputManager.cs, OnDataReceived: a line holding "##[" or "::"
 *   goes to ActionCommandManager.TryProcessCommand.
 * - src/Runner.Common/ActionCommand.cs, TryParseV2: `message.TrimStart()` (every Unicode white
 *   space), then `StartsWith("::")`; the command info runs to the next "::" (`IndexOf("::", 2)`),
 *   its name to the first space, `key=value` properties split on ","; the rest is the data
 *   (%0D, %0A, %25 unescaped). TryParse (the legacy form, tried next): "##[" *anywhere*
 *   (`IndexOf("##[")`), the info up to the next "]", properties split on ";".
 *   A name counts only when registered (case-insensitively): the extensions of
 *   ActionCommandManager.cs below, and the token of a `::stop-commands::` in force.
 * - ActionCommandManager.TryProcessCommand: after `::stop-commands::TOKEN` no command runs until
 *   a line that is the command `TOKEN`.
 * - StartsWith and IndexOf there are culture-sensitive: .NET on Linux compares with ICU, which
 *   ignores control and format characters (a zero-width joiner, a soft hyphen, U+FEFF, …). So
 *   "\u200d::error::x" starts with "::" and "#\u200d#[" holds "##[" for the runner. This emulation
 *   removes every control, format and default-ignorable character before it looks (stricter than
 *   the runner, whose offsets then drift): a text that passes here passes there.
 */

/** The commands ActionCommandManager.cs registers (internal-set-repo-path only for plugins). */
export const REGISTERED = ['stop-commands', 'set-env', 'set-output', 'save-state', 'add-mask', 'add-path', 'add-matcher', 'remove-matcher', 'debug', 'warning', 'error', 'notice', 'group', 'endgroup', 'echo', 'internal-set-repo-path']

export interface RunnerCommand {
  form: 'v2' | 'legacy'
  command: string
  properties: Record<string, string>
  data: string
  line: string
}

export interface RunnerReading {
  /** Every line as the runner splits it. */
  lines: string[]
  /** The commands it would run, in order (none while stopped). */
  commands: RunnerCommand[]
  /** Lines that look like a command in either form, whether or not the name is registered. */
  commandLike: string[]
}

const IGNORABLE = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/gu
const fold = (line: string) => line.replace(IGNORABLE, '')

const unescapeData = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%')
const unescapeProperty = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%')
const unescapeLegacy = (s: string) => s.replace(/%3B/g, ';').replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%5D/g, ']').replace(/%25/g, '%')

function parseV2(message: string, registered: Set<string>): RunnerCommand | null {
  const text = fold(message).trimStart()
  if (!text.startsWith('::')) return null
  const end = text.indexOf('::', 2)
  if (end < 0) return null
  const info = text.slice(2, end)
  const space = info.indexOf(' ')
  const command = space < 0 ? info : info.slice(0, space)
  if (!registered.has(command.toLowerCase())) return null
  const properties: Record<string, string> = {}
  if (space > 0) {
    for (const pair of info.slice(space + 1).trim().split(',').filter(Boolean)) {
      const at = pair.indexOf('=')
      if (at > 0 && at < pair.length - 1) properties[pair.slice(0, at)] = unescapeProperty(pair.slice(at + 1))
    }
  }
  return { form: 'v2', command, properties, data: unescapeData(text.slice(end + 2)), line: message }
}

function parseLegacy(message: string, registered: Set<string>): RunnerCommand | null {
  const text = fold(message)
  const prefix = text.indexOf('##[')
  if (prefix < 0) return null
  const close = text.indexOf(']', prefix)
  if (close < 0) return null
  const info = text.slice(prefix + 3, close)
  const space = info.indexOf(' ')
  const command = space < 0 ? info : info.slice(0, space)
  if (!registered.has(command.toLowerCase())) return null
  const properties: Record<string, string> = {}
  if (space > 0) {
    for (const pair of info.slice(space + 1).split(';').filter(Boolean)) {
      const at = pair.indexOf('=')
      if (at > 0 && at < pair.length - 1) properties[pair.slice(0, at)] = unescapeLegacy(pair.slice(at + 1))
    }
  }
  return { form: 'legacy', command, properties, data: unescapeLegacy(text.slice(close + 1)), line: message }
}

/** ReadLine's lines: a final line break ends the last line, it does not start an empty one. */
export function runnerLines(output: string): string[] {
  const lines = output.split(/\r\n|\r|\n/)
  if (lines.at(-1) === '') lines.pop()
  return lines
}

/** What the runner makes of one stream's output. */
export function readAsRunner(output: string): RunnerReading {
  const registered = new Set(REGISTERED)
  let stopToken: string | null = null
  const lines = runnerLines(output)
  const commands: RunnerCommand[] = []
  const commandLike: string[] = []
  for (const line of lines) {
    const folded = fold(line)
    if (folded.trimStart().startsWith('::') || folded.includes('##[')) commandLike.push(line)
    const command = parseV2(line, registered) ?? parseLegacy(line, registered)
    if (!command) continue
    if (stopToken !== null) {
      if (command.command.toLowerCase() === stopToken.toLowerCase()) {
        registered.delete(stopToken.toLowerCase())
        stopToken = null
      }
      continue
    }
    if (command.command === 'stop-commands') {
      stopToken = command.data
      registered.add(stopToken.toLowerCase())
    }
    commands.push(command)
  }
  return { lines, commands, commandLike }
}
